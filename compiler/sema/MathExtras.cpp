// Element-wise functions beyond the arithmetic operators: tl.clamp, sigmoid, softmax,
// fdiv, div_rn, umulhi, pow, log1p, cast (and bitcast).
#include "sema/Lowering.h"

#include "ir/Dialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

namespace tle::sema {

Value FunctionLowering::mathExtra(const std::string &member, CallArgs &args, SourceRange at) {
  std::vector<SourceRange> where;
  mlir::Location l = loc(at);
  std::string fn = "tl." + member;
  auto numeric = [&](const Value &v, SourceRange r) {
    Value x = v.isRuntime() ? v : toRuntime(v, r);
    if (x.type.isPointer || x.type.isBlockPtr || x.type.isBuffer || x.type.isTensorDesc)
      fail(r, DiagId::TypeMismatch, fn + " is not defined on " + withArticle(x.type.str()));
    return x;
  };
  auto requireFloat = [&](const Value &x, SourceRange r) {
    if (!isFloat(x.type.dtype))
      fail(r, DiagId::TypeMismatch, fn + " needs floating-point values, got " + withArticle(x.type.str()));
  };
  if (member == "cast" || member == "bitcast") {
    auto a = member == "cast"
                 ? bindArgs(*this, fn, {{"input", true}, {"dtype", true}, {"fp_downcast_rounding", false}, {"bitcast", false}}, args, at, &where)
                 : bindArgs(*this, fn, {{"input", true}, {"dtype", true}}, args, at, &where);
    DType d = requireDType(*a[1], where[1], "the target dtype");
    bool bitcast = member == "bitcast" || (a.size() > 3 && a[3] && truthy(*a[3], where[3]));
    if (a.size() > 2 && a[2] && a[2]->kind != Value::Kind::None) {
      if (a[2]->kind != Value::Kind::Str || (a[2]->text != "rtne" && a[2]->text != "rtz"))
        fail(where[2], DiagId::ConstantError, "fp_downcast_rounding must be 'rtne' or 'rtz'");
    }
    return cast(numeric(*a[0], where[0]), d, at, bitcast);
  }
  if (member == "log1p") {
    auto a = bindArgs(*this, fn, {{"x", true}}, args, at, &where);
    Value x = numeric(*a[0], where[0]);
    requireFloat(x, where[0]);
    return Value::ofRuntime(builder_.create<mlir::math::Log1pOp>(l, x.ir), x.type);
  }
  if (member == "sigmoid") {
    // Triton's definition: 1 / (1 + exp(-x)).
    auto a = bindArgs(*this, fn, {{"x", true}}, args, at, &where);
    Value x = numeric(*a[0], where[0]);
    requireFloat(x, where[0]);
    Value e = Value::ofRuntime(builder_.create<mlir::math::ExpOp>(l, unary(ast::UnaryOp::USub, x, at).ir), x.type);
    return binary(ast::BinaryOp::Div, Value::ofInt(1), binary(ast::BinaryOp::Add, Value::ofInt(1), e, at, at, at), at, at, at);
  }
  if (member == "clamp") {
    auto a = bindArgs(*this, fn, {{"x", true}, {"min", true}, {"max", true}, {"propagate_nan", false}}, args, at, &where);
    Value x = numeric(*a[0], where[0]);
    requireFloat(x, where[0]);
    bool propagate = a[3] && a[3]->kind == Value::Kind::Int && a[3]->intValue != 0;
    if (a[3] && a[3]->isRuntime()) fail(where[3], DiagId::NotConstexpr, "propagate_nan must be a compile-time value");
    Value lo = minMax(true, x, *a[1], propagate, at);
    return minMax(false, lo, *a[2], propagate, at);
  }
  if (member == "fdiv" || member == "div_rn") {
    auto a = member == "fdiv" ? bindArgs(*this, fn, {{"x", true}, {"y", true}, {"ieee_rounding", false}}, args, at, &where)
                              : bindArgs(*this, fn, {{"x", true}, {"y", true}}, args, at, &where);
    Value x = numeric(*a[0], where[0]), y = numeric(*a[1], where[1]);
    requireFloat(x, where[0]);
    requireFloat(y, where[1]);
    return binary(ast::BinaryOp::Div, x, y, at, where[0], where[1]);
  }
  if (member == "pow") {
    auto a = bindArgs(*this, fn, {{"x", true}, {"y", true}}, args, at, &where);
    Value x = numeric(*a[0], where[0]);
    requireFloat(x, where[0]);
    Common c = commonType(x, *a[1], at, where[0], where[1], false);
    Value xv = coerce(x, c, at), yv = coerce(*a[1], c, at);
    return Value::ofRuntime(builder_.create<mlir::math::PowFOp>(l, xv.ir, yv.ir), xv.type);
  }
  if (member == "umulhi") {
    // The high half of the double-width unsigned product (mulhi.u32 / mulhi.u64).
    auto a = bindArgs(*this, fn, {{"x", true}, {"y", true}}, args, at, &where);
    Value x = numeric(*a[0], where[0]);
    if (!isInt(x.type.dtype) || x.type.dtype == DType::I1)
      fail(where[0], DiagId::TypeMismatch, "tl.umulhi needs integers, got " + withArticle(x.type.str()));
    Common c = commonType(x, *a[1], at, where[0], where[1], false);
    if (!isInt(c.dtype)) fail(where[1], DiagId::TypeMismatch, "tl.umulhi needs integers on both sides");
    Value xv = coerce(x, c, at), yv = coerce(*a[1], c, at);
    auto op = builder_.create<mlir::arith::MulUIExtendedOp>(l, xv.ir, yv.ir);
    return Value::ofRuntime(op.getHigh(), xv.type);
  }
  // softmax(x, dim=None, keep_dims=False, ieee_rounding=False), as Triton defines it:
  // exp(x - max(x, dim)) / sum(that, dim), with dim 0 when None.
  auto a = bindArgs(*this, fn, {{"x", true}, {"dim", false}, {"keep_dims", false}, {"ieee_rounding", false}}, args, at, &where);
  Value x = numeric(*a[0], where[0]);
  requireFloat(x, where[0]);
  if (!x.type.isBlock()) fail(where[0], DiagId::TypeMismatch, "tl.softmax needs a block, got " + withArticle(x.type.str()));
  int64_t dim = a[1] && a[1]->kind != Value::Kind::None ? requireInt(*a[1], where[1], "dim") : 0;
  bool keep = a[2] && truthy(*a[2], where[2]);
  Combine maxStep = [&](const std::vector<Value> &p, const std::vector<Value> &q) {
    return std::vector<Value>{minMax(true, p[0], q[0], false, at)};
  };
  Value m = reduce({x}, dim, keep, maxStep, at)[0];
  Value z = binary(ast::BinaryOp::Sub, x, m, at, where[0], at);
  Value num = Value::ofRuntime(builder_.create<mlir::math::ExpOp>(l, z.ir), z.type);
  Combine addStep = [&](const std::vector<Value> &p, const std::vector<Value> &q) {
    return std::vector<Value>{binary(ast::BinaryOp::Add, p[0], q[0], at, at, at)};
  };
  Value den = reduce({num}, dim, keep, addStep, at)[0];
  return binary(ast::BinaryOp::Div, num, den, at, at, at);
}

}  // namespace tle::sema
