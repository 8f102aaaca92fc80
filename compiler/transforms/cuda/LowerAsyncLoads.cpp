// tle.load(is_async=True) as cp.async: the copy starts where the load was and is waited for
// before the first op of the same block that uses the value, so that the ops in between run
// while the data is in flight. Each thread copies the elements it holds into its own part of
// a staging region (register-major), so no other thread reads what it copied: no barrier.
// That needs a layout that gives every element to exactly one thread, and 4-, 8- or 16-byte
// vectors (cp.async's sizes); other asynchronous loads stay ordinary loads, with a warning.
#include "transforms/cuda/Passes.h"
#include "transforms/cuda/LayoutChoices.h"
#include "transforms/cuda/OperandCopies.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseSet.h"

namespace tle::cuda {

#define GEN_PASS_DEF_LOWERASYNCLOADS
#include "transforms/cuda/Passes.h.inc"

using namespace mlir;

namespace {

// Why `load` cannot be an asynchronous copy; empty when it can.
std::string whyNotAsync(ir::LoadOp load) {
  auto type = dyn_cast<RankedTensorType>(load.getType());
  if (!type) return "it loads a scalar";
  auto ptrs = cast<RankedTensorType>(load.getPtr().getType());
  if (ir::pointerSpaceOf(ptrs) != MemorySpace::Global) return "its pointers are not into global memory";
  auto blocked = dyn_cast_or_null<gpu::BlockedLayoutAttr>(type.getEncoding());
  if (!blocked) return "its layout is not a blocked layout";
  for (size_t d = 0; d < type.getShape().size(); ++d) {
    if (type.getShape()[d] % elementsCoveredAlong(blocked, d) != 0) return "its layout gives some elements to several threads";
  }
  int bytes = gpu::vectorWidth(load) * static_cast<int>(ir::elementBytes(type.getElementType()));
  if (bytes != 4 && bytes != 8 && bytes != 16)
    return "its accesses are " + std::to_string(bytes) + " bytes wide (cp.async copies 4, 8 or 16)";
  if (gpu::maskPerElement(load)) return "its mask may differ inside one vector";
  if (load.getIsVolatile() || load.getCache()) return "it has a cache modifier or is volatile";
  if (load.getOther() && !isa<RankedTensorType>(load.getOther().getType())) return "its `other` is not a block";
  return "";
}

struct LowerAsyncLoadsPass : impl::LowerAsyncLoadsBase<LowerAsyncLoadsPass> {
  void runOnOperation() override {
    SmallVector<ir::LoadOp> loads;
    getOperation().walk([&](ir::LoadOp load) {
      if (load.getIsAsync()) loads.push_back(load);
    });
    // Every copy starts first, so that each wait can count the copies started after its own.
    SmallVector<std::pair<ir::LoadOp, gpu::AsyncLoadOp>> started;
    llvm::DenseSet<Location> warned;  // pipelining copies a load: one warning per source load
    llvm::DenseSet<Location> evictionWarned;
    for (ir::LoadOp load : loads) {
      if (std::string why = whyNotAsync(load); !why.empty()) {
        if (warned.insert(load.getLoc()).second)
          load.emitWarning("tle.load(is_async=True) is compiled as an ordinary load: " + why);
        continue;
      }
      warnEvictionNotCopied(load, evictionWarned);
      OpBuilder b(load);
      auto start = b.create<gpu::AsyncLoadOp>(load.getLoc(), b.getI32Type(), load.getPtr(), load.getMask(),
                                              b.getI32IntegerAttr(gpu::vectorWidth(load)), IntegerAttr());
      started.push_back({load, start});
    }
    for (auto [load, start] : started) placeWait(load, start);
  }

  // The wait goes before the first op of the load's block that is, or holds, a use.
  void placeWait(ir::LoadOp load, gpu::AsyncLoadOp start) {
    Block *block = load->getBlock();
    Operation *firstUse = nullptr;
    for (Operation *user : load->getUsers()) {
      Operation *at = block->findAncestorOpInBlock(*user);
      if (at && (!firstUse || at->isBeforeInBlock(firstUse))) firstUse = at;
    }
    if (!firstUse) firstUse = block->getTerminator();
    // Copies started in between are later groups that may stay in flight (copies started
    // in nested regions are not counted: waiting for more is always safe).
    int pending = 0;
    for (Operation *op = start->getNextNode(); op && op != firstUse; op = op->getNextNode())
      if (isa<gpu::AsyncLoadOp>(op)) ++pending;
    OpBuilder b(firstUse);
    auto wait = b.create<gpu::AsyncLoadWaitOp>(load.getLoc(), load.getType(), start.getToken(), load.getMask(), load.getOther(),
                                               b.getI32IntegerAttr(pending));
    load.getResult().replaceAllUsesWith(wait.getResult());
    load.erase();
  }
};

}  // namespace

}  // namespace tle::cuda
