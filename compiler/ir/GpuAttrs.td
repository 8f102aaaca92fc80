// Layout attributes: how a tensor's elements are spread over the threads of a block, set
// as the encoding of its `tensor<...>` type by the layout pass. They mirror the C++ layout
// types of stdlib/include/tle/cuda/layout.cuh, which give their exact meaning.
#ifndef TLE_GPU_ATTRS_TD
#define TLE_GPU_ATTRS_TD

include "GpuBase.td"

class Tle_Attr<string name, string attrMnemonic> : AttrDef<TleGpu_Dialect, name> {
  let mnemonic = attrMnemonic;
}

// Each thread holds sizePerThread contiguous elements; threadsPerWarp lanes and
// warpsPerCTA warps tile the pattern, which repeats over larger shapes. `order` lists the
// dimensions fastest-varying first.
def Tle_BlockedLayout : Tle_Attr<"BlockedLayout", "blocked"> {
  let summary = "Triton's blocked layout";
  let parameters = (ins ArrayRefParameter<"unsigned">:$sizePerThread,
                        ArrayRefParameter<"unsigned">:$threadsPerWarp,
                        ArrayRefParameter<"unsigned">:$warpsPerCTA,
                        ArrayRefParameter<"unsigned">:$order);
  let assemblyFormat = "`<` `spt` `=` `[` $sizePerThread `]` `,` `tpw` `=` `[` $threadsPerWarp `]` `,` `wpc` `=` `[` $warpsPerCTA `]` `,` `order` `=` `[` $order `]` `>`";
  let genVerifyDecl = 1;
}

// The layout of a tensor reduced along `dim` of a tensor laid out as `parent`.
def Tle_SliceLayout : Tle_Attr<"SliceLayout", "slice"> {
  let summary = "a parent layout with one dimension removed";
  let parameters = (ins "unsigned":$dim, "::mlir::Attribute":$parent);
  let assemblyFormat = "`<` $dim `,` $parent `>`";
}

// The accumulator of mma.sync (m16n8) with warpsM x warpsN warps. `groupN` 0: the warps
// along N interleave 8-column tiles. `groupN` > 0 (wgmma with warpgroups along N): the four
// warps of a warpgroup run along M and each warpgroup along N owns blocks of `groupN`
// consecutive columns (tle::Mma in layout.cuh).
def Tle_MmaLayout : Tle_Attr<"MmaLayout", "mma"> {
  let summary = "the mma.sync accumulator layout";
  let parameters = (ins "unsigned":$warpsM, "unsigned":$warpsN, DefaultValuedParameter<"unsigned", "0">:$groupN);
  let assemblyFormat = "`<` $warpsM `,` $warpsN (`,` $groupN^)? `>`";
}

// An operand of mma.sync: `opIdx` 0 is A (M x K), 1 is B (K x N); `parent` is the
// accumulator's mma layout and `bits` the operand element width (16: fp16/bf16, 32: tf32,
// 8: int8), which fixes the instruction shape.
def Tle_DotOperandLayout : Tle_Attr<"DotOperandLayout", "dot_op"> {
  let summary = "a tl.dot operand laid out for mma.sync";
  let parameters = (ins "unsigned":$opIdx, "::mlir::Attribute":$parent, "unsigned":$bits);
  let assemblyFormat = "`<` $opIdx `,` $parent `,` $bits `>`";
}

// Where a kernel's dynamic shared memory goes, in this order: the tle.gpu buffers
// [0, bufferBytes); the scratch that layout conversions, reductions, scans and the other
// library calls share (from bufferBytes, as large as the largest any op needs, a size the
// device library computes); when `staging` is not 0, the dot-operand staging region after it
// (16-byte aligned; 2: some conversions alternate between its two halves); and, when
// `slotBytes` is not 0, the slots of asynchronously copied operands, 1024-byte aligned (the
// swizzle atom of wgmma), `slotBytes` long. `alignment` is the whole region's.
def Tle_SharedMemoryPlan : Tle_Attr<"SharedMemoryPlan", "shared_memory"> {
  let summary = "a kernel's shared-memory plan";
  let description = [{
    `scratch_in_slots`: the scratch starts where the operand slots do and shares their bytes
    (no op that needs it runs while a ring's slots are in use).
  }];
  let parameters = (ins "int64_t":$bufferBytes, "bool":$scratch, "unsigned":$staging, "int64_t":$slotBytes,
                        "int64_t":$alignment, DefaultValuedParameter<"bool", "false">:$scratchInSlots);
  let assemblyFormat = [{
    `<` `buffers` `=` $bufferBytes `,` `scratch` `=` $scratch `,` `staging` `=` $staging `,` `slots` `=` $slotBytes `,`
        `align` `=` $alignment (`,` `scratch_in_slots` `=` $scratchInSlots^)? `>`
  }];
}

#endif
