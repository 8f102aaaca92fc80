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
    dimensions named by boundary_check.
  }];
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

#endif
