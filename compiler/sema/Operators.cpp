// Runtime arithmetic (LoweringContext's conversions and operators): Triton's promotion,
// broadcasting and pointer rules, emitted as arith ops on scalars and tensors.
#include "sema/LoweringContext.h"

#include "ir/Dialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

#include <tuple>

namespace tle::sema {

using namespace ast;

std::string shapeText(const std::vector<int64_t> &shape) {
  std::string r = "[";
  for (size_t i = 0; i < shape.size(); ++i) r += (i ? ", " : "") + std::to_string(shape[i]);
  return r + "]";
}

std::string TType::str() const {
  if (isBuffer)
    return (space == MemorySpace::Shared         ? std::string("shared-memory")
            : space == MemorySpace::RemoteShared ? std::string("remote shared-memory")
                                                 : std::string(memorySpaceName(space))) +
           " buffer" + shapeText(blockShape) + " of " + dtypeName(dtype);
  if (isTensorDesc) return "tensor descriptor of " + shapeText(blockShape) + " blocks of " + dtypeName(dtype);
  if (isBlockPtr) return "block pointer to " + shapeText(blockShape) + " of " + dtypeName(dtype);
  std::string elem = isPointer ? std::string("pointer<") + dtypeName(dtype) + ">" : dtypeName(dtype);
  if (shape.empty()) return elem;
  return "block" + shapeText(shape) + " of " + elem;
}

std::string Value::describe() const {
  switch (kind) {
  case Kind::None: return "None";
  case Kind::Bool: return "bool";
  case Kind::Int: return "int";
  case Kind::Float: return "float";
  case Kind::Str: return "str";
  case Kind::Ellipsis: return "Ellipsis";
  case Kind::Tuple: return "tuple";
  case Kind::DType: return dtypeIsPointer ? std::string("pointer_type(") + dtypeTlName(dtype) + ")" : std::string("dtype ") + dtypeTlName(dtype);
  case Kind::Module: return "module '" + text + "'";
  case Kind::Function: return "function '" + (function ? function->name : std::string("?")) + "'";
  case Kind::Builtin: return "builtin '" + (text.rfind("planned:", 0) == 0 ? text.substr(8) : text) + "'";
  case Kind::Runtime: return type.str();
  case Kind::Dict: return "dict";
  case Kind::Mesh: return "device mesh";
  case Kind::Sharding: return "sharding spec";
  case Kind::Lambda: return "lambda";
  case Kind::Object: return text;
  }
  return "?";
}

mlir::Type LoweringContext::irScalarType(DType d) {
  mlir::MLIRContext *ctx = builder_.getContext();
  switch (d) {
  case DType::I1: return builder_.getI1Type();
  case DType::I8: case DType::U8: return builder_.getI8Type();
  case DType::I16: case DType::U16: return builder_.getI16Type();
  case DType::I32: case DType::U32: return builder_.getI32Type();
  case DType::I64: case DType::U64: return builder_.getI64Type();
  case DType::FP8E4NV: return mlir::FloatType::getFloat8E4M3FN(ctx);
  case DType::FP8E5: return mlir::FloatType::getFloat8E5M2(ctx);
  case DType::FP8E4B15: return mlir::FloatType::getFloat8E4M3B11FNUZ(ctx);
  case DType::FP8E4B8: return mlir::FloatType::getFloat8E4M3FNUZ(ctx);
  case DType::FP8E5B16: return mlir::FloatType::getFloat8E5M2FNUZ(ctx);
  case DType::FP16: return builder_.getF16Type();
  case DType::BF16: return builder_.getBF16Type();
  case DType::FP32: return builder_.getF32Type();
  case DType::FP64: return builder_.getF64Type();
  }
  return builder_.getI32Type();
}

mlir::Type LoweringContext::irType(const TType &t) {
  mlir::Type elem = irScalarType(t.dtype);
  if (t.isBlockPtr)
    return tle::ir::BlockPointerType::get(builder_.getContext(), mlir::RankedTensorType::get(t.blockShape, elem));
  if (t.isTensorDesc)
    return tle::ir::TensorDescType::get(builder_.getContext(), mlir::RankedTensorType::get(t.blockShape, elem));
  if (t.isBuffer)
    return tle::ir::BufferType::get(builder_.getContext(), mlir::RankedTensorType::get(t.blockShape, elem), t.space);
  if (t.isPointer) elem = tle::ir::PointerType::get(builder_.getContext(), elem, t.space);
  if (t.shape.empty()) return elem;
  return mlir::RankedTensorType::get(t.shape, elem);
}

// A Python scalar becomes a constant: ints as i32 (i64 when they do not fit), floats
// as fp32, bools as i1, unless `like` says which dtype to take.
Value LoweringContext::integerScalarI32(const Value &v, SourceRange at, const std::string &what) {
  TType i32;
  i32.dtype = DType::I32;
  Value x = v.isRuntime() ? v : toRuntime(v, at, &i32);
  if (x.type.isBlock() || x.type.isPointer || x.type.isBuffer || x.type.isBlockPtr || x.type.isTensorDesc || !isInt(x.type.dtype))
    fail(at, DiagId::TypeMismatch, what + " must be an integer scalar, got " + describeWithArticle(v));
  return x.type.dtype == DType::I32 ? x : cast(x, DType::I32, at);
}

Value LoweringContext::toRuntime(const Value &v, SourceRange at, const TType *like) {
  if (v.isRuntime()) return v;
  if (!v.isNumber())
    fail(at, DiagId::TypeMismatch, v.describe() + " cannot be used as a runtime value");
  TType t;
  if (like && !like->isPointer) {
    t.dtype = like->dtype;
  } else if (v.kind == Value::Kind::Bool) {
    t.dtype = DType::I1;
  } else if (v.kind == Value::Kind::Float) {
    t.dtype = DType::FP32;
  } else {
    t.dtype = v.intValue >= INT32_MIN && v.intValue <= INT32_MAX ? DType::I32 : DType::I64;
  }
  double number = v.kind == Value::Kind::Float ? v.floatValue : static_cast<double>(v.kind == Value::Kind::Bool ? v.boolValue : v.intValue);
  mlir::Location l = loc(at);
  mlir::Type ty = irScalarType(t.dtype);
  mlir::Value c;
  if (isFloat(t.dtype)) {
    c = builder_.create<mlir::arith::ConstantOp>(l, ty, builder_.getFloatAttr(ty, number));
  } else {
    int64_t i = v.kind == Value::Kind::Float ? static_cast<int64_t>(v.floatValue)
                                             : v.kind == Value::Kind::Bool ? v.boolValue : v.intValue;
    c = builder_.create<mlir::arith::ConstantOp>(l, ty, builder_.getIntegerAttr(ty, i));
  }
  return Value::ofRuntime(c, t);
}

Value LoweringContext::splatConstant(double value, DType d, const std::vector<int64_t> &shape, SourceRange at) {
  TType t;
  t.dtype = d;
  t.shape = shape;
  mlir::Type elem = irScalarType(d);
  mlir::Attribute a = isFloat(d) ? mlir::Attribute(builder_.getFloatAttr(elem, value))
                                 : mlir::Attribute(builder_.getIntegerAttr(elem, static_cast<int64_t>(value)));
  mlir::Value c;
  if (shape.empty())
    c = builder_.create<mlir::arith::ConstantOp>(loc(at), elem, mlir::cast<mlir::TypedAttr>(a));
  else
    c = builder_.create<mlir::arith::ConstantOp>(loc(at), mlir::DenseElementsAttr::get(mlir::cast<mlir::ShapedType>(irType(t)), a));
  return Value::ofRuntime(c, t);
}

Value LoweringContext::cast(const Value &in, DType to, SourceRange at, bool bitcast) {
  Value v = toRuntime(in, at);
  if (v.type.isPointer || v.type.isBlockPtr || v.type.isBuffer || v.type.isTensorDesc)
    fail(at, DiagId::TypeMismatch, "" + withArticle(v.type.str()) + " cannot be converted to " + dtypeName(to));
  DType from = v.type.dtype;
  TType t = v.type.withDType(to);
  if (from == to) return v;
  mlir::Location l = loc(at);
  mlir::Type dst = irType(t);
  mlir::Value r;
  if (bitcast) {
    if (bitWidth(from) != bitWidth(to))
      fail(at, DiagId::TypeMismatch,
           std::string("a bitcast needs types of equal width: ") + dtypeName(from) + " is " + std::to_string(bitWidth(from)) +
               " bits, " + dtypeName(to) + " is " + std::to_string(bitWidth(to)));
    r = builder_.create<mlir::arith::BitcastOp>(l, dst, v.ir);
    return Value::ofRuntime(r, t);
  }
  if (to == DType::I1) {
    Value zero = splatConstant(0, from, v.type.shape, at);
    return compare(CmpOp::NotEq, v, zero, at, at, at);
  }
  if (isInt(from) && isInt(to)) {
    unsigned wf = bitWidth(from), wt = bitWidth(to);
    if (wf == wt) return Value::ofRuntime(v.ir, t);  // signedness is not in the IR type
    if (wf < wt) {
      if (isUnsigned(from) || from == DType::I1) r = builder_.create<mlir::arith::ExtUIOp>(l, dst, v.ir);
      else r = builder_.create<mlir::arith::ExtSIOp>(l, dst, v.ir);
    } else {
      r = builder_.create<mlir::arith::TruncIOp>(l, dst, v.ir);
    }
  } else if (isInt(from) && isFloat(to)) {
    if (isUnsigned(from) || from == DType::I1) r = builder_.create<mlir::arith::UIToFPOp>(l, dst, v.ir);
    else r = builder_.create<mlir::arith::SIToFPOp>(l, dst, v.ir);
  } else if (isFloat(from) && isInt(to)) {
    if (isUnsigned(to)) r = builder_.create<mlir::arith::FPToUIOp>(l, dst, v.ir);
    else r = builder_.create<mlir::arith::FPToSIOp>(l, dst, v.ir);
  } else {
    unsigned wf = bitWidth(from), wt = bitWidth(to);
    bool widen = wf < wt || (wf == wt && to == DType::FP32);
    if (widen) r = builder_.create<mlir::arith::ExtFOp>(l, dst, v.ir);
    else if (wf > wt) r = builder_.create<mlir::arith::TruncFOp>(l, dst, v.ir);
    else {  // fp16 <-> bf16: through fp32
      Value wide = cast(v, DType::FP32, at);
      r = builder_.create<mlir::arith::TruncFOp>(l, dst, wide.ir);
    }
  }
  return Value::ofRuntime(r, t);
}

namespace {

// Numpy's rule: align on the right; sizes must match or be 1.
bool broadcastShapes(const std::vector<int64_t> &a, const std::vector<int64_t> &b, std::vector<int64_t> &out) {
  size_t n = std::max(a.size(), b.size());
  out.assign(n, 1);
  for (size_t i = 0; i < n; ++i) {
    int64_t da = i < n - a.size() ? 1 : a[i - (n - a.size())];
    int64_t db = i < n - b.size() ? 1 : b[i - (n - b.size())];
    if (da != db && da != 1 && db != 1) return false;
    out[i] = std::max(da, db);
  }
  return true;
}

}  // namespace

Value LoweringContext::broadcastTo(const Value &in, const std::vector<int64_t> &shape, SourceRange at) {
  Value v = toRuntime(in, at);
  if (v.type.shape == shape) return v;
  mlir::Location l = loc(at);
  if (!v.type.isBlock()) {
    TType t = v.type.withShape(shape);
    auto op = builder_.create<tle::ir::SplatOp>(l, irType(t), v.ir);
    return Value::ofRuntime(op.getResult(), t);
  }
  // Every caller's shapes must broadcast (numpy's rule, one way); this is the last check
  // before an op that would not verify.
  std::vector<int64_t> joined;
  if (!broadcastShapes(v.type.shape, shape, joined) || joined != shape) {
    std::string dims;
    for (int64_t d : shape) dims += (dims.empty() ? "" : ", ") + std::to_string(d);
    fail(at, DiagId::ShapeMismatch, "cannot broadcast " + withArticle(v.type.str()) + " to the shape [" + dims + "]");
  }
  // Lower rank: insert leading unit dimensions first.
  while (v.type.shape.size() < shape.size()) {
    std::vector<int64_t> s = v.type.shape;
    s.insert(s.begin(), 1);
    TType t = v.type.withShape(s);
    auto op = builder_.create<tle::ir::ExpandDimsOp>(l, irType(t), v.ir, builder_.getI32IntegerAttr(0));
    v = Value::ofRuntime(op.getResult(), t);
  }
  if (v.type.shape == shape) return v;
  TType t = v.type.withShape(shape);
  auto op = builder_.create<tle::ir::BroadcastOp>(l, irType(t), v.ir);
  return Value::ofRuntime(op.getResult(), t);
}


static DType constantDType(const Value &v) {
  if (v.isRuntime()) return v.type.dtype;
  if (v.kind == Value::Kind::Float) return DType::FP32;
  if (v.kind == Value::Kind::Bool) return DType::I1;
  return v.intValue >= INT32_MIN && v.intValue <= INT32_MAX ? DType::I32 : DType::I64;
}

LoweringContext::Common LoweringContext::commonType(const Value &a, const Value &b, SourceRange at, SourceRange ra,
                                                    SourceRange rb, bool trueDiv, bool divOrMod) {
  Common c;
  std::vector<int64_t> sa = a.isRuntime() ? a.type.shape : std::vector<int64_t>{};
  std::vector<int64_t> sb = b.isRuntime() ? b.type.shape : std::vector<int64_t>{};
  if (!broadcastShapes(sa, sb, c.shape)) {
    diags_.report(DiagId::ShapeMismatch, at, "cannot broadcast shapes " + shapeText(sa) + " and " + shapeText(sb))
        .note(ra, "left operand is " + withArticle(a.isRuntime() ? a.type.str() : a.describe()))
        .note(rb, "right operand is " + withArticle(b.isRuntime() ? b.type.str() : b.describe()));
    throw LoweringFailed{};
  }
  c.dtype = promote(constantDType(a), !a.isRuntime(), constantDType(b), !b.isRuntime(), trueDiv, divOrMod);
  return c;
}

Value LoweringContext::coerce(const Value &v, const Common &c, SourceRange at) {
  TType like;
  like.dtype = c.dtype;
  Value r = v.isRuntime() ? cast(v, c.dtype, at) : toRuntime(v, at, &like);
  return broadcastTo(r, c.shape, at);
}

Value LoweringContext::binary(BinaryOp op, const Value &a, const Value &b, SourceRange at, SourceRange ra, SourceRange rb) {
  if (!a.isRuntime() && !b.isRuntime()) {
    Value out;
    std::string error;
    if (foldBinary(op, a, b, out, error)) {
      if (!error.empty()) fail(at, DiagId::ConstantError, error);
      return out;
    }
    fail(at, DiagId::TypeMismatch,
         std::string("unsupported operand types for ") + spelling(op) + ": " + a.describe() + " and " + b.describe());
  }
  for (const auto &[v, r] : {std::pair<const Value &, SourceRange>(a, ra), {b, rb}})
    if (!v.isRuntime() && !v.isNumber())
      fail(r, DiagId::TypeMismatch,
           std::string("unsupported operand for ") + spelling(op) + ": " + v.describe() + " with a runtime value");

  // As in Triton: a Python integer meets a runtime integer in that integer's dtype, so it
  // must fit it (else `x + 300` on int8 would silently become `x + 44`).
  for (const auto &[c, r, other] : {std::tuple<const Value &, SourceRange, const Value &>(a, ra, b), {b, rb, a}}) {
    if (c.isRuntime() || c.kind != Value::Kind::Int || !other.isRuntime() || other.type.isPointer || !isInt(other.type.dtype) ||
        other.type.dtype == DType::I1 || bitWidth(other.type.dtype) >= 64)
      continue;
    DType d = other.type.dtype;
    unsigned bits = bitWidth(d);
    int64_t lo = isUnsigned(d) ? 0 : -(int64_t(1) << (bits - 1));
    int64_t hi = isUnsigned(d) ? (int64_t(1) << bits) - 1 : (int64_t(1) << (bits - 1)) - 1;
    if (c.intValue < lo || c.intValue > hi)
      fail(r, DiagId::TypeMismatch, "the constant " + std::to_string(c.intValue) + " does not fit " + dtypeName(d) +
                                        ", the dtype of the other operand (Triton rejects it too); cast that operand or the constant");
  }
  Common common = commonType(a, b, at, ra, rb, op == BinaryOp::Div,
                             op == BinaryOp::Div || op == BinaryOp::FloorDiv || op == BinaryOp::Mod);
  const std::vector<int64_t> &shape = common.shape;
  for (const auto &[v, r] : {std::pair<const Value &, SourceRange>(a, ra), {b, rb}}) {
    if (v.isRuntime() && v.type.isBlockPtr)
      fail(r, DiagId::TypeMismatch, "block pointers do not support arithmetic; move them with tl.advance");
    if (v.isRuntime() && v.type.isBuffer)
      fail(r, DiagId::TypeMismatch, "a buffer is not a value; read it with tle.gpu.local_load or address it with tle.gpu.local_ptr");
    if (v.isRuntime() && v.type.isTensorDesc)
      fail(r, DiagId::TypeMismatch, "a tensor descriptor is not a value; read blocks with desc.load([offsets])");
  }
  mlir::Location l = loc(at);
  // Pointer arithmetic: pointer +/- integer.
  bool aPtr = a.isRuntime() && a.type.isPointer, bPtr = b.isRuntime() && b.type.isPointer;
  if (aPtr || bPtr) {
    const Value &ptr = aPtr ? a : b;
    const Value &off = aPtr ? b : a;
    SourceRange offRange = aPtr ? rb : ra;
    bool offIsInt = off.isRuntime() ? (!off.type.isPointer && isInt(off.type.dtype))
                                    : (off.kind == Value::Kind::Int || off.kind == Value::Kind::Bool);
    if ((op != BinaryOp::Add && !(op == BinaryOp::Sub && aPtr)) || (aPtr && bPtr) || !offIsInt)
      fail(at, DiagId::TypeMismatch,
           std::string("pointers support only '+' and '-' with an integer offset; got ") +
               (a.isRuntime() ? a.type.str() : a.describe()) + " " + spelling(op) + " " +
               (b.isRuntime() ? b.type.str() : b.describe()));
    Value o = toRuntime(off, offRange);
    if (op == BinaryOp::Sub) o = unary(UnaryOp::USub, o, offRange);
    Value p = broadcastTo(ptr, shape, at);
    o = broadcastTo(o, shape, offRange);
    auto add = builder_.create<tle::ir::AddPtrOp>(l, irType(p.type), p.ir, o.ir);
    return Value::ofRuntime(add.getResult(), p.type);
  }

  DType da = constantDType(a), db = constantDType(b);
  bool bitwise = op == BinaryOp::BitAnd || op == BinaryOp::BitOr || op == BinaryOp::BitXor || op == BinaryOp::LShift ||
                 op == BinaryOp::RShift;
  if (op == BinaryOp::MatMul) fail(at, DiagId::TypeMismatch, "'@' is not defined on blocks; use tl.dot");
  if (op == BinaryOp::Pow)
    fail(at, DiagId::TypeMismatch, "'**' is not defined on runtime values; multiply, or use tl.exp2(y * tl.log2(x))");
  if ((bitwise || op == BinaryOp::FloorDiv) && (isFloat(da) || isFloat(db)))
    fail(at, DiagId::TypeMismatch,
         std::string("'") + spelling(op) + "' needs integer operands, got " + dtypeName(da) + " and " + dtypeName(db));
  // As in Triton: dividing integers of different signedness has no useful answer (int1
  // counts as unsigned there).
  auto unsignedForDivision = [](DType d) { return d == DType::I1 || isUnsigned(d); };
  if ((op == BinaryOp::Div || op == BinaryOp::FloorDiv || op == BinaryOp::Mod) && a.isRuntime() && b.isRuntime() && isInt(da) &&
      isInt(db) && unsignedForDivision(da) != unsignedForDivision(db))
    fail(at, DiagId::TypeMismatch,
         std::string("'") + spelling(op) + "' on " + dtypeName(da) + " and " + dtypeName(db) +
             ", integers of different signedness, has no useful answer (Triton rejects it too); cast one of them");
  DType rt = common.dtype;
  Value x = coerce(a, common, ra);
  Value y = coerce(b, common, rb);
  TType t = x.type;
  mlir::Value r;
  bool f = isFloat(rt), u = isUnsigned(rt) || rt == DType::I1;
  switch (op) {
  case BinaryOp::Add: r = f ? mlir::Value(builder_.create<mlir::arith::AddFOp>(l, x.ir, y.ir)) : builder_.create<mlir::arith::AddIOp>(l, x.ir, y.ir); break;
  case BinaryOp::Sub: r = f ? mlir::Value(builder_.create<mlir::arith::SubFOp>(l, x.ir, y.ir)) : builder_.create<mlir::arith::SubIOp>(l, x.ir, y.ir); break;
  case BinaryOp::Mul: r = f ? mlir::Value(builder_.create<mlir::arith::MulFOp>(l, x.ir, y.ir)) : builder_.create<mlir::arith::MulIOp>(l, x.ir, y.ir); break;
  // Triton's `/` is the fast division (fp32: div.full, within 2 ulp), marked `afn`;
  // tl.math.div_rn drops the flag for the correctly rounded one.
  case BinaryOp::Div: r = builder_.create<mlir::arith::DivFOp>(l, x.ir, y.ir, mlir::arith::FastMathFlags::afn); break;
  // Triton's integer `//` and `%` on tensors truncate toward zero, like C.
  case BinaryOp::FloorDiv: r = u ? mlir::Value(builder_.create<mlir::arith::DivUIOp>(l, x.ir, y.ir)) : builder_.create<mlir::arith::DivSIOp>(l, x.ir, y.ir); break;
  case BinaryOp::Mod:
    if (f) r = builder_.create<mlir::arith::RemFOp>(l, x.ir, y.ir);
    else r = u ? mlir::Value(builder_.create<mlir::arith::RemUIOp>(l, x.ir, y.ir)) : builder_.create<mlir::arith::RemSIOp>(l, x.ir, y.ir);
    break;
  case BinaryOp::BitAnd: r = builder_.create<mlir::arith::AndIOp>(l, x.ir, y.ir); break;
  case BinaryOp::BitOr: r = builder_.create<mlir::arith::OrIOp>(l, x.ir, y.ir); break;
  case BinaryOp::BitXor: r = builder_.create<mlir::arith::XOrIOp>(l, x.ir, y.ir); break;
  case BinaryOp::LShift: r = builder_.create<mlir::arith::ShLIOp>(l, x.ir, y.ir); break;
  case BinaryOp::RShift: {
    // As in Triton, whose tensor's `>>` picks the shift by its own dtype before promotion
    // (int8 >> uint32 shifts arithmetically); a Python int on the left defers to the right.
    DType own = a.isRuntime() ? da : db;
    bool logical = isUnsigned(own) || own == DType::I1;
    r = logical ? mlir::Value(builder_.create<mlir::arith::ShRUIOp>(l, x.ir, y.ir)) : builder_.create<mlir::arith::ShRSIOp>(l, x.ir, y.ir);
    break;
  }
  default: fail(at, DiagId::TypeMismatch, "unsupported operator");
  }
  return Value::ofRuntime(r, t);
}

Value LoweringContext::compare(CmpOp op, const Value &a, const Value &b, SourceRange at, SourceRange ra, SourceRange rb) {
  if (!a.isRuntime() && !b.isRuntime()) {
    Value out;
    std::string error;
    if (foldCompare(op, a, b, out, error)) {
      if (!error.empty()) fail(at, DiagId::ConstantError, error);
      return out;
    }
    fail(at, DiagId::TypeMismatch,
         std::string("'") + spelling(op) + "' is not supported between " + a.describe() + " and " + b.describe());
  }
  if (op == CmpOp::Is || op == CmpOp::IsNot || op == CmpOp::In || op == CmpOp::NotIn)
    fail(at, DiagId::TypeMismatch, std::string("'") + spelling(op) + "' needs compile-time operands");
  for (const auto &[v, r] : {std::pair<const Value &, SourceRange>(a, ra), {b, rb}}) {
    if (!v.isRuntime() && !v.isNumber())
      fail(r, DiagId::TypeMismatch, std::string("cannot compare ") + v.describe() + " with a runtime value");
    if (v.isRuntime() && v.type.isPointer)
      fail(r, DiagId::NotImplemented, "comparing pointers is not implemented yet");
  }
  Common common = commonType(a, b, at, ra, rb, false);
  DType ct = common.dtype;
  const std::vector<int64_t> &shape = common.shape;
  Value x = coerce(a, common, ra);
  Value y = coerce(b, common, rb);
  mlir::Location l = loc(at);
  mlir::Value r;
  if (isFloat(ct)) {
    using P = mlir::arith::CmpFPredicate;
    P p = op == CmpOp::Eq ? P::OEQ : op == CmpOp::NotEq ? P::UNE : op == CmpOp::Lt ? P::OLT
        : op == CmpOp::LtE ? P::OLE : op == CmpOp::Gt ? P::OGT : P::OGE;
    r = builder_.create<mlir::arith::CmpFOp>(l, p, x.ir, y.ir);
  } else {
    using P = mlir::arith::CmpIPredicate;
    bool u = isUnsigned(ct) || ct == DType::I1;
    P p = op == CmpOp::Eq ? P::eq : op == CmpOp::NotEq ? P::ne : op == CmpOp::Lt ? (u ? P::ult : P::slt)
        : op == CmpOp::LtE ? (u ? P::ule : P::sle) : op == CmpOp::Gt ? (u ? P::ugt : P::sgt) : (u ? P::uge : P::sge);
    r = builder_.create<mlir::arith::CmpIOp>(l, p, x.ir, y.ir);
  }
  TType t;
  t.dtype = DType::I1;
  t.shape = shape;
  return Value::ofRuntime(r, t);
}

Value LoweringContext::unary(UnaryOp op, const Value &v, SourceRange at) {
  if (!v.isRuntime()) {
    Value out;
    std::string error;
    if (foldUnary(op, v, out, error)) {
      if (!error.empty()) fail(at, DiagId::ConstantError, error);
      return out;
    }
    fail(at, DiagId::TypeMismatch, std::string("bad operand type for unary ") + spelling(op) + ": " + v.describe());
  }
  if (v.type.isPointer) fail(at, DiagId::TypeMismatch, std::string("unary ") + spelling(op) + " is not defined on pointers");
  if (v.type.isBuffer)
    fail(at, DiagId::TypeMismatch, "a buffer is not a value; read it with tle.gpu.local_load or address it with tle.gpu.local_ptr");
  if (v.type.isBlockPtr) fail(at, DiagId::TypeMismatch, std::string("unary ") + spelling(op) + " is not defined on block pointers");
  if (v.type.isTensorDesc)
    fail(at, DiagId::TypeMismatch, "a tensor descriptor is not a value; read blocks with desc.load([offsets])");
  mlir::Location l = loc(at);
  DType d = v.type.dtype;
  switch (op) {
  case UnaryOp::UAdd: return v;
  case UnaryOp::USub:
    if (isFloat(d)) return Value::ofRuntime(builder_.create<mlir::arith::NegFOp>(l, v.ir), v.type);
    return binary(BinaryOp::Sub, splatConstant(0, d, v.type.shape, at), v, at, at, at);
  case UnaryOp::Invert:
    if (isFloat(d)) fail(at, DiagId::TypeMismatch, std::string("'~' needs an integer operand, got ") + dtypeName(d));
    return binary(BinaryOp::BitXor, v, splatConstant(-1, d, v.type.shape, at), at, at, at);
  case UnaryOp::Not:
    if (v.type.isBlock())
      fail(at, DiagId::TypeMismatch, "'not' needs a scalar, got " + withArticle(v.type.str()) + "; use '~' or '== 0' element-wise");
    return compare(CmpOp::Eq, v, Value::ofInt(0), at, at, at);
  }
  return v;
}

Value LoweringContext::reshape(const Value &v, const std::vector<int64_t> &shape, SourceRange at) {
  Value in = toRuntime(v, at);
  if (in.type.shape == shape) return in;
  int64_t a = 1, b = 1;
  for (int64_t d : in.type.shape) a *= d;
  for (int64_t d : shape) b *= d;
  if (a != b)
    fail(at, DiagId::ShapeMismatch,
         "cannot reshape " + withArticle(in.type.str()) + " (" + std::to_string(a) + " elements) to " + std::to_string(b) + " elements");
  if (!in.type.isBlock()) return broadcastTo(in, shape, at);
  TType t = in.type.withShape(shape);
  auto op = builder_.create<tle::ir::ReshapeOp>(loc(at), irType(t), in.ir);
  return Value::ofRuntime(op.getResult(), t);
}

Value LoweringContext::minMax(bool isMax, const Value &a, const Value &b, bool propagateNan, SourceRange at) {
  Common common = commonType(a, b, at, at, at, false);
  DType d = common.dtype;
  Value x = coerce(a, common, at), y = coerce(b, common, at);
  mlir::Location l = loc(at);
  mlir::Value r;
  if (isFloat(d)) {
    if (propagateNan)
      r = isMax ? mlir::Value(builder_.create<mlir::arith::MaximumFOp>(l, x.ir, y.ir))
                : builder_.create<mlir::arith::MinimumFOp>(l, x.ir, y.ir);
    else
      r = isMax ? mlir::Value(builder_.create<mlir::arith::MaxNumFOp>(l, x.ir, y.ir))
                : builder_.create<mlir::arith::MinNumFOp>(l, x.ir, y.ir);
  } else if (isUnsigned(d) || d == DType::I1) {
    r = isMax ? mlir::Value(builder_.create<mlir::arith::MaxUIOp>(l, x.ir, y.ir)) : builder_.create<mlir::arith::MinUIOp>(l, x.ir, y.ir);
  } else {
    r = isMax ? mlir::Value(builder_.create<mlir::arith::MaxSIOp>(l, x.ir, y.ir)) : builder_.create<mlir::arith::MinSIOp>(l, x.ir, y.ir);
  }
  return Value::ofRuntime(r, x.type);
}

}  // namespace tle::sema
