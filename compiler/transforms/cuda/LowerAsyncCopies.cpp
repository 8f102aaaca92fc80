// Asynchronous operand copies, as planned: a loop-carried dot operand that
// tle-prefetch-loads made from loads marked tle_gpu.async_copy (tiles loaded before the loop
// and again, `depth` iterations ahead, in the body, passed along the carried values and used
// only by the dot operand's conversion) no longer passes through registers:
//
//   %ring = tle_gpu.operand_ring : <depth + 1 slots>   before the loop, and one barrier
//   tle_gpu.async_copy %ptrs into %ring {slot = s}      the tiles of iterations 0 .. depth-1
//   scf.for ... {tle_gpu.ring_slots = depth + 1}
//     tle_gpu.async_wait {pending = (depth - 1) * operands}   this iteration's tiles landed
//     tle_gpu.async_copy %ptrs into %ring                the slot the last iteration read
//     tle_gpu.ring_dot %a, %ring, %acc                   B (and A, when it is a ring too)
//                                                        read from the slot k step by k step
//     tle_gpu.ring_read %ring                            a lone A operand, whole
//   tle_gpu.async_drain                                  the last (masked) copies landed
//
// A loop-invariant A operand marked tle_gpu.async_copy (attention's Q) whose conversion
// feeds only ring dots of ring loops in the load's block becomes a resident ring of one
// slot, copied once right after the first such loop's barrier (its copy is the oldest
// group, so the loop's first wait covers it) and read by those dots from shared memory:
//
//   %q = tle_gpu.operand_ring : <1 slot>
//   tle_gpu.async_copy %q_ptrs into %q {slot = 0}
//   tle_gpu.ring_dot %q, %k_ring, %acc
//
// The layout facts the copies need are checked again here (16-byte accesses, whole mma
// fragments); a chain that misses one, or a loop whose operands disagree on the depth or
// whose body copies would not all come before its conversions, stays in registers.
#include "transforms/cuda/Passes.h"
#include "transforms/cuda/LayoutChoices.h"
#include "transforms/cuda/OperandCopies.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"

namespace tle::cuda {

#define GEN_PASS_DEF_LOWERASYNCCOPIES
#include "transforms/cuda/Passes.h.inc"

using namespace mlir;

namespace {

struct Chain {
  scf::ForOp loop;
  gpu::ConvertLayoutOp convert;
  SmallVector<ir::LoadOp> prologue;  // iterations 0 .. depth-1, in order
  ir::LoadOp next;                   // iteration i + depth, in the body
  SmallVector<BlockArgument> carried;
  Value ring;
};

// Whole mma.sync fragments (is_mma16_operand in tile.cuh); fp8 (which tle-plan-async-copies
// sends only to wgmma) counted in the slots' 16-bit units.
bool fillsFragments(RankedTensorType operand, gpu::DotOperandLayoutAttr layout) {
  auto mma = dyn_cast<gpu::MmaLayoutAttr>(layout.getParent());
  if (!mma || (layout.getBits() != 16 && !ir::isFp8(operand.getElementType()))) return false;
  return fillsMmaFragments(mmaWarpsOf(mma), layout.getOpIdx(), operandUnits(operand.getShape(), layout.getOpIdx(), operand.getElementType()));
}

// The loads behind a dot operand conversion's source, if they form an async chain: the
// source is a carried value whose initial value is a load and whose yielded value is the
// next carried value of the chain, the last one yielding the body's load.
std::optional<Chain> chainFor(gpu::ConvertLayoutOp convert) {
  auto layout = dyn_cast<gpu::DotOperandLayoutAttr>(convert.getType().getEncoding());
  if (!layout || !convert->hasOneUse() || !isa<ir::DotOp>(*convert->getUsers().begin())) return std::nullopt;
  auto arg = dyn_cast<BlockArgument>(convert.getSrc());
  if (!arg || arg.getArgNumber() == 0 || !arg.hasOneUse()) return std::nullopt;
  auto owner = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp());
  if (!owner || arg.getOwner() != convert->getBlock()) return std::nullopt;
  Chain chain{owner, convert, {}, {}, {}, {}};
  Operation *yield = owner.getBody()->getTerminator();
  while (true) {
    unsigned idx = arg.getArgNumber() - 1;
    auto first = owner.getInitArgs()[idx].getDefiningOp<ir::LoadOp>();
    if (!first || !first->hasOneUse() || first->getBlock() != owner->getBlock() || !owner.getResult(idx).use_empty())
      return std::nullopt;
    chain.prologue.push_back(first);
    chain.carried.push_back(arg);
    Value yielded = yield->getOperand(idx);
    if (auto next = yielded.getDefiningOp<ir::LoadOp>()) {
      if (!next->hasOneUse() || next->getBlock() != owner.getBody()) return std::nullopt;
      chain.next = next;
      break;
    }
    auto nextArg = dyn_cast<BlockArgument>(yielded);
    if (!nextArg || nextArg.getOwner() != owner.getBody() || nextArg.getArgNumber() == 0 || !nextArg.hasOneUse() ||
        chain.prologue.size() > static_cast<size_t>(kMaxAsyncDepth))
      return std::nullopt;
    arg = nextArg;
  }
  SmallVector<ir::LoadOp> loads(chain.prologue);
  loads.push_back(chain.next);
  for (ir::LoadOp l : loads)
    if (!gpu::isAsyncCopy(l) || gpu::vectorWidth(l) != operandChunkElements(cast<RankedTensorType>(l.getType()).getElementType())) return std::nullopt;
  if (!fillsFragments(convert.getType(), layout)) return std::nullopt;
  return chain;
}

// Earliest of `ops` in their block.
template <class Range>
Operation *first(const Range &ops) {
  Operation *best = nullptr;
  for (Operation *op : ops)
    if (!best || op->isBeforeInBlock(best)) best = op;
  return best;
}

gpu::AsyncCopyOp copyFor(OpBuilder &b, ir::LoadOp load, Value ring, std::optional<int> slot, llvm::DenseSet<Location> &warned) {
  b.setInsertionPoint(load);
  return createOperandCopy(b, load, ring, slot ? b.getI32IntegerAttr(*slot) : IntegerAttr(), warned);
}

// A copy of `loop` without the iteration arguments `drop` (unused but by the yield).
scf::ForOp withoutArguments(scf::ForOp loop, const llvm::BitVector &drop) {
  OpBuilder b(loop);
  SmallVector<Value> inits;
  for (auto [i, init] : llvm::enumerate(loop.getInitArgs()))
    if (!drop[i]) inits.push_back(init);
  auto fresh = b.create<scf::ForOp>(loop.getLoc(), loop.getLowerBound(), loop.getUpperBound(), loop.getStep(), inits);
  fresh->setDiscardableAttrs(loop->getDiscardableAttrDictionary());
  Block *body = fresh.getBody();
  if (!body->empty()) body->getTerminator()->erase();
  Block *old = loop.getBody();
  auto yield = cast<scf::YieldOp>(old->getTerminator());
  yield->eraseOperands(drop);
  body->getOperations().splice(body->end(), old->getOperations());
  loop.getInductionVar().replaceAllUsesWith(fresh.getInductionVar());
  unsigned next = 0;
  for (auto [i, arg] : llvm::enumerate(loop.getRegionIterArgs()))
    if (!drop[i]) {
      arg.replaceAllUsesWith(fresh.getRegionIterArgs()[next]);
      loop.getResult(i).replaceAllUsesWith(fresh.getResult(next));
      ++next;
    }
  loop.erase();
  return fresh;
}

class AsyncCopyLowering {
 public:
  explicit AsyncCopyLowering(func::FuncOp f) : f_(f) {}

  void run() {
    std::vector<Chain> chains;
    f_.walk([&](gpu::ConvertLayoutOp c) {
      if (auto chain = chainFor(c)) chains.push_back(*chain);
    });
    // Per loop: one depth, and every copy in the body before every conversion.
    llvm::DenseSet<Operation *> rejected;
    for (Chain &a : chains)
      for (Chain &b : chains)
        if (a.loop == b.loop && (!a.next->isBeforeInBlock(b.convert) || a.prologue.size() != b.prologue.size()))
          rejected.insert(a.loop);
    llvm::MapVector<Operation *, std::vector<Chain *>> byLoop;
    for (Chain &c : chains)
      if (!rejected.count(c.loop)) byLoop[c.loop].push_back(&c);
    for (auto &[loop, loopChains] : byLoop) lower(cast<scf::ForOp>(loop), loopChains);
    f_.walk([&](gpu::ConvertLayoutOp c) { keepResident(c); });
    // Planned copies that did not become one stay ordinary loads.
    f_.walk([](ir::LoadOp l) { gpu::setAsyncCopy(l, false); });
  }

 private:
  void lower(scf::ForOp loop, const std::vector<Chain *> &chains) {
    const int depth = static_cast<int>(chains.front()->prologue.size());
    OpBuilder b(f_.getContext());
    // The rings, each before its first copy; one barrier before the loop's first copy: an
    // earlier run of the loop may still read the slots.
    for (Chain *c : chains) {
      b.setInsertionPoint(c->prologue.front());
      auto type = gpu::OperandRingType::get(f_.getContext(), depth + 1, c->convert.getSrc().getType(), c->convert.getType());
      c->ring = b.create<gpu::OperandRingOp>(c->prologue.front().getLoc(), type, IntegerAttr());
    }
    SmallVector<Operation *> prologueLoads, bodyLoads;
    for (Chain *c : chains) {
      for (ir::LoadOp l : c->prologue) prologueLoads.push_back(l);
      bodyLoads.push_back(c->next);
    }
    b.setInsertionPoint(first(prologueLoads));
    ir::BarrierOp slotsFree = b.create<ir::BarrierOp>(UnknownLoc::get(f_.getContext()), "the operand slots are free (an earlier run of the loop may still read them)");
    // This iteration's tiles were requested `depth` iterations ago; the copies of the
    // iterations in between may stay in flight.
    Operation *firstBodyLoad = first(bodyLoads);
    b.setInsertionPoint(firstBodyLoad);
    b.create<gpu::AsyncWaitOp>(firstBodyLoad->getLoc(), b.getI32IntegerAttr((depth - 1) * static_cast<int>(chains.size())));
    for (Chain *c : chains) {
      for (auto [slot, l] : llvm::enumerate(c->prologue)) copyFor(b, l, c->ring, static_cast<int>(slot), warned_);
      copyFor(b, c->next, c->ring, std::nullopt, warned_);
    }
    readOperands(b, chains);
    // The tiles no longer pass through the loop.
    llvm::BitVector drop(loop.getNumRegionIterArgs());
    for (Chain *c : chains)
      for (BlockArgument arg : c->carried) drop.set(arg.getArgNumber() - 1);
    scf::ForOp fresh = withoutArguments(loop, drop);
    for (Chain *c : chains) {
      for (ir::LoadOp l : c->prologue) l.erase();
      c->next.erase();
    }
    gpu::setRingSlots(fresh, depth + 1);
    slotsFree_[fresh] = slotsFree;
    b.setInsertionPointAfter(fresh);
    b.create<gpu::AsyncDrainOp>(UnknownLoc::get(f_.getContext()));
  }

  // A dot reads a B ring step by step, and an A ring too when B is one; a lone A ring is
  // read whole.
  void readOperands(OpBuilder &b, const std::vector<Chain *> &chains) {
    llvm::DenseMap<Operation *, Chain *> ofConvert;
    llvm::SetVector<Operation *> dots;
    for (Chain *c : chains) {
      ofConvert[c->convert] = c;
      dots.insert(*c->convert->getUsers().begin());
    }
    auto chainOf = [&](Value operand) -> Chain * {
      Operation *def = operand.getDefiningOp();
      return def ? ofConvert.lookup(def) : nullptr;
    };
    for (Operation *op : dots) {
      auto dot = cast<ir::DotOp>(op);
      Chain *a = chainOf(dot.getA()), *bRing = chainOf(dot.getB());
      if (bRing) {
        b.setInsertionPoint(dot);
        auto ringDot = b.create<gpu::RingDotOp>(dot.getLoc(), dot.getType(), a ? a->ring : dot.getA(), bRing->ring, dot.getC(),
                                                 /*in_flight=*/false);
        dot.replaceAllUsesWith(ringDot.getResult());
        dot.erase();
        bRing->convert.erase();
        if (a) a->convert.erase();
      } else if (a) {
        b.setInsertionPoint(a->convert);
        auto read = b.create<gpu::RingReadOp>(a->convert.getLoc(), a->convert.getType(), a->ring);
        a->convert.replaceAllUsesWith(read.getResult());
        a->convert.erase();
      }
    }
  }

  // `convert` of a load planned to stay resident, read only as the A of ring dots of ring
  // loops in the load's block: the dots read it from a ring of one slot, copied once after
  // the first loop's barrier (where the load's pointers are ready).
  void keepResident(gpu::ConvertLayoutOp convert) {
    auto load = convert.getSrc().getDefiningOp<ir::LoadOp>();
    auto layout = dyn_cast<gpu::DotOperandLayoutAttr>(convert.getType().getEncoding());
    if (!load || !gpu::isAsyncCopy(load) || !load->hasOneUse() || !layout || layout.getOpIdx() != 0 || convert->use_empty()) return;
    if (gpu::vectorWidth(load) != kOperandChunkElements || !fillsFragments(convert.getType(), layout)) return;
    scf::ForOp firstLoop;
    for (OpOperand &use : convert->getUses()) {
      auto dot = dyn_cast<gpu::RingDotOp>(use.getOwner());
      auto loop = dot ? dyn_cast<scf::ForOp>(dot->getParentOp()) : scf::ForOp();
      if (!dot || use.getOperandNumber() != 0 || !loop || !slotsFree_.count(loop) || loop->getBlock() != load->getBlock()) return;
      if (!firstLoop || loop->isBeforeInBlock(firstLoop)) firstLoop = loop;
    }
    ir::BarrierOp barrier = slotsFree_.lookup(firstLoop);
    if (!load->isBeforeInBlock(barrier)) return;
    OpBuilder b(barrier->getContext());
    b.setInsertionPointAfter(barrier);
    auto type = gpu::OperandRingType::get(f_.getContext(), 1, convert.getSrc().getType(), convert.getType());
    Value ring = b.create<gpu::OperandRingOp>(load.getLoc(), type, IntegerAttr());
    createOperandCopy(b, load, ring, b.getI32IntegerAttr(0), warned_);
    for (OpOperand &use : llvm::make_early_inc_range(convert->getUses())) use.set(ring);
    convert.erase();
    load.erase();
  }

  func::FuncOp f_;
  llvm::DenseSet<Location> warned_;  // loads whose eviction_policy the copies drop
  // The barrier before each ring loop's first copies.
  llvm::DenseMap<Operation *, ir::BarrierOp> slotsFree_;
};

struct LowerAsyncCopiesPass : impl::LowerAsyncCopiesBase<LowerAsyncCopiesPass> {
  void runOnOperation() override { AsyncCopyLowering(getOperation()).run(); }
};

}  // namespace

}  // namespace tle::cuda
