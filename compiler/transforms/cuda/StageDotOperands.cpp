// How dot operands that are not read from operand rings reach their mma fragments: every
// conversion to a #tle_gpu.dot_op layout goes through the staging region (dot.cuh), which
// is double-buffered so that one barrier per staging suffices.
//   - A and B converted right before the dot that alone uses them become one
//     tle_gpu.stage_operands: both staged in one half, one barrier for the pair.
//   - Any other conversion in a loop is a tle_gpu.stage_operand {alternate}: the next half.
//   - One outside every loop (attention's Q, once per kernel) takes the whole region between
//     two barriers: a tle_gpu.stage_operand without `alternate`, which needs no second half.
#include "transforms/cuda/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/LoopLikeInterface.h"

namespace tle::cuda {

#define GEN_PASS_DEF_STAGEDOTOPERANDS
#include "transforms/cuda/Passes.h.inc"

using namespace mlir;

namespace {

bool isOperandConversion(gpu::ConvertLayoutOp c, std::optional<unsigned> opIdx = std::nullopt) {
  auto layout = dyn_cast<gpu::DotOperandLayoutAttr>(c.getType().getEncoding());
  return layout && (!opIdx || (layout.getOpIdx() == *opIdx && c->hasOneUse()));
}

// The B conversion that follows `a` (an A conversion) and, with it, directly precedes the
// dot that alone uses both.
gpu::ConvertLayoutOp pairedB(gpu::ConvertLayoutOp a) {
  if (!isOperandConversion(a, 0)) return {};
  auto b = dyn_cast_or_null<gpu::ConvertLayoutOp>(a->getNextNode());
  if (!b || !isOperandConversion(b, 1)) return {};
  auto dot = dyn_cast_or_null<ir::DotOp>(b->getNextNode());
  if (!dot || dot.getA() != a.getResult() || dot.getB() != b.getResult()) return {};
  return b;
}

struct StageDotOperandsPass : impl::StageDotOperandsBase<StageDotOperandsPass> {
  void runOnOperation() override {
    SmallVector<gpu::ConvertLayoutOp> conversions;
    getOperation().walk([&](gpu::ConvertLayoutOp c) {
      if (isOperandConversion(c)) conversions.push_back(c);
    });
    llvm::DenseSet<Operation *> done;
    OpBuilder b(&getContext());
    for (gpu::ConvertLayoutOp c : conversions) {
      if (done.count(c)) continue;
      b.setInsertionPoint(c);
      if (gpu::ConvertLayoutOp second = pairedB(c)) {
        auto both = b.create<gpu::StageOperandsOp>(c.getLoc(), c.getType(), second.getType(), c.getSrc(), second.getSrc());
        c.replaceAllUsesWith(both.getResultA());
        second.replaceAllUsesWith(both.getResultB());
        done.insert(second);
        second.erase();
      } else {
        bool inLoop = c->getParentOfType<LoopLikeOpInterface>() != nullptr;
        auto staged = b.create<gpu::StageOperandOp>(c.getLoc(), c.getType(), c.getSrc(), inLoop);
        c.replaceAllUsesWith(staged.getResult());
      }
      c.erase();
    }
  }
};

}  // namespace

}  // namespace tle::cuda
