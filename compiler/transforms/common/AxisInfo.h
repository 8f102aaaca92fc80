// What is known at compile time about the integers and pointers of a kernel, per tensor
// dimension (Triton's axis analysis): runs of consecutive values (contiguity), the power
// of two dividing each run's first value (divisibility; bytes for pointers) and runs of
// equal values (constancy). Loads and stores use it to pick their vector width.
#pragma once

#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

namespace tle::common {

struct AxisInfo {
  // One entry per dimension; scalars have one entry.
  llvm::SmallVector<int64_t, 4> contiguity, divisibility, constancy;
};

class AxisAnalysis {
 public:
  explicit AxisAnalysis(mlir::Operation *function);
  // Conservative facts (all 1) for values the analysis did not reach.
  AxisInfo lookup(mlir::Value v) const;

 private:
  void visit(mlir::Operation *op);
  void visitRegion(mlir::Region &region);
  llvm::DenseMap<mlir::Value, AxisInfo> info_;
};

}  // namespace tle::common
