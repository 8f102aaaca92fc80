// Which dots keep their wgmma group in flight across loop iterations: a tle_gpu.ring_dot
// that runs on wgmma and whose accumulator its loop carries returns with its group still
// running (tle_gpu.ring_dot {in_flight}). The tensor cores then work on iteration i while
// the warps wait for, and request, the tiles of the iterations after it; the op waits for
// all groups but its own, so iteration i - 1's dot has finished when iteration i's is
// issued. Where the next iteration reads the accumulator before handing it to the dot
// (attention rescales it), a tle_gpu.dots_wait goes before that first read: what comes
// earlier in the iteration (its barrier, copies, the Q K^T dot) is issued while P V runs,
// as Triton's loop does. After the loop, tle_gpu.dots_wait waits for the last group and
// gives the accumulators back.
//
// When iteration i begins, iteration i - 1's dot may still read its slots, so the copies of
// iteration i + depth go into the slot iteration i - 2 read (slots_behind = 2) and every ring
// of the loop gets one more slot: the copies stay `depth` iterations ahead. Where that slot
// does not fit in the target's shared memory, beside the kernel's buffers and the largest
// scratch any of its ops may take, or where it may leave room for fewer resident blocks per
// multiprocessor (shared memory and an estimate of the registers decide), the copies move
// after the loop's last dot in flight and refill the slot iteration i - 1 read
// (refillableAfterDots).
//
// A loop that copies a dot's tiles and waits for them in the same iteration (no ring: the
// seed's Sparse MLA under tl.range(num_stages=0)) gets the same where its dot reads one-slot
// rings filled only in the dot's block: those rings get a second slot, the loop rotates
// through the two (the copies go to this iteration's slot, slots_behind = 0), and where the
// dot sits in one arm of a branch whose other arm passes the accumulator on, that arm waits
// for the group (the next copying iteration may refill the slot it reads).
//
// Within a block, a dot whose result only accumulates into the next dot stays in flight
// while that one is issued (chainAccumulations).
//
// wgmma is chosen by the device library (use_wgmma in dot.cuh); the prediction here follows
// its rules, and the library's in-flight dot asserts that it holds.
#include "transforms/cuda/Passes.h"
#include "transforms/cuda/OperandCopies.h"

#include "ir/KernelSettings.h"
#include "transforms/cuda/LayoutChoices.h"
#include "transforms/cuda/RegisterBudget.h"

#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace tle::cuda {

#define GEN_PASS_DEF_KEEPDOTSINFLIGHT
#include "transforms/cuda/Passes.h.inc"

using namespace mlir;

namespace {

// Whether the library puts this ring as a wgmma operand in shared memory (kWgmmaLayout of
// SharedMma16Operand): A, and B arriving K-contiguous, rows of 64 or 32 elements along K;
// A arriving M-contiguous, 64-row blocks; B arriving N-contiguous rows of 64-element blocks
// along N (fp8: transposed in the slot, then as K-contiguous).
bool wgmmaReadable(gpu::OperandRingType ring) {
  auto operand = cast<gpu::DotOperandLayoutAttr>(ring.getOperand().getEncoding());
  auto staged = dyn_cast<gpu::BlockedLayoutAttr>(ring.getStaged().getEncoding());
  if (!staged) return false;
  // [M, K] for A, [K, N] for B, in the slots' 16-bit units (fp8: half the K extent)
  SmallVector<int64_t, 2> shape = operandUnits(ring.getStaged().getShape(), operand.getOpIdx(), ring.getStaged().getElementType());
  const bool firstContiguous = staged.getOrder()[0] == 0;
  if (operand.getOpIdx() == 0) return firstContiguous ? shape[0] % 64 == 0 : wgmmaReadableAlongK(shape[1]);
  // An fp8 B arriving N-contiguous is read from its K-major transpose (gpu::slotHoldsTranspose).
  if (firstContiguous || gpu::slotHoldsTranspose(ring.getStaged().getElementType(), 1, /*nContiguous=*/true))
    return wgmmaReadableAlongK(shape[0]);
  auto mma = cast<gpu::MmaLayoutAttr>(operand.getParent());
  return shape[1] % 64 == 0 && mma.getGroupN() % 32 == 0;
}

// Whether the library runs this dot on wgmma (use_wgmma in dot.cuh): B in shared memory,
// A in shared memory or in registers (16-bit elements in the dot-operand layout).
bool runsOnWgmma(gpu::RingDotOp dot, const TargetInfo &target) {
  if (!target.has(Feature::Wgmma)) return false;
  auto acc = cast<RankedTensorType>(dot.getC().getType());
  auto mma = dyn_cast<gpu::MmaLayoutAttr>(acc.getEncoding());
  if (!mma || !acc.getElementType().isF32() || !wgmmaColumns(mmaWarpsOf(mma), acc.getShape()[1])) return false;
  if (!wgmmaReadable(dot.getB().getType())) return false;
  if (auto a = dyn_cast<gpu::OperandRingType>(dot.getA().getType())) return wgmmaReadable(a);
  auto a = cast<RankedTensorType>(dot.getA().getType());
  return isa<gpu::DotOperandLayoutAttr>(a.getEncoding()) && (a.getElementType().isF16() || a.getElementType().isBF16());
}

// A dot whose accumulator `loop` carries and the next iteration reads: the dot's result
// only goes to the next iteration. `readByOthers`: the next iteration also reads the
// accumulator before (or instead of) handing it to the dot (attention rescales it), so it
// waits for the group there. (An accumulator the loop carries but never reads, a dot of a
// fresh one each iteration, stays synchronous, as it always was.)
struct CarriedDot {
  gpu::RingDotOp dot;
  unsigned index;
  bool readByOthers;
};
std::optional<CarriedDot> carriedAccumulator(gpu::RingDotOp dot, scf::ForOp loop) {
  if (!dot->hasOneUse()) return std::nullopt;
  OpOperand &use = *dot->getUses().begin();
  if (!isa<scf::YieldOp>(use.getOwner()) || use.getOwner()->getParentOp() != loop) return std::nullopt;
  const unsigned index = use.getOperandNumber();
  BlockArgument arg = loop.getRegionIterArg(index);
  if (arg.use_empty()) return std::nullopt;
  return CarriedDot{dot, index, !(dot.getC() == arg && arg.hasOneUse())};
}

// An A operand in registers is read by the running group: ptxas was seen to reuse those
// registers for another wgmma's A operand of the next iteration (attention's Q K^T with Q in
// registers: wrong results). So such a dot stays in flight only where no other dot of the
// loop reads A from registers.
bool registersOfAKept(gpu::RingDotOp dot, scf::ForOp loop) {
  if (isa<gpu::OperandRingType>(dot.getA().getType())) return true;
  bool alone = true;
  loop.getBody()->walk([&](Operation *op) {
    if (auto other = dyn_cast<gpu::RingDotOp>(op); other && other != dot && !isa<gpu::OperandRingType>(other.getA().getType()))
      alone = false;
    if (isa<ir::DotOp>(op)) alone = false;
  });
  return alone;
}

// A thread's registers, roughly: its share of the fp32 accumulators, and what ptxas was seen
// to add for addresses, masks and descriptors (56-110 on the sweep's configs).
constexpr int64_t kRegistersBesideAccumulators = 64;
// The warps that issue one wgmma together.
constexpr int64_t kWarpsPerWarpgroup = 4;

class DotsInFlight {
 public:
  DotsInFlight(func::FuncOp f, const TargetInfo &target, unsigned numWarps)
      : f_(f), target_(target), threads_(static_cast<int64_t>(numWarps) * target.threadsPerWarp()) {}

  void run() {
    if (!target_.has(Feature::Wgmma)) return;
    const MemorySpaceInfo *shared = target_.memorySpace(MemorySpace::Shared);
    if (!shared) return chainAccumulations();
    // What the kernel takes: its buffers and rings, and at most the largest scratch.
    int64_t used = 0, scratch = 0;
    f_.walk([&](Operation *op) {
      if (int64_t bytes = fixedSharedBytes(op)) used += bytes;
      else scratch = std::max(scratch, scratchEstimate(op));
    });
    int64_t usedAtLeast = used;
    used += scratch;
    f_.walk([&](scf::ForOp loop) {
      if (!gpu::ringSlots(loop)) {
        if (std::optional<CopiedInIteration> d = copiedInIteration(loop)) {
          SmallVector<CarriedDot> dots{d->carried};
          int64_t extra = 0;
          for (gpu::OperandRingOp ring : d->rings) extra += gpu::ringSlotBytes(ring.getType());
          if (!roomFor(dots, extra, used, usedAtLeast) || !registersFor(*d, usedAtLeast + extra)) return;
          used += extra;
          usedAtLeast += extra;
          keepInFlightAcrossSlots(loop, *d);
          carriedInFlight_.insert(loop);
        }
        return;
      }
      SmallVector<CarriedDot> dots;
      for (auto dot : loop.getBody()->getOps<gpu::RingDotOp>())
        if (auto carried = carriedAccumulator(dot, loop); carried && runsOnWgmma(dot, target_) && registersOfAKept(dot, loop))
          dots.push_back(*carried);
      if (dots.empty()) return;
      SmallVector<gpu::OperandRingOp> rings = ringsOf(loop);
      int64_t extra = 0;
      for (gpu::OperandRingOp ring : rings) extra += gpu::ringSlotBytes(ring.getType());
      if (!roomFor(dots, extra, used, usedAtLeast)) {
        if (!refillableAfterDots(loop, dots)) return;
        keepInFlightRefillingAfter(loop, dots);
        carriedInFlight_.insert(loop);
        return;
      }
      used += extra;
      usedAtLeast += extra;
      keepInFlight(loop, dots, rings);
      carriedInFlight_.insert(loop);
    });
    chainAccumulations();
  }

 private:
  // Whether `extra` bytes of slots fit beside what the kernel uses (`used`: with the largest
  // scratch; `usedAtLeast`: without it).
  bool roomFor(ArrayRef<CarriedDot> dots, int64_t extra, int64_t used, int64_t usedAtLeast) const {
    if (used + extra > target_.memorySpace(MemorySpace::Shared)->capacityBytes) return false;
    // Nor when it may cost a resident block (counted without the scratch, whose size the
    // device library decides): a second block hides more than the group in flight does
    // (measured: the tutorial's 128x128x64 tiles on 8 warps, 96 -> 128 KiB, 0.83x -> 0.88x
    // Triton without the slot; attention at 64x64, d = 128, 4 warps, 112 -> 144 KiB,
    // 0.92x -> 0.75x).
    const int64_t registers = estimatedRegistersPerThread(dots);
    return target_.blocksPerProcessor(usedAtLeast + extra, threads_, registers) >= target_.blocksPerProcessor(usedAtLeast, threads_, registers);
  }

  // A loop that copies its dot's tiles into one slot and waits for them in the same
  // iteration (no ring: the seed's Sparse MLA under tl.range(num_stages=0)), with a dot whose
  // accumulator the loop carries, either directly or through a branch whose other arm passes
  // the accumulator on unchanged (the seed's `if ck * BK <= max_col:`). The slots the dot
  // reads get a second slot and the loop rotates through the two, so that the dot may stay in
  // flight while the next iteration copies into the other one. `rings`: the one-slot rings
  // the dot reads, each filled only by copies directly in the dot's block.
  struct CopiedInIteration {
    CarriedDot carried;
    scf::IfOp branch;  // null: the dot is in the loop's body
    unsigned branchIndex = 0;
    SmallVector<gpu::OperandRingOp> rings;
  };
  std::optional<CopiedInIteration> copiedInIteration(scf::ForOp loop) {
    // The loop's slot index would stand for an enclosing ring loop's in the body's reads of
    // that loop's rings (the printer takes the innermost ring loop's).
    bool readsOuterRing = false;
    loop.getBody()->walk([&](Operation *op) {
      for (Value v : op->getOperands())
        if (auto ring = dyn_cast<gpu::OperandRingType>(v.getType()); ring && !gpu::isResident(ring)) readsOuterRing = true;
    });
    if (readsOuterRing) return std::nullopt;
    for (gpu::RingDotOp dot : ringDotsOf(loop)) {
      if (dot.getInFlight() || !dot->hasOneUse() || !runsOnWgmma(dot, target_) || !registersOfAKept(dot, loop)) continue;
      CopiedInIteration found;
      Value reaching = dot.getResult();
      OpOperand *use = &*dot->getUses().begin();
      if (auto branch = dyn_cast<scf::IfOp>(dot->getParentOp()); branch && branch->getParentOp() == loop) {
        if (use->getOwner() != branch.thenYield() || branch.getElseRegion().empty()) continue;
        found.branch = branch;
        found.branchIndex = use->getOperandNumber();
        reaching = branch.getResult(found.branchIndex);
        if (!reaching.hasOneUse()) continue;
        use = &*reaching.getUses().begin();
      } else if (dot->getParentOp() != loop) {
        continue;
      }
      if (use->getOwner() != loop.getBody()->getTerminator()) continue;
      const unsigned index = use->getOperandNumber();
      BlockArgument arg = loop.getRegionIterArg(index);
      if (arg.use_empty()) continue;
      if (found.branch) {
        // The accumulator is read in the dot's arm, and the other arm only passes it on.
        if (found.branch.elseYield().getOperand(found.branchIndex) != arg) continue;
        bool inArms = llvm::all_of(arg.getUses(), [&](OpOperand &u) {
          return u.getOwner() == found.branch.elseYield() || found.branch.thenBlock()->findAncestorOpInBlock(*u.getOwner());
        });
        if (!inArms) continue;
      }
      // Read in the dot's block by something other than the dot itself (attention rescales it).
      const bool readByOthers = llvm::any_of(arg.getUses(), [&](OpOperand &u) {
        return u.getOwner() != dot.getOperation() && dot->getBlock()->findAncestorOpInBlock(*u.getOwner());
      });
      found.carried = CarriedDot{dot, index, readByOthers};
      Block *block = dot->getBlock();
      bool copiedHere = true;
      for (Value operand : {dot.getA(), Value(dot.getB())}) {
        if (!isa<gpu::OperandRingType>(operand.getType())) continue;
        Value root = operand;
        if (auto view = root.getDefiningOp<gpu::RingViewOp>()) root = view.getRing();
        auto ring = root.getDefiningOp<gpu::OperandRingOp>();
        if (!ring || !gpu::isResident(ring.getType()) || !filledOnlyIn(ring, block)) copiedHere = false;
        else if (!llvm::is_contained(found.rings, ring)) found.rings.push_back(ring);
      }
      if (copiedHere && !found.rings.empty()) return found;
    }
    return std::nullopt;
  }

  // Whether the registers a thread keeps live while the group runs fit in the share that
  // tle-bound-registers will leave it (with `sharedBytes` a block): the kernel's tiles and,
  // until the next iteration's wait, an A operand in registers (P), by the headroom that pass
  // keeps. Where they did not, ptxas serialized the wgmmas for want of registers (C7512;
  // attention without pipelining on an H100, d = 128 at 64 x 64 on 8 warps: 299 -> 252
  // TFLOP/s; at 128 x 64 on 4 warps, 10-13% slower), where they did, the kernels gained.
  bool registersFor(CopiedInIteration d, int64_t sharedBytes) const {
    const int64_t tiles = estimatedTileRegisters(f_, threads_);
    auto a = dyn_cast<RankedTensorType>(d.carried.dot.getA().getType());
    const int64_t held = a ? registersOf(a, threads_) : 0;
    const int64_t share = registerShare(target_, threads_, blocksWorthAskingFor(target_, threads_, tiles, sharedBytes));
    return kRegisterHeadroom * static_cast<double>(tiles + held) <= static_cast<double>(share);
  }

  // The ring dots of `loop`'s body and of the branches directly in it.
  static SmallVector<gpu::RingDotOp> ringDotsOf(scf::ForOp loop) {
    SmallVector<gpu::RingDotOp> dots;
    for (Operation &op : *loop.getBody()) {
      if (auto dot = dyn_cast<gpu::RingDotOp>(op)) dots.push_back(dot);
      if (auto branch = dyn_cast<scf::IfOp>(op))
        for (auto dot : branch.thenBlock()->getOps<gpu::RingDotOp>()) dots.push_back(dot);
    }
    return dots;
  }

  // Every copy into the ring is in `block`, and every read of it (through views too) by a
  // dot there: the slot holds one iteration's tile, copied and read in that iteration.
  static bool filledOnlyIn(gpu::OperandRingOp ring, Block *block) {
    bool copied = false;
    SmallVector<Value> values{ring.getRing()};
    for (Operation *user : ring->getUsers())
      if (auto view = dyn_cast<gpu::RingViewOp>(user)) values.push_back(view.getView());
    for (Value v : values)
      for (Operation *user : v.getUsers()) {
        if (isa<gpu::RingViewOp>(user)) continue;
        if (user->getBlock() != block || !isa<gpu::AsyncCopyOp, gpu::RingDotOp>(user)) return false;
        copied |= isa<gpu::AsyncCopyOp>(user);
      }
    return copied;
  }

  // Gives `ring` and the views of it `slots` slots.
  static void resize(gpu::OperandRingOp ring, int slots) {
    auto retype = [&](Value value) {
      auto type = cast<gpu::OperandRingType>(value.getType());
      value.setType(gpu::OperandRingType::get(value.getContext(), slots, type.getStaged(), type.getOperand()));
    };
    retype(ring.getRing());
    for (Operation *user : ring->getUsers())
      if (auto view = dyn_cast<gpu::RingViewOp>(user)) retype(view.getView());
  }

  void keepInFlightAcrossSlots(scf::ForOp loop, CopiedInIteration d) {
    MLIRContext *ctx = f_.getContext();
    for (gpu::OperandRingOp ring : d.rings) {
      resize(ring, 2);
      for (Operation *user : ring->getUsers()) {
        if (auto copy = dyn_cast<gpu::AsyncCopyOp>(user)) {
          copy.removeSlotAttr();
          copy.setSlotsBehindAttr(IntegerAttr::get(IntegerType::get(ctx, 32), 0));
        }
      }
    }
    gpu::setRingSlots(loop, 2);
    d.carried.dot.setInFlight(true);
    BlockArgument accumulator = loop.getRegionIterArg(d.carried.index);
    if (d.carried.readByOthers) waitBeforeFirstRead(d.carried.dot->getBlock(), accumulator);
    if (d.branch) {
      // The other arm waits too: the next iteration that copies may refill the slot the dot
      // reads (the slot rotates with every iteration, copied or not).
      scf::YieldOp yield = d.branch.elseYield();
      OpBuilder b(yield);
      auto wait = b.create<gpu::DotsWaitOp>(yield.getLoc(), TypeRange{accumulator.getType()}, ValueRange{accumulator});
      yield->setOperand(d.branchIndex, wait.getResult(0));
    }
    waitWhereLoopExits(loop, {loop.getResult(d.carried.index)});
  }

  // A dot whose result only accumulates into the next dot of its block (Sparse MLA's Q K^T over
  // three pairs of tiles: Q's tail with the tail rows, then each half of Q with its half of
  // the rows) returns with its group running: the next dot is issued behind it, and that
  // dot's wait (for every group but, in flight, its own) covers this one. Waiting between
  // them drained the tensor cores before each dot of the chain. Nothing between the two
  // may touch memory (a slot released there could be refilled while the group reads it)
  // but a wait for copies (the seed's Sparse MLA waits for its KV tile there: those copies
  // go to other slots, the first dot's having landed before it was issued), and A must come
  // from shared memory (registersOfAKept). Not in a loop whose carried dot stays in flight
  // across iterations: ptxas then serialized every wgmma of the kernel (C7514; the seed's
  // Sparse MLA on an H100: 9.20 ms with both, 8.22 with the chain alone, 7.68 with P V in
  // flight alone).
  void chainAccumulations() {
    f_.walk([&](gpu::RingDotOp dot) {
      if (dot.getInFlight() || !dot->hasOneUse() || !isa<gpu::OperandRingType>(dot.getA().getType())) return;
      for (auto loop = dot->getParentOfType<scf::ForOp>(); loop; loop = loop->getParentOfType<scf::ForOp>())
        if (carriedInFlight_.contains(loop)) return;
      auto next = dyn_cast<gpu::RingDotOp>(*dot->getUsers().begin());
      if (!next || next.getC() != dot.getResult() || next->getBlock() != dot->getBlock()) return;
      for (Operation *op = dot->getNextNode(); op != next; op = op->getNextNode())
        if (!isMemoryEffectFree(op) && !isa<gpu::AsyncWaitOp>(op)) return;
      if (runsOnWgmma(dot, target_) && runsOnWgmma(next, target_)) dot.setInFlight(true);
    });
  }

  int64_t estimatedRegistersPerThread(ArrayRef<CarriedDot> dots) const {
    int64_t accumulators = 0;
    for (CarriedDot d : dots) accumulators += cast<RankedTensorType>(d.dot.getType()).getNumElements();
    return std::min<int64_t>(target_.registersPerThread(), (threads_ ? accumulators / threads_ : 0) + kRegistersBesideAccumulators);
  }

  // The rings the loop's copies and dots use (not the resident ones: their slot is read by
  // every iteration and never refilled).
  SmallVector<gpu::OperandRingOp> ringsOf(scf::ForOp loop) {
    llvm::SetVector<Operation *> rings;
    loop.getBody()->walk([&](Operation *op) {
      for (Value v : op->getOperands())
        if (auto ring = v.getDefiningOp<gpu::OperandRingOp>(); ring && !gpu::isResident(ring.getType())) rings.insert(ring);
    });
    SmallVector<gpu::OperandRingOp> out;
    for (Operation *r : rings) out.push_back(cast<gpu::OperandRingOp>(r));
    return out;
  }

  void keepInFlight(scf::ForOp loop, ArrayRef<CarriedDot> dots, ArrayRef<gpu::OperandRingOp> rings) {
    MLIRContext *ctx = f_.getContext();
    const int slots = *gpu::ringSlots(loop) + 1;
    for (gpu::OperandRingOp ring : rings) resize(ring, slots);
    gpu::setRingSlots(loop, slots);
    loop.getBody()->walk([&](gpu::AsyncCopyOp copy) {
      if (!copy.getSlot()) copy.setSlotsBehindAttr(IntegerAttr::get(IntegerType::get(ctx, 32), 2));
    });
    markInFlight(loop, dots);
  }

  // Where no slot can be added, the loop's copies are issued after its last dot in flight,
  // into the slot the previous iteration read (slots_behind = 1, as without groups in
  // flight): each dot returns once every group but its own has finished, so that slot's
  // reader is done, in this warpgroup; a barrier waits for the others'. Triton orders its
  // Hopper loops this way, with the same slots as stages. Measured (H200): tutorial 03's
  // 128x256x64 tiles on 8 warps with 4 stages (192 KiB of slots, no room for a fifth) ran
  // its dot synchronously at 0.78-0.84x Triton, while 3 stages (a fourth slot added) ran at
  // 0.96-0.99x.
  bool refillableAfterDots(scf::ForOp loop, ArrayRef<CarriedDot> dots) const {
    Block *body = loop.getBody();
    for (CarriedDot d : dots)
      if (d.dot->getBlock() != body) return false;
    bool refillable = true;
    body->walk([&](gpu::AsyncCopyOp copy) {
      if (!copy.getSlot() && (copy->getBlock() != body || !copy->use_empty())) refillable = false;
    });
    return refillable;
  }

  void keepInFlightRefillingAfter(scf::ForOp loop, ArrayRef<CarriedDot> dots) {
    Operation *last = lastDotOf(dots);
    SmallVector<gpu::AsyncCopyOp> copies;
    for (auto copy : loop.getBody()->getOps<gpu::AsyncCopyOp>())
      if (!copy.getSlot()) copies.push_back(copy);
    Operation *after = last;
    if (!copies.empty() && threads_ > kWarpsPerWarpgroup * target_.threadsPerWarp())
      after = OpBuilder(last->getNextNode()).create<ir::BarrierOp>(last->getLoc(), "every warpgroup's dot of the previous iteration has finished reading the slots refilled below");
    for (gpu::AsyncCopyOp copy : copies) {
      copy->moveAfter(after);
      after = copy;
    }
    markInFlight(loop, dots);
  }

  // The last of `dots`, all in one block.
  static Operation *lastDotOf(ArrayRef<CarriedDot> dots) {
    Operation *last = dots.front().dot;
    for (CarriedDot d : dots)
      if (last->isBeforeInBlock(d.dot)) last = d.dot;
    return last;
  }

  void markInFlight(scf::ForOp loop, ArrayRef<CarriedDot> dots) {
    SmallVector<Value> accumulators;
    for (CarriedDot d : dots) {
      d.dot.setInFlight(true);
      accumulators.push_back(loop.getResult(d.index));
      if (d.readByOthers) waitBeforeFirstRead(loop.getBody(), loop.getRegionIterArg(d.index));
    }
    waitWhereLoopExits(loop, accumulators);
  }

  // The wait for the loop's last groups, `accumulators` among its results.
  void waitWhereLoopExits(scf::ForOp loop, ArrayRef<Value> accumulators) {
    MLIRContext *ctx = f_.getContext();
    // The wait goes where the loop exits, inside a guard that skips loop and wait when the
    // loop runs no iteration: ptxas serializes every wgmma of the loop (C7514) when any
    // instruction comes between the loop's exit and the wait, and the code after the loop
    // otherwise starts with what the compiler sinks there.
    OpBuilder b(ctx);
    b.setInsertionPoint(loop);
    Location loc = loop.getLoc();
    // The guard gives back the loop's results that are used after it (the others would be
    // variables set and never read).
    SmallVector<unsigned> used;
    SmallVector<Type> usedTypes;
    for (OpResult r : loop.getResults())
      if (!r.use_empty()) {
        used.push_back(r.getResultNumber());
        usedTypes.push_back(r.getType());
      }
    Value runs = b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::slt, loop.getLowerBound(), loop.getUpperBound());
    auto guard = b.create<scf::IfOp>(loc, usedTypes, runs, /*withElseRegion=*/true);
    for (auto [index, out] : llvm::zip(used, guard.getResults())) loop.getResult(index).replaceAllUsesWith(out);
    loop->moveBefore(guard.thenBlock(), guard.thenBlock()->end());
    b.setInsertionPointAfter(loop);
    SmallVector<Type> types;
    for (Value v : accumulators) types.push_back(v.getType());
    auto wait = b.create<gpu::DotsWaitOp>(loc, types, accumulators);
    SmallVector<Value> thenResults, elseResults;
    for (unsigned index : used) {
      Value result = loop.getResult(index);
      for (auto [before, after] : llvm::zip(accumulators, wait.getResults()))
        if (result == before) result = after;
      thenResults.push_back(result);
      elseResults.push_back(loop.getInitArgs()[index]);
    }
    b.create<scf::YieldOp>(loc, thenResults);
    b.setInsertionPointToEnd(guard.elseBlock());
    b.create<scf::YieldOp>(loc, elseResults);
  }

  // The iteration waits for the previous iteration's group before it first reads the
  // accumulator: late, so that what comes before (its barrier, copies and other dots) is
  // issued while the group runs.
  // (Reads in `block`, or in ops nested in it.)
  void waitBeforeFirstRead(Block *block, BlockArgument accumulator) {
    Operation *first = nullptr;
    for (Operation *user : accumulator.getUsers()) {
      Operation *op = block->findAncestorOpInBlock(*user);
      if (op && (!first || op->isBeforeInBlock(first))) first = op;
    }
    OpBuilder b(first);
    auto wait = b.create<gpu::DotsWaitOp>(first->getLoc(), TypeRange{accumulator.getType()}, ValueRange{accumulator});
    accumulator.replaceUsesWithIf(wait.getResult(0), [&](OpOperand &use) {
      return use.getOwner() != wait && block->findAncestorOpInBlock(*use.getOwner());
    });
  }

  func::FuncOp f_;
  const TargetInfo &target_;
  int64_t threads_;
  llvm::SmallPtrSet<Operation *, 4> carriedInFlight_;  // loops whose carried dot stays in flight
};

struct KeepDotsInFlightPass : impl::KeepDotsInFlightBase<KeepDotsInFlightPass> {
  using KeepDotsInFlightBase::KeepDotsInFlightBase;

  void runOnOperation() override {
    func::FuncOp f = getOperation();
    DotsInFlight(f, ir::targetOf(f, target), ir::numWarps(f, numWarps)).run();
  }
};

}  // namespace

}  // namespace tle::cuda
