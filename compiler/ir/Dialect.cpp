#include "ir/Dialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

#include "ir/TleDialect.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "ir/TleTypes.cpp.inc"

#define GET_OP_CLASSES
#include "ir/TleOps.cpp.inc"

namespace tle::ir {

using namespace mlir;

void TleDialect::initialize() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "ir/TleTypes.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "ir/TleOps.cpp.inc"
      >();
}

Type elementTypeOf(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type)) return tensor.getElementType();
  return type;
}

ArrayRef<int64_t> shapeOf(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type)) return tensor.getShape();
  return {};
}

static bool isPowerOfTwo(int64_t n) { return n > 0 && (n & (n - 1)) == 0; }

LogicalResult MakeRangeOp::verify() {
  int64_t start = getStart(), end = getEnd();
  auto type = getType();
  if (type.getRank() != 1) return emitOpError("result must be one-dimensional");
  if (end <= start) return emitOpError("end (") << end << ") must be greater than start (" << start << ")";
  if (type.getDimSize(0) != end - start)
    return emitOpError("result has ") << type.getDimSize(0) << " elements but the range has " << end - start;
  if (!isPowerOfTwo(end - start)) return emitOpError("range size ") << end - start << " is not a power of two";
  return success();
}

LogicalResult SplatOp::verify() {
  if (isa<RankedTensorType>(getSrc().getType())) return emitOpError("operand must be a scalar");
  if (getType().getElementType() != getSrc().getType())
    return emitOpError("result element type must be the operand type");
  return success();
}

LogicalResult BroadcastOp::verify() {
  auto src = getSrc().getType();
  auto dst = getType();
  if (src.getElementType() != dst.getElementType()) return emitOpError("element types differ");
  if (src.getRank() != dst.getRank()) return emitOpError("ranks differ");
  for (int64_t i = 0; i < src.getRank(); ++i)
    if (src.getDimSize(i) != dst.getDimSize(i) && src.getDimSize(i) != 1)
      return emitOpError("dimension ") << i << " of size " << src.getDimSize(i) << " cannot broadcast to "
                                       << dst.getDimSize(i);
  return success();
}

LogicalResult ExpandDimsOp::verify() {
  auto src = getSrc().getType();
  auto dst = getType();
  int64_t axis = getAxis();
  if (axis < 0 || axis > src.getRank()) return emitOpError("axis ") << axis << " out of range";
  SmallVector<int64_t> expected(src.getShape());
  expected.insert(expected.begin() + axis, 1);
  if (dst.getShape() != ArrayRef<int64_t>(expected) || dst.getElementType() != src.getElementType())
    return emitOpError("result type does not insert a unit dimension at axis ") << axis;
  return success();
}

LogicalResult AddPtrOp::verify() {
  if (shapeOf(getPtr().getType()) != shapeOf(getOffset().getType()))
    return emitOpError("pointer and offset shapes differ");
  return success();
}

static LogicalResult verifyMask(Operation *op, Type ptrType, Value mask) {
  if (mask && shapeOf(mask.getType()) != shapeOf(ptrType)) return op->emitOpError("mask shape differs from pointer shape");
  return success();
}

static LogicalResult verifyCacheAttrs(Operation *op, std::optional<StringRef> cache, std::optional<StringRef> eviction) {
  if (cache && !llvm::is_contained({"", ".ca", ".cg", ".cs", ".wb", ".wt", ".cv"}, *cache))
    return op->emitOpError("unknown cache modifier '") << *cache << "'";
  if (eviction && !llvm::is_contained({"", "evict_normal", "evict_first", "evict_last"}, *eviction))
    return op->emitOpError("unknown eviction policy '") << *eviction << "'";
  return success();
}

LogicalResult LoadOp::verify() {
  Type ptrType = getPtr().getType();
  auto pointee = cast<PointerType>(elementTypeOf(ptrType)).getPointeeType();
  if (elementTypeOf(getType()) != pointee || shapeOf(getType()) != shapeOf(ptrType))
    return emitOpError("result type must match the pointee type and pointer shape");
  if (getOther() && getOther().getType() != getType()) return emitOpError("'other' must have the result type");
  if (getOther() && !getMask()) return emitOpError("'other' needs a mask");
  if (failed(verifyMask(*this, ptrType, getMask()))) return failure();
  return verifyCacheAttrs(*this, getCache(), getEviction());
}

LogicalResult StoreOp::verify() {
  Type ptrType = getPtr().getType();
  auto pointee = cast<PointerType>(elementTypeOf(ptrType)).getPointeeType();
  if (elementTypeOf(getValue().getType()) != pointee || shapeOf(getValue().getType()) != shapeOf(ptrType))
    return emitOpError("stored value must match the pointee type and pointer shape");
  if (failed(verifyMask(*this, ptrType, getMask()))) return failure();
  return verifyCacheAttrs(*this, getCache(), getEviction());
}

}  // namespace tle::ir
