// Which dots keep their wgmma group in flight across loop iterations: a tle_gpu.ring_dot
// with both operands in rings, whose accumulator its loop carries and nothing else reads,
// and that runs on wgmma, returns with its group still running (tle_gpu.ring_dot
// {in_flight}). The tensor cores then work on iteration i while the warps wait for, and
// request, the tiles of the iterations after it; the op waits for all groups but its own,
// so iteration i - 1's dot has finished when iteration i's is issued. After the loop,
// tle_gpu.dots_wait waits for the last one and gives the accumulators back.
//
// When iteration i begins, iteration i - 1's dot may still read its slots, so the copies of
// iteration i + depth go into the slot iteration i - 2 read (slots_behind = 2) and every ring
// of the loop gets one more slot: the copies stay `depth` iterations ahead. Where that slot
// does not fit in the target's shared memory, beside the kernel's buffers and the largest
// scratch any of its ops may take, or where it leaves room for fewer resident blocks per
// multiprocessor (shared memory and an estimate of the registers decide), the loop's dots
// stay synchronous.
//
// wgmma is chosen by the device library (use_wgmma in dot.cuh); the prediction here follows
// its rules, and the library's in-flight dot asserts that it holds.
#include "transforms/cuda/Passes.h"

#include "ir/KernelSettings.h"
#include "transforms/cuda/LayoutChoices.h"

#include "mlir/IR/Builders.h"

namespace tle::cuda {

#define GEN_PASS_DEF_KEEPDOTSINFLIGHT
#include "transforms/cuda/Passes.h.inc"

using namespace mlir;

namespace {

// Whether the library puts this ring as a wgmma operand in shared memory (kWgmmaLayout of
// SharedMma16Operand): A rows of 64 or 32 elements along K; B rows of 64-element blocks
// along its contiguous dimension.
bool wgmmaReadable(gpu::OperandRingType ring) {
  auto operand = cast<gpu::DotOperandLayoutAttr>(ring.getOperand().getEncoding());
  auto staged = dyn_cast<gpu::BlockedLayoutAttr>(ring.getStaged().getEncoding());
  if (!staged) return false;
  ArrayRef<int64_t> shape = ring.getStaged().getShape();  // [M, K] for A, [K, N] for B
  if (operand.getOpIdx() == 0) return wgmmaReadableA(shape[1]);
  const bool kContiguous = staged.getOrder()[0] == 0;
  auto mma = cast<gpu::MmaLayoutAttr>(operand.getParent());
  return kContiguous ? shape[0] % 64 == 0 : shape[1] % 64 == 0 && mma.getGroupN() % 32 == 0;
}

// Whether the library runs this dot on wgmma (use_wgmma in dot.cuh) with both operands in
// shared memory. (An A operand in registers is read by the running group too: it would have
// to stay untouched until the group finishes.)
bool runsOnWgmma(gpu::RingDotOp dot, const TargetInfo &target) {
  if (!target.has(Feature::Wgmma)) return false;
  auto acc = cast<RankedTensorType>(dot.getC().getType());
  auto mma = dyn_cast<gpu::MmaLayoutAttr>(acc.getEncoding());
  if (!mma || !acc.getElementType().isF32() || !wgmmaColumns(mmaWarpsOf(mma), acc.getShape()[1])) return false;
  auto a = dyn_cast<gpu::OperandRingType>(dot.getA().getType());
  return a && wgmmaReadable(a) && wgmmaReadable(dot.getB().getType());
}

// The accumulator is carried by `loop` and read by the dot alone; the dot's result only goes
// to the next iteration. Returns the carried value's index.
std::optional<unsigned> carriedAccumulator(gpu::RingDotOp dot, scf::ForOp loop) {
  auto arg = dyn_cast<BlockArgument>(dot.getC());
  if (!arg || arg.getOwner() != loop.getBody() || arg.getArgNumber() == 0 || !arg.hasOneUse()) return std::nullopt;
  if (!dot->hasOneUse()) return std::nullopt;
  OpOperand &use = *dot->getUses().begin();
  unsigned index = arg.getArgNumber() - 1;
  if (!isa<scf::YieldOp>(use.getOwner()) || use.getOwner()->getParentOp() != loop || use.getOperandNumber() != index)
    return std::nullopt;
  return index;
}

// Ops that may take scratch or staging in shared memory (KernelPrinter's useScratch and
// useStaging), at most their largest tile operand (twice for double-buffered staging).
int64_t scratchEstimate(Operation *op) {
  if (!isa<gpu::ConvertLayoutOp, gpu::StageOperandOp, gpu::StageOperandsOp, ir::TransOp, ir::ReshapeOp, ir::JoinOp, ir::SplitOp,
           ir::GatherOp, ir::ExtractTileOp, ir::InsertTileOp, ir::SortOp, ir::HistogramOp, ir::ExclusiveCumsumOp, ir::ReduceOp,
           ir::ScanOp>(op))
    return 0;
  int64_t bytes = 0;
  auto widen = [&](Type t) {
    if (auto tile = dyn_cast<RankedTensorType>(t)) bytes = std::max(bytes, ir::tileBytes(tile));
  };
  for (Type t : op->getOperandTypes()) widen(t);
  for (Type t : op->getResultTypes()) widen(t);
  return isa<gpu::StageOperandOp, gpu::StageOperandsOp>(op) ? 4 * bytes : 2 * bytes;
}

// A thread's registers, roughly: its share of the fp32 accumulators, and what ptxas was seen
// to add for addresses, masks and descriptors (56-110 on the sweep's configs).
constexpr int64_t kRegistersBesideAccumulators = 64;

class DotsInFlight {
 public:
  DotsInFlight(func::FuncOp f, const TargetInfo &target, unsigned numWarps)
      : f_(f), target_(target), threads_(static_cast<int64_t>(numWarps) * target.threadsPerWarp()) {}

  void run() {
    if (!target_.has(Feature::Wgmma)) return;
    const MemorySpaceInfo *shared = target_.memorySpace(MemorySpace::Shared);
    if (!shared) return;
    // What the kernel takes besides the rings.
    int64_t used = 0, scratch = 0;
    f_.walk([&](Operation *op) {
      if (auto alloc = dyn_cast<ir::AllocOp>(op)) {
        auto buffer = cast<ir::BufferType>(alloc.getType());
        if (buffer.getSpace() == MemorySpace::Shared) used += ir::alignTo(ir::tileBytes(buffer.getBlockType()), 16);
      } else if (auto ring = dyn_cast<gpu::OperandRingOp>(op)) {
        used += ring.getType().getSlots() * gpu::ringSlotBytes(ring.getType());
      } else {
        scratch = std::max(scratch, scratchEstimate(op));
      }
    });
    used += scratch;
    f_.walk([&](scf::ForOp loop) {
      if (!gpu::ringSlots(loop)) return;
      SmallVector<std::pair<gpu::RingDotOp, unsigned>> dots;
      for (auto dot : loop.getBody()->getOps<gpu::RingDotOp>())
        if (auto index = carriedAccumulator(dot, loop); index && runsOnWgmma(dot, target_)) dots.push_back({dot, *index});
      if (dots.empty()) return;
      SmallVector<gpu::OperandRingOp> rings = ringsOf(loop);
      int64_t extra = 0;
      for (gpu::OperandRingOp ring : rings) extra += gpu::ringSlotBytes(ring.getType());
      if (used + extra > shared->capacityBytes) return;
      // Nor when it costs a resident block: a second block hides more than the group in
      // flight does (measured: the tutorial's 128x128x64 tiles on 8 warps, 96 -> 128 KiB,
      // 0.83x -> 0.88x Triton without the slot).
      const int64_t registers = estimatedRegistersPerThread(dots);
      if (target_.blocksPerProcessor(used + extra, threads_, registers) < target_.blocksPerProcessor(used, threads_, registers)) return;
      used += extra;
      keepInFlight(loop, dots, rings);
    });
  }

 private:
  int64_t estimatedRegistersPerThread(ArrayRef<std::pair<gpu::RingDotOp, unsigned>> dots) const {
    int64_t accumulators = 0;
    for (auto [dot, index] : dots) accumulators += cast<RankedTensorType>(dot.getType()).getNumElements();
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

  void keepInFlight(scf::ForOp loop, ArrayRef<std::pair<gpu::RingDotOp, unsigned>> dots, ArrayRef<gpu::OperandRingOp> rings) {
    MLIRContext *ctx = f_.getContext();
    const int slots = *gpu::ringSlots(loop) + 1;
    for (gpu::OperandRingOp ring : rings) {
      auto type = ring.getType();
      ring.getRing().setType(gpu::OperandRingType::get(ctx, slots, type.getStaged(), type.getOperand()));
    }
    gpu::setRingSlots(loop, slots);
    loop.getBody()->walk([&](gpu::AsyncCopyOp copy) {
      if (!copy.getSlot()) copy.setSlotsBehindAttr(IntegerAttr::get(IntegerType::get(ctx, 32), 2));
    });
    SmallVector<Value> accumulators;
    for (auto [dot, index] : dots) {
      dot.setInFlight(true);
      accumulators.push_back(loop.getResult(index));
    }
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

  func::FuncOp f_;
  const TargetInfo &target_;
  int64_t threads_;
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
