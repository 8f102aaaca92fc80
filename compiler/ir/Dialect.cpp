#include "ir/Dialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

#include "ir/TleDialect.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "ir/TleTypes.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "ir/TleAttrs.cpp.inc"

#define GET_OP_CLASSES
#include "ir/TleOps.cpp.inc"

namespace tle::ir {

using namespace mlir;

void TleDialect::initialize() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "ir/TleTypes.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "ir/TleAttrs.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "ir/TleOps.cpp.inc"
      >();
}

Operation *TleDialect::materializeConstant(OpBuilder &builder, Attribute value, Type type, Location loc) {
  if (auto typed = dyn_cast<TypedAttr>(value); typed && arith::ConstantOp::isBuildableWith(typed, type))
    return builder.create<arith::ConstantOp>(loc, type, typed);
  return nullptr;
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

OpFoldResult SplatOp::fold(FoldAdaptor adaptor) {
  Attribute value = adaptor.getSrc();
  if (value && (isa<IntegerAttr>(value) || isa<FloatAttr>(value)) && !getType().getEncoding())
    return DenseElementsAttr::get(getType(), value);
  return {};
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

// Is `t` a tensor of `shape` and `element` in any layout (layout assignment may give results
// and operands different ones), or, for an empty shape, the scalar `element`?
static bool hasShapeAndElement(Type t, ArrayRef<int64_t> shape, Type element) {
  if (shape.empty()) return t == element;
  auto tensor = dyn_cast<RankedTensorType>(t);
  return tensor && tensor.getShape() == shape && tensor.getElementType() == element;
}

static int64_t numElements(ArrayRef<int64_t> shape) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

LogicalResult ReshapeOp::verify() {
  auto src = getSrc().getType();
  auto dst = getType();
  if (src.getElementType() != dst.getElementType()) return emitOpError("element types differ");
  if (numElements(src.getShape()) != numElements(dst.getShape()))
    return emitOpError("reshape changes the number of elements from ") << numElements(src.getShape()) << " to "
                                                                        << numElements(dst.getShape());
  return success();
}

LogicalResult TransOp::verify() {
  auto src = getSrc().getType();
  auto dst = getType();
  ArrayRef<int32_t> order = getOrder();
  if (static_cast<int64_t>(order.size()) != src.getRank()) return emitOpError("order must list every dimension once");
  SmallVector<bool> seen(order.size(), false);
  SmallVector<int64_t> shape;
  for (int32_t d : order) {
    if (d < 0 || d >= src.getRank() || seen[d]) return emitOpError("order must be a permutation of the dimensions");
    seen[d] = true;
    shape.push_back(src.getDimSize(d));
  }
  if (dst.getShape() != ArrayRef<int64_t>(shape) || dst.getElementType() != src.getElementType())
    return emitOpError("result type does not match the permuted operand");
  return success();
}

LogicalResult BlockedLayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError, ArrayRef<unsigned> sizePerThread,
                                        ArrayRef<unsigned> threadsPerWarp, ArrayRef<unsigned> warpsPerCTA,
                                        ArrayRef<unsigned> order) {
  size_t rank = order.size();
  if (sizePerThread.size() != rank || threadsPerWarp.size() != rank || warpsPerCTA.size() != rank)
    return emitError() << "blocked layout parameters must all have the rank's length";
  unsigned lanes = 1;
  for (unsigned t : threadsPerWarp) lanes *= t;
  if (lanes != 32) return emitError() << "threadsPerWarp must multiply to 32, not " << lanes;
  for (unsigned v : llvm::concat<const unsigned>(sizePerThread, threadsPerWarp, warpsPerCTA))
    if (!isPowerOfTwo(v)) return emitError() << "blocked layout sizes must be powers of two";
  return success();
}

LogicalResult ConvertLayoutOp::verify() {
  auto src = getSrc().getType(), dst = getType();
  if (src.getShape() != dst.getShape() || src.getElementType() != dst.getElementType())
    return emitOpError("must keep the shape and element type");
  return success();
}

// tle.reduce and tle.scan: the region takes (accumulated..., new...) element scalars.
static LogicalResult verifyCombineRegion(Operation *op, Region &region, ValueRange srcs) {
  Block &body = region.front();
  if (body.getNumArguments() != 2 * srcs.size()) return op->emitOpError("the combine region takes 2 arguments per operand");
  for (auto [i, src] : llvm::enumerate(srcs)) {
    Type e = cast<RankedTensorType>(src.getType()).getElementType();
    if (body.getArgument(i).getType() != e || body.getArgument(i + srcs.size()).getType() != e)
      return op->emitOpError("combine region argument types must be the operands' element types");
  }
  return success();
}

LogicalResult ReduceOp::verify() {
  if (getSrcs().empty()) return emitOpError("needs at least one operand");
  auto first = cast<RankedTensorType>(getSrcs()[0].getType());
  int64_t axis = getAxis();
  if (axis < 0 || axis >= first.getRank()) return emitOpError("axis ") << axis << " out of range";
  SmallVector<int64_t> shape(first.getShape());
  shape.erase(shape.begin() + axis);
  if (getResults().size() != getSrcs().size()) return emitOpError("needs one result per operand");
  for (auto [src, res] : llvm::zip(getSrcs(), getResults())) {
    auto t = cast<RankedTensorType>(src.getType());
    if (t.getShape() != first.getShape()) return emitOpError("operands must have one shape");
    Type expected = shape.empty() ? t.getElementType() : Type(RankedTensorType::get(shape, t.getElementType()));
    // Layout encodings (set by the CUDA layout pass) may differ: compare shape and type.
    if (elementTypeOf(res.getType()) != t.getElementType() || shapeOf(res.getType()) != ArrayRef<int64_t>(shape) ||
        isa<RankedTensorType>(res.getType()) != !shape.empty())
      return emitOpError("result type must be ") << expected;
  }
  return verifyCombineRegion(*this, getCombineOp(), getSrcs());
}

LogicalResult DotOp::verify() {
  auto a = getA().getType(), b = getB().getType(), c = getC().getType();
  if (a.getRank() != b.getRank() || a.getRank() != c.getRank() || a.getRank() < 2 || a.getRank() > 3)
    return emitOpError("operands must all be 2-D (or all 3-D for batched dots)");
  int64_t r = a.getRank();
  int64_t m = a.getDimSize(r - 2), k = a.getDimSize(r - 1), k2 = b.getDimSize(r - 2), n = b.getDimSize(r - 1);
  if (k != k2) return emitOpError("inner dimensions differ: ") << k << " and " << k2;
  if (c.getDimSize(r - 2) != m || c.getDimSize(r - 1) != n) return emitOpError("accumulator shape must be ") << m << "x" << n;
  if (getType() != c) return emitOpError("result type must be the accumulator type");
  if (a.getElementType() != b.getElementType()) return emitOpError("a and b must have one element type");
  StringRef p = getInputPrecision();
  if (p != "ieee" && p != "tf32" && p != "tf32x3") return emitOpError("unknown input precision '") << p << "'";
  return success();
}

static LogicalResult verifyAtomicAttrs(Operation *op, StringRef sem, StringRef scope) {
  if (!llvm::is_contained({"relaxed", "acquire", "release", "acq_rel"}, sem))
    return op->emitOpError("unknown memory semantics '") << sem << "'";
  if (!llvm::is_contained({"gpu", "cta", "sys"}, scope)) return op->emitOpError("unknown scope '") << scope << "'";
  return success();
}

LogicalResult AtomicRMWOp::verify() {
  if (!llvm::is_contained({"add", "fadd", "max", "umax", "min", "umin", "and", "or", "xor", "xchg"}, getKind()))
    return emitOpError("unknown atomic kind '") << getKind() << "'";
  auto pointee = cast<PointerType>(elementTypeOf(getPtr().getType())).getPointeeType();
  if (getVal().getType() != getType() || elementTypeOf(getType()) != pointee ||
      shapeOf(getType()) != shapeOf(getPtr().getType()))
    return emitOpError("value and result must match the pointee type and pointer shape");
  if (failed(verifyMask(*this, getPtr().getType(), getMask()))) return failure();
  return verifyAtomicAttrs(*this, getSem(), getScope());
}

LogicalResult AtomicCASOp::verify() {
  auto pointee = cast<PointerType>(elementTypeOf(getPtr().getType())).getPointeeType();
  if (getCmp().getType() != getType() || getVal().getType() != getType() || elementTypeOf(getType()) != pointee ||
      shapeOf(getType()) != shapeOf(getPtr().getType()))
    return emitOpError("compare value, new value and result must match the pointee type and pointer shape");
  return verifyAtomicAttrs(*this, getSem(), getScope());
}

static LogicalResult verifyBoundaryCheck(Operation *op, ArrayRef<int32_t> dims, int64_t rank) {
  for (int32_t d : dims)
    if (d < 0 || d >= rank) return op->emitOpError("boundary_check dimension ") << d << " out of range";
  return success();
}

LogicalResult MakeBlockPtrOp::verify() {
  RankedTensorType block = getType().getBlockType();
  int64_t rank = block.getRank();
  if (static_cast<int64_t>(getShape().size()) != rank || static_cast<int64_t>(getStrides().size()) != rank ||
      static_cast<int64_t>(getOffsets().size()) != rank || static_cast<int64_t>(getOrder().size()) != rank)
    return emitOpError("shape, strides, offsets and order must each have ") << rank << " entries";
  if (getBase().getType().getPointeeType() != block.getElementType())
    return emitOpError("the block's element type must be the base pointer's pointee type");
  SmallVector<bool> seen(rank, false);
  for (int32_t d : getOrder()) {
    if (d < 0 || d >= rank || seen[d]) return emitOpError("order must be a permutation of the dimensions");
    seen[d] = true;
  }
  return success();
}

LogicalResult AdvanceOp::verify() {
  if (static_cast<int64_t>(getOffsets().size()) != getPtr().getType().getBlockType().getRank())
    return emitOpError("needs one offset per dimension");
  return success();
}

LogicalResult LoadBlockOp::verify() {
  RankedTensorType block = getPtr().getType().getBlockType();
  if (getType() != block) return emitOpError("result type must be the block type ") << block;
  if (getPadding() && *getPadding() != "zero" && *getPadding() != "nan")
    return emitOpError("padding must be 'zero' or 'nan'");
  if (failed(verifyBoundaryCheck(*this, getBoundaryCheck(), block.getRank()))) return failure();
  return verifyCacheAttrs(*this, getCache(), getEviction());
}

LogicalResult StoreBlockOp::verify() {
  RankedTensorType block = getPtr().getType().getBlockType();
  if (getValue().getType() != block) return emitOpError("stored value must have the block type ") << block;
  if (failed(verifyBoundaryCheck(*this, getBoundaryCheck(), block.getRank()))) return failure();
  return verifyCacheAttrs(*this, getCache(), getEviction());
}

static LogicalResult verifyTile(Operation *op, RankedTensorType src, RankedTensorType tile, ArrayRef<int64_t> offsets) {
  if (src.getRank() != tile.getRank() || static_cast<int64_t>(offsets.size()) != src.getRank())
    return op->emitOpError("source, tile and offsets must have one rank");
  if (src.getElementType() != tile.getElementType()) return op->emitOpError("element types differ");
  for (int64_t i = 0; i < src.getRank(); ++i) {
    int64_t s = src.getDimSize(i), t = tile.getDimSize(i), o = offsets[i];
    if (t <= 0 || s % t != 0) return op->emitOpError("source dimension ") << i << " (" << s << ") is not divisible by the tile dimension (" << t << ")";
    if (o < 0 || o % t != 0 || o + t > s)
      return op->emitOpError("offset ") << o << " in dimension " << i << " is not a tile boundary inside the source";
  }
  return success();
}

LogicalResult ExtractTileOp::verify() { return verifyTile(*this, getSrc().getType(), getType(), getOffsets()); }

LogicalResult InsertTileOp::verify() {
  return verifyTile(*this, getSrc().getType(), getTile().getType(), getOffsets());
}

LogicalResult ExclusiveCumsumOp::verify() {
  auto src = getSrc().getType();
  int64_t axis = getAxis();
  if (axis < 0 || axis >= src.getRank()) return emitOpError("axis ") << axis << " out of range";
  if (!hasShapeAndElement(getExclusive().getType(), src.getShape(), src.getElementType()))
    return emitOpError("the exclusive sums must have the operand type");
  SmallVector<int64_t> shape(src.getShape());
  shape.erase(shape.begin() + axis);
  Type total = shape.empty() ? src.getElementType() : Type(RankedTensorType::get(shape, src.getElementType()));
  if (!hasShapeAndElement(getTotal().getType(), shape, src.getElementType())) return emitOpError("the total must have type ") << total;
  return success();
}

LogicalResult AllocOp::verify() {
  BufferType t = getType();
  for (int64_t d : t.getBlockType().getShape())
    if (d <= 0) return emitOpError("buffer dimensions must be positive");
  if (!llvm::is_contained({"smem", "UB", "L1", "L0A", "L0B", "L0C"}, t.getSpace()))
    return emitOpError("unknown memory space '") << t.getSpace() << "'";
  return success();
}

LogicalResult LocalPtrOp::verify() {
  BufferType buf = getBuffer().getType();
  if (buf.getSpace() != "smem" && buf.getSpace() != "dsmem") return emitOpError("needs a shared-memory buffer");
  RankedTensorType block = buf.getBlockType();
  auto ptr = dyn_cast<PointerType>(elementTypeOf(getType()));
  int addressSpace = buf.getSpace() == "smem" ? 3 : 7;
  if (!ptr || ptr.getPointeeType() != block.getElementType() || ptr.getAddressSpace() != addressSpace)
    return emitOpError("result must be shared-memory pointers (address space 3, 7 for a remote buffer) to the buffer's element type");
  if (getIndices().empty()) {
    if (shapeOf(getType()) != block.getShape()) return emitOpError("without indices the result has the buffer's shape");
    return success();
  }
  if (static_cast<int64_t>(getIndices().size()) != block.getRank())
    return emitOpError("needs ") << block.getRank() << " indices, got " << getIndices().size();
  ArrayRef<int64_t> shape = shapeOf(getIndices()[0].getType());
  for (Value i : getIndices()) {
    if (!isa<IntegerType>(elementTypeOf(i.getType()))) return emitOpError("indices must be integers");
    if (shapeOf(i.getType()) != shape) return emitOpError("indices must all have one shape");
  }
  if (shapeOf(getType()) != shape) return emitOpError("result shape must be the indices' shape");
  return success();
}

LogicalResult CopyOp::verify() {
  bool toLocal = isa<BufferType>(getDst().getType());
  Type global = toLocal ? getSrc().getType() : getDst().getType();
  Type local = toLocal ? getDst().getType() : getSrc().getType();
  auto buf = dyn_cast<BufferType>(local);
  auto ptr = dyn_cast<PointerType>(elementTypeOf(global));
  if (!buf || !ptr || isa<BufferType>(global))
    return emitOpError("one operand must be a block of global pointers and the other a buffer");
  if (ptr.getPointeeType() != buf.getBlockType().getElementType()) return emitOpError("element types differ");
  if (shapeOf(global) != buf.getBlockType().getShape()) return emitOpError("the pointer block and the buffer differ in shape");
  return success();
}

LogicalResult LocalLoadOp::verify() {
  RankedTensorType block = getBuffer().getType().getBlockType();
  if (!hasShapeAndElement(getType(), block.getShape(), block.getElementType()))
    return emitOpError("result must have the buffer's shape and element type");
  return success();
}

LogicalResult DsaCopyOp::verify() {
  auto srcBuf = dyn_cast<BufferType>(getSrc().getType()), dstBuf = dyn_cast<BufferType>(getDst().getType());
  if (srcBuf && dstBuf) {  // the cube's operand path: L1 -> L0A / L0B
    if (srcBuf.getSpace() != "L1" || (dstBuf.getSpace() != "L0A" && dstBuf.getSpace() != "L0B"))
      return emitOpError("copies between buffers only move L1 to L0A or L0B");
    if (srcBuf.getBlockType() != dstBuf.getBlockType()) return emitOpError("the buffers differ in shape or element type");
    if (static_cast<int64_t>(getSizes().size()) != srcBuf.getBlockType().getRank()) return emitOpError("needs one size per dimension");
    return success();
  }
  bool toLocal = isa<BufferType>(getDst().getType());
  Type global = toLocal ? getSrc().getType() : getDst().getType();
  auto buf = dyn_cast<BufferType>(toLocal ? getDst().getType() : getSrc().getType());
  auto ptr = dyn_cast<PointerType>(elementTypeOf(global));
  if (!buf || !ptr) return emitOpError("copies between global memory (a block of pointers) and a local buffer");
  if (ptr.getPointeeType() != buf.getBlockType().getElementType()) return emitOpError("element types differ");
  if (shapeOf(global) != buf.getBlockType().getShape()) return emitOpError("the pointer block and the buffer differ in shape");
  if (static_cast<int64_t>(getSizes().size()) != buf.getBlockType().getRank()) return emitOpError("needs one size per dimension");
  return success();
}

LogicalResult DsaElementwiseOp::verify() {
  if (!llvm::is_contained({"add", "sub", "mul", "div", "max", "min"}, getKind()))
    return emitOpError("unknown element-wise kind '") << getKind() << "'";
  for (Value v : {getLhs(), getRhs(), getOut()}) {
    auto b = cast<BufferType>(v.getType());
    if (b.getSpace() != "UB") return emitOpError("operands must be UB buffers");
    if (b != getOut().getType()) return emitOpError("operands must have one shape and element type");
  }
  return success();
}

LogicalResult ToTensorOp::verify() {
  RankedTensorType block = getBuffer().getType().getBlockType();
  if (!hasShapeAndElement(getType(), block.getShape(), block.getElementType()))
    return emitOpError("result must have the buffer's shape and element type");
  return success();
}

LogicalResult ToBufferOp::verify() {
  if (getType().getBlockType() != getSrc().getType()) return emitOpError("buffer must have the block's shape and element type");
  return success();
}

static LogicalResult verifySignalPointer(Operation *op, Type ptrType) {
  auto ptr = cast<PointerType>(elementTypeOf(ptrType));
  if (!ptr.getPointeeType().isSignlessInteger(32) && !ptr.getPointeeType().isSignlessInteger(64))
    return op->emitOpError("signals are 32- or 64-bit integers");
  return success();
}

LogicalResult WaitOp::verify() {
  if (!llvm::is_contained({"gpu", "sys"}, getScope())) return emitOpError("scope must be 'gpu' or 'sys'");
  if (!llvm::is_contained({"acquire", "relaxed"}, getSemantic())) return emitOpError("semantic must be 'acquire' or 'relaxed'");
  return verifySignalPointer(*this, getPtr().getType());
}

LogicalResult NotifyOp::verify() {
  if (!llvm::is_contained({"set", "add"}, getSigOp())) return emitOpError("sig_op must be 'set' or 'add'");
  if (!llvm::is_contained({"gpu", "sys"}, getScope())) return emitOpError("scope must be 'gpu' or 'sys'");
  return verifySignalPointer(*this, getPtr().getType());
}

LogicalResult ScanOp::verify() {
  if (getSrcs().empty()) return emitOpError("needs at least one operand");
  auto first = cast<RankedTensorType>(getSrcs()[0].getType());
  int64_t axis = getAxis();
  if (axis < 0 || axis >= first.getRank()) return emitOpError("axis ") << axis << " out of range";
  if (getResults().size() != getSrcs().size()) return emitOpError("needs one result per operand");
  for (auto [src, res] : llvm::zip(getSrcs(), getResults())) {
    if (cast<RankedTensorType>(src.getType()).getShape() != first.getShape()) return emitOpError("operands must have one shape");
    if (res.getType() != src.getType()) return emitOpError("each result must have its operand's type");
  }
  return verifyCombineRegion(*this, getCombineOp(), getSrcs());
}

LogicalResult JoinOp::verify() {
  auto lhs = getLhs().getType();
  if (getRhs().getType() != lhs) return emitOpError("operands must have one type");
  SmallVector<int64_t> shape(lhs.getShape());
  shape.push_back(2);
  if (!hasShapeAndElement(getType(), shape, lhs.getElementType()))
    return emitOpError("result must be the operand type with a minor dimension of 2");
  return success();
}

LogicalResult SplitOp::verify() {
  auto src = getSrc().getType();
  if (src.getRank() < 1 || src.getDimSize(src.getRank() - 1) != 2)
    return emitOpError("the operand's minor dimension must have size 2");
  ArrayRef<int64_t> shape = src.getShape().drop_back();
  Type half = shape.empty() ? src.getElementType() : Type(RankedTensorType::get(shape, src.getElementType()));
  if (!hasShapeAndElement(getLhs().getType(), shape, src.getElementType()) ||
      !hasShapeAndElement(getRhs().getType(), shape, src.getElementType()))
    return emitOpError("results must have type ") << half;
  return success();
}

LogicalResult GatherOp::verify() {
  auto src = getSrc().getType();
  auto idx = getIndices().getType();
  int64_t axis = getAxis();
  if (src.getRank() != idx.getRank()) return emitOpError("source and indices must have one rank");
  if (axis < 0 || axis >= src.getRank()) return emitOpError("axis ") << axis << " out of range";
  for (int64_t d = 0; d < src.getRank(); ++d)
    if (d != axis && src.getDimSize(d) != idx.getDimSize(d))
      return emitOpError("indices dimension ") << d << " must equal the source's";
  if (!hasShapeAndElement(getType(), idx.getShape(), src.getElementType()))
    return emitOpError("result must have the indices' shape and the source's element type");
  return success();
}

LogicalResult PrintOp::verify() {
  if (getIsSigned().size() != getArgs().size()) return emitOpError("needs one isSigned entry per operand");
  return success();
}

LogicalResult MakeTensorDescOp::verify() {
  RankedTensorType block = getType().getBlockType();
  int64_t rank = block.getRank();
  if (rank < 1 || rank > 5) return emitOpError("descriptors have 1 to 5 dimensions");
  if (static_cast<int64_t>(getShape().size()) != rank || static_cast<int64_t>(getStrides().size()) != rank)
    return emitOpError("shape and strides must each have ") << rank << " entries";
  if (getBase().getType().getPointeeType() != block.getElementType())
    return emitOpError("the block's element type must be the base pointer's pointee type");
  if (getPadding() != "zero" && getPadding() != "nan") return emitOpError("padding must be 'zero' or 'nan'");
  return success();
}

LogicalResult DescLoadOp::verify() {
  RankedTensorType block = getDesc().getType().getBlockType();
  if (static_cast<int64_t>(getOffsets().size()) != block.getRank()) return emitOpError("needs one offset per dimension");
  if (getType() != block) return emitOpError("result type must be the block type ") << block;
  return success();
}

LogicalResult DescStoreOp::verify() {
  RankedTensorType block = getDesc().getType().getBlockType();
  if (static_cast<int64_t>(getOffsets().size()) != block.getRank()) return emitOpError("needs one offset per dimension");
  if (getValue().getType() != block) return emitOpError("stored value must have the block type ") << block;
  return success();
}

LogicalResult RemoteOp::verify() {
  Type src = getSrc().getType(), dst = getType();
  if (getSpace() == "cluster") {
    if (auto buf = dyn_cast<BufferType>(src)) {
      auto out = dyn_cast<BufferType>(dst);
      if (buf.getSpace() != "smem") return emitOpError("a remote buffer must be made from a shared-memory buffer");
      if (!out || out.getSpace() != "dsmem" || out.getBlockType() != buf.getBlockType())
        return emitOpError("result must be a \"dsmem\" buffer of the operand's shape and element type");
      return success();
    }
    auto ptr = dyn_cast<PointerType>(elementTypeOf(src));
    auto out = dyn_cast<PointerType>(elementTypeOf(dst));
    if (!ptr || ptr.getAddressSpace() != 3) return emitOpError("cluster remote access needs a shared-memory buffer or pointers (address space 3)");
    if (!out || out.getAddressSpace() != 7 || out.getPointeeType() != ptr.getPointeeType() || shapeOf(src) != shapeOf(dst))
      return emitOpError("result must be the operand's pointers in address space 7");
    return success();
  }
  if (getSpace() == "device") {
    auto ptr = dyn_cast<PointerType>(elementTypeOf(src));
    if (!ptr || ptr.getAddressSpace() != 1) return emitOpError("device remote access needs global pointers");
    if (dst != src) return emitOpError("result must have the operand's type");
    return success();
  }
  return emitOpError("space must be 'cluster' or 'device'");
}

LogicalResult DistributedBarrierOp::verify() {
  StringRef kind = getKind();
  if (!llvm::is_contained({"cluster", "submesh", "grid", "device"}, kind))
    return emitOpError("kind must be 'cluster', 'submesh', 'grid' or 'device'");
  SmallVector<bool> seen(getShape().size(), false);
  for (int64_t a : getAxes()) {
    if (a < 0 || a >= static_cast<int64_t>(getShape().size()) || seen[a]) return emitOpError("axes must be distinct dimensions of the shape");
    seen[a] = true;
  }
  for (int64_t d : getShape())
    if (d <= 0) return emitOpError("shape entries must be positive");
  if (kind == "submesh" && getAxes().empty()) return emitOpError("a sub-mesh barrier needs its axes");
  return success();
}

LogicalResult RawCallOp::verify() {
  if (!llvm::is_contained({"cuda", "ascendc"}, getLanguage())) return emitOpError("language must be 'cuda' or 'ascendc'");
  if (!llvm::is_contained({"thread", "warp", "block", "cluster"}, getSyncScope()))
    return emitOpError("syncScope must be 'thread', 'warp', 'block' or 'cluster'");
  if (getThreads().empty() || getThreads().size() > 3) return emitOpError("threads has 1 to 3 dimensions");
  for (int64_t t : getThreads())
    if (t <= 0) return emitOpError("thread counts must be positive");
  if (getSpaces().size() != getArgs().size()) return emitOpError("needs one space per argument");
  SmallVector<Type> blocks;
  for (Value a : getArgs())
    if (isa<RankedTensorType>(a.getType())) blocks.push_back(a.getType());
  if (TypeRange(getResults()) != TypeRange(blocks)) return emitOpError("results must be the block arguments' types, in order");
  return success();
}

LogicalResult DsaMatmulOp::verify() {
  BufferType a = getA().getType(), b = getB().getType(), c = getC().getType();
  if (a.getSpace() != "L0A" || b.getSpace() != "L0B" || c.getSpace() != "L0C")
    return emitOpError("operands must be in L0A and L0B and the result in L0C");
  auto ta = a.getBlockType(), tb = b.getBlockType(), tc = c.getBlockType();
  if (ta.getRank() != 2 || tb.getRank() != 2 || tc.getRank() != 2) return emitOpError("operands must be 2-D");
  if (ta.getDimSize(1) != tb.getDimSize(0)) return emitOpError("inner dimensions differ");
  if (tc.getDimSize(0) != ta.getDimSize(0) || tc.getDimSize(1) != tb.getDimSize(1)) return emitOpError("result shape must be M x N");
  if (ta.getElementType() != tb.getElementType()) return emitOpError("a and b must have one element type");
  return success();
}

LogicalResult DsaSubviewOp::verify() {
  BufferType src = getSrc().getType(), dst = getType();
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

LogicalResult WarpSpecializeOp::verify() {
  size_t workers = getWorkerRegions().size();
  if (getWorkerNumWarps().size() != workers || getWorkerNumRegs().size() != workers)
    return emitOpError("needs one warp count and one register count per worker region");
  for (int32_t w : getWorkerNumWarps())
    if (w <= 0 || (w & (w - 1)) != 0) return emitOpError("worker warp counts must be powers of two");
  for (int32_t r : getWorkerNumRegs())
    if (r < 24 || r > 256 || r % 8 != 0) return emitOpError("worker register counts must be multiples of 8 in 24..256");
  auto yieldOf = [](Region &r) { return dyn_cast<PartitionYieldOp>(r.front().getTerminator()); };
  auto defaultYield = yieldOf(getDefaultRegion());
  if (!defaultYield || TypeRange(defaultYield.getValues()) != getResultTypes())
    return emitOpError("the default region must yield the op's result types");
  for (Region &r : getWorkerRegions()) {
    auto y = yieldOf(r);
    if (!y || !y.getValues().empty()) return emitOpError("worker regions yield nothing");
  }
  return success();
}

LogicalResult BufferSlotOp::verify() {
  BufferType src = getBuffer().getType(), dst = getType();
  if (src.getSpace() != "smem" || dst.getSpace() != "smem") return emitOpError("slots are views of shared-memory buffers");
  RankedTensorType block = src.getBlockType();
  if (block.getRank() < 2) return emitOpError("needs a buffer of rank 2 or more");
  if (dst.getBlockType() != RankedTensorType::get(block.getShape().drop_front(), block.getElementType()))
    return emitOpError("result must drop the leading dimension");
  return success();
}

LogicalResult PipeCreateOp::verify() {
  if (getCapacity() <= 0) return emitOpError("capacity must be positive");
  if (getFields().empty()) return emitOpError("needs at least one payload field");
  if (getFieldNames().size() != getFields().size()) return emitOpError("needs one name per field");
  if (getScope() != "cta") return emitOpError("scope must be 'cta'");
  for (Value f : getFields()) {
    auto buf = cast<BufferType>(f.getType());
    if (buf.getSpace() != "smem" || buf.getBlockType().getRank() < 2 || buf.getBlockType().getDimSize(0) != getCapacity())
      return emitOpError("fields must be shared-memory buffers of rank 2 or more whose leading dimension is the capacity");
  }
  return success();
}

}  // namespace tle::ir
