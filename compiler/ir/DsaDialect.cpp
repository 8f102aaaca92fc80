#include "ir/DsaDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

#include "ir/DsaDialect.cpp.inc"

#define GET_OP_CLASSES
#include "ir/DsaOps.cpp.inc"

namespace tle::dsa {

using namespace mlir;

void TleDsaDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "ir/DsaOps.cpp.inc"
      >();
}

LogicalResult CopyOp::verify() {
  auto srcBuf = dyn_cast<ir::BufferType>(getSrc().getType()), dstBuf = dyn_cast<ir::BufferType>(getDst().getType());
  if (srcBuf && dstBuf) {  // the cube's operand path: L1 -> L0A / L0B
    if (srcBuf.getSpace() != MemorySpace::L1 || (dstBuf.getSpace() != MemorySpace::L0A && dstBuf.getSpace() != MemorySpace::L0B))
      return emitOpError("copies between buffers only move L1 to L0A or L0B");
    if (srcBuf.getBlockType() != dstBuf.getBlockType()) return emitOpError("the buffers differ in shape or element type");
    if (static_cast<int64_t>(getSizes().size()) != srcBuf.getBlockType().getRank()) return emitOpError("needs one size per dimension");
    return success();
  }
  bool toLocal = isa<ir::BufferType>(getDst().getType());
  Type global = toLocal ? getSrc().getType() : getDst().getType();
  auto buf = dyn_cast<ir::BufferType>(toLocal ? getDst().getType() : getSrc().getType());
  auto ptr = dyn_cast<ir::PointerType>(ir::elementTypeOf(global));
  if (!buf || !ptr) return emitOpError("copies between global memory (a block of pointers) and a local buffer");
  if (ptr.getPointeeType() != buf.getBlockType().getElementType()) return emitOpError("element types differ");
  if (ir::shapeOf(global) != buf.getBlockType().getShape()) return emitOpError("the pointer block and the buffer differ in shape");
  if (static_cast<int64_t>(getSizes().size()) != buf.getBlockType().getRank()) return emitOpError("needs one size per dimension");
  return success();
}

LogicalResult ElementwiseOp::verify() {
  if (!llvm::is_contained({"add", "sub", "mul", "div", "max", "min"}, getKind()))
    return emitOpError("unknown element-wise kind '") << getKind() << "'";
  for (Value v : {getLhs(), getRhs(), getOut()}) {
    auto b = cast<ir::BufferType>(v.getType());
    if (b.getSpace() != MemorySpace::UB) return emitOpError("operands must be UB buffers");
    if (b != getOut().getType()) return emitOpError("operands must have one shape and element type");
  }
  return success();
}

LogicalResult ToTensorOp::verify() { return ir::verifyWholeBufferRead(*this, getBuffer().getType(), getType()); }

LogicalResult ToBufferOp::verify() {
  if (getType().getBlockType() != getSrc().getType()) return emitOpError("buffer must have the block's shape and element type");
  return success();
}

LogicalResult MatmulOp::verify() {
  ir::BufferType a = getA().getType(), b = getB().getType(), c = getC().getType();
  if (a.getSpace() != MemorySpace::L0A || b.getSpace() != MemorySpace::L0B || c.getSpace() != MemorySpace::L0C)
    return emitOpError("operands must be in L0A and L0B and the result in L0C");
  auto ta = a.getBlockType(), tb = b.getBlockType(), tc = c.getBlockType();
  if (ta.getRank() != 2 || tb.getRank() != 2 || tc.getRank() != 2) return emitOpError("operands must be 2-D");
  if (ta.getDimSize(1) != tb.getDimSize(0)) return emitOpError("inner dimensions differ");
  if (tc.getDimSize(0) != ta.getDimSize(0) || tc.getDimSize(1) != tb.getDimSize(1)) return emitOpError("result shape must be M x N");
  if (ta.getElementType() != tb.getElementType()) return emitOpError("a and b must have one element type");
  return success();
}

LogicalResult SubviewOp::verify() {
  ir::BufferType src = getSrc().getType(), dst = getType();
  int64_t rank = src.getBlockType().getRank();
  if (static_cast<int64_t>(getOffsets().size()) != rank || static_cast<int64_t>(getSizes().size()) != rank ||
      static_cast<int64_t>(getStrides().size()) != rank)
    return emitOpError("offsets, sizes and strides must each have ") << rank << " entries";
  if (dst.getSpace() != src.getSpace() || dst.getBlockType() != RankedTensorType::get(getSizes(), src.getBlockType().getElementType()))
    return emitOpError("result must be a buffer of `sizes` in the source's space");
  for (auto [size, stride, dim] : llvm::zip(getSizes(), getStrides(), src.getBlockType().getShape()))
    if (size < 1 || stride < 1 || (size - 1) * stride >= dim) return emitOpError("sizes and strides must fit in the source");
  return success();
}

}  // namespace tle::dsa
