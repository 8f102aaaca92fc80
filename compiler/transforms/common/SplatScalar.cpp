#include "transforms/common/SplatScalar.h"

#include "ir/Dialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"

namespace tle::common {

using namespace mlir;

OpFoldResult splatScalar(Value tile) {
  if (auto splat = tile.getDefiningOp<ir::SplatOp>()) return splat.getSrc();
  SplatElementsAttr dense;
  if (matchPattern(tile, m_Constant(&dense))) return dense.getSplatValue<Attribute>();
  return {};
}

Value splatScalarValue(Value tile, OpBuilder &b) {
  OpFoldResult scalar = splatScalar(tile);
  if (!scalar) return {};
  if (auto value = dyn_cast<Value>(scalar)) return value;
  return b.create<arith::ConstantOp>(tile.getLoc(), cast<TypedAttr>(cast<Attribute>(scalar)));
}

}  // namespace tle::common
