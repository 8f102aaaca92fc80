// Index tiles as scalars: which index and pointer tiles are `offset + sum_d i_d * stride_d`,
// and which masks are rectangles `i_d < extent_d`. The Ascend passes turn such tiles into the
// scalars of a strided copy; the scalars are built at the builder's insertion point.
#pragma once

#include "mlir/IR/Builders.h"
#include "mlir/IR/Value.h"

#include <optional>

namespace tle::ascend {

struct AffineIndex {
  mlir::Value base;                       // the scalar pointer, for pointer tiles; null for integer tiles
  mlir::Value offset;                     // the index (or element offset from base) at (0, ..., 0); null: 0
  llvm::SmallVector<mlir::Value> strides; // per dimension; null: 0
  // Per dimension, an index that wraps around (Triton's `(start + tl.arange(0, B)) % M`): the
  // dimension contributes ((wrapStarts[d] + i) % wraps[d]) * strides[d]. Null: no wrap.
  llvm::SmallVector<mlir::Value> wraps, wrapStarts;

  bool wraps_any() const {
    return llvm::any_of(wraps, [](mlir::Value v) { return static_cast<bool>(v); });
  }
};

// Null when `tile` is not of that form (a gather, data-dependent indices).
std::optional<AffineIndex> affineIndexOf(mlir::Value tile, mlir::OpBuilder &b);

// Per dimension, how many leading indices the mask lets through (as i32, between 0 and the
// dimension's size); a null entry means all of them. Null when the mask is not a rectangle
// at the origin.
std::optional<llvm::SmallVector<mlir::Value>> rectangleOf(mlir::Value mask, mlir::OpBuilder &b);

// The scalar a uniform tile holds everywhere (a splat, a splat constant, or a choice between
// such tiles by a scalar condition); null otherwise.
mlir::Value uniformValue(mlir::Value tile, mlir::OpBuilder &b);

// Whether `tile` reaches an address (a tle.addptr), directly or through tile arithmetic (and,
// with `throughBranches`, out of the branches that yield it): a tile of offsets rather than
// data. Only on IR whose branches are whole (not while a pass is rebuilding them).
bool feedsAddress(mlir::Value tile, bool throughBranches = false);

// Whether a uniform tile (or scalar) is zero everywhere (+0 or -0 for floats); builds nothing.
bool isUniformZero(mlir::Value tile);

// `v` as a constant integer, if it is one.
std::optional<int64_t> constantInt(mlir::Value v);

}  // namespace tle::ascend
