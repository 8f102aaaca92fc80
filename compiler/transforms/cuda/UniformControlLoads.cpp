#include "transforms/cuda/Passes.h"

#include "ir/Dialect.h"
#include "ir/GpuDialect.h"

namespace tle::cuda {

#define GEN_PASS_DEF_UNIFORMCONTROLLOADS
#include "transforms/cuda/Passes.h.inc"

using namespace mlir;

namespace {

// Whether `v` (a scalar) decides control flow, directly or through scalar arithmetic.
bool steersControlFlow(Value v) {
  SmallVector<Value> work = {v};
  DenseSet<Value> seen;
  while (!work.empty()) {
    Value x = work.pop_back_val();
    if (!seen.insert(x).second) continue;
    for (OpOperand &use : x.getUses()) {
      Operation *user = use.getOwner();
      if (auto branch = dyn_cast<scf::IfOp>(user); branch && use.get() == branch.getCondition()) return true;
      if (auto cond = dyn_cast<scf::ConditionOp>(user); cond && use.getOperandNumber() == 0) return true;
      if (auto loop = dyn_cast<scf::ForOp>(user); loop && use.getOperandNumber() < 3) return true;  // bounds and step
      if (user->getNumResults() == 1 && !isa<RankedTensorType>(user->getResult(0).getType()) && user->getNumRegions() == 0 &&
          !isa<ir::StoreOp, ir::AtomicRMWOp, ir::AtomicCASOp>(user))
        work.push_back(user->getResult(0));
    }
  }
  return false;
}

// Whether the kernel can see memory that another block writes while it runs. Plain accesses
// racing with other blocks' plain stores are undefined, so only these order a block after
// another: atomics outside the block's own shared memory, volatile loads (and `.cv` ones, the
// polling spelling), the distributed primitives (signals, remote memory, cluster and device
// barriers) and raw code, which may do anything.
bool readsOtherBlocksWrites(func::FuncOp f) {
  auto outsideBlock = [](Value ptr) { return ir::pointerSpaceOf(ptr.getType()) != MemorySpace::Shared; };
  WalkResult found = f.walk([&](Operation *op) {
    if (auto rmw = dyn_cast<ir::AtomicRMWOp>(op); rmw && outsideBlock(rmw.getPtr())) return WalkResult::interrupt();
    if (auto cas = dyn_cast<ir::AtomicCASOp>(op); cas && outsideBlock(cas.getPtr())) return WalkResult::interrupt();
    if (auto load = dyn_cast<ir::LoadOp>(op); load && (load.getIsVolatile() || load.getCache() == ".cv"))
      return WalkResult::interrupt();
    if (isa<ir::WaitOp, ir::NotifyOp, ir::SymmAtOp, ir::RemoteOp, ir::DistributedBarrierOp, ir::RawCallOp>(op))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return found.wasInterrupted();
}

struct UniformControlLoadsPass : impl::UniformControlLoadsBase<UniformControlLoadsPass> {
  void runOnOperation() override {
    // Without such an op every thread reads the same value, and a read by thread 0 shared
    // through the scratch costs two barriers per load, one load after another (the TopK
    // selector's row bounds at the start of each block: two trips to memory instead of one).
    if (!readsOtherBlocksWrites(getOperation())) return;
    getOperation().walk([](ir::LoadOp load) {
      if (isa<RankedTensorType>(load.getType()) || ir::pointerSpaceOf(load.getPtr().getType()) != MemorySpace::Global) return;
      if (steersControlFlow(load.getResult())) gpu::setUniformLoad(load);
    });
  }
};

}  // namespace

}  // namespace tle::cuda
