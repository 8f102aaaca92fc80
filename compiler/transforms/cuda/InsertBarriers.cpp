// Block barriers between accesses of tle.gpu buffers by different threads, where one of
// them writes (and one after each operand-ring loop where the scratch shares the slots): before a read of what another thread wrote (RAW), before a write over what
// another thread may still read (WAR), before a write over what an atomic may still update.
// Nowhere else: atomics do not race with each other; two plain stores are not ordered
// between threads (as stores to global memory are not, in Triton and here: a scatter loop
// such as a histogram's compaction would otherwise pay a barrier per store); and two
// accesses through the same pointer tile, in one iteration, in a layout without replicas
// touch each element from one thread only, so that thread sees its own writes. Accesses
// through tle.remote pointers count as accesses of their buffer: the shard may be this
// block (ordering other blocks' accesses is the kernel's cluster barriers' job).
//
// Pending accesses (since the last barrier) flow forward through the structured IR. A loop
// runs its body until the accesses reaching its top stop growing (the back edge); when a
// body access conflicts with what was pending before the loop, the barrier goes once before
// the loop rather than into every iteration. Buffers that share bytes
// (tle-plan-shared-memory) are one for this purpose. Ops that synchronize the block
// themselves end the pending set: tle.barrier, cluster and sub-mesh barriers (every thread
// of the block takes part), tle_gpu.async_wait and tle_gpu.tma_wait, a tle_gpu.copy into a buffer (the device library's copy has a barrier on each side) and TLE-Raw calls (the call
// is bracketed by barriers). Scalars are uniform across the block (Triton's model), so a
// barrier under an scf.if or in an scf.while is reached by every thread. In a
// warp-specialized kernel each partition is placed on its own (its barriers synchronize only
// its warps), and the join at the end of tle_gpu.warp_specialize ends the pending set.
#include "transforms/cuda/Passes.h"
#include "transforms/cuda/LayoutChoices.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace tle::cuda {

#define GEN_PASS_DEF_INSERTBARRIERS
#include "transforms/cuda/Passes.h.inc"

using namespace mlir;

namespace {

enum class AccessKind { Read, Write, Atomic };

struct Access {
  Operation *op;
  AccessKind kind;
  llvm::SmallPtrSet<Operation *, 2> buffers;  // the allocs it may touch; empty: any
  Value ptr;                                  // the pointers of a tle.load/store/atomic
  bool earlierIteration = false;  // reached a loop's top by its back edge, `ptr` loop-variant
};

using Pending = SmallVector<Access>;

class BarrierPlacement {
 public:
  explicit BarrierPlacement(func::FuncOp f) : f_(f) {
    f.walk([&](ir::AllocOp alloc) {
      if (auto offset = gpu::bufferOffset(alloc)) {
        ranges_[alloc] = {*offset, *offset + ir::tileBytes(alloc.getType().getBlockType())};
      }
    });
  }

  void run() {
    slotsBeforeScratch();
    walk(f_.getBody().front(), {}, /*insert=*/true);
  }

 private:
  // Accesses pending after `block`, given those pending before it; inserts barriers when
  // `insert` (otherwise only follows what they would do).
  Pending walk(Block &block, Pending pending, bool insert) {
    for (Operation &op : llvm::make_early_inc_range(block)) {
      if (isa<ir::BarrierOp, ir::DistributedBarrierOp, gpu::AsyncWaitOp, gpu::TmaWaitOp, ir::RawCallOp>(op) ||
          (isa<gpu::CopyOp>(op) && isa<ir::BufferType>(cast<gpu::CopyOp>(op).getDst().getType()))) {
        pending.clear();
        continue;
      }
      if (std::optional<Access> access = accessOf(&op)) {
        for (const Access &p : pending)
          if (const char *why = conflict(p, *access)) {
            if (insert) OpBuilder(&op).create<ir::BarrierOp>(UnknownLoc::get(op.getContext()), why);
            pending.clear();
            break;
          }
        pending.push_back(*access);
        continue;
      }
      if (auto ws = dyn_cast<gpu::WarpSpecializeOp>(op)) {
        // Each partition's barriers are its own; what one partition writes for another is
        // ordered by their pipes. The default partition goes on from the code before the op
        // (the same threads); the workers started with the kernel. All join at its end.
        walk(ws.getDefaultRegion().front(), pending, insert);
        for (Region &worker : ws.getWorkerRegions()) walk(worker.front(), {}, insert);
        pending.clear();
        continue;
      }
      if (auto loop = dyn_cast<scf::ForOp>(op)) pending = loopBody(loop, *loop.getBody(), pending, insert);
      else if (auto loop = dyn_cast<scf::WhileOp>(op)) pending = whileLoop(loop, pending, insert);
      else if (auto branch = dyn_cast<scf::IfOp>(op)) pending = ifElse(branch, pending, insert);
    }
    return pending;
  }

  // A loop body runs any number of times: what reaches its top is what was pending before
  // the loop and what its end leaves, until that stops growing.
  Pending loopBody(Operation *loop, Block &body, Pending before, bool insert) {
    for (const Access &p : before)
      if (const char *why = firstConflictInside(loop, p)) {
        if (insert) OpBuilder(loop).create<ir::BarrierOp>(UnknownLoc::get(loop->getContext()), why);
        before.clear();
        break;
      }
    Pending top = before;
    while (true) {
      Pending end = walk(body, top, /*insert=*/false);
      Pending next = merge(before, aroundBackEdge(loop, end));
      if (sameOps(next, top)) break;
      top = next;
    }
    return merge(before, walk(body, top, insert));  // zero iterations leave `before`
  }

  Pending whileLoop(scf::WhileOp loop, Pending before, bool insert) {
    // before-region, then (on continue) after-region, then back to the before-region.
    Pending top = before;
    while (true) {
      Pending end = walk(loop.getAfter().front(), walk(loop.getBefore().front(), top, false), false);
      Pending next = merge(before, aroundBackEdge(loop, end));
      if (sameOps(next, top)) break;
      top = next;
    }
    Pending exit = walk(loop.getBefore().front(), top, insert);
    walk(loop.getAfter().front(), exit, insert);
    return exit;
  }

  // Accesses of one iteration as the next sees them: pointers computed in the loop hold other
  // addresses there, so the same pointer tile no longer means the same threads.
  static Pending aroundBackEdge(Operation *loop, Pending end) {
    for (Access &a : end)
      if (a.ptr && loop->isAncestor(a.ptr.getParentBlock()->getParentOp())) a.earlierIteration = true;
    return end;
  }

  Pending ifElse(scf::IfOp branch, const Pending &before, bool insert) {
    Pending then = walk(branch.getThenRegion().front(), before, insert);
    Pending otherwise = branch.getElseRegion().empty() ? before : walk(branch.getElseRegion().front(), before, insert);
    return merge(then, otherwise);
  }

  // A scratch that shares the operand slots' bytes (tle-plan-shared-memory) is written only
  // after every warp has read its slots for the last time and every copy into them has
  // landed: a barrier after each ring loop (after the branch that skips an empty one, and
  // the drain). Its next run's copies follow the barrier that frees the slots.
  void slotsBeforeScratch() {
    gpu::SharedMemoryPlanAttr plan = gpu::sharedMemoryPlan(f_);
    if (!plan || !plan.getScratchInSlots()) return;
    SmallVector<scf::ForOp> loops;
    f_.walk([&](scf::ForOp loop) {
      if (gpu::ringSlots(loop)) loops.push_back(loop);
    });
    for (scf::ForOp loop : loops) {
      Operation *holder = loop;
      while (auto branch = dyn_cast<scf::IfOp>(holder->getParentOp())) holder = branch;
      // After the drain of the loop's last copies, if any (cp.async: a prefetch past the end
      // zero-fills its slot asynchronously).
      if (auto drain = dyn_cast_or_null<gpu::AsyncDrainOp>(holder->getNextNode())) holder = drain;
      OpBuilder b(holder->getContext());
      b.setInsertionPointAfter(holder);
      b.create<ir::BarrierOp>(UnknownLoc::get(f_.getContext()), "the scratch shares the operand slots: every warp is done reading them");
    }
  }

  // The reason a barrier is needed between `earlier` and `later`, or null.
  const char *conflict(const Access &earlier, const Access &later) const {
    if (earlier.kind == AccessKind::Read && later.kind == AccessKind::Read) return nullptr;
    if (earlier.kind == AccessKind::Atomic && later.kind == AccessKind::Atomic) return nullptr;
    if (earlier.kind == AccessKind::Write && later.kind == AccessKind::Write) return nullptr;
    if (!mayAlias(earlier, later) || sameThreads(earlier, later)) return nullptr;
    if (earlier.kind == AccessKind::Read) return "earlier reads of the buffer are done";
    if (earlier.kind == AccessKind::Atomic && later.kind == AccessKind::Write) return "earlier atomics on the buffer are done";
    return "the buffer's writes are visible to every thread";  // a read or an atomic after a write
  }

  // The first access nested in `loop` that conflicts with `earlier`.
  const char *firstConflictInside(Operation *loop, const Access &earlier) {
    const char *why = nullptr;
    loop->walk([&](Operation *op) {
      if (why) return WalkResult::interrupt();
      if (std::optional<Access> a = accessOf(op)) why = conflict(earlier, *a);
      return WalkResult::advance();
    });
    return why;
  }

  std::optional<Access> accessOf(Operation *op) {
    Access a{op, AccessKind::Read, {}, Value()};
    if (auto load = dyn_cast<gpu::LocalLoadOp>(op)) {
      buffersOf(load.getBuffer(), a.buffers);
      return a;
    }
    if (auto copy = dyn_cast<gpu::CopyOp>(op); copy && isa<ir::BufferType>(copy.getSrc().getType())) {
      buffersOf(copy.getSrc(), a.buffers);
      return a;
    }
    if (auto dot = dyn_cast<gpu::RingDotOp>(op)) {  // reads the buffers it takes in place
      for (Value operand : {Value(dot.getA()), Value(dot.getB())})
        if (auto view = operand.getDefiningOp<gpu::BufferOperandOp>()) buffersOf(view.getBuffer(), a.buffers);
      if (a.buffers.empty()) return std::nullopt;
      return a;
    }
    if (!isa<ir::LoadOp, ir::StoreOp, ir::AtomicRMWOp, ir::AtomicCASOp>(op)) return std::nullopt;
    a.ptr = op->getOperand(0);
    // Pointers into another block's buffer (tle.remote) may point into this block's own
    // when the shard is this block: they count as accesses of the buffer here too.
    std::optional<MemorySpace> space = ir::pointerSpaceOf(a.ptr.getType());
    if (space != MemorySpace::Shared && space != MemorySpace::RemoteShared) return std::nullopt;
    a.kind = isa<ir::LoadOp>(op) ? AccessKind::Read : isa<ir::StoreOp>(op) ? AccessKind::Write : AccessKind::Atomic;
    if (!buffersOf(a.ptr, a.buffers)) a.buffers.clear();
    return a;
  }

  // The allocs `v` (a buffer or pointers into one) may point into; false when unknown.
  bool buffersOf(Value v, llvm::SmallPtrSetImpl<Operation *> &out, int depth = 0) {
    if (depth > 32) return false;
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      auto loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp());
      if (!loop || arg.getArgNumber() == 0) return false;
      unsigned i = arg.getArgNumber() - 1;
      return buffersOf(loop.getInitArgs()[i], out, depth + 1) &&
             buffersOf(loop.getBody()->getTerminator()->getOperand(i), out, depth + 1);
    }
    Operation *def = v.getDefiningOp();
    if (!def) return false;
    if (isa<ir::AllocOp>(def)) return out.insert(def), true;
    if (auto loop = dyn_cast<scf::ForOp>(def)) {
      unsigned i = cast<OpResult>(v).getResultNumber();
      return buffersOf(loop.getInitArgs()[i], out, depth + 1) && buffersOf(loop.getBody()->getTerminator()->getOperand(i), out, depth + 1);
    }
    if (auto select = dyn_cast<arith::SelectOp>(def))
      return buffersOf(select.getTrueValue(), out, depth + 1) && buffersOf(select.getFalseValue(), out, depth + 1);
    if (isa<gpu::LocalPtrOp, ir::AddPtrOp, ir::SplatOp, ir::BroadcastOp, ir::ExpandDimsOp, ir::ReshapeOp, ir::TransOp,
            gpu::ConvertLayoutOp, ir::BufferSlotOp, ir::RemoteOp>(def))
      return buffersOf(def->getOperand(0), out, depth + 1);
    return false;
  }

  bool mayAlias(const Access &a, const Access &b) const {
    if (a.buffers.empty() || b.buffers.empty()) return true;
    for (Operation *x : a.buffers)
      for (Operation *y : b.buffers) {
        if (x == y) return true;
        auto rx = ranges_.find(x), ry = ranges_.find(y);
        if (rx == ranges_.end() || ry == ranges_.end()) return true;
        if (rx->second.first < ry->second.second && ry->second.first < rx->second.second) return true;
      }
    return false;
  }

  // Both access through the same pointer tile, whose layout gives each element to one
  // thread: every thread only meets its own elements.
  static bool sameThreads(const Access &a, const Access &b) {
    if (!a.ptr || a.ptr != b.ptr || a.earlierIteration || b.earlierIteration) return false;
    auto type = dyn_cast<RankedTensorType>(a.ptr.getType());
    auto blocked = type ? dyn_cast<gpu::BlockedLayoutAttr>(type.getEncoding()) : gpu::BlockedLayoutAttr();
    if (!blocked) return false;
    for (int64_t d = 0; d < type.getRank(); ++d) {
      if (elementsCoveredAlong(blocked, d) > type.getDimSize(d)) return false;  // threads that hold copies
    }
    return true;
  }

  static Pending merge(const Pending &a, const Pending &b) {
    Pending out = a;
    for (const Access &x : b)
      if (llvm::none_of(out, [&](const Access &y) { return y.op == x.op; })) out.push_back(x);
    return out;
  }

  static bool sameOps(const Pending &a, const Pending &b) {
    if (a.size() != b.size()) return false;
    for (const Access &x : a)
      if (llvm::none_of(b, [&](const Access &y) { return y.op == x.op; })) return false;
    return true;
  }

  func::FuncOp f_;
  llvm::DenseMap<Operation *, std::pair<int64_t, int64_t>> ranges_;  // alloc -> its bytes [first, last)
};

struct InsertBarriersPass : impl::InsertBarriersBase<InsertBarriersPass> {
  void runOnOperation() override { BarrierPlacement(getOperation()).run(); }
};

}  // namespace

}  // namespace tle::cuda
