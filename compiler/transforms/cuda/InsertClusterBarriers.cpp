// Cluster barriers at a cluster kernel's start and end. A block's shared memory exists only
// while the block runs, so a block that others may reach through distributed shared memory
// (tle.remote on shared memory) must not return before they are done: every block arrives
// at a cluster barrier before it returns. A sub-mesh barrier counts arrivals in its leader
// block's shared memory; each block initializes its counters at the start, and a cluster
// barrier after that keeps other blocks from counting before the leader has initialized.
// Kernels return only at the end of their body (sema has no early return), so the barriers
// are reached by every thread of every block.
#include "transforms/cuda/Passes.h"

#include "mlir/IR/Builders.h"

namespace tle::cuda {

#define GEN_PASS_DEF_INSERTCLUSTERBARRIERS
#include "transforms/cuda/Passes.h.inc"

using namespace mlir;

namespace {

struct InsertClusterBarriersPass : impl::InsertClusterBarriersBase<InsertClusterBarriersPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.getBody().empty()) return;
    bool remoteShared = false, submesh = false;
    func.walk([&](Operation *op) {
      if (auto remote = dyn_cast<ir::RemoteOp>(op)) remoteShared |= remote.getSpace() == "cluster";
      if (auto barrier = dyn_cast<ir::DistributedBarrierOp>(op)) submesh |= barrier.getKind() == "submesh";
    });
    if (!remoteShared && !submesh) return;
    Block &body = func.getBody().front();
    auto clusterBarrier = [&](OpBuilder b, StringRef why) {
      auto barrier = b.create<ir::DistributedBarrierOp>(func.getLoc(), "cluster", ArrayRef<int64_t>{}, ArrayRef<int64_t>{});
      barrier.setReasonAttr(b.getStringAttr(why));
    };
    if (submesh) clusterBarrier(OpBuilder::atBlockBegin(&body), "every block's sub-mesh barrier counters are initialized");
    clusterBarrier(OpBuilder(body.getTerminator()),
                   "no block leaves while another may still reach its shared memory");
  }
};

}  // namespace

}  // namespace tle::cuda
