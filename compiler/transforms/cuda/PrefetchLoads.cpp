// Software pipelining, register stage: in a loop that feeds tl.dot from global memory, each
// such load is issued one iteration ahead. Iteration i+1's tile is requested before
// iteration i's tensor-core work, so the memory latency overlaps it instead of stalling the
// warp at the top of every iteration.
//
//   a0 = load(ptrs(lb), mask(lb) & lb < ub)              // prologue
//   for i (..., a = a0):
//     a_next = load(ptrs(i + step), mask(i + step) & i + step < ub)
//     acc = dot(a, ...)
//     yield ..., a_next
//
// The next iteration's pointers and masks are the load's own address computation cloned
// with the induction variable advanced and the carried values replaced by what the loop
// yields; pure address updates that the source writes after the dot are moved up to feed
// it. Loops whose pipelining depth (tl.range(num_stages=) or --num-stages) is 1 are left
// alone, and so are loads whose prefetched copy would hold more than kMaxBytesPerThread of
// registers per thread (16-bit tiles do not count: they usually go by cp.async, see the
// CUDA printer).
#include "transforms/cuda/Passes.h"

#include "ir/Dialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "llvm/ADT/SetVector.h"

namespace tle::cuda {

using namespace mlir;

namespace {

// More than this many bytes of prefetched tile per thread costs more in spills than the
// overlap gains (the accumulator and the operands already live in registers).
constexpr int64_t kMaxBytesPerThread = 128;

int64_t intAttrOr(Operation *op, StringRef name, int64_t fallback) {
  if (auto attr = op->getAttrOfType<IntegerAttr>(name)) return attr.getInt();
  return fallback;
}

// Does `load`'s value reach operand a or b of a tl.dot in its block, through conversions
// only?
bool feedsDot(Operation *load) {
  SmallVector<Value> work{load->getResult(0)};
  while (!work.empty()) {
    Value v = work.pop_back_val();
    for (OpOperand &use : v.getUses()) {
      Operation *user = use.getOwner();
      if (user->getBlock() != load->getBlock()) continue;
      if (isa<ir::DotOp>(user) && use.getOperandNumber() < 2) return true;
      if (isa<ir::ConvertLayoutOp, ir::TransOp, arith::ExtFOp, arith::TruncFOp, arith::SIToFPOp, arith::ExtSIOp,
              arith::TruncIOp>(user))
        work.push_back(user->getResult(0));
    }
  }
  return false;
}

bool isMovable(Operation *op) { return op->getNumRegions() == 0 && isMemoryEffectFree(op); }

// Ops of one block, in the order they stand there.
SmallVector<Operation *> inBlockOrder(const llvm::SetVector<Operation *> &ops) {
  SmallVector<Operation *> ordered(ops.begin(), ops.end());
  llvm::sort(ordered, [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  return ordered;
}

// The ops of `body` that `root`'s operands are computed from, in block order; fails when one
// of them has side effects or regions.
LogicalResult addressSlice(Operation *root, Block *body, llvm::SetVector<Operation *> &slice) {
  SmallVector<Value> work(root->getOperands());
  while (!work.empty()) {
    Operation *def = work.pop_back_val().getDefiningOp();
    if (!def || def->getBlock() != body || slice.contains(def)) continue;
    if (!isMovable(def)) return failure();
    slice.insert(def);
    work.append(def->getOperands().begin(), def->getOperands().end());
  }
  SmallVector<Operation *> ordered = inBlockOrder(slice);
  slice = llvm::SetVector<Operation *>(ordered.begin(), ordered.end());
  return success();
}

int64_t bytesPerThread(Operation *load, int64_t numWarps) {
  auto type = dyn_cast<RankedTensorType>(load->getResult(0).getType());
  if (!type || !type.getElementType().isIntOrFloat()) return 0;
  int64_t bits = type.getNumElements() * type.getElementType().getIntOrFloatBitWidth();
  return bits / 8 / (numWarps * 32);
}

struct PrefetchLoadsPass : PassWrapper<PrefetchLoadsPass, OperationPass<func::FuncOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(PrefetchLoadsPass)
  StringRef getArgument() const final { return "tle-prefetch-loads"; }
  StringRef getDescription() const final { return "issue the loads that feed tl.dot one loop iteration ahead"; }

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    const int64_t defaultStages = intAttrOr(func, "tle.num_stages", 3);
    const int64_t numWarps = intAttrOr(func, "tle.num_warps", 4);
    SmallVector<scf::ForOp> loops;
    func.walk([&](scf::ForOp loop) { loops.push_back(loop); });  // inner loops first
    for (scf::ForOp loop : loops)
      if (intAttrOr(loop, "tle.num_stages", defaultStages) >= 2) pipeline(loop, numWarps);
  }

  void pipeline(scf::ForOp loop, int64_t numWarps) {
    auto step = loop.getStep().getDefiningOp<arith::ConstantOp>();
    if (!step || !isa<IntegerAttr>(step.getValue()) || cast<IntegerAttr>(step.getValue()).getInt() <= 0) return;
    Block *body = loop.getBody();
    auto yield = cast<scf::YieldOp>(body->getTerminator());
    // A load moved ahead of this iteration's writes could miss what they store: only loops
    // that write no memory (and have no barriers or calls) are pipelined.
    bool writes = false;
    body->walk([&](Operation *op) {
      if (op == yield.getOperation() || isa<ir::LoadOp>(op)) return;
      auto effects = dyn_cast<MemoryEffectOpInterface>(op);
      if (effects ? effects.hasEffect<MemoryEffects::Write>() : !op->hasTrait<OpTrait::HasRecursiveMemoryEffects>())
        writes = true;
    });
    if (writes) return;

    SmallVector<Operation *> loads;
    int64_t bytes = 0;
    for (Operation &op : body->without_terminator()) {
      if (!isa<ir::LoadOp>(op) || !isa<RankedTensorType>(op.getResult(0).getType()) || !feedsDot(&op)) continue;
      auto load = cast<ir::LoadOp>(op);
      if (load.getIsVolatile()) continue;
      // 16-bit tiles usually reach the dot by cp.async (the printer's choice, once 16-byte
      // access is known) and then take no registers: only the others count.
      auto element = cast<RankedTensorType>(op.getResult(0).getType()).getElementType();
      int64_t b = element.isIntOrFloat() && element.getIntOrFloatBitWidth() == 16 ? 0 : bytesPerThread(&op, numWarps);
      if (bytes + b > kMaxBytesPerThread) continue;
      bytes += b;
      loads.push_back(&op);
    }
    if (loads.empty()) return;
    Operation *insertionPoint = loads.front();

    // Each load's address computation, and the yielded values it will read in place of the
    // carried ones.
    SmallVector<llvm::SetVector<Operation *>> slices(loads.size());
    llvm::SetVector<Value> yieldedNeeded;
    for (auto [load, slice] : llvm::zip(loads, slices)) {
      if (failed(addressSlice(load, body, slice))) return;
      auto noteLeaf = [&](Value v) {
        if (auto arg = dyn_cast<BlockArgument>(v); arg && arg.getOwner() == body && arg.getArgNumber() > 0)
          yieldedNeeded.insert(yield.getOperand(arg.getArgNumber() - 1));
      };
      for (Operation *op : slice)
        for (Value v : op->getOperands()) noteLeaf(v);
      for (Value v : load->getOperands()) noteLeaf(v);
    }
    // Yielded values computed after the insertion point must move above it; only pure ops
    // that do not depend on the loads themselves can.
    llvm::SetVector<Operation *> hoist;
    SmallVector<Value> work(yieldedNeeded.begin(), yieldedNeeded.end());
    while (!work.empty()) {
      Operation *def = work.pop_back_val().getDefiningOp();
      if (!def || def->getBlock() != body || def->isBeforeInBlock(insertionPoint) || hoist.contains(def)) continue;
      if (def == insertionPoint || llvm::is_contained(loads, def) || !isMovable(def)) return;
      hoist.insert(def);
      work.append(def->getOperands().begin(), def->getOperands().end());
    }
    for (Operation *op : inBlockOrder(hoist)) op->moveBefore(insertionPoint);

    // Prologue: iteration lb's tiles, before the loop.
    OpBuilder b(loop);
    Location loc = loop.getLoc();
    Value firstValid = b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::slt, loop.getLowerBound(), loop.getUpperBound());
    SmallVector<Value> prologue;
    for (auto [load, slice] : llvm::zip(loads, slices)) {
      IRMapping map;
      map.map(loop.getInductionVar(), loop.getLowerBound());
      for (auto [arg, init] : llvm::zip(loop.getRegionIterArgs(), loop.getInitArgs())) map.map(arg, init);
      prologue.push_back(clonePredicated(b, load, slice, map, firstValid));
    }

    IRRewriter rewriter(loop.getContext());
    auto newLoop = loop.replaceWithAdditionalYields(
        rewriter, prologue, /*replaceInitOperandUsesInLoop=*/false,
        [&](OpBuilder &yb, Location, ArrayRef<BlockArgument> carried) {
          // The next iteration's tiles, requested before this iteration's dot.
          yb.setInsertionPoint(insertionPoint);
          Value next = yb.create<arith::AddIOp>(loc, loop.getInductionVar(), loop.getStep());
          Value nextValid = yb.create<arith::CmpIOp>(loc, arith::CmpIPredicate::slt, next, loop.getUpperBound());
          SmallVector<Value> prefetched;
          for (auto [load, slice] : llvm::zip(loads, slices)) {
            IRMapping map;
            map.map(loop.getInductionVar(), next);
            for (auto [arg, yielded] : llvm::zip(loop.getRegionIterArgs(), yield.getOperands())) map.map(arg, yielded);
            prefetched.push_back(clonePredicated(yb, load, slice, map, nextValid));
          }
          for (auto [load, arg] : llvm::zip(loads, carried)) load->getResult(0).replaceAllUsesWith(arg);
          return prefetched;
        });
    if (failed(newLoop)) return;
    // The in-loop loads and whatever only computed their addresses are gone.
    for (Operation *load : loads) load->erase();
    llvm::SetVector<Operation *> addressOps;
    for (auto &slice : slices) addressOps.insert(slice.begin(), slice.end());
    SmallVector<Operation *> dead = inBlockOrder(addressOps);
    for (Operation *op : llvm::reverse(dead))  // users before their operands
      if (op->use_empty()) op->erase();
  }

  // A copy of `load` and its address computation under `map`, whose mask also requires
  // `valid`.
  static Value clonePredicated(OpBuilder &b, Operation *load, const llvm::SetVector<Operation *> &slice, IRMapping &map,
                               Value valid) {
    for (Operation *op : slice) b.clone(*op, map);
    auto original = cast<ir::LoadOp>(load);
    auto ptrType = cast<RankedTensorType>(original.getPtr().getType());
    auto maskType = RankedTensorType::get(ptrType.getShape(), b.getI1Type(), ptrType.getEncoding());
    Value mask = b.create<ir::SplatOp>(load->getLoc(), maskType, valid);
    if (Value own = original.getMask()) mask = b.create<arith::AndIOp>(load->getLoc(), map.lookupOrDefault(own), mask);
    auto copy = cast<ir::LoadOp>(b.clone(*load, map));
    copy.getMaskMutable().assign(mask);
    return copy.getResult();
  }
};

}  // namespace

std::unique_ptr<Pass> createPrefetchLoadsPass() { return std::make_unique<PrefetchLoadsPass>(); }

}  // namespace tle::cuda
