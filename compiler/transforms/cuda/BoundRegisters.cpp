// tle-bound-registers: how many resident blocks per multiprocessor a kernel asks
// ptxas to leave registers for, printed as __launch_bounds__(threads, n) (see the pass
// description in Passes.td for the rules and the measurements behind them).
#include "transforms/cuda/Passes.h"
#include "transforms/cuda/RegisterBudget.h"

#include "ir/Dialect.h"
#include "ir/GpuDialect.h"
#include "ir/KernelSettings.h"

namespace tle::cuda {

#define GEN_PASS_DEF_BOUNDREGISTERS
#include "transforms/cuda/Passes.h.inc"

using namespace mlir;

namespace {

// Shared memory a block takes at least (tle-plan-shared-memory's plan): its buffers and
// operand rings, and the kilobyte the rings' alignment costs once scratch or staging
// precedes them (their sizes are the device library's).
int64_t sharedBytesAtLeast(func::FuncOp f) {
  gpu::SharedMemoryPlanAttr plan = gpu::sharedMemoryPlan(f);
  if (!plan) return 0;
  const bool before = plan.getScratch() || plan.getStaging() > 0;
  return plan.getBufferBytes() + plan.getSlotBytes() + (plan.getSlotBytes() > 0 && before ? 1024 : 0);
}

struct BoundRegistersPass : impl::BoundRegistersBase<BoundRegistersPass> {
  using BoundRegistersBase::BoundRegistersBase;

  void runOnOperation() override {
    func::FuncOp f = getOperation();
    // A warp-specialized kernel's registers are planned (__maxnreg__, setmaxnreg).
    if (gpu::warpSpecializeOf(f)) return;
    const TargetInfo &t = ir::targetOf(f, target);
    const int64_t threads = static_cast<int64_t>(ir::numWarps(f, numWarps)) * t.threadsPerWarp();
    if (threads <= 0 || t.registersPerThread() <= 0) return;
    const int64_t tileRegisters = estimatedDotKernelRegisters(f, t, threads);
    if (tileRegisters > t.registersPerThread()) gpu::setMinBlocksPerProcessor(f, 1);
    else if (int64_t blocks = blocksWorthAskingFor(t, threads, tileRegisters, sharedBytesAtLeast(f))) gpu::setMinBlocksPerProcessor(f, blocks);
    else if (tileRegisters == 0) boundLoopTiles(f, t, threads);
  }

  // Without dots, only loops whose tiles take most of what a few resident blocks leave are
  // bounded: left alone, ptxas gave the layer norm's 16384-column row on 8 warps 110
  // registers, one short of keeping all eight of a chunk's loads in flight.
  void boundLoopTiles(func::FuncOp f, const TargetInfo &t, int64_t threads) {
    const int64_t loopTiles = estimatedLoopTileRegisters(f, t, threads);
    if (loopTiles < kFewestRegisters || loopTiles > t.registersPerThread()) return;
    if (int64_t blocks = blocksWorthAskingFor(t, threads, loopTiles, sharedBytesAtLeast(f))) gpu::setMinBlocksPerProcessor(f, blocks);
  }
};

}  // namespace

}  // namespace tle::cuda
