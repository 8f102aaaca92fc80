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

namespace {
TleDsaDialect &dialectOf(Operation *op) { return *op->getContext()->getOrLoadDialect<TleDsaDialect>(); }

bool isUbBuffer(Type t) {
  auto b = dyn_cast<ir::BufferType>(t);
  return b && b.getSpace() == MemorySpace::UB;
}

// A global window's element type, pointer and extents must agree with its UB buffer.
// `local` is the space the engine moving this window reaches: UB both ways, L1 in (the cube's
// operands), L0C out (its results, converted to the pointer's element type on the way).
LogicalResult verifyWindow(Operation *op, ir::BufferType buffer, Type base, Type offset, ValueRange rowStride, ValueRange extents,
                           MemorySpace cubeSpace) {
  if (buffer.getSpace() != MemorySpace::UB && buffer.getSpace() != cubeSpace)
    return op->emitOpError("moves between global memory and UB or ") << memorySpaceName(cubeSpace) << " only";
  Type pointee = cast<ir::PointerType>(base).getPointeeType();
  if (pointee != buffer.getBlockType().getElementType() && !(buffer.getSpace() == MemorySpace::L0C && isa<FloatType>(pointee)))
    return op->emitOpError("element types differ");
  int64_t rank = buffer.getBlockType().getRank();
  if (rank < 1 || rank > 2) return op->emitOpError("moves 1-D or 2-D windows");
  if (static_cast<int64_t>(extents.size()) != rank) return op->emitOpError("needs one extent per dimension");
  if (static_cast<int64_t>(rowStride.size()) != rank - 1) return op->emitOpError("needs a row stride exactly for a 2-D window");
  (void)offset;
  return success();
}
}  // namespace

std::optional<int64_t> bufferOffset(Operation *alloc) {
  if (auto v = dialectOf(alloc).getOffsetAttrHelper().getAttr(alloc)) return v.getInt();
  return std::nullopt;
}
void setBufferOffset(Operation *alloc, int64_t offset) {
  dialectOf(alloc).getOffsetAttrHelper().setAttr(alloc, IntegerAttr::get(IntegerType::get(alloc->getContext(), 64), offset));
}
int64_t memoryBytes(Operation *kernel, MemorySpace space) {
  auto dict = dialectOf(kernel).getMemoryBytesAttrHelper().getAttr(kernel);
  if (!dict) return 0;
  auto v = dict.getAs<IntegerAttr>(memorySpaceName(space));
  return v ? v.getInt() : 0;
}
void setMemoryBytes(Operation *kernel, const std::vector<std::pair<MemorySpace, int64_t>> &bytes) {
  Builder b(kernel->getContext());
  SmallVector<NamedAttribute> entries;
  for (auto [space, n] : bytes) entries.push_back(b.getNamedAttr(memorySpaceName(space), b.getI64IntegerAttr(n)));
  dialectOf(kernel).getMemoryBytesAttrHelper().setAttr(kernel, b.getDictionaryAttr(entries));
}

LogicalResult CopyInOp::verify() {
  if (getPad() && getPad().getType() != getDst().getType().getBlockType().getElementType())
    return emitOpError("the padding value must have the buffer's element type");
  return verifyWindow(*this, getDst().getType(), getBase().getType(), getOffset().getType(), getRowStride(), getExtents(),
                      MemorySpace::L1);
}

LogicalResult CopyOutOp::verify() {
  return verifyWindow(*this, getSrc().getType(), getBase().getType(), getOffset().getType(), getRowStride(), getExtents(),
                      MemorySpace::L0C);
}

LogicalResult VectorOp::verify() {
  StringRef kind = getKind();
  auto bufferInputs = llvm::count_if(getInputs(), [](Value v) { return isa<ir::BufferType>(v.getType()); });
  size_t n = getInputs().size();
  bool binary = llvm::is_contained({"add", "sub", "mul", "div", "max", "min", "and", "or"}, kind);
  bool withScalar = llvm::is_contained({"adds", "muls", "maxs", "mins"}, kind);
  bool unary = llvm::is_contained({"exp", "ln", "abs", "sqrt", "rsqrt", "reciprocal", "relu", "cast"}, kind);
  bool reduceRows = llvm::is_contained({"reduce_rows_sum", "reduce_rows_max", "reduce_rows_min"}, kind);
  bool reduceColumns = llvm::is_contained({"reduce_columns_sum", "reduce_columns_max", "reduce_columns_min"}, kind);
  bool reduce = reduceRows || llvm::is_contained({"reduce_sum", "reduce_max", "reduce_min"}, kind);
  // scan_<sum|prod|max_num|min_num|max|min>[_columns][_reverse]: tle/ascendc/scan.h
  StringRef scanKind = kind;
  bool scan = scanKind.consume_front("scan_");
  if (scan) {
    scanKind.consume_back("_reverse");
    scanKind.consume_back("_columns");
    if (!llvm::is_contained({"sum", "prod", "max_num", "min_num", "max", "min"}, scanKind) || n != 1 || bufferInputs != 1 || getCount())
      return emitOpError("'") << kind << "' is not a scan of one buffer";
  }
  // Comparisons write a bit mask (i8 buffer, one bit per element); selects read one.
  bool compareTensors = kind.starts_with("compare_"), compareScalar = kind.starts_with("compares_");
  if (compareTensors || compareScalar) {
    if (n != 2 || bufferInputs != (compareTensors ? 2 : 1) || !isa<ir::BufferType>(getInputs()[0].getType()))
      return emitOpError("'") << kind << "' compares two buffers, or a buffer and a scalar";
    if (!getOut().getType().getBlockType().getElementType().isInteger(8)) return emitOpError("a comparison writes an i8 bit mask");
    return success();
  }
  if (kind == "select" || kind == "selects") {
    if (n != 3 || !isa<ir::BufferType>(getInputs()[0].getType()) || !isa<ir::BufferType>(getInputs()[1].getType()) ||
        isa<ir::BufferType>(getInputs()[2].getType()) != (kind == "select"))
      return emitOpError("'") << kind << "' takes a bit mask, a buffer and a " << (kind == "select" ? "buffer" : "scalar");
    return success();
  }
  if (binary ? (n != 2 || bufferInputs != 2)
             : withScalar ? (n != 2 || !isa<ir::BufferType>(getInputs()[0].getType()) || bufferInputs != 1)
             : unary || reduce || reduceColumns || scan ? (n != 1 || bufferInputs != 1)
             : kind == "duplicate" || kind == "index" ? (n != 1 || bufferInputs != 0)
                                   : true)
    return emitOpError("'") << kind << "' does not take these inputs (or is not a vector instruction)";
  if (reduce != static_cast<bool>(getScratch())) return emitOpError("a scratch buffer goes with reductions only");
  if (reduce && getCount()) return emitOpError("reductions take the whole input");
  if (!isUbBuffer(getOut().getType())) return emitOpError("vector instructions write UB buffers");
  Type element = getOut().getType().getBlockType().getElementType();
  for (Value v : getInputs()) {
    if (auto b = dyn_cast<ir::BufferType>(v.getType())) {
      if (!isUbBuffer(b)) return emitOpError("vector instructions read UB buffers");
      if (kind != "cast" && b.getBlockType().getElementType() != element) return emitOpError("operands differ in element type");
      if (!reduce && !reduceColumns && b.getBlockType().getNumElements() != getOut().getType().getBlockType().getNumElements())
        return emitOpError("operands differ in element count");
    } else if (v.getType() != element) {
      return emitOpError("a scalar operand must have the buffer's element type");
    }
  }
  return success();
}

LogicalResult ReadScalarOp::verify() {
  if (!isUbBuffer(getBuffer().getType())) return emitOpError("reads a UB buffer");
  if (getType() != getBuffer().getType().getBlockType().getElementType()) return emitOpError("result must have the buffer's element type");
  return success();
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
  // The fixpipe converts the cube's float results on their way out of L0C.
  bool converts = !toLocal && buf.getSpace() == MemorySpace::L0C && isa<FloatType>(ptr.getPointeeType());
  if (ptr.getPointeeType() != buf.getBlockType().getElementType() && !converts) return emitOpError("element types differ");
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
  if (getInit() && getFresh()) return emitOpError("takes `init` or a run-time `fresh`, not both");
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
