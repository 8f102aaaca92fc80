// Pipe slots filled by cp.async. A warp-specialized producer moves tiles from global memory
// into pipe slots as `tle.store(local_ptr(slot.field), tl.load(ptrs, mask, other=0), mask)`
// (FlagTree's Sparse MLA gathers 64 KV rows, 72 KiB, per slot). Through registers, each
// thread can keep only a few 16-byte loads in flight (the producer runs on few registers after
// setmaxnreg: 96 in Sparse MLA, where each load then waited for the store of the one
// before). Such a load and store become one tle_gpu.copy_async_to_shared: every chunk's copy
// is issued at once, and the pipe commit that follows waits for them asynchronously:
//
//   tle_gpu.copy_async_to_shared %gptrs into %sptrs mask %m     (where the store was)
//   tle.pipe_commit %pipe, %i {tle_gpu.after_async_copies}
//
// A pair qualifies when the load reads global memory only for the store, both move the same
// vector width (4, 8 or 16 bytes; a vector whose mask is mixed moves element by element,
// without cp.async: a tile at a run-time edge, such as a tensor descriptor's), the pointers have one
// layout, the store writes a pipe field's buffer through tle_gpu.local_ptr, and it is followed
// in its block by a commit of that pipe with nothing in between that reads or synchronizes
// shared memory. The store's mask and the load's agree (masked-off chunks are not written),
// or the store has none and the load's `other` is zero or absent (masked-off chunks are zeroed).
#include "transforms/cuda/Passes.h"

#include "ir/KernelSettings.h"
#include "transforms/cuda/OperandCopies.h"

#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace tle::cuda {

#define GEN_PASS_DEF_ASYNCSLOTCOPIES
#include "transforms/cuda/Passes.h.inc"

using namespace mlir;

namespace {

// The pipes whose field `alloc` is.
SmallVector<ir::PipeCreateOp> pipesOf(ir::AllocOp alloc) {
  SmallVector<ir::PipeCreateOp> pipes;
  for (Operation *user : alloc->getUsers())
    if (auto pipe = dyn_cast<ir::PipeCreateOp>(user)) pipes.push_back(pipe);
  return pipes;
}

// The commit of one of `pipes` that follows `store` in its block, with nothing between that
// reads shared memory or synchronizes threads; null if there is none.
ir::PipeCommitOp commitAfter(ir::StoreOp store, ArrayRef<ir::PipeCreateOp> pipes) {
  for (Operation *op = store->getNextNode(); op; op = op->getNextNode()) {
    if (auto commit = dyn_cast<ir::PipeCommitOp>(op)) {
      Operation *pipe = commit.getPipe().getDefiningOp();
      return llvm::is_contained(pipes, pipe) ? commit : ir::PipeCommitOp();
    }
    if (isa<gpu::CopyAsyncToSharedOp>(op)) continue;
    if (auto load = dyn_cast<ir::LoadOp>(op)) {
      if (ir::pointerSpaceOf(load.getPtr().getType()) == MemorySpace::Global) continue;
      return {};
    }
    if (isa<ir::StoreOp>(op)) continue;  // another write of the slot, published by the commit too
    if (op->getNumRegions() > 0) return {};
    auto effects = dyn_cast<MemoryEffectOpInterface>(op);
    if (!effects || !effects.hasNoEffect()) return {};
  }
  return {};
}

class SlotCopies {
 public:
  explicit SlotCopies(func::FuncOp f) : f_(f) {}

  void run() {
    SmallVector<ir::StoreOp> stores;
    f_.walk([&](ir::StoreOp store) { stores.push_back(store); });
    for (ir::StoreOp store : stores) rewrite(store);
  }

 private:
  void rewrite(ir::StoreOp store) {
    auto pointers = store.getPtr().getDefiningOp<gpu::LocalPtrOp>();
    if (!pointers || !pointers.getIndices().empty() || store.getCache()) return;
    ir::AllocOp alloc = gpu::allocOf(pointers.getBuffer());
    if (!alloc) return;
    SmallVector<ir::PipeCreateOp> pipes = pipesOf(alloc);
    if (pipes.empty()) return;
    auto load = store.getValue().getDefiningOp<ir::LoadOp>();
    if (!load || !load->hasOneUse() || load.getIsVolatile() || load.getCache() || load->getBlock() != store->getBlock()) return;
    auto src = dyn_cast<RankedTensorType>(load.getPtr().getType());
    if (!src || ir::pointerSpaceOf(src) != MemorySpace::Global || src.getEncoding() != cast<RankedTensorType>(pointers.getType()).getEncoding())
      return;
    Type element = cast<ir::PointerType>(src.getElementType()).getPointeeType();
    if (!element.isIntOrFloat()) return;  // a tile of pointers stays a load and a store
    const int vec = gpu::vectorWidth(load);
    const int64_t bytes = vec * ((element.getIntOrFloatBitWidth() + 7) / 8);
    if (vec != gpu::vectorWidth(store) || (bytes != 4 && bytes != 8 && bytes != 16)) return;
    // The same chunks written, or masked-off ones zeroed.
    bool zeroFill = false;
    if (store.getMask()) {
      if (store.getMask() != load.getMask()) return;
    } else {
      if (load.getMask() && !isZeroOrAbsent(load.getOther())) return;
      zeroFill = load.getMask() != nullptr;
    }
    // Nothing between the load and the store may write what the load reads.
    if (store->getPrevNode() != load && writesBetween(load, store->getPrevNode())) return;
    ir::PipeCommitOp commit = commitAfter(store, pipes);
    if (!commit) return;
    OpBuilder b(store);
    auto copy = b.create<gpu::CopyAsyncToSharedOp>(store.getLoc(), load.getPtr(), store.getPtr(), load.getMask(), zeroFill);
    gpu::setVectorWidth(copy, vec);
    if (gpu::maskPerElement(load) || gpu::maskPerElement(store)) gpu::setMaskPerElement(copy);
    gpu::setCommitsAsyncCopies(commit);
    warnEvictionNotCopied(load, warned_);
    store.erase();
    load.erase();
  }

  func::FuncOp f_;
  llvm::DenseSet<Location> warned_;
};

struct AsyncSlotCopiesPass : impl::AsyncSlotCopiesBase<AsyncSlotCopiesPass> {
  using AsyncSlotCopiesBase::AsyncSlotCopiesBase;

  void runOnOperation() override {
    func::FuncOp f = getOperation();
    if (!gpu::warpSpecializeOf(f) || !ir::targetOf(f, target).has(Feature::CpAsync)) return;
    SlotCopies(f).run();
  }
};

}  // namespace

}  // namespace tle::cuda
