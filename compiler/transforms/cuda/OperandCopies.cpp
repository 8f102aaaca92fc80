#include "transforms/cuda/OperandCopies.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

namespace tle::cuda {

using namespace mlir;

bool isZeroOrAbsent(Value other) {
  if (!other) return true;
  auto c = other.getDefiningOp<arith::ConstantOp>();
  auto dense = c ? dyn_cast<DenseElementsAttr>(c.getValue()) : DenseElementsAttr();
  if (!dense || !dense.isSplat()) return false;
  Attribute v = dense.getSplatValue<Attribute>();
  if (auto f = dyn_cast<FloatAttr>(v)) return f.getValue().isPosZero();
  if (auto i = dyn_cast<IntegerAttr>(v)) return i.getValue().isZero();
  return false;
}

gpu::AsyncCopyOp createOperandCopy(OpBuilder &b, ir::LoadOp load, Value ring, IntegerAttr slot) {
  Value mask = load.getMask();
  if (auto splat = mask ? mask.getDefiningOp<ir::SplatOp>() : ir::SplatOp()) mask = splat.getSrc();
  auto copy = b.create<gpu::AsyncCopyOp>(load.getLoc(), ring, load.getPtr(), mask, /*strides=*/ValueRange(), slot,
                                           /*slots_behind=*/IntegerAttr());
  if (mask && isa<RankedTensorType>(mask.getType()) && gpu::maskPerElement(load)) gpu::setMaskPerElement(copy);
  return copy;
}

}  // namespace tle::cuda
