// tle-mark-uniform-runs: an element-wise result that the axis analysis proves equal over runs
// of consecutive elements, where its operands are not (a column mask `cols < N` with N a
// multiple of 16), needs computing once per run of registers. The printer then keeps each
// run's first register only and the compiler drops the rest of the work, as Triton's
// element-wise lowering deduplicates by constancy.
#include "transforms/common/AxisInfo.h"
#include "transforms/cuda/LayoutChoices.h"
#include "transforms/cuda/Passes.h"

#include "ir/Dialect.h"
#include "ir/GpuDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "llvm/Support/MathExtras.h"

namespace tle::cuda {

#define GEN_PASS_DEF_MARKUNIFORMRUNS
#include "transforms/cuda/Passes.h.inc"

using namespace mlir;

namespace {

// Registers per run: the largest power of two that divides both the run of equal values
// along the dimension a thread holds consecutively and the thread's consecutive elements
// there (so that every run of registers starts at a multiple of it).
int64_t runRegisters(RankedTensorType type, const common::AxisInfo &info) {
  auto dim = registerRunDimension(type.getEncoding());
  if (!dim) return 1;
  auto [fast, perThread] = *dim;
  return static_cast<int64_t>(llvm::MinAlign(static_cast<uint64_t>(info.constancy[fast]), perThread));
}

struct MarkUniformRunsPass : impl::MarkUniformRunsBase<MarkUniformRunsPass> {
  void runOnOperation() override {
    common::AxisAnalysis axis(getOperation());
    getOperation().walk([&](Operation *op) {
      if (!isa<arith::ArithDialect, math::MathDialect>(op->getDialect()) || isa<arith::ConstantOp>(op)) return;
      if (op->getNumResults() != 1) return;
      auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
      if (!type || !type.getEncoding()) return;
      int64_t run = runRegisters(type, axis.lookup(op->getResult(0)));
      if (run < 2) return;
      // Only where an operand varies inside a run: its per-register work is what goes.
      bool saves = llvm::any_of(op->getOperands(), [&](Value v) {
        auto t = dyn_cast<RankedTensorType>(v.getType());
        return t && runRegisters(t, axis.lookup(v)) < run;
      });
      if (saves) gpu::setUniformRun(op, static_cast<int>(run));
    });
  }
};

}  // namespace

}  // namespace tle::cuda
