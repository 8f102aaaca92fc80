// Dot operands copied into shared memory in the iteration that reads them. A 16-bit tile
// loaded from global memory and read only as dot operands (through conversions to a
// dot-operand layout, or first through a transpose that only relabels registers) which
// tle-lower-async-copies left alone (its loop is not pipelined, the load sits under an `if`,
// or it feeds two dots: Sparse MLA's gathered KV tile is the B of q k^T and, transposed, the
// B of p v) goes from global memory straight into the swizzled slot that the dots read, by
// cp.async, instead of through registers and the staging region. Each such tile has a slot
// of its own (a resident ring), and:
//
//   %kv = tle_gpu.operand_ring : <1, ...>        at the top of the kernel
//   tle.barrier "the slots are free"              in a loop, once before the block's copies:
//                                                 an earlier iteration's dots may still read
//   tle_gpu.async_copy %ptrs into %kv {slot = 0}  where the load was; the copies of a block
//                                                 issued in the order their tiles are needed
//   tle_gpu.async_wait {pending = n}              before the first op that reads the tile:
//                                                 all but the n copies issued after it landed
//   tle_gpu.ring_dot %a, %kv, %acc                the dot reads B from the slot
//   %kvT = tle_gpu.ring_view %kv                  the same bytes read as the transposed tile
//
// On wgmma targets a loaded A operand read only by such dots is copied too: wgmma reads A
// from shared memory, while in registers every warpgroup would hold all of A's rows (Sparse
// MLA's Q, 64 x 512 on two warpgroups: 128 registers a thread beside a 128-register
// accumulator).
#include "transforms/cuda/Passes.h"

#include "ir/KernelSettings.h"
#include "transforms/cuda/LayoutChoices.h"
#include "transforms/cuda/OperandCopies.h"

#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/MapVector.h"

namespace tle::cuda {

#define GEN_PASS_DEF_COPYDOTOPERANDS
#include "transforms/cuda/Passes.h.inc"

using namespace mlir;

namespace {

// One dot-operand conversion that reads the loaded tile, perhaps through a transpose.
struct Consumer {
  gpu::ConvertLayoutOp convert;
  ir::TransOp trans;  // null: the conversion reads the load itself
  unsigned opIdx;
};

struct Candidate {
  ir::LoadOp load;
  SmallVector<Consumer> consumers;
  Value ring;
  SmallVector<gpu::RingDotOp> dots;  // the dots that read the slot
  gpu::AsyncCopyOp copy;
};

// The conversions reading `load`, if it is a tile the copy can move and nothing else reads it.
std::optional<SmallVector<Consumer>> consumersOf(ir::LoadOp load) {
  auto type = dyn_cast<RankedTensorType>(load.getType());
  if (!type || type.getRank() != 2 || load.getIsVolatile() || load.getCache() || !isZeroOrAbsent(load.getOther())) return std::nullopt;
  if (ir::pointerSpaceOf(cast<RankedTensorType>(load.getPtr().getType())) != MemorySpace::Global) return std::nullopt;
  if (gpu::vectorWidth(load) != kOperandChunkElements || !gpu::slotHoldsOperand(type, 1) || gpu::enclosingRingLoop(load)) return std::nullopt;
  SmallVector<Consumer> consumers;
  auto take = [&](Operation *user, ir::TransOp trans) {
    auto c = dyn_cast<gpu::ConvertLayoutOp>(user);
    std::optional<unsigned> opIdx = c ? operandConversion(c) : std::nullopt;
    if (opIdx) consumers.push_back({c, trans, *opIdx});
    return opIdx.has_value();
  };
  for (Operation *user : load->getUsers()) {
    if (auto trans = dyn_cast<ir::TransOp>(user)) {
      // Only a transpose that relabels registers: its result is the same bytes' other view.
      if (trans.getOrder() != ArrayRef<int32_t>{1, 0} ||
          gpu::transposedBlockedLayout(type.getEncoding(), trans.getOrder(), false) != trans.getType().getEncoding() || trans->use_empty())
        return std::nullopt;
      for (Operation *u : trans->getUsers())
        if (!take(u, trans)) return std::nullopt;
    } else if (!take(user, {})) {
      return std::nullopt;
    }
  }
  if (consumers.empty()) return std::nullopt;
  return consumers;
}

class OperandCopies {
 public:
  OperandCopies(func::FuncOp f, const TargetInfo &target) : f_(f), target_(target) {}

  void run() {
    if (!target_.has(Feature::CpAsync) || !target_.has(Feature::MmaSync)) return;
    std::vector<Candidate> candidates;
    f_.walk([&](ir::LoadOp load) {
      if (auto consumers = consumersOf(load)) candidates.push_back({load, std::move(*consumers), {}, {}, {}});
    });
    decide(candidates);
    fitSharedMemory(candidates);
    if (candidates.empty()) return;
    createRings(candidates);
    rewriteDots(candidates);
    llvm::MapVector<Block *, SmallVector<Candidate *>> byBlock;
    for (Candidate &c : candidates) byBlock[c.load->getBlock()].push_back(&c);
    for (auto &[block, inBlock] : byBlock) copyAndWait(inBlock);
    for (Candidate &c : candidates) {
      for (Consumer &u : c.consumers) {
        if (u.convert && u.convert->use_empty()) u.convert.erase();
        u.convert = {};
      }
      for (Consumer &u : c.consumers)
        if (u.trans && u.trans->use_empty()) {
          u.trans.erase();
          for (Consumer &other : c.consumers)
            if (&other != &u && other.trans == u.trans) other.trans = {};
          u.trans = {};
        }
      c.load.erase();
    }
  }

 private:
  // Every B operand candidate stays; an A operand only on wgmma targets and where each of its
  // dots reads B from a slot too (a ring dot needs B in a slot).
  void decide(std::vector<Candidate> &candidates) {
    const bool wgmma = target_.has(Feature::Wgmma);
    while (true) {
      llvm::DenseSet<Value> slotted;
      for (Candidate &c : candidates)
        for (Consumer &u : c.consumers) slotted.insert(u.convert.getResult());
      auto keeps = [&](const Candidate &c) {
        for (const Consumer &u : c.consumers) {
          if (u.opIdx == 1) continue;
          if (!wgmma) return false;
          for (Operation *user : u.convert->getUsers())
            if (!slotted.count(cast<ir::DotOp>(user).getB())) return false;
        }
        return true;
      };
      auto end = std::stable_partition(candidates.begin(), candidates.end(), keeps);
      if (end == candidates.end()) return;
      candidates.erase(end, candidates.end());
    }
  }

  // The slots take shared memory for the whole kernel. Beside the buffers, the rings and the
  // largest scratch of the ops that stay (a dot-operand conversion that stays is staged,
  // double-buffered beside its pair: four times its tile; alone outside every loop: once),
  // the candidates that fit, in program order, keep their slots; the others go through the
  // staging region as before (Sparse MLA's four tiles take 108 KiB; eight unrolled
  // 128 x 128 dots would take 512).
  void fitSharedMemory(std::vector<Candidate> &candidates) {
    const MemorySpaceInfo *shared = target_.memorySpace(MemorySpace::Shared);
    if (!shared || shared->capacityBytes <= 0) return;
    int64_t fixed = 0;  // the buffers and the rings already planned
    f_.walk([&](Operation *op) { fixed += fixedSharedBytes(op); });
    while (!candidates.empty()) {
      llvm::DenseSet<Operation *> going;  // the conversions and transposes the slots replace
      int64_t slots = 0;
      for (Candidate &c : candidates) {
        slots += gpu::slotBytes(cast<RankedTensorType>(c.load.getType()));
        for (Consumer &u : c.consumers) {
          going.insert(u.convert);
          if (u.trans) going.insert(u.trans);
        }
      }
      int64_t scratch = 0;
      f_.walk([&](Operation *op) {
        if (going.count(op) || fixedSharedBytes(op)) return;
        if (auto c = dyn_cast<gpu::ConvertLayoutOp>(op); c && isa<gpu::DotOperandLayoutAttr>(c.getType().getEncoding())) {
          // Staged (tle-stage-dot-operands): double-buffered beside its pair, or in one buffer
          // when it is alone and outside every loop.
          const bool alone = op->getParentOfType<LoopLikeOpInterface>() == nullptr && llvm::all_of(c->getUsers(), [&](Operation *user) {
            auto dot = dyn_cast<ir::DotOp>(user);
            if (!dot) return false;
            auto other = (dot.getA() == c.getResult() ? dot.getB() : dot.getA()).getDefiningOp<gpu::ConvertLayoutOp>();
            return !other || going.count(other);
          });
          scratch = std::max(scratch, (alone ? 1 : 4) * ir::tileBytes(c.getType()));
        } else {
          scratch = std::max(scratch, scratchEstimate(op));
        }
      });
      if (fixed + scratch + slots <= shared->capacityBytes) return;
      candidates.pop_back();
      decide(candidates);
    }
  }

  // One slot per tile at the top of the kernel (the slot has bytes of its own for the whole
  // kernel), and a view for each other way a dot reads it.
  void createRings(std::vector<Candidate> &candidates) {
    OpBuilder b(f_.getContext());
    b.setInsertionPointToStart(&f_.getBody().front());
    for (Candidate &c : candidates) {
      auto staged = cast<RankedTensorType>(c.load.getType());
      // Read as it was loaded when a conversion does so, else as a B operand (the arrangement
      // every chunked tile has: rows along the dimension its chunks do not run along).
      RankedTensorType operand;
      for (Consumer &u : c.consumers)
        if (!u.trans) operand = u.convert.getType();
      if (!operand) {
        auto layout = cast<gpu::DotOperandLayoutAttr>(c.consumers.front().convert.getType().getEncoding());
        auto asB = gpu::DotOperandLayoutAttr::get(f_.getContext(), 1, layout.getParent(), 16);
        operand = RankedTensorType::get(staged.getShape(), staged.getElementType(), asB);
      }
      c.ring = b.create<gpu::OperandRingOp>(c.load.getLoc(), gpu::OperandRingType::get(f_.getContext(), 1, staged, operand), IntegerAttr());
      llvm::DenseMap<Type, Value> views;
      views[c.ring.getType()] = c.ring;
      for (Consumer &u : c.consumers) {
        auto type = gpu::OperandRingType::get(f_.getContext(), 1, u.convert.getSrc().getType(), u.convert.getType());
        Value &view = views[type];
        if (!view) view = b.create<gpu::RingViewOp>(u.convert.getLoc(), type, c.ring);
        views_[u.convert.getResult()] = view;
      }
    }
  }

  void rewriteDots(std::vector<Candidate> &candidates) {
    llvm::DenseMap<Value, Candidate *> candidateOf;
    llvm::SetVector<Operation *> dots;
    for (Candidate &c : candidates)
      for (Consumer &u : c.consumers) {
        candidateOf[u.convert.getResult()] = &c;
        for (Operation *user : u.convert->getUsers()) dots.insert(user);
      }
    OpBuilder b(f_.getContext());
    for (Operation *op : dots) {
      auto dot = cast<ir::DotOp>(op);
      Value slotB = views_.lookup(dot.getB());
      if (!slotB) continue;  // an A candidate's dot whose B is not slotted: decide() dropped it
      Value a = views_.lookup(dot.getA());
      b.setInsertionPoint(dot);
      auto ringDot = b.create<gpu::RingDotOp>(dot.getLoc(), dot.getType(), a ? a : dot.getA(), slotB, dot.getC(), /*in_flight=*/false);
      candidateOf.lookup(dot.getB())->dots.push_back(ringDot);
      if (a) candidateOf.lookup(dot.getA())->dots.push_back(ringDot);
      dot.replaceAllUsesWith(ringDot.getResult());
      dot.erase();
    }
  }

  // The copies of one block's tiles, the barrier before them in a loop, and the waits.
  void copyAndWait(SmallVector<Candidate *> &candidates) {
    Block *block = candidates.front()->load->getBlock();
    auto firstUse = [&](Candidate *c) {
      Operation *first = nullptr;
      for (gpu::RingDotOp dot : c->dots) {
        Operation *at = block->findAncestorOpInBlock(*dot);
        if (at && (!first || at->isBeforeInBlock(first))) first = at;
      }
      return first;
    };
    llvm::DenseMap<Candidate *, Operation *> firstUseOf;
    for (Candidate *c : candidates) firstUseOf[c] = firstUse(c);
    // The tile needed first is copied first, so that waiting for it leaves the others in flight.
    std::stable_sort(candidates.begin(), candidates.end(),
                     [&](Candidate *x, Candidate *y) { return firstUseOf[x]->isBeforeInBlock(firstUseOf[y]); });
    OpBuilder b(f_.getContext());
    Operation *previous = nullptr;
    for (Candidate *c : candidates) {
      // A copy moves later only past ops that write no memory: it must read what the load read.
      if (!previous || previous->isBeforeInBlock(c->load) || writesBetween(c->load, previous)) b.setInsertionPoint(c->load);
      else b.setInsertionPointAfter(previous);
      c->copy = createOperandCopy(b, c->load, c->ring, b.getI32IntegerAttr(0), warned_);
      previous = c->copy;
    }
    if (block->getParentOp()->getParentOfType<LoopLikeOpInterface>() || isa<LoopLikeOpInterface>(block->getParentOp())) {
      Operation *earliest = candidates.front()->copy;
      for (Candidate *c : candidates)
        if (c->copy->isBeforeInBlock(earliest)) earliest = c->copy;
      b.setInsertionPoint(earliest);
      b.create<ir::BarrierOp>(UnknownLoc::get(f_.getContext()), "the operand slots are free (an earlier iteration may still read them)");
    }
    // Copies of this block issued after `from` and before `to`.
    auto copiesBetween = [&](Operation *from, Operation *to) {
      int n = 0;
      for (Operation *op = from->getNextNode(); op && op != to; op = op->getNextNode())
        if (isa<gpu::AsyncCopyOp>(op)) ++n;
      return n;
    };
    SmallVector<gpu::AsyncWaitOp> waits;
    for (Candidate *c : candidates) {
      Operation *at = firstUseOf[c];
      // A wait between the copy and the first use that already covers it: the copy is older
      // than the copies that wait leaves in flight.
      bool covered = llvm::any_of(waits, [&](gpu::AsyncWaitOp w) {
        return c->copy->isBeforeInBlock(w) && !at->isBeforeInBlock(w) && copiesBetween(c->copy, w) >= static_cast<int>(w.getPending());
      });
      if (covered) continue;
      const int pending = copiesBetween(c->copy, at);
      if (auto before = dyn_cast_or_null<gpu::AsyncWaitOp>(at->getPrevNode())) {
        before.setPending(std::min<int>(before.getPending(), pending));
        continue;
      }
      b.setInsertionPoint(at);
      waits.push_back(b.create<gpu::AsyncWaitOp>(c->load.getLoc(), b.getI32IntegerAttr(pending)));
    }
  }

  func::FuncOp f_;
  llvm::DenseSet<Location> warned_;  // loads whose eviction_policy the copies drop
  const TargetInfo &target_;
  llvm::DenseMap<Value, Value> views_;  // conversion result -> the slot view its dots read
};

struct CopyDotOperandsPass : impl::CopyDotOperandsBase<CopyDotOperandsPass> {
  using CopyDotOperandsBase::CopyDotOperandsBase;

  void runOnOperation() override {
    func::FuncOp f = getOperation();
    // The partitions of a warp-specialized kernel move their operands through pipes.
    if (gpu::warpSpecializeOf(f)) return;
    OperandCopies(f, ir::targetOf(f, target)).run();
  }
};

}  // namespace

}  // namespace tle::cuda
