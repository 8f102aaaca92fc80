// A thread's registers for a kernel's tiles and the resident blocks that leave room for them.
#include "transforms/cuda/RegisterBudget.h"
#include "transforms/cuda/LayoutChoices.h"

#include "ir/Dialect.h"
#include "ir/GpuDialect.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

namespace tle::cuda {

using namespace mlir;

namespace {

// How many times warps along M repeat a tile of `rows` rows (16 rows a warp).
int64_t repeatedRows(gpu::MmaLayoutAttr mma, int64_t rows) { return std::max<int64_t>(1, 16 * int64_t(mma.getWarpsM()) / rows); }

}  // namespace

int64_t registersOf(RankedTensorType tile, int64_t threads) {
  int64_t copies = 1;
  if (auto mma = dyn_cast<gpu::MmaLayoutAttr>(tile.getEncoding())) copies = repeatedRows(mma, tile.getDimSize(0));
  if (auto operand = dyn_cast<gpu::DotOperandLayoutAttr>(tile.getEncoding()))
    if (auto mma = dyn_cast<gpu::MmaLayoutAttr>(operand.getParent()))
      copies = operand.getOpIdx() == 0 ? mma.getWarpsN() * repeatedRows(mma, tile.getDimSize(0)) : mma.getWarpsM();
  const int64_t bits = tile.getElementType().getIntOrFloatBitWidth();
  return (tile.getNumElements() * copies * bits / 32 + threads - 1) / threads;
}

int64_t estimatedTileRegisters(func::FuncOp f, int64_t threads) {
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

// The load a dot operand comes from: through layout conversions, staging, transposes and
// casts, and back along a loop's carried value to what the loop yields (a load issued one
// iteration ahead).
static ir::LoadOp loadBehind(Value v) {
  for (int steps = 0; steps < 16; ++steps) {
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      auto loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp());
      if (!loop || arg.getArgNumber() == 0) return {};
      v = loop.getBody()->getTerminator()->getOperand(arg.getArgNumber() - 1);
      continue;
    }
    Operation *def = v.getDefiningOp();
    if (auto load = dyn_cast<ir::LoadOp>(def)) return load;
    if (isa<gpu::StageOperandsOp>(def)) v = def->getOperand(cast<OpResult>(v).getResultNumber());
    else if (isa<gpu::StageOperandOp, gpu::ConvertLayoutOp, ir::TransOp>(def) || (def->getNumOperands() == 1 && isa<arith::ArithDialect>(def->getDialect())))
      v = def->getOperand(0);
    else
      return {};
  }
  return {};
}

// A load narrower than the widest vector, or masked element by element: it keeps an address
// (and a predicate) per element in registers.
static bool loadsByElements(ir::LoadOp load, const TargetInfo &t) {
  return narrowerThanWidest(cast<RankedTensorType>(load.getPtr().getType()), gpu::vectorWidth(load), t) || gpu::maskPerElement(load);
}

int64_t estimatedElementwiseOperandRegisters(func::FuncOp f, const TargetInfo &t, int64_t threads) {
  llvm::DenseMap<Block *, int64_t> perBlock;
  f.walk([&](ir::DotOp dot) {
    for (Value operand : {dot.getA(), dot.getB()}) {
      auto load = loadBehind(operand);
      auto loaded = load ? dyn_cast<RankedTensorType>(load.getType()) : RankedTensorType();
      if (!loaded || !loadsByElements(load, t)) continue;
      constexpr int64_t kAddressRegisters = 2;  // a 64-bit pointer
      perBlock[dot->getBlock()] += registersOf(cast<RankedTensorType>(operand.getType()), threads) +
                                   (loaded.getNumElements() * kAddressRegisters + threads - 1) / threads;
    }
  });
  int64_t widest = 0;
  for (auto &[block, registers] : perBlock) widest = std::max(widest, registers);
  return widest;
}

int64_t estimatedDotKernelRegisters(func::FuncOp f, const TargetInfo &t, int64_t threads) {
  const int64_t dotTiles = estimatedTileRegisters(f, threads);
  return dotTiles ? dotTiles + estimatedElementwiseOperandRegisters(f, t, threads) : 0;
}

int64_t estimatedLoopTileRegisters(func::FuncOp f, const TargetInfo &t, int64_t threads) {
  auto tileRegisters = [&](Type type) -> int64_t {
    auto tile = dyn_cast<RankedTensorType>(type);
    return tile && tile.getElementType().isIntOrFloat() ? registersOf(tile, threads) : 0;
  };
  int64_t most = 0;
  bool elementwiseLoads = false;
  f.walk([&](scf::ForOp loop) {
    int64_t registers = 0;
    for (Value carried : loop.getRegionIterArgs()) registers += tileRegisters(carried.getType());
    for (Operation &op : *loop.getBody()) {
      if (!isa<ir::LoadOp, ir::LoadBlockOp, ir::DescLoadOp>(op)) continue;
      const int64_t loaded = tileRegisters(op.getResult(0).getType());
      registers += loaded;
      if (auto load = dyn_cast<ir::LoadOp>(op); load && loaded > 0) elementwiseLoads |= loadsByElements(load, t);
    }
    most = std::max(most, registers);
  });
  return elementwiseLoads ? 0 : most;
}

int64_t registerShare(const TargetInfo &t, int64_t threads, int64_t blocks) {
  if (blocks == 0) return t.registersPerThread();
  const int64_t unit = t.registerAllocationUnit();
  return std::min<int64_t>(t.registersPerThread(), t.registersPerProcessor() / (blocks * threads) / unit * unit);
}

int64_t blocksWorthAskingFor(const TargetInfo &t, int64_t threads, int64_t tileRegisters, int64_t sharedBytes) {
  if (tileRegisters == 0 || t.registersPerProcessor() == 0 || t.maxThreadsPerProcessor() == 0) return 0;
  int64_t most = t.maxThreadsPerProcessor() / threads;
  if (int64_t bySharedMemory = t.blocksPerProcessor(sharedBytes, threads, 0)) most = std::min(most, bySharedMemory);
  for (int64_t blocks = most; blocks >= 2; --blocks) {
    const int64_t share = registerShare(t, threads, blocks);
    if (share >= t.registersPerThread()) return 0;  // no limit ptxas does not have already
    if (share >= kFewestRegisters && static_cast<double>(share) >= kRegisterHeadroom * static_cast<double>(tileRegisters))
      return blocks;
  }
  return 0;
}

}  // namespace tle::cuda
