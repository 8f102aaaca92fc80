// Element-wise functions beyond the arithmetic operators: tl.clamp, sigmoid, softmax,
// fdiv, div_rn, umulhi, pow, log1p, cast (and bitcast); some also as block methods.
#include "sema/builtins/Registry.h"

#include "ir/Dialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

namespace tle::sema {

namespace {

// A runtime operand of `fn` that is a number or a block of numbers.
Value numeric(LoweringContext &cx, const std::string &fn, const Value &v, SourceRange r) {
  Value x = v.isRuntime() ? v : cx.toRuntime(v, r);
  if (x.type.isPointer || x.type.isBlockPtr || x.type.isBuffer || x.type.isTensorDesc)
    cx.fail(r, DiagId::TypeMismatch, fn + " is not defined on " + withArticle(x.type.str()));
  return x;
}

void requireFloat(LoweringContext &cx, const std::string &fn, const Value &x, SourceRange r) {
  if (!isFloat(x.type.dtype))
    cx.fail(r, DiagId::TypeMismatch, fn + " needs floating-point values, got " + withArticle(x.type.str()));
}

// tl.cast(input, dtype, fp_downcast_rounding, bitcast), tl.bitcast(input, dtype).
Value castOrBitcast(LoweringContext &cx, BuiltinCall &c) {
  std::vector<SourceRange> where;
  std::string fn = "tl." + c.member;
  auto a = c.member == "cast"
               ? bindArgs(cx, fn, {{"input", true}, {"dtype", true}, {"fp_downcast_rounding", false}, {"bitcast", false}}, c.args, c.at, &where)
               : bindArgs(cx, fn, {{"input", true}, {"dtype", true}}, c.args, c.at, &where);
  DType d = cx.requireDType(*a[1], where[1], "the target dtype");
  bool bitcast = c.member == "bitcast" || (a.size() > 3 && a[3] && cx.truthy(*a[3], where[3]));
  if (a.size() > 2 && a[2] && a[2]->kind != Value::Kind::None) {
    if (a[2]->kind != Value::Kind::Str || (a[2]->text != "rtne" && a[2]->text != "rtz"))
      cx.fail(where[2], DiagId::ConstantError, "fp_downcast_rounding must be 'rtne' or 'rtz'");
  }
  return cx.cast(numeric(cx, fn, *a[0], where[0]), d, c.at, bitcast);
}

Value log1p(LoweringContext &cx, BuiltinCall &c) {
  std::vector<SourceRange> where;
  std::string fn = "tl." + c.member;
  auto a = bindArgs(cx, fn, {{"x", true}}, c.args, c.at, &where);
  Value x = numeric(cx, fn, *a[0], where[0]);
  requireFloat(cx, fn, x, where[0]);
  return Value::ofRuntime(cx.builder().create<mlir::math::Log1pOp>(cx.loc(c.at), x.ir), x.type);
}

// Triton's definition: 1 / (1 + exp(-x)).
Value sigmoid(LoweringContext &cx, BuiltinCall &c) {
  SourceRange at = c.at;
  std::vector<SourceRange> where;
  std::string fn = "tl." + c.member;
  auto a = bindArgs(cx, fn, {{"x", true}}, c.args, at, &where);
  Value x = numeric(cx, fn, *a[0], where[0]);
  requireFloat(cx, fn, x, where[0]);
  Value e = Value::ofRuntime(cx.builder().create<mlir::math::ExpOp>(cx.loc(at), cx.unary(ast::UnaryOp::USub, x, at).ir), x.type);
  return cx.binary(ast::BinaryOp::Div, Value::ofInt(1), cx.binary(ast::BinaryOp::Add, Value::ofInt(1), e, at, at, at), at, at, at);
}

Value clamp(LoweringContext &cx, BuiltinCall &c) {
  std::vector<SourceRange> where;
  std::string fn = "tl." + c.member;
  auto a = bindArgs(cx, fn, {{"x", true}, {"min", true}, {"max", true}, {"propagate_nan", false}}, c.args, c.at, &where);
  Value x = numeric(cx, fn, *a[0], where[0]);
  requireFloat(cx, fn, x, where[0]);
  bool propagate = a[3] && a[3]->kind == Value::Kind::Int && a[3]->intValue != 0;
  if (a[3] && a[3]->isRuntime()) cx.fail(where[3], DiagId::NotConstexpr, "propagate_nan must be a compile-time value");
  Value lo = cx.minMax(true, x, *a[1], propagate, c.at);
  return cx.minMax(false, lo, *a[2], propagate, c.at);
}

// tl.fdiv(x, y, ieee_rounding), tl.div_rn(x, y).
Value floatDivision(LoweringContext &cx, BuiltinCall &c) {
  std::vector<SourceRange> where;
  std::string fn = "tl." + c.member;
  auto a = c.member == "fdiv" ? bindArgs(cx, fn, {{"x", true}, {"y", true}, {"ieee_rounding", false}}, c.args, c.at, &where)
                              : bindArgs(cx, fn, {{"x", true}, {"y", true}}, c.args, c.at, &where);
  Value x = numeric(cx, fn, *a[0], where[0]), y = numeric(cx, fn, *a[1], where[1]);
  requireFloat(cx, fn, x, where[0]);
  requireFloat(cx, fn, y, where[1]);
  // tl.math.div_rn and tl.fdiv(ieee_rounding=True) round correctly; `/` and tl.fdiv do not.
  bool ieee = c.member == "div_rn";
  if (a.size() > 2 && a[2]) {
    const Value &rounding = *a[2];
    if (rounding.isRuntime()) cx.fail(where[2], DiagId::NotConstexpr, "ieee_rounding must be a compile-time value");
    if (rounding.kind == Value::Kind::Bool) ieee = rounding.boolValue;
    else if (rounding.kind == Value::Kind::Int) ieee = rounding.intValue != 0;
    else if (rounding.kind != Value::Kind::None)
      cx.fail(where[2], DiagId::TypeMismatch, "ieee_rounding must be True or False");
  }
  Value q = cx.binary(ast::BinaryOp::Div, x, y, c.at, where[0], where[1]);
  if (ieee && q.isRuntime())
    if (auto division = q.ir.getDefiningOp<mlir::arith::DivFOp>()) division.setFastmath(mlir::arith::FastMathFlags::none);
  return q;
}

Value pow(LoweringContext &cx, BuiltinCall &c) {
  std::vector<SourceRange> where;
  std::string fn = "tl." + c.member;
  auto a = bindArgs(cx, fn, {{"x", true}, {"y", true}}, c.args, c.at, &where);
  Value x = numeric(cx, fn, *a[0], where[0]);
  requireFloat(cx, fn, x, where[0]);
  LoweringContext::Common common = cx.commonType(x, *a[1], c.at, where[0], where[1], false);
  Value xv = cx.coerce(x, common, c.at), yv = cx.coerce(*a[1], common, c.at);
  return Value::ofRuntime(cx.builder().create<mlir::math::PowFOp>(cx.loc(c.at), xv.ir, yv.ir), xv.type);
}

// The high half of the double-width unsigned product (mulhi.u32 / mulhi.u64).
Value umulhi(LoweringContext &cx, BuiltinCall &c) {
  std::vector<SourceRange> where;
  std::string fn = "tl." + c.member;
  auto a = bindArgs(cx, fn, {{"x", true}, {"y", true}}, c.args, c.at, &where);
  Value x = numeric(cx, fn, *a[0], where[0]);
  if (!isInt(x.type.dtype) || x.type.dtype == DType::I1)
    cx.fail(where[0], DiagId::TypeMismatch, "tl.umulhi needs integers, got " + withArticle(x.type.str()));
  LoweringContext::Common common = cx.commonType(x, *a[1], c.at, where[0], where[1], false);
  if (!isInt(common.dtype)) cx.fail(where[1], DiagId::TypeMismatch, "tl.umulhi needs integers on both sides");
  Value xv = cx.coerce(x, common, c.at), yv = cx.coerce(*a[1], common, c.at);
  auto op = cx.builder().create<mlir::arith::MulUIExtendedOp>(cx.loc(c.at), xv.ir, yv.ir);
  return Value::ofRuntime(op.getHigh(), xv.type);
}

// softmax(x, dim=None, keep_dims=False, ieee_rounding=False), as Triton defines it:
// exp(x - max(x, dim)) / sum(that, dim), with dim 0 when None.
Value softmax(LoweringContext &cx, BuiltinCall &c) {
  SourceRange at = c.at;
  std::vector<SourceRange> where;
  std::string fn = "tl." + c.member;
  auto a = bindArgs(cx, fn, {{"x", true}, {"dim", false}, {"keep_dims", false}, {"ieee_rounding", false}}, c.args, at, &where);
  Value x = numeric(cx, fn, *a[0], where[0]);
  requireFloat(cx, fn, x, where[0]);
  if (!x.type.isBlock()) cx.fail(where[0], DiagId::TypeMismatch, "tl.softmax needs a block, got " + withArticle(x.type.str()));
  int64_t dim = a[1] && a[1]->kind != Value::Kind::None ? cx.requireInt(*a[1], where[1], "dim") : 0;
  bool keep = a[2] && cx.truthy(*a[2], where[2]);
  Combine maxStep = [&](const std::vector<Value> &p, const std::vector<Value> &q) {
    return std::vector<Value>{cx.minMax(true, p[0], q[0], false, at)};
  };
  Value m = reduce(cx, {x}, dim, keep, maxStep, at)[0];
  Value z = cx.binary(ast::BinaryOp::Sub, x, m, at, where[0], at);
  Value num = Value::ofRuntime(cx.builder().create<mlir::math::ExpOp>(cx.loc(at), z.ir), z.type);
  Combine addStep = [&](const std::vector<Value> &p, const std::vector<Value> &q) {
    return std::vector<Value>{cx.binary(ast::BinaryOp::Add, p[0], q[0], at, at, at)};
  };
  Value den = reduce(cx, {num}, dim, keep, addStep, at)[0];
  return cx.binary(ast::BinaryOp::Div, num, den, at, at, at);
}

}  // namespace

void registerMathExtraBuiltins(BuiltinRegistry &r) {
  r.addTlOrMethod("cast", castOrBitcast);
  r.addTlOrMethod("bitcast", castOrBitcast);
  r.addTlOrMethod("log1p", log1p);
  r.addTlOrMethod("sigmoid", sigmoid);
  r.addTlOrMethod("clamp", clamp);
  r.addTlOrMethod("fdiv", floatDivision);
  r.addTlOrMethod("div_rn", floatDivision);
  r.addTlOrMethod("pow", pow);
  r.addTlOrMethod("umulhi", umulhi);
  r.addTlOrMethod("softmax", softmax);
}

}  // namespace tle::sema
