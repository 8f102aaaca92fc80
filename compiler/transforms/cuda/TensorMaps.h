// What tle-plan-tma-copies and tle-lower-tma-copies share: which values a launcher can
// compute before the launch, and the boxes a descriptor's block is copied in.
#pragma once

#include "ir/Dialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"

#include <optional>

namespace tle::cuda {

// A kernel argument, an integer constant, or integer arithmetic (add, sub, mul, casts) of
// them: the launcher computes it from its own arguments.
bool launcherComputable(mlir::Value v);

// `v` (launcherComputable) computed again at the start of the kernel's body; `cloned`
// remembers what was cloned there.
mlir::Value cloneAtEntry(mlir::OpBuilder &entry, mlir::Value v, mlir::IRMapping &cloned);

// How a [rows x cols] block of 1- or 2-byte elements (cols contiguous) goes into an operand
// slot by TMA: boxes of `boxCols` columns (128 bytes, or the whole row when shorter), one
// after the other along the columns, each swizzled in 16-byte chunks as the slot's rows are
// (dot.cuh's Swizzle16: 128-byte rows the 128-byte swizzle, 64 the 64-byte one, 32 the
// 32-byte one, 16 none).
struct TmaBox {
  int64_t rows = 0, cols = 0, boxCols = 0;
  int swizzleBytes = 0;
};
// Nullopt where TMA cannot write the slot's arrangement: rows not a multiple of 8 or above
// 256, rows of columns not a whole number of 16-byte chunks, or another element size.
std::optional<TmaBox> tmaBoxFor(llvm::ArrayRef<int64_t> shape, mlir::Type element);

// The descriptor block the pointers of a copy are, and whether the copy reads its transpose
// (tle-transpose-loads moved a tl.trans onto the pointers); null: not a descriptor block.
std::pair<ir::DescriptorBlockOp, bool> descriptorBlockOf(mlir::Value ptrs);

}  // namespace tle::cuda
