// Which loads go from global memory to shared memory asynchronously (cp.async), and how
// deep: a load of a loop body whose tile is a tl.dot operand and nothing else goes
// asynchronously when the CUDA path can copy it in 16-byte chunks straight into the
// swizzled slots that ldmatrix / wgmma read (16-bit elements; 8 consecutive, 16-byte
// aligned elements per thread in its coalesced layout; zero or no `other`; a tile that
// fills whole mma.sync operand fragments of the dot's warps). fp8 operands go only where
// wgmma will read them, which takes both operands of one format from slots, K-major (16
// consecutive elements along K per thread; a B with them along N is transposed in its
// slot): both loads of such a dot go, or neither. Such
// loads are marked tle_gpu.async_copy; their loop gets tle_gpu.async_depth = num_stages - 1 (at most 7): how
// many iterations ahead tle-prefetch-loads requests them when every dot load of the loop
// goes this way. tle-lower-async-copies then makes the copies.
//
// A loop-invariant A operand (attention's Q, loaded once before the loop) read only by dots
// whose B goes asynchronously is marked too where those dots will run on wgmma and its
// registers would not fit: it is then copied once into shared memory and every iteration's
// wgmma reads it from there. Held in registers it takes M x K / 2 / threads of them for the
// whole loop (64 at 128 x 128 on four warps), beside the dots' fp32 results. Measured on
// the attention sweep (H200): from shared memory, 128x64 tiles at d = 128 on four warps
// (registers spilled) ran 238 -> 331 TFLOP/s, but every config whose registers fit lost
// 2-11%, so registers stay the rule. "Fit" is counted against the share of two resident
// blocks: on eight warps, d = 128 with 128-row tiles (Q alone 32 registers a thread) ran
// 0.88 -> 0.97x Triton at 128x32 and 0.91 -> 0.96x at 128x64 from shared memory, while
// 64-row tiles and d = 64 (under that share) lost up to 18%.
//
// Layouts do not exist yet: the vector width and the dot's warps are predicted with the
// functions tle-assign-layouts uses (LayoutChoices.h).
#include "transforms/cuda/Passes.h"

#include "ir/KernelSettings.h"
#include "transforms/common/AxisInfo.h"
#include "transforms/cuda/LayoutChoices.h"
#include "transforms/cuda/OperandCopies.h"

namespace tle::cuda {

#define GEN_PASS_DEF_PLANASYNCCOPIES
#include "transforms/cuda/Passes.h.inc"

using namespace mlir;

namespace {

// Registers a loop of dots needs beyond its tiles, at the least: d = 128 attention with
// 128 x 32 tiles on four warps holds 224 in tiles and fits in 255 without spilling; with
// 128 x 64 tiles, 256 in tiles, it spills.
constexpr int64_t kRegistersBesideTiles = 24;

class AsyncCopyPlanner {
 public:
  AsyncCopyPlanner(func::FuncOp f, unsigned numWarps, unsigned numStages, const TargetInfo &target)
      : f_(f), numWarps_(numWarps), numStages_(numStages), target_(target), axis_(f) {}

  void run() {
    if (!target_.has(Feature::CpAsync) || !target_.has(Feature::MmaSync)) return;
    SmallVector<scf::ForOp> loops;
    f_.walk([&](scf::ForOp loop) {
      bool any = false;
      for (Operation &op : loop.getBody()->without_terminator())
        if (auto load = dyn_cast<ir::LoadOp>(op); load && copiesAsync(load)) {
          gpu::setAsyncCopy(load, true);
          any = true;
        }
      if (any) loops.push_back(loop);
    });
    int64_t residentBytes = 0;
    f_.walk([&](ir::LoadOp load) {
      if (!staysResident(load)) return;
      gpu::setAsyncCopy(load, true);
      residentBytes += slotBytes(load);
    });
    for (scf::ForOp loop : loops) setDepth(loop, residentBytes);
  }

 private:
  bool copiesAsync(ir::LoadOp load) {
    auto type = dyn_cast<RankedTensorType>(load.getType());
    if (!type || type.getRank() != 2 || load.getIsVolatile() || !isZeroOrAbsent(load.getOther())) return false;
    if (!type.getElementType().isIntOrFloat()) return false;
    const unsigned bits = type.getElementType().getIntOrFloatBitWidth();
    if (bits != 16 && !ir::isFp8(type.getElementType())) return false;
    // Only a dot reads the tile, as operand a or b.
    if (!load->hasOneUse()) return false;
    OpOperand &use = *load->getUses().begin();
    auto dot = dyn_cast<ir::DotOp>(use.getOwner());
    if (!dot || use.getOperandNumber() > 1 || dot->getBlock() != load->getBlock()) return false;
    if (cast<RankedTensorType>(dot.getType()).getRank() != 2) return false;
    if (bits == 8) return fp8OperandsCopy(dot);
    return chunked(load, type) && fillsFragments(dot, use.getOperandNumber(), type);
  }

  // Both fp8 operands of `dot` go: loads of its block read only by it, chunked along K, on a
  // dot wgmma takes (LayoutChoices' wgmmaTypes and warps), in slots it reads (K-major rows
  // of 32 or a multiple of 64 16-bit units, SharedMma16Operand's kWgmmaLayout).
  bool fp8OperandsCopy(ir::DotOp dot) {
    MmaWarps w = mmaWarpsFor(dot, numWarps_, target_);
    if (!wgmmaTypes(dot, numWarps_, target_) || w.m % 4 != 0) return false;
    const int64_t n = cast<RankedTensorType>(dot.getType()).getShape()[1];
    if (!wgmmaColumns(w, n)) return false;
    for (unsigned opIdx : {0u, 1u}) {
      auto load = dot->getOperand(opIdx).getDefiningOp<ir::LoadOp>();
      if (!load || !load->hasOneUse() || load->getBlock() != dot->getBlock() || load.getIsVolatile() ||
          !isZeroOrAbsent(load.getOther()))
        return false;
      auto type = cast<RankedTensorType>(load.getType());
      SmallVector<int64_t, 2> units = operandUnits(type.getShape(), opIdx, type.getElementType());
      if (!fillsMmaFragments(w, opIdx, units) || !wgmmaReadableAlongK(units[opIdx == 0 ? 1 : 0])) return false;
      if (!chunked(load, type, /*alongK=*/opIdx == 0 ? 1 : 0) && !transposedInSlot(load)) return false;
    }
    return true;
  }

  // An fp8 B whose 16-byte chunks run along N: copied as it is, rows of N bytes (16-bit
  // units of the 128-byte swizzle: up to 64 of them, or whole blocks of 64), and transposed
  // in its slot before the dot (gpu::slotHoldsTranspose).
  bool transposedInSlot(ir::LoadOp load) {
    auto type = cast<RankedTensorType>(load.getType());
    if (!load->hasOneUse() || load->getUses().begin()->getOperandNumber() != 1 || !isa<ir::DotOp>(load->getUses().begin()->getOwner()))
      return false;
    const int64_t nUnits = type.getShape()[1] / 2;
    return gpu::slotHoldsTranspose(type.getElementType(), 1, /*nContiguous=*/true) && type.getShape()[0] % 4 == 0 &&
           (nUnits == 8 || nUnits == 16 || nUnits == 32 || nUnits % 64 == 0) && chunked(load, type, 1);
  }

  int64_t slotBytes(ir::LoadOp load) { return gpu::slotBytes(cast<RankedTensorType>(load.getType()), transposedInSlot(load)); }

  // num_stages - 1 iterations ahead (at most kMaxAsyncDepth), or as many as the target's shared
  // memory holds: depth + 1 slots of each of the loop's copied tiles beside the resident ones
  // (the scratch and the staging come on top; the device library sizes them). Fewer than
  // asked gets a warning.
  void setDepth(scf::ForOp loop, int64_t residentBytes) {
    const int64_t stages = ir::loopNumStages(loop, numStages_);
    const int64_t asked = std::max<int64_t>(stages - 1, 1);
    if (asked > kMaxAsyncDepth)
      loop.emitWarning() << "num_stages=" << stages << " is not honoured here: tlec copies dot operands at most "
                         << kMaxAsyncDepth << " iterations ahead (num_stages=" << kMaxAsyncDepth + 1 << ")";
    const int64_t wanted = std::min(asked, kMaxAsyncDepth);
    int64_t perSlot = 0;
    for (Operation &op : loop.getBody()->without_terminator())
      if (auto load = dyn_cast<ir::LoadOp>(op); load && gpu::isAsyncCopy(load)) perSlot += slotBytes(load);
    const MemorySpaceInfo *shared = target_.memorySpace(MemorySpace::Shared);
    const int64_t capacity = shared && shared->capacityBytes > 0 ? shared->capacityBytes : std::numeric_limits<int64_t>::max() / 4;
    int64_t depth = wanted;
    while (depth > 1 && residentBytes + (depth + 1) * perSlot > capacity) --depth;
    if (depth < wanted)
      loop.emitWarning() << "num_stages=" << stages << " is not honoured here: " << wanted + 1 << " slots of this loop's dot operands ("
                         << perSlot / 1024 << " KiB each)" << (residentBytes ? " beside the operands kept in shared memory" : "")
                         << " need " << (residentBytes + (wanted + 1) * perSlot) / 1024 << " KiB of shared memory, more than a block has on "
                         << target_.name() << " (" << capacity / 1024 << " KiB); its copies go " << depth
                         << (depth == 1 ? " iteration" : " iterations") << " ahead (num_stages=" << depth + 1 << ")";
    gpu::setAsyncDepth(loop, static_cast<int>(depth));
  }

  // `load` is read only as the A of dots directly in loops of its block whose B goes
  // asynchronously; each will run on wgmma with A from shared memory (use_wgmma and
  // SharedMma16Operand's kWgmmaLayout in dot.cuh: rows of 32 or a multiple of 64 elements
  // along K); and in one of the loops the fragment would not fit in registers.
  bool staysResident(ir::LoadOp load) {
    auto type = dyn_cast<RankedTensorType>(load.getType());
    if (!target_.has(Feature::Wgmma) || !type || type.getRank() != 2 || load.getIsVolatile() || !isZeroOrAbsent(load.getOther()) ||
        load->use_empty())
      return false;
    if (!type.getElementType().isF16() && !type.getElementType().isBF16()) return false;
    bool tight = false;
    for (OpOperand &use : load->getUses()) {
      auto dot = dyn_cast<ir::DotOp>(use.getOwner());
      auto loop = dot ? dyn_cast<scf::ForOp>(dot->getParentOp()) : scf::ForOp();
      if (!dot || use.getOperandNumber() != 0 || !loop || loop->getBlock() != load->getBlock() || !load->isBeforeInBlock(loop))
        return false;
      auto b = dot.getB().getDefiningOp<ir::LoadOp>();
      if (!b || !gpu::isAsyncCopy(b) || !cast<RankedTensorType>(dot.getType()).getElementType().isF32()) return false;
      MmaWarps w = mmaWarpsFor(dot, numWarps_, target_);
      int64_t k = type.getShape()[1], n = cast<RankedTensorType>(dot.getType()).getShape()[1];
      if (!wgmmaColumns(w, n) || !wgmmaReadableAlongK(k)) return false;
      if (!fillsFragments(dot, 0, type)) return false;
      tight = tight || !fragmentFits(loop, type) || overlapOutweighsRegisters(w, type);
    }
    return tight && chunked(load, type);
  }

  // A block of one warpgroup whose dot takes one 64-row block of rows, with a fragment of 32
  // registers a thread or more (attention at d = 128): from shared memory, the fragment
  // frees the registers the chained P V dot needs to stay in flight (tle-keep-dots-in-flight
  // keeps only one A in registers), and with no other warpgroup of the block to fill the
  // gaps, that overlap is worth more than the registers. Measured on the attention sweep
  // (H200, N_CTX 4096, registers -> shared): d = 128 on 4 warps, 64-row tiles, 4 of 5 rows
  // gained 2-9% (64x64 causal 364 -> 394 TFLOP/s, 64x128 351 -> 381), one lost 1.5%; d = 64
  // (16 registers) 0 to -4%; 128-row tiles (two blocks of rows a warpgroup) -9% to +4%; 8
  // warps, where two warpgroups share the block, -10% to +5%.
  bool overlapOutweighsRegisters(MmaWarps w, RankedTensorType operand) const {
    const bool oneWarpgroup = w.m * w.n == 4;
    return oneWarpgroup && operand.getDimSize(0) == 64 && operand.getNumElements() / 2 / threads() >= 32;
  }

  // Whether `loop`'s dot results (fp32: one register per element) and an A fragment of
  // `operand` (two 16-bit elements per register) fit in a thread's share of the register
  // file with two blocks resident (at most the per-thread limit: 4 warps have it whole),
  // beside the addresses, masks and softmax state that the sweep's configs were seen to need.
  bool fragmentFits(scf::ForOp loop, RankedTensorType operand) {
    int64_t registers = operand.getNumElements() / 2;
    loop.getBody()->walk([&](ir::DotOp d) { registers += cast<RankedTensorType>(d.getType()).getNumElements(); });
    int64_t budget = target_.registersPerThread();
    if (target_.registersPerProcessor() > 0) budget = std::min(budget, target_.registersPerProcessor() / (2 * threads()));
    return registers / threads() + kRegistersBesideTiles <= budget;
  }

  // Every thread holds whole 16-byte chunks in the load's coalesced layout (along either
  // axis: dot.cuh operand_staging keeps the slot in the order the chunks arrive; `alongK`,
  // when given, the axis they must run along).
  bool chunked(ir::LoadOp load, RankedTensorType type, std::optional<unsigned> alongK = std::nullopt) {
    PredictedAccess access = predictedAccess(cast<RankedTensorType>(load.getPtr().getType()), axis_.lookup(load.getPtr()), numWarps_, target_);
    if (alongK && access.fast != *alongK) return false;
    return access.vector == operandChunkElements(type.getElementType());
  }

  // The block's threads, over which a tile's registers spread.
  int64_t threads() const { return static_cast<int64_t>(numWarps_) * target_.threadsPerWarp(); }

  // The tile covers whole mma.sync fragments of the warps the dot will have (is_mma16_operand).
  bool fillsFragments(ir::DotOp dot, unsigned opIdx, RankedTensorType type) {
    return fillsMmaFragments(mmaWarpsFor(dot, numWarps_, target_), opIdx, type.getShape());
  }

  func::FuncOp f_;
  unsigned numWarps_, numStages_;
  const TargetInfo &target_;
  common::AxisAnalysis axis_;
};

struct PlanAsyncCopiesPass : impl::PlanAsyncCopiesBase<PlanAsyncCopiesPass> {
  using PlanAsyncCopiesBase::PlanAsyncCopiesBase;

  void runOnOperation() override {
    func::FuncOp f = getOperation();
    // Operand rings synchronize the whole block at every iteration; the partitions of a
    // warp-specialized kernel move their operands through pipes instead.
    if (gpu::warpSpecializeOf(f)) return;
    AsyncCopyPlanner(f, ir::numWarps(f, numWarps), ir::numStages(f, numStages), ir::targetOf(f, target)).run();
  }
};

}  // namespace

}  // namespace tle::cuda
