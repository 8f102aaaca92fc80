#include "ir/Dialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
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

Operation *TleDialect::materializeConstant(OpBuilder &builder, Attribute value, Type type, Location loc) {
  if (auto typed = dyn_cast<TypedAttr>(value); typed && arith::ConstantOp::isBuildableWith(typed, type))
    return builder.create<arith::ConstantOp>(loc, type, typed);
  return nullptr;
}

FailureOr<MemorySpace> parseMemorySpace(AsmParser &parser) {
  StringRef name;
  SMLoc at = parser.getCurrentLocation();
  if (failed(parser.parseKeyword(&name))) return failure();
  if (auto space = memorySpaceNamed(std::string_view(name.data(), name.size()))) return *space;
  return parser.emitError(at, "unknown memory space '") << name << "'";
}

Type elementTypeOf(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type)) return tensor.getElementType();
  return type;
}

ArrayRef<int64_t> shapeOf(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type)) return tensor.getShape();
  return {};
}

LogicalResult verifyWholeBufferRead(Operation *op, BufferType buffer, Type result) {
  RankedTensorType block = buffer.getBlockType();
  if (!hasShapeAndElement(result, block.getShape(), block.getElementType()))
    return op->emitOpError("result must have the buffer's shape and element type");
  return success();
}

bool isFp8(Type type) { return isa<FloatType>(type) && type.getIntOrFloatBitWidth() == 8; }

int64_t elementBytes(Type type) {
  Type e = elementTypeOf(type);
  if (auto p = dyn_cast<PointerType>(e)) e = p.getPointeeType();
  return std::max<int64_t>(1, e.getIntOrFloatBitWidth() / 8);
}

int64_t tileBytes(RankedTensorType tile) { return tile.getNumElements() * elementBytes(tile); }

std::optional<MemorySpace> pointerSpaceOf(Type type) {
  if (auto p = dyn_cast<PointerType>(elementTypeOf(type))) return p.getMemorySpace();
  return std::nullopt;
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

LogicalResult AxisHintOp::verify() {
  auto tensor = dyn_cast<RankedTensorType>(getType());
  const size_t entries = tensor ? static_cast<size_t>(tensor.getRank()) : 1;
  for (auto [name, values] : {std::make_pair("divisibility", getDivisibility()), std::make_pair("contiguity", getContiguity()),
                              std::make_pair("constancy", getConstancy())}) {
    if (!values) continue;
    if (values->size() != entries) return emitOpError(name) << " needs " << entries << " entries, one per dimension";
    for (int64_t v : *values)
      if (v < 1) return emitOpError(name) << " entries must be at least 1";
  }
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

bool hasShapeAndElement(Type t, ArrayRef<int64_t> shape, Type element) {
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
  // fp8 operands may mix formats (e4m3 with e5m2), as in Triton and the fp8 mma instructions.
  if (a.getElementType() != b.getElementType() && !(isFp8(a.getElementType()) && isFp8(b.getElementType())))
    return emitOpError("a and b must have one element type (or both be fp8)");
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

namespace {
template <class TileOp>
LogicalResult verifyDynamicOffsets(TileOp op) {
  if (op.getDynamicOffsets().empty()) return success();
  if (op.getDynamicOffsets().size() != static_cast<size_t>(op.getSrc().getType().getRank()))
    return op.emitOpError("needs one dynamic offset per dimension");
  if (llvm::any_of(op.getOffsets(), [](int64_t o) { return o != 0; })) return op.emitOpError("with dynamic offsets, offsets must be zeros");
  return success();
}
}  // namespace

LogicalResult ExtractTileOp::verify() {
  if (failed(verifyDynamicOffsets(*this))) return failure();
  return verifyTile(*this, getSrc().getType(), getType(), getOffsets());
}

LogicalResult InsertTileOp::verify() {
  if (failed(verifyDynamicOffsets(*this))) return failure();
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
  if (t.getSpace() != MemorySpace::Shared && !isAscendBuffer(t.getSpace()))
    return emitOpError("buffers are allocated in smem, UB, L1, L0A, L0B or L0C, not ") << memorySpaceName(t.getSpace()).data();
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
  if (auto ptr = dyn_cast<PointerType>(elementTypeOf(getPtr().getType())); ptr && ptr.getPointeeType() != getValue().getType())
    return emitOpError("the wait value must have the signals' type");
  return verifySignalPointer(*this, getPtr().getType());
}

LogicalResult NotifyOp::verify() {
  if (!llvm::is_contained({"set", "add"}, getSigOp())) return emitOpError("sig_op must be 'set' or 'add'");
  if (!llvm::is_contained({"gpu", "intra_node", "inter_node"}, getScope()))
    return emitOpError("scope must be 'gpu', 'intra_node' or 'inter_node'");
  if (getScope() == "inter_node" && getSigOp() == "add") return emitOpError("an 'inter_node' signal is set, not added (the network writes values)");
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

LogicalResult DescriptorBlockOp::verify() {
  auto ptrs = cast<RankedTensorType>(getPtrs().getType());
  const size_t rank = static_cast<size_t>(ptrs.getRank());
  if (getShape().size() != rank || getStrides().size() != rank || getOffsets().size() != rank)
    return emitOpError("needs one extent, stride and offset per dimension of the block");
  if (ptrs.getElementType() != getBase().getType()) return emitOpError("the pointers must point where the base does");
  return success();
}

LogicalResult RemoteOp::verify() {
  Type src = getSrc().getType(), dst = getType();
  if (getSpace() == "cluster") {
    if (auto buf = dyn_cast<BufferType>(src)) {
      auto out = dyn_cast<BufferType>(dst);
      if (buf.getSpace() != MemorySpace::Shared) return emitOpError("a remote buffer must be made from a shared-memory buffer");
      if (!out || out.getSpace() != MemorySpace::RemoteShared || out.getBlockType() != buf.getBlockType())
        return emitOpError("result must be a dsmem buffer of the operand's shape and element type");
      return success();
    }
    auto ptr = dyn_cast<PointerType>(elementTypeOf(src));
    auto out = dyn_cast<PointerType>(elementTypeOf(dst));
    if (!ptr || ptr.getMemorySpace() != MemorySpace::Shared)
      return emitOpError("cluster remote access needs a shared-memory buffer or pointers into shared memory (smem)");
    if (!out || out.getMemorySpace() != MemorySpace::RemoteShared || out.getPointeeType() != ptr.getPointeeType() ||
        shapeOf(src) != shapeOf(dst))
      return emitOpError("result must be the operand's pointers in dsmem");
    return success();
  }
  if (getSpace() == "device") {
    auto ptr = dyn_cast<PointerType>(elementTypeOf(src));
    if (!ptr || ptr.getMemorySpace() != MemorySpace::Global) return emitOpError("device remote access needs global pointers");
    if (dst != src) return emitOpError("result must have the operand's type");
    return success();
  }
  return emitOpError("space must be 'cluster' or 'device'");
}

LogicalResult HistogramOp::verify() {
  if (getSrc().getType().getRank() != 1 || getResult().getType().getRank() != 1) return emitOpError("takes and gives 1-D tensors");
  if (getMask() && getMask().getType().getShape() != getSrc().getType().getShape()) return emitOpError("mask must have the input's shape");
  return success();
}

LogicalResult DistributedBarrierOp::verify() {
  StringRef kind = getKind();
  if (!llvm::is_contained({"cluster", "submesh", "grid", "device", "node", "rail", "node_group"}, kind))
    return emitOpError("kind must be 'cluster', 'submesh', 'grid', 'device', 'node', 'rail' or 'node_group'");
  SmallVector<bool> seen(getShape().size(), false);
  for (int64_t a : getAxes()) {
    if (a < 0 || a >= static_cast<int64_t>(getShape().size()) || seen[a]) return emitOpError("axes must be distinct dimensions of the shape");
    seen[a] = true;
  }
  for (int64_t d : getShape())
    if (d <= 0) return emitOpError("shape entries must be positive");
  if (kind == "submesh" && getAxes().empty()) return emitOpError("a sub-mesh barrier needs its axes");
  if (kind == "node_group" && (getAxes().empty() || getAxes().back() - getAxes().front() + 1 != static_cast<int64_t>(getAxes().size()) ||
                               !llvm::is_sorted(getAxes())))
    return emitOpError("a node_group barrier's axes must be adjacent and in order (a strided team)");
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

LogicalResult BufferSlotOp::verify() {
  BufferType src = getBuffer().getType(), dst = getType();
  if (src.getSpace() != MemorySpace::Shared || dst.getSpace() != MemorySpace::Shared) return emitOpError("slots are views of shared-memory buffers");
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
    if (buf.getSpace() != MemorySpace::Shared || buf.getBlockType().getRank() < 2 || buf.getBlockType().getDimSize(0) != getCapacity())
      return emitOpError("fields must be shared-memory buffers of rank 2 or more whose leading dimension is the capacity");
  }
  return success();
}

}  // namespace tle::ir
