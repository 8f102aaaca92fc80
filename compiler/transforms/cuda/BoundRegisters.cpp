// tle-bound-registers: a kernel whose tiles cannot fit in a thread's registers is printed
// with __launch_bounds__(threads, 1) (see the pass description in Passes.td for why only
// those).
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

// Registers a thread spends on `tile`, distributed over `threads` (32-bit words; a dot
// operand is held once per warp along the other dimension).
int64_t registersOf(RankedTensorType tile, int64_t threads) {
  int64_t copies = 1;
  if (auto operand = dyn_cast<gpu::DotOperandLayoutAttr>(tile.getEncoding()))
    if (auto mma = dyn_cast<gpu::MmaLayoutAttr>(operand.getParent()))
      copies = operand.getOpIdx() == 0 ? mma.getWarpsN() : mma.getWarpsM();
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

struct BoundRegistersPass : impl::BoundRegistersBase<BoundRegistersPass> {
  using BoundRegistersBase::BoundRegistersBase;

  void runOnOperation() override {
    func::FuncOp f = getOperation();
    // A warp-specialized kernel's registers are planned (__maxnreg__, setmaxnreg).
    if (gpu::warpSpecializeOf(f)) return;
    const TargetInfo &t = ir::targetOf(f, target);
    const int64_t threads = static_cast<int64_t>(ir::numWarps(f, numWarps)) * t.threadsPerWarp();
    if (threads > 0 && t.registersPerThread() > 0 && estimatedRegisters(f, threads) > t.registersPerThread())
      gpu::setOneBlockPerProcessor(f);
  }
};

}  // namespace

}  // namespace tle::cuda
