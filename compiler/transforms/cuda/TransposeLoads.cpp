// tle-transpose-loads: a loaded tile that is only transposed into a dot operand
// (tl.dot(q, tl.trans(tl.load(p)))) is loaded transposed instead: the pointers (and mask and
// `other`) are transposed, which the layout assignment makes free (a transposed blocked
// layout), and the load then feeds what the transpose fed. A K tile loaded row by row for tl.dot(q, tl.trans(k)) thereby becomes the
// column-major tile a block pointer would have loaded, and can be copied asynchronously
// straight into the slots the dot reads.
#include "transforms/cuda/Passes.h"

#include "ir/Dialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"

namespace tle::cuda {

#define GEN_PASS_DEF_TRANSPOSELOADS
#include "transforms/cuda/Passes.h.inc"

using namespace mlir;

namespace {

struct TransposeLoadsPass : impl::TransposeLoadsBase<TransposeLoadsPass> {
  void runOnOperation() override {
    SmallVector<ir::TransOp> transposes;
    getOperation().walk([&](ir::TransOp t) { transposes.push_back(t); });
    for (ir::TransOp t : transposes) {
      auto load = t.getSrc().getDefiningOp<ir::LoadOp>();
      if (!load || !load->hasOneUse() || !isa<RankedTensorType>(load.getPtr().getType()) || load->getBlock() != t->getBlock()) continue;
      // Only for dot operands, which go through shared memory (or a copy's slots) anyway; a
      // transposed tile that is stored stays a coalesced load and store around a transpose.
      bool feedsDots = !t->use_empty() && llvm::all_of(t->getUses(), [](OpOperand &use) {
        return isa<ir::DotOp>(use.getOwner()) && use.getOperandNumber() < 2;
      });
      if (!feedsDots) continue;
      OpBuilder b(load);
      auto transposed = [&](Value v) -> Value {
        if (!v || !isa<RankedTensorType>(v.getType())) return v;  // a scalar `other` is the same transposed
        auto type = cast<RankedTensorType>(v.getType());
        SmallVector<int64_t> shape;
        for (int32_t from : t.getOrder()) shape.push_back(type.getShape()[from]);
        auto to = RankedTensorType::get(shape, type.getElementType());
        // A uniform tile is made in the new shape (the prefetch mask, a zero `other`).
        if (auto splat = v.getDefiningOp<ir::SplatOp>()) return b.create<ir::SplatOp>(t.getLoc(), to, splat.getSrc());
        if (auto constant = v.getDefiningOp<arith::ConstantOp>())
          if (auto dense = dyn_cast<DenseElementsAttr>(constant.getValue()); dense && dense.isSplat())
            return b.create<arith::ConstantOp>(t.getLoc(), to, dense.reshape(to));
        return b.create<ir::TransOp>(t.getLoc(), to, v, t.getOrderAttr());
      };
      // One at a time: the order of the new ops must not depend on the host compiler's.
      Value ptr = transposed(load.getPtr());
      Value mask = transposed(load.getMask());
      Value other = transposed(load.getOther());
      auto fresh = b.create<ir::LoadOp>(load.getLoc(), t.getType(), ptr, mask, other, load.getCacheAttr(), load.getEvictionAttr(),
                                        load.getIsVolatile(), load.getIsAsync());
      fresh->setDiscardableAttrs(load->getDiscardableAttrDictionary());
      t.getResult().replaceAllUsesWith(fresh.getResult());
      t->erase();
      load->erase();
    }
  }
};

}  // namespace

}  // namespace tle::cuda
