#include "transforms/ascend/AffineIndex.h"
#include "transforms/ascend/Passes.h"

#include "ir/Dialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace tle::ascend {

#define GEN_PASS_DEF_SCALARIZECARRIEDPOINTERS
#include "transforms/ascend/Passes.h.inc"

using namespace mlir;

namespace {

bool isPointerTile(Type t) {
  auto tile = dyn_cast<RankedTensorType>(t);
  return tile && isa<ir::PointerType>(tile.getElementType());
}

// A pointer or offset tile as a tile defined elsewhere moved by a scalar in every lane:
// `addptr(base, splat(by))`, `base + splat(by)`, or `base` itself (`by` null).
struct MovedTile {
  Value base, by;
};
MovedTile movedTileOf(Value tile, OpBuilder &b) {
  if (auto advance = tile.getDefiningOp<ir::AddPtrOp>())
    if (Value by = uniformValue(advance.getOffset(), b)) return {advance.getPtr(), by};
  if (auto sum = tile.getDefiningOp<arith::AddIOp>()) {
    if (Value by = uniformValue(sum.getRhs(), b)) return {sum.getLhs(), by};
    if (Value by = uniformValue(sum.getLhs(), b)) return {sum.getRhs(), by};
  }
  return {tile, Value()};
}

// The scalar every iteration adds to carried pointer tile `index`, when the loop's yield
// is `addptr(that tile, uniform)`.
Value uniformStep(scf::ForOp loop, unsigned index, OpBuilder &b) {
  MovedTile step = movedTileOf(loop.getBody()->getTerminator()->getOperand(index), b);
  return step.base == loop.getRegionIterArgs()[index] ? step.by : Value();
}

bool isIndexTile(Type t) {
  auto tile = dyn_cast<RankedTensorType>(t);
  return tile && tile.getElementType().isIntOrIndex() && !tile.getElementType().isInteger(1);
}

// Erases the ops defining `values`, and the ones feeding them, that nothing uses any more.
void eraseDead(ArrayRef<Value> values) {
  SmallVector<Operation *> work;
  for (Value v : values)
    if (Operation *op = v.getDefiningOp()) work.push_back(op);
  DenseSet<Operation *> erased;
  while (!work.empty()) {
    Operation *op = work.pop_back_val();
    if (erased.contains(op) || !isOpTriviallyDead(op)) continue;
    for (Value operand : op->getOperands())
      if (Operation *feeding = operand.getDefiningOp()) work.push_back(feeding);
    erased.insert(op);
    op->erase();
  }
}

struct ScalarizeCarriedPointersPass : impl::ScalarizeCarriedPointersBase<ScalarizeCarriedPointersPass> {
  // The tile at `start` (pointers, or offsets) moved by `delta` in every lane.
  static Value moved(OpBuilder &b, Location loc, Value start, Value delta) {
    auto shape = cast<RankedTensorType>(start.getType()).getShape();
    Value lanes = b.create<ir::SplatOp>(loc, RankedTensorType::get(shape, delta.getType()), delta);
    if (isPointerTile(start.getType())) return b.create<ir::AddPtrOp>(loc, start.getType(), start, lanes);
    return b.create<arith::AddIOp>(loc, start, lanes);
  }

  // A carried tile worth a scalar instead: pointers, or offsets (integers that reach an
  // address, tl.arange(0, BLOCK) + k * BLOCK).
  static bool movable(Value carried) {
    return isPointerTile(carried.getType()) || (isIndexTile(carried.getType()) && feedsAddress(carried, /*throughBranches=*/true));
  }

  // Replaces every use of `scalar` but those in `keep` with the tile `start` moved by it,
  // built at `b`.
  static void useAsMovedTile(OpBuilder &b, Location loc, Value scalar, Value start, ArrayRef<Operation *> keep = {}) {
    SmallVector<OpOperand *> uses;
    for (OpOperand &use : scalar.getUses())
      if (!llvm::is_contained(keep, use.getOwner())) uses.push_back(&use);
    if (uses.empty()) return;
    Value tile = moved(b, loc, start, scalar);
    for (OpOperand *use : uses) use->set(tile);
  }

  // The loop's operand `initOperand` becomes a running offset of type `scalar` starting at
  // 0: `values` (the region arguments it reaches and the loop's result) take its type in place.
  static void carryOffsetFromZero(Operation *loop, unsigned initOperand, Type scalar, ArrayRef<Value> values) {
    OpBuilder b(loop);
    loop->setOperand(initOperand, b.create<arith::ConstantOp>(loop->getLoc(), b.getIntegerAttr(scalar, 0)));
    for (Value v : values) v.setType(scalar);
  }

  // A while loop: where `after` yields a tile that `before` passed on unchanged,
  // moved by a scalar, the loop carries the scalar (its type changed in place) and both
  // regions and the code after the loop move the starting tile by it.
  void rewrite(scf::WhileOp loop) {
    Block &before = loop.getBefore().front(), &after = loop.getAfter().front();
    scf::ConditionOp condition = loop.getConditionOp();
    scf::YieldOp yield = loop.getYieldOp();
    const unsigned n = loop.getInits().size();
    if (loop.getNumResults() != n || condition.getArgs().size() != n) return;
    OpBuilder atYield(yield);
    Location loc = loop.getLoc();
    for (unsigned i = 0; i < n; ++i) {
      Value start = loop.getInits()[i];
      BlockArgument state = before.getArgument(i), passed = after.getArgument(i);
      if (condition.getArgs()[i] != state || state.getType() != passed.getType() || !(movable(state) || movable(passed))) continue;
      MovedTile step = movedTileOf(yield.getOperand(i), atYield);
      if (step.base != passed || !step.by) continue;
      Value oldYielded = yield.getOperand(i);
      carryOffsetFromZero(loop, i, step.by.getType(), {state, passed, loop.getResult(i)});
      OpBuilder inBefore = OpBuilder::atBlockBegin(&before), inAfter = OpBuilder::atBlockBegin(&after);
      useAsMovedTile(inBefore, loc, state, start, {condition});
      auto next = atYield.create<arith::AddIOp>(loc, passed, step.by);
      yield->setOperand(i, next);
      useAsMovedTile(inAfter, loc, passed, start, {yield, next});
      OpBuilder afterLoop(loop->getBlock(), std::next(loop->getIterator()));
      useAsMovedTile(afterLoop, loc, loop.getResult(i), start);
      eraseDead({oldYielded});
    }
  }

  // A for loop whose yield moves a carried tile by a scalar carries the scalar instead (its
  // type changed in place, as for a while loop): the body and the code after the loop move
  // the starting tile by it.
  void rewrite(scf::ForOp loop) {
    auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
    OpBuilder atYield(yield);
    Location loc = loop.getLoc();
    for (unsigned i = 0; i < loop.getInitArgs().size(); ++i) {
      BlockArgument carried = loop.getRegionIterArgs()[i];
      Value step = movable(carried) ? uniformStep(loop, i, atYield) : Value();
      if (!step) continue;
      Value start = loop.getInitArgs()[i], oldYielded = yield.getOperand(i);
      carryOffsetFromZero(loop, loop.getNumControlOperands() + i, step.getType(), {carried, loop.getResult(i)});
      auto next = atYield.create<arith::AddIOp>(loc, carried, step);
      yield->setOperand(i, next);
      OpBuilder inside = OpBuilder::atBlockBegin(loop.getBody());
      useAsMovedTile(inside, loc, carried, start, {next});
      OpBuilder afterLoop(loop->getBlock(), std::next(loop->getIterator()));
      useAsMovedTile(afterLoop, loc, loop.getResult(i), start);
      eraseDead({oldYielded});
    }
  }

  // A branch whose arms yield the same tile moved by different scalars (`offs = offs + 1`
  // in one arm, `offs` in the other; pointers likewise) yields the scalars instead, and the
  // tile is moved once after it: tle-ascend-resolve-global-access then sees one window.
  void rewrite(scf::IfOp branch) {
    if (branch.getElseRegion().empty()) return;
    auto thenYield = cast<scf::YieldOp>(branch.thenBlock()->getTerminator());
    auto elseYield = cast<scf::YieldOp>(branch.elseBlock()->getTerminator());
    OpBuilder atThen(thenYield), atElse(elseYield);
    const unsigned n = branch.getNumResults();
    SmallVector<MovedTile> arms[2];
    SmallVector<Type> types;
    bool any = false;
    for (unsigned i = 0; i < n; ++i) {
      Type type = branch.getResult(i).getType();
      MovedTile t = movedTileOf(thenYield.getOperand(i), atThen), e = movedTileOf(elseYield.getOperand(i), atElse);
      Type byType = t.by ? t.by.getType() : e.by ? e.by.getType() : Type();
      const bool movable = isPointerTile(type) || (isIndexTile(type) && feedsAddress(branch.getResult(i), /*throughBranches=*/true));
      const bool scalarize = movable && byType && t.base == e.base && !branch->isAncestor(t.base.getParentRegion()->getParentOp()) &&
                             (!t.by || !e.by || t.by.getType() == e.by.getType());
      arms[0].push_back(scalarize ? t : MovedTile{});
      arms[1].push_back(scalarize ? e : MovedTile{});
      types.push_back(scalarize ? byType : type);
      any = any || scalarize;
    }
    if (!any) return;
    OpBuilder b(branch);
    Location loc = branch.getLoc();
    auto rebuilt = b.create<scf::IfOp>(loc, types, branch.getCondition(), /*addThenBlock=*/false, /*addElseBlock=*/false);
    rebuilt->setAttrs(branch->getAttrs());
    rebuilt.getThenRegion().takeBody(branch.getThenRegion());
    rebuilt.getElseRegion().takeBody(branch.getElseRegion());
    scf::YieldOp yields[2] = {thenYield, elseYield};
    OpBuilder after(rebuilt->getBlock(), std::next(rebuilt->getIterator()));
    SmallVector<Value> replaced;  // the tiles the arms yielded, erased at the end where dead
    for (unsigned i = 0; i < n; ++i) {
      if (!arms[0][i].base) {
        branch.getResult(i).replaceAllUsesWith(rebuilt.getResult(i));
        continue;
      }
      for (int arm = 0; arm < 2; ++arm) {
        Value old = yields[arm].getOperand(i), by = arms[arm][i].by;
        if (!by) {
          OpBuilder atYield(yields[arm]);
          by = atYield.create<arith::ConstantOp>(loc, atYield.getIntegerAttr(types[i], 0));
        }
        yields[arm]->setOperand(i, by);
        replaced.push_back(old);
      }
      branch.getResult(i).replaceAllUsesWith(moved(after, loc, arms[0][i].base, rebuilt.getResult(i)));
    }
    branch.erase();
    eraseDead(replaced);
  }

  void runOnOperation() override {
    SmallVector<scf::ForOp> loops;
    getOperation().walk([&](scf::ForOp loop) { loops.push_back(loop); });  // inner loops first
    for (scf::ForOp loop : loops) rewrite(loop);
    SmallVector<scf::WhileOp> whileLoops;
    getOperation().walk([&](scf::WhileOp loop) { whileLoops.push_back(loop); });
    for (scf::WhileOp loop : whileLoops) rewrite(loop);
    SmallVector<scf::IfOp> branches;
    getOperation().walk([&](scf::IfOp branch) { branches.push_back(branch); });
    for (scf::IfOp branch : branches) rewrite(branch);
  }
};

}  // namespace

}  // namespace tle::ascend
