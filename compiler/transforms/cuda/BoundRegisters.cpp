// tle-bound-registers: how many resident blocks per multiprocessor a kernel with dots asks
// ptxas to leave registers for, printed as __launch_bounds__(threads, n) (see the pass
// description in Passes.td for the rules and the measurements behind them).
#include "transforms/cuda/Passes.h"

#include "ir/Dialect.h"
#include "ir/GpuDialect.h"
#include "ir/KernelSettings.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

namespace tle::cuda {

#define GEN_PASS_DEF_BOUNDREGISTERS
#include "transforms/cuda/Passes.h.inc"

using namespace mlir;

namespace {

// How many times warps along M repeat a tile of `rows` rows (16 rows a warp).
int64_t repeatedRows(gpu::MmaLayoutAttr mma, int64_t rows) { return std::max<int64_t>(1, 16 * int64_t(mma.getWarpsM()) / rows); }

// Registers a thread spends on `tile`, distributed over `threads` (32-bit words; a dot
// operand is held once per warp along the other dimension, and warps past an Mma tile's rows
// hold its rows again).
int64_t registersOf(RankedTensorType tile, int64_t threads) {
  int64_t copies = 1;
  if (auto mma = dyn_cast<gpu::MmaLayoutAttr>(tile.getEncoding())) copies = repeatedRows(mma, tile.getDimSize(0));
  if (auto operand = dyn_cast<gpu::DotOperandLayoutAttr>(tile.getEncoding()))
    if (auto mma = dyn_cast<gpu::MmaLayoutAttr>(operand.getParent()))
      copies = operand.getOpIdx() == 0 ? mma.getWarpsN() * repeatedRows(mma, tile.getDimSize(0)) : mma.getWarpsM();
  const int64_t bits = tile.getElementType().getIntOrFloatBitWidth();
  return (tile.getNumElements() * copies * bits / 32 + threads - 1) / threads;
}

// The dots' accumulators of each block (the dots of one loop body are live together) and,
// once, every A operand held in registers from outside its dot's block (attention's Q).
int64_t estimatedRegisters(func::FuncOp f, int64_t threads) {
  llvm::DenseMap<Block *, int64_t> accumulators;
  llvm::DenseSet<Value> invariantOperands;
  int64_t invariant = 0;
  auto count = [&](Operation *dot, Value a, Value result) {
    accumulators[dot->getBlock()] += registersOf(cast<RankedTensorType>(result.getType()), threads);
    auto type = dyn_cast<RankedTensorType>(a.getType());
    Block *home = a.getDefiningOp() ? a.getDefiningOp()->getBlock() : cast<BlockArgument>(a).getOwner();
    if (type && home != dot->getBlock() && invariantOperands.insert(a).second) invariant += registersOf(type, threads);
  };
  f.walk([&](Operation *op) {
    if (auto dot = dyn_cast<ir::DotOp>(op)) count(dot, dot.getA(), dot.getResult());
    else if (auto ringDot = dyn_cast<gpu::RingDotOp>(op)) count(ringDot, ringDot.getA(), ringDot.getResult());
  });
  int64_t widest = 0;
  for (auto &[block, registers] : accumulators) widest = std::max(widest, registers);
  return widest + invariant;
}

// Shared memory a block takes at least (tle-plan-shared-memory's plan): its buffers and
// operand rings, and the kilobyte the rings' alignment costs once scratch or staging
// precedes them (their sizes are the device library's).
int64_t sharedBytesAtLeast(func::FuncOp f) {
  gpu::SharedMemoryPlanAttr plan = gpu::sharedMemoryPlan(f);
  if (!plan) return 0;
  const bool before = plan.getScratch() || plan.getStaging() > 0;
  return plan.getBufferBytes() + plan.getSlotBytes() + (plan.getSlotBytes() > 0 && before ? 1024 : 0);
}

// A block count is worth asking for when each thread's share of the register file keeps at
// least this multiple of the tiles' estimate, and this many registers: below either, ptxas
// spilled on the attention sweep (96-200 bytes, 15-35% slower) where above them it did not.
constexpr double kRegisterHeadroom = 1.3;
constexpr int64_t kFewestRegisters = 80;

// The most resident blocks that shared memory, the threads and the register file allow
// with room for the tiles, if that asks ptxas for fewer registers than it may take: 0 when
// no such count is worth asking for.
int64_t blocksWorthAskingFor(func::FuncOp f, const TargetInfo &t, int64_t threads, int64_t tileRegisters) {
  if (tileRegisters == 0 || t.registersPerProcessor() == 0 || t.maxThreadsPerProcessor() == 0) return 0;
  int64_t most = t.maxThreadsPerProcessor() / threads;
  if (int64_t bySharedMemory = t.blocksPerProcessor(sharedBytesAtLeast(f), threads, 0)) most = std::min(most, bySharedMemory);
  const int64_t unit = t.registerAllocationUnit();
  for (int64_t blocks = most; blocks >= 2; --blocks) {
    const int64_t share = t.registersPerProcessor() / (blocks * threads) / unit * unit;
    if (share >= t.registersPerThread()) return 0;  // no limit ptxas does not have already
    if (share >= kFewestRegisters && static_cast<double>(share) >= kRegisterHeadroom * static_cast<double>(tileRegisters))
      return blocks;
  }
  return 0;
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
    const int64_t tileRegisters = estimatedRegisters(f, threads);
    if (tileRegisters > t.registersPerThread()) gpu::setMinBlocksPerProcessor(f, 1);
    else if (int64_t blocks = blocksWorthAskingFor(f, t, threads, tileRegisters)) gpu::setMinBlocksPerProcessor(f, blocks);
  }
};

}  // namespace

}  // namespace tle::cuda
