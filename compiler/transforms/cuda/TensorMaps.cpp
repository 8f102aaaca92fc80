#include "transforms/cuda/TensorMaps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace tle::cuda {

using namespace mlir;

namespace {

bool isIntegerArithmetic(Operation *op) {
  return isa<arith::AddIOp, arith::SubIOp, arith::MulIOp, arith::ExtSIOp, arith::ExtUIOp, arith::TruncIOp, arith::IndexCastOp>(op);
}

}  // namespace

bool launcherComputable(Value v) {
  if (auto arg = dyn_cast<BlockArgument>(v)) return isa<func::FuncOp>(arg.getOwner()->getParentOp());
  Operation *def = v.getDefiningOp();
  if (!def || def->getNumResults() != 1) return false;
  if (auto c = dyn_cast<arith::ConstantOp>(def)) return isa<IntegerAttr>(c.getValue());
  if (!isIntegerArithmetic(def)) return false;
  return llvm::all_of(def->getOperands(), [](Value operand) { return launcherComputable(operand); });
}

Value cloneAtEntry(OpBuilder &entry, Value v, IRMapping &cloned) {
  if (isa<BlockArgument>(v) || cloned.contains(v)) return cloned.lookupOrDefault(v);
  Operation *def = v.getDefiningOp();
  for (Value operand : def->getOperands()) cloneAtEntry(entry, operand, cloned);
  return entry.clone(*def, cloned)->getResult(0);
}

std::optional<TmaBox> tmaBoxFor(ArrayRef<int64_t> shape, Type element) {
  if (shape.size() != 2 || !element.isIntOrFloat()) return std::nullopt;
  const int64_t bytes = element.getIntOrFloatBitWidth() / 8;
  if (bytes != 1 && bytes != 2) return std::nullopt;
  TmaBox box;
  box.rows = shape[0];
  box.cols = shape[1];
  const int64_t rowBytes = box.cols * bytes;
  if (box.rows % 8 != 0 || box.rows > 256 || rowBytes % 16 != 0) return std::nullopt;
  box.boxCols = rowBytes > 128 ? 128 / bytes : box.cols;
  if (box.cols % box.boxCols != 0) return std::nullopt;
  const int64_t boxBytes = box.boxCols * bytes;
  box.swizzleBytes = boxBytes >= 32 ? static_cast<int>(boxBytes) : 0;
  return box;
}

std::pair<ir::DescriptorBlockOp, bool> descriptorBlockOf(Value ptrs) {
  bool transposed = false;
  if (auto t = ptrs.getDefiningOp<ir::TransOp>()) {
    if (t.getOrder().size() != 2 || t.getOrder()[0] != 1) return {};
    transposed = true;
    ptrs = t.getSrc();
  }
  return {ptrs.getDefiningOp<ir::DescriptorBlockOp>(), transposed};
}

}  // namespace tle::cuda
