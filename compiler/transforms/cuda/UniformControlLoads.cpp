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

struct UniformControlLoadsPass : impl::UniformControlLoadsBase<UniformControlLoadsPass> {
  void runOnOperation() override {
    getOperation().walk([](ir::LoadOp load) {
      if (isa<RankedTensorType>(load.getType()) || ir::pointerSpaceOf(load.getPtr().getType()) != MemorySpace::Global) return;
      if (steersControlFlow(load.getResult())) gpu::setUniformLoad(load);
    });
  }
};

}  // namespace

}  // namespace tle::cuda
