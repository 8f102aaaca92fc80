#ifndef TLE_TYPES_TD
#define TLE_TYPES_TD

include "TleBase.td"

// A memory space by name (target/MemorySpace.h): global, smem, dsmem, UB, L1, L0A, L0B, L0C.
// Which of them a target has is the target model's business, not the IR's.
class Tle_MemorySpaceParameter<string default = ""> : AttrOrTypeParameter<"::tle::MemorySpace", "a memory space"> {
  let printer = "$_printer << ::tle::memorySpaceName($_self)";
  let parser = "::tle::ir::parseMemorySpace($_parser)";
  let defaultValue = default;
}

// Pointers into global memory print without their space: !tle.ptr<f32>; pointers into a
// block's shared memory as !tle.ptr<f32, smem>, into another block's as !tle.ptr<f32, dsmem>.
def Tle_PointerType : TypeDef<Tle_Dialect, "Pointer"> {
  let mnemonic = "ptr";
  let summary = "pointer to a scalar in a memory space";
  let parameters = (ins "::mlir::Type":$pointeeType, Tle_MemorySpaceParameter<"::tle::MemorySpace::Global">:$memorySpace);
  let assemblyFormat = "`<` $pointeeType (`,` $memorySpace^)? `>`";
}

def Tle_AnyPtr : Type<CPred<"::mlir::isa<::tle::ir::PointerType>($_self)">, "pointer", "::tle::ir::PointerType">;

// A block pointer (tl.make_block_ptr): a handle to a `blockType`-shaped window of a
// strided tensor in global memory, moved with tle.advance.
def Tle_BlockPointerType : TypeDef<Tle_Dialect, "BlockPointer"> {
  let mnemonic = "block_ptr";
  let summary = "pointer to a block of a strided tensor";
  let parameters = (ins "::mlir::RankedTensorType":$blockType);
  let assemblyFormat = "`<` $blockType `>`";
}

// An on-chip buffer (tle.gpu.alloc, tle.dsa.alloc): `shape` elements in memory `space`
// (smem for GPU shared memory, dsmem for another block's; UB, L1, L0A, L0B, L0C on Ascend).
def Tle_BufferType : TypeDef<Tle_Dialect, "Buffer"> {
  let mnemonic = "buffer";
  let summary = "a statically shaped buffer in an on-chip memory";
  let parameters = (ins "::mlir::RankedTensorType":$blockType, Tle_MemorySpaceParameter<>:$space);
  let assemblyFormat = "`<` $blockType `,` $space `>`";
}

// A tensor descriptor (tl.make_tensor_descriptor): a strided tensor in global memory read
// and written in `blockType`-shaped blocks at element offsets (TMA on Hopper).
def Tle_TensorDescType : TypeDef<Tle_Dialect, "TensorDesc"> {
  let mnemonic = "tensor_desc";
  let summary = "descriptor of a strided global tensor accessed in fixed-shape blocks";
  let parameters = (ins "::mlir::RankedTensorType":$blockType);
  let assemblyFormat = "`<` $blockType `>`";
}

def Tle_TensorDesc : Type<CPred<"::mlir::isa<::tle::ir::TensorDescType>($_self)">, "tensor descriptor",
                          "::tle::ir::TensorDescType">;

// A pipe (tle.pipe): a ring of `capacity` slots of shared-memory payload buffers between a
// writer and readers, with the barriers that order them.
def Tle_PipeType : TypeDef<Tle_Dialect, "Pipe"> {
  let mnemonic = "pipe";
  let summary = "a producer/consumer ring of shared-memory slots";
}

def Tle_Buffer : Type<CPred<"::mlir::isa<::tle::ir::BufferType>($_self)">, "buffer", "::tle::ir::BufferType">;

def Tle_BlockPtr : Type<CPred<"::mlir::isa<::tle::ir::BlockPointerType>($_self)">, "block pointer",
                        "::tle::ir::BlockPointerType">;

// A pointer, or a tensor of pointers.
def Tle_PtrLike : AnyTypeOf<[Tle_AnyPtr, RankedTensorOf<[Tle_AnyPtr]>]>;
// An integer, or a tensor of integers.
def Tle_IntLike : AnyTypeOf<[AnySignlessInteger, RankedTensorOf<[AnySignlessInteger]>]>;
// A boolean, or a tensor of booleans.
def Tle_BoolLike : AnyTypeOf<[I1, RankedTensorOf<[I1]>]>;

#endif
