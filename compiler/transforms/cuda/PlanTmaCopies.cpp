// Which planned asynchronous copies go by TMA (the tensor memory accelerator) instead of
// cp.async: the dot-operand loads of a loop (tle_gpu.async_copy, tle-plan-async-copies) whose
// pointers address a block of a tensor descriptor (tle.descriptor_block, transposed or not:
// tl.trans of b_desc.load(...) as a dot's B). One thread then copies the whole block with a
// few instructions, where cp.async has every thread compute, hold and issue an address and a
// mask per 16-byte chunk; out-of-bounds elements read zero, as the descriptor's padding.
//
// A load qualifies when
//   - the target has TMA, the kernel is not warp-specialized (thread 0 issues the copies) and
//     TMA was not turned off (tlec --tma=off: tle_gpu.no_tma on the kernel);
//   - its block is 2-D, of 1- or 2-byte elements, in boxes TMA can write in the slot's
//     swizzled arrangement (tmaBoxFor);
//   - the descriptor's base, shape and strides are kernel arguments, constants or integer
//     arithmetic of them (the launcher encodes the tensor map before the launch), its last
//     stride is 1, and the kernel variant knows the base 16-byte aligned and the row stride a
//     multiple of 16 bytes (TMA's requirements; the generic variant keeps cp.async);
//   - every other planned copy of its loop qualifies too (a loop waits for its copies one way).
// Each such load is marked tle_gpu.tma_copy; tle-lower-tma-copies makes the copies once the
// rings exist. The tle.descriptor_block ops of other loads are dropped here (their pointers
// stand for them), so no later pass sees them.
#include "transforms/cuda/Passes.h"

#include "ir/KernelSettings.h"
#include "transforms/common/AxisInfo.h"
#include "transforms/cuda/TensorMaps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

namespace tle::cuda {

#define GEN_PASS_DEF_PLANTMACOPIES
#include "transforms/cuda/Passes.h.inc"

using namespace mlir;

namespace {

// The constant an integer value is, if it is one.
std::optional<int64_t> constantOf(Value v) {
  if (auto c = v.getDefiningOp<arith::ConstantOp>())
    if (auto i = dyn_cast<IntegerAttr>(c.getValue())) return i.getInt();
  return std::nullopt;
}

class TmaPlanner {
 public:
  TmaPlanner(func::FuncOp f, const TargetInfo &target) : f_(f), target_(target), axis_(f) {}

  void run() {
    if (target_.has(Feature::Tma) && gpu::tmaAllowed(f_) && !gpu::warpSpecializeOf(f_)) {
      f_.walk([&](scf::ForOp loop) {
        SmallVector<ir::LoadOp> copies;
        bool all = true;
        for (Operation &op : loop.getBody()->without_terminator())
          if (auto load = dyn_cast<ir::LoadOp>(op); load && gpu::isAsyncCopy(load)) {
            copies.push_back(load);
            all = all && qualifies(load);
          }
        if (all)
          for (ir::LoadOp load : copies) gpu::setTmaCopy(load, true);
      });
    }
    // The marks of loads that go otherwise are of no use to any later pass.
    SmallVector<ir::DescriptorBlockOp> blocks;
    f_.walk([&](ir::DescriptorBlockOp b) { blocks.push_back(b); });
    for (ir::DescriptorBlockOp b : blocks) {
      bool used = llvm::any_of(b->getUsers(), [](Operation *user) {
        if (isa<ir::TransOp>(user)) return llvm::any_of(user->getUsers(), [](Operation *u) { return gpu::isTmaCopy(u); });
        return gpu::isTmaCopy(user);
      });
      if (used) continue;
      b.getResult().replaceAllUsesWith(b.getPtrs());
      b.erase();
    }
  }

 private:
  bool qualifies(ir::LoadOp load) {
    auto [block, transposed] = descriptorBlockOf(load.getPtr());
    if (!block || load.getIsVolatile()) return false;
    auto ptrs = cast<RankedTensorType>(block.getPtrs().getType());
    Type element = cast<ir::PointerType>(ptrs.getElementType()).getPointeeType();
    std::optional<TmaBox> box = tmaBoxFor(ptrs.getShape(), element);
    if (!box) return false;
    if (constantOf(block.getStrides()[1]) != 1) return false;
    SmallVector<Value> parts{block.getBase()};
    parts.append(block.getShape().begin(), block.getShape().end());
    parts.append(block.getStrides().begin(), block.getStrides().end());
    if (!llvm::all_of(parts, launcherComputable)) return false;
    const int64_t bytes = element.getIntOrFloatBitWidth() / 8;
    if (axis_.lookup(block.getBase()).divisibility[0] % 16 != 0) return false;
    if ((axis_.lookup(block.getStrides()[0]).divisibility[0] * bytes) % 16 != 0) return false;
    return true;
  }

  func::FuncOp f_;
  const TargetInfo &target_;
  common::AxisAnalysis axis_;
};

struct PlanTmaCopiesPass : impl::PlanTmaCopiesBase<PlanTmaCopiesPass> {
  using PlanTmaCopiesBase::PlanTmaCopiesBase;

  void runOnOperation() override { TmaPlanner(getOperation(), ir::targetOf(getOperation(), target)).run(); }
};

}  // namespace

}  // namespace tle::cuda
