#include "transforms/common/Passes.h"

#include "ir/Dialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"

namespace tle::common {

#define GEN_PASS_DEF_CLONEINDEXING
#include "transforms/common/Passes.h.inc"

using namespace mlir;

namespace {

// Cheap to recompute, no side effects, and a tensor: worth a copy per use.
bool isCheapIndexing(Operation *op) {
  if (op->getNumResults() != 1 || !isa<RankedTensorType>(op->getResult(0).getType())) return false;
  if (isa<ir::MakeRangeOp, ir::SplatOp, arith::ConstantOp, ir::ExpandDimsOp, ir::BroadcastOp, ir::AddPtrOp, ir::AxisHintOp>(op)) return true;
  if (isa<arith::AddIOp, arith::SubIOp, arith::MulIOp, arith::DivSIOp, arith::RemSIOp, arith::DivUIOp, arith::RemUIOp,
          arith::CmpIOp, arith::AndIOp, arith::OrIOp, arith::ExtSIOp, arith::ExtUIOp, arith::TruncIOp>(op))
    return true;
  return false;
}

struct CloneIndexingPass : impl::CloneIndexingBase<CloneIndexingPass> {

  void runOnOperation() override {
    // Walk backwards so that users are split before the values they use: a copy made for
    // one use then has that single use, and its own operands are split in turn.
    SmallVector<Operation *> ops;
    getOperation().walk([&](Operation *op) {
      if (isCheapIndexing(op)) ops.push_back(op);
    });
    for (Operation *op : llvm::reverse(ops)) {
      Value result = op->getResult(0);
      SmallVector<OpOperand *> uses;
      for (OpOperand &use : result.getUses()) uses.push_back(&use);
      for (size_t i = 1; i < uses.size(); ++i) {
        OpBuilder b(op);
        b.setInsertionPointAfter(op);
        Operation *copy = b.clone(*op);
        uses[i]->set(copy->getResult(0));
      }
    }
  }
};

}  // namespace

}  // namespace tle::common
