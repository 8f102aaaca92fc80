// Which loads go from global memory to shared memory asynchronously (cp.async), and how
// deep: a load of a loop body whose tile is a tl.dot operand and nothing else goes
// asynchronously when the CUDA path can copy it in 16-byte chunks straight into the
// swizzled slots that ldmatrix / wgmma read (16-bit elements; 8 consecutive, 16-byte
// aligned elements per thread in its coalesced layout; zero or no `other`; a tile that
// fills whole mma.sync operand fragments of the dot's warps). Such loads are marked
// tle_gpu.async_copy; their loop gets tle_gpu.async_depth = num_stages - 1 (at most 3): how
// many iterations ahead tle-prefetch-loads requests them when every dot load of the loop
// goes this way. tle-lower-async-copies then makes the copies.
//
// Layouts do not exist yet: the vector width and the dot's warps are predicted with the
// functions tle-assign-layouts uses (LayoutChoices.h).
#include "transforms/cuda/Passes.h"

#include "ir/KernelSettings.h"
#include "transforms/common/AxisInfo.h"
#include "transforms/cuda/LayoutChoices.h"

namespace tle::cuda {

#define GEN_PASS_DEF_PLANASYNCCOPIES
#include "transforms/cuda/Passes.h.inc"

using namespace mlir;

namespace {

// Tiles in shared memory are requested at most this many iterations ahead.
constexpr int64_t kMaxDepth = 3;
// cp.async moves 16-byte chunks: 8 elements of 16 bits.
constexpr unsigned kChunkElements = 8;

bool isZeroOrAbsent(Value other) {
  if (!other) return true;
  auto c = other.getDefiningOp<arith::ConstantOp>();
  auto dense = c ? dyn_cast<DenseElementsAttr>(c.getValue()) : DenseElementsAttr();
  if (!dense || !dense.isSplat()) return false;
  Attribute v = dense.getSplatValue<Attribute>();
  if (auto f = dyn_cast<FloatAttr>(v)) return f.getValue().isPosZero();
  if (auto i = dyn_cast<IntegerAttr>(v)) return i.getValue().isZero();
  return false;
}

class AsyncCopyPlanner {
 public:
  AsyncCopyPlanner(func::FuncOp f, unsigned numWarps, unsigned numStages, const TargetInfo &target)
      : f_(f), numWarps_(numWarps), numStages_(numStages), target_(target), axis_(f) {}

  void run() {
    if (!target_.has(Feature::CpAsync) || !target_.has(Feature::MmaSync)) return;
    f_.walk([&](scf::ForOp loop) {
      bool any = false;
      for (Operation &op : loop.getBody()->without_terminator())
        if (auto load = dyn_cast<ir::LoadOp>(op); load && copiesAsync(load)) {
          gpu::setAsyncCopy(load, true);
          any = true;
        }
      if (!any) return;
      int64_t stages = ir::loopNumStages(loop, numStages_);
      gpu::setAsyncDepth(loop, static_cast<int>(std::clamp<int64_t>(stages - 1, 1, kMaxDepth)));
    });
  }

 private:
  bool copiesAsync(ir::LoadOp load) {
    auto type = dyn_cast<RankedTensorType>(load.getType());
    if (!type || type.getRank() != 2 || load.getIsVolatile() || !isZeroOrAbsent(load.getOther())) return false;
    if (!type.getElementType().isIntOrFloat() || type.getElementType().getIntOrFloatBitWidth() != 16) return false;
    // Only a dot reads the tile, as operand a or b.
    if (!load->hasOneUse()) return false;
    OpOperand &use = *load->getUses().begin();
    auto dot = dyn_cast<ir::DotOp>(use.getOwner());
    if (!dot || use.getOperandNumber() > 1 || dot->getBlock() != load->getBlock()) return false;
    if (cast<RankedTensorType>(dot.getType()).getRank() != 2) return false;
    return chunked(load, type) && fillsFragments(dot, use.getOperandNumber(), type);
  }

  // Every thread holds whole 16-byte chunks in the load's coalesced layout.
  bool chunked(ir::LoadOp load, RankedTensorType type) {
    auto ptrType = cast<RankedTensorType>(load.getPtr().getType());
    common::AxisInfo info = axis_.lookup(load.getPtr());
    Coalescing c = coalescingFor(ptrType, info, numWarps_, target_);
    unsigned fast = c.order[0];
    unsigned perThread = std::max<unsigned>(1, std::min<int64_t>(c.perThread, type.getShape()[fast]));
    return vectorWidthFor(ptrType, info, fast, perThread, target_) == kChunkElements;
  }

  // The tile covers whole mma.sync fragments of the warps the dot will have (is_mma16_operand).
  bool fillsFragments(ir::DotOp dot, unsigned opIdx, RankedTensorType type) {
    ArrayRef<int64_t> shape = type.getShape();
    if (shape[0] % 16 || shape[1] % 16) return false;
    MmaWarps w = mmaWarpsFor(dot, numWarps_, target_);
    return opIdx == 0 ? shape[0] % (16 * w.m) == 0 : shape[1] % (8 * w.n) == 0;
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
