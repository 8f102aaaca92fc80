#include "transforms/ascend/AffineIndex.h"
#include "transforms/ascend/LoopRewrite.h"
#include "transforms/ascend/Passes.h"

#include "ir/Dialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"

namespace tle::ascend {

#define GEN_PASS_DEF_SCALARIZECARRIEDPOINTERS
#include "transforms/ascend/Passes.h.inc"

using namespace mlir;

namespace {

bool isPointerTile(Type t) {
  auto tile = dyn_cast<RankedTensorType>(t);
  return tile && isa<ir::PointerType>(tile.getElementType());
}

// The scalar every iteration adds to carried pointer tile `index`, when the loop's yield
// is `addptr(that tile, uniform)`.
Value uniformStep(scf::ForOp loop, unsigned index, OpBuilder &b) {
  Value yielded = loop.getBody()->getTerminator()->getOperand(index);
  auto advance = yielded.getDefiningOp<ir::AddPtrOp>();
  if (!advance || advance.getPtr() != loop.getRegionIterArgs()[index]) return Value();
  return uniformValue(advance.getOffset(), b);
}

struct ScalarizeCarriedPointersPass : impl::ScalarizeCarriedPointersBase<ScalarizeCarriedPointersPass> {
  // The tile at `start` moved by `delta` elements in every lane.
  static Value moved(OpBuilder &b, Location loc, Value start, Value delta) {
    auto shape = cast<RankedTensorType>(start.getType()).getShape();
    Value lanes = b.create<ir::SplatOp>(loc, RankedTensorType::get(shape, delta.getType()), delta);
    return b.create<ir::AddPtrOp>(loc, start.getType(), start, lanes);
  }

  void rewrite(scf::ForOp loop) {
    unsigned n = loop.getInitArgs().size();
    Block *oldBody = loop.getBody();
    auto oldYield = cast<scf::YieldOp>(oldBody->getTerminator());
    // Which carried tiles become offsets, and each step as a scalar at the yield.
    SmallVector<Value> steps(n);
    OpBuilder atYield(oldYield);
    bool any = false;
    for (unsigned i = 0; i < n; ++i)
      if (isPointerTile(loop.getInitArgs()[i].getType()) && (steps[i] = uniformStep(loop, i, atYield))) any = true;
    if (!any) return;

    OpBuilder b(loop);
    Location loc = loop.getLoc();
    SmallVector<Value> inits;
    for (unsigned i = 0; i < n; ++i)
      inits.push_back(steps[i] ? b.create<arith::ConstantOp>(loc, b.getIntegerAttr(steps[i].getType(), 0)).getResult()
                               : loop.getInitArgs()[i]);
    scf::ForOp rebuilt = rehomeLoopBody(loop, inits);
    OpBuilder inside = OpBuilder::atBlockBegin(rebuilt.getBody());
    for (unsigned i = 0; i < n; ++i) {
      Value oldArg = loop.getRegionIterArgs()[i], newArg = rebuilt.getRegionIterArgs()[i];
      oldArg.replaceAllUsesWith(steps[i] ? moved(inside, loc, loop.getInitArgs()[i], newArg) : newArg);
    }
    // The yield adds each step to its running offset.
    OpBuilder yieldBuilder(oldYield);
    SmallVector<Value> yielded(oldYield.getOperands());
    for (unsigned i = 0; i < n; ++i)
      if (steps[i]) yielded[i] = yieldBuilder.create<arith::AddIOp>(loc, rebuilt.getRegionIterArgs()[i], steps[i]);
    yieldBuilder.create<scf::YieldOp>(loc, yielded);
    oldYield.erase();
    OpBuilder after(rebuilt->getBlock(), std::next(rebuilt->getIterator()));
    for (unsigned i = 0; i < n; ++i)
      loop.getResult(i).replaceAllUsesWith(steps[i] ? moved(after, loc, loop.getInitArgs()[i], rebuilt.getResult(i))
                                                    : rebuilt.getResult(i));
    loop.erase();
  }

  void runOnOperation() override {
    SmallVector<scf::ForOp> loops;
    getOperation().walk([&](scf::ForOp loop) { loops.push_back(loop); });  // inner loops first
    for (scf::ForOp loop : loops) rewrite(loop);
  }
};

}  // namespace

}  // namespace tle::ascend
