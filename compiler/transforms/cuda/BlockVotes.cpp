// tle-block-votes: boolean or/and reductions of a whole tile, by the block barrier's vote (see
// the pass description in Passes.td).
#include "transforms/cuda/Passes.h"

namespace tle::cuda {

#define GEN_PASS_DEF_BLOCKVOTES
#include "transforms/cuda/Passes.h.inc"

using namespace mlir;

namespace {

// "any" for a combine that is a single `or` of its two arguments, "all" for an `and`.
StringRef voteOf(ir::ReduceOp reduce) {
  if (reduce.getSrcs().size() != 1 || isa<RankedTensorType>(reduce.getResult(0).getType())) return {};
  auto tile = cast<RankedTensorType>(reduce.getSrcs()[0].getType());
  if (!tile.getElementType().isInteger(1)) return {};
  Block &body = reduce.getCombineOp().front();
  if (body.getOperations().size() != 2) return {};
  Operation &combine = body.front();
  auto yield = dyn_cast<ir::ReduceReturnOp>(body.back());
  if (!yield || yield->getNumOperands() != 1 || yield->getOperand(0) != combine.getResult(0)) return {};
  const bool onArguments = llvm::all_of(combine.getOperands(), [&](Value v) {
    auto arg = dyn_cast<BlockArgument>(v);
    return arg && arg.getOwner() == &body;
  });
  if (!onArguments || combine.getOperand(0) == combine.getOperand(1)) return {};
  if (isa<arith::OrIOp>(combine)) return "any";
  if (isa<arith::AndIOp>(combine)) return "all";
  return {};
}

struct BlockVotesPass : impl::BlockVotesBase<BlockVotesPass> {
  void runOnOperation() override {
    getOperation().walk([](ir::ReduceOp reduce) {
      if (reduce->getParentOfType<gpu::WarpSpecializeOp>()) return;  // a partition is part of the block
      if (StringRef vote = voteOf(reduce); !vote.empty()) gpu::setBlockVote(reduce, vote);
    });
  }
};

}  // namespace

}  // namespace tle::cuda
