// Target-neutral passes on the tile program: they rewrite or analyse it the same way for
// every backend. Each runs alone under tle-opt.
#ifndef TLE_COMMON_PASSES_TD
#define TLE_COMMON_PASSES_TD

include "mlir/Pass/PassBase.td"

def LowerBlockPointers : Pass<"tle-lower-block-pointers", "::mlir::func::FuncOp"> {
  let summary = "turn block pointers and tensor descriptors into tensors of pointers";
  let description = [{
    A block pointer is its parts: base, shape and strides (fixed where it is made) and one
    offset per dimension (moved by tl.advance). Loops carry the offsets; loads and stores
    compute base + sum_d (offset_d + arange(block_d)) * stride_d in 64-bit, masked on the
    dimensions named by boundary_check. With mark-descriptor-blocks, a descriptor load's
    pointers pass through tle.descriptor_block, which names the block they address (for a
    target that copies whole blocks: CUDA's TMA); the op is their value unchanged.
  }];
  let options = [
    Option<"markDescriptorBlocks", "mark-descriptor-blocks", "bool", /*default=*/"false",
           "leave tle.descriptor_block on the pointers of descriptor loads">,
  ];
  let dependentDialects = ["::tle::ir::TleDialect", "::mlir::arith::ArithDialect", "::mlir::scf::SCFDialect"];
}

def CloneIndexing : Pass<"tle-clone-indexing", "::mlir::func::FuncOp"> {
  let summary = "copy cheap index computations once per use";
  let description = [{
    Each use of a make_range, splat, constant or integer arithmetic on them gets its own
    copy, so that layout assignment can give each copy the layout its use needs instead of
    converting one value through shared memory.
  }];
}

def SpecializeParameters : Pass<"tle-specialize-parameters", "::mlir::ModuleOp"> {
  let summary = "add variants of each kernel that assume what Triton's JIT specializes on";
  let description = [{
    Triton's JIT recompiles a kernel for integer arguments divisible by 16 or equal to 1 and
    for 16-byte aligned pointers; an ahead-of-time kernel must decide without seeing them.
    For every parameter without a --signature hint this pass finds its role: a pointer
    reached by vector (tensor) accesses; an integer that strides the last dimension of an
    address (it multiplies an index that varies along the last axis only, or is the fastest
    stride of a block pointer or descriptor): a unit-stride candidate; another integer that
    reaches an address (strides, offsets); an integer compared with indices or bounding a
    loop (sizes). Other parameters (floats, pointers read as scalars, integers only divided
    by) gain nothing and get no assumption. It then adds
    variants, tried in this order by the launcher: (1) vector pointers aligned,
    unit-stride candidates equal to 1 (compiled in as constants), every other integer
    divisible by the elements of 16 bytes of the smallest type a pointer parameter points to
    (8 for 16-bit tiles, 4 for fp32, 16 for fp8: rows stay 16-byte aligned and masks uniform
    over a vector, as with 16); (2) the same without assumptions on the sizes that bound no contiguous
    axis (compared with or dividing indices that run along rows, or bounding loops: tutorial
    03's M, not N or K), only where the kernel has sizes of both kinds; (3) the same without
    assumptions on any size; (4, 5) for at most two dot operands loaded as base + i *
    s_first + j * s_last, (1) with that operand stored the other way round (s_first equal to
    1, s_last divisible as in (1)). The kernel itself stays as the generic fallback. Variants are
    named KERNEL__s1, KERNEL__s2 and so on, numbered in that order, and carry
    tle.dispatch (the launcher's symbol) and tle.variant.
  }];
  let dependentDialects = ["::tle::ir::TleDialect", "::mlir::arith::ArithDialect"];
}

def DropEqualVariants : Pass<"tle-drop-equal-variants", "::mlir::ModuleOp"> {
  let summary = "drop the variants whose code is the next variant's";
  let description = [{
    After a target's passes, a variant of a kernel (tle-specialize-parameters) whose
    function is the one the launcher tries next (the next variant, or the generic kernel
    after the last), op for op, attribute for attribute (but for its name, its number and
    its parameters' divisibility), where that one assumes nothing the first does not: the
    arguments it accepts then run the same code one check later. It is erased and the
    remaining variants renumbered KERNEL__s1, KERNEL__s2, ... in order; a kernel left with
    no variant is launched on its own. Tutorial 03's matmul at 128x256x64 is one: M's
    divisibility (its first variant) changes no code there.
  }];
  let dependentDialects = ["::tle::ir::TleDialect"];
}

def SplitHalvesAsTiles : Pass<"tle-split-halves-as-tiles", "::mlir::func::FuncOp"> {
  let summary = "write a split of a dimension's halves as two extract_tile";
  let description = [{
    tl.split(tl.permute(tl.reshape(x, [.., 2, D/2, ..]), order)), where the reshape cuts
    dimension d of x (size D) into [2, D/2] and the permutation moves that new axis of size 2
    last and keeps the others in order, returns x's first and second half along d. The pass
    writes the halves as tle.extract_tile of x at offset 0 and D/2 along d, which a target
    can take from its registers (CUDA: an mma accumulator's halves are each thread's
    registers); the reshape and the permutation go when nothing else uses them.
  }];
}

#endif
