// Element-wise functions with Triton's promotion and broadcasting: tl.where, maximum,
// minimum, the unary math functions (exp ... erf, abs), fma, and the conversion x.to(dtype).
#include "sema/builtins/Registry.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

namespace tle::sema {

namespace {

using Common = LoweringContext::Common;

Value where(LoweringContext &cx, BuiltinCall &c) {
  SourceRange at = c.at;
  auto a = bindArgs(cx, "tl.where", {{"condition", true}, {"x", true}, {"y", true}}, c.args, at);
  Value cond = cx.toRuntime(*a[0], at);
  if (cond.type.dtype != DType::I1) cond = cx.cast(cond, DType::I1, at);
  const Value &x = *a[1], &y = *a[2];
  if ((x.isRuntime() && x.type.isPointer) || (y.isRuntime() && y.type.isPointer))
    cx.fail(at, DiagId::NotImplemented, "tl.where on pointers is not implemented yet");
  // x and y are promoted as for arithmetic; all three broadcast together.
  Common xy = cx.commonType(x, y, at, at, at, false);
  Common all = cx.commonType(cond, Value::ofRuntime(mlir::Value(), TType::tensor(xy.dtype, xy.shape)), at, at, at, false);
  xy.shape = all.shape;
  cond = cx.broadcastTo(cond, all.shape, at);
  Value xv = cx.coerce(x, xy, at);
  Value yv = cx.coerce(y, xy, at);
  auto op = cx.builder().create<mlir::arith::SelectOp>(cx.loc(at), cond.ir, xv.ir, yv.ir);
  return Value::ofRuntime(op.getResult(), xv.type);
}

// tl.maximum / tl.minimum(x, y, propagate_nan).
Value maximumOrMinimum(LoweringContext &cx, BuiltinCall &c) {
  SourceRange at = c.at;
  auto a = bindArgs(cx, "tl." + c.member, {{"x", true}, {"y", true}, {"propagate_nan", false}}, c.args, at);
  Value x = *a[0], y = *a[1];
  Common common = cx.commonType(x, y, at, at, at, false);
  DType d = common.dtype;
  Value xv = cx.coerce(x, common, at);
  Value yv = cx.coerce(y, common, at);
  bool isMax = c.member == "maximum";
  bool propagateAll = a[2] && a[2]->kind == Value::Kind::Int && a[2]->intValue != 0;
  mlir::OpBuilder &b = cx.builder();
  mlir::Location l = cx.loc(at);
  mlir::Value r;
  if (isFloat(d)) {
    if (propagateAll) r = isMax ? mlir::Value(b.create<mlir::arith::MaximumFOp>(l, xv.ir, yv.ir)) : b.create<mlir::arith::MinimumFOp>(l, xv.ir, yv.ir);
    else r = isMax ? mlir::Value(b.create<mlir::arith::MaxNumFOp>(l, xv.ir, yv.ir)) : b.create<mlir::arith::MinNumFOp>(l, xv.ir, yv.ir);
  } else if (isUnsigned(d) || d == DType::I1) {
    r = isMax ? mlir::Value(b.create<mlir::arith::MaxUIOp>(l, xv.ir, yv.ir)) : b.create<mlir::arith::MinUIOp>(l, xv.ir, yv.ir);
  } else {
    r = isMax ? mlir::Value(b.create<mlir::arith::MaxSIOp>(l, xv.ir, yv.ir)) : b.create<mlir::arith::MinSIOp>(l, xv.ir, yv.ir);
  }
  return Value::ofRuntime(r, xv.type);
}

// tl.exp, exp2, log, log2, sqrt, rsqrt, sin, cos, abs, floor, ceil, erf.
Value unaryMath(LoweringContext &cx, BuiltinCall &c) {
  const std::string &member = c.member;
  SourceRange at = c.at;
  auto a = bindArgs(cx, "tl." + member, {{"x", true}}, c.args, at);
  Value x = cx.toRuntime(*a[0], at);
  if (x.type.isPointer) cx.fail(at, DiagId::TypeMismatch, "tl." + member + " is not defined on pointers");
  DType d = x.type.dtype;
  mlir::OpBuilder &b = cx.builder();
  mlir::Location l = cx.loc(at);
  if (member == "abs" && !isFloat(d)) {
    if (isUnsigned(d) || d == DType::I1) return x;
    return Value::ofRuntime(b.create<mlir::math::AbsIOp>(l, x.ir), x.type);
  }
  if (!isFloat(d))
    cx.fail(at, DiagId::TypeMismatch, "tl." + member + " needs a floating-point argument, got " + std::string(dtypeName(d)));
  mlir::Value r;
  if (member == "exp") r = b.create<mlir::math::ExpOp>(l, x.ir);
  else if (member == "exp2") r = b.create<mlir::math::Exp2Op>(l, x.ir);
  else if (member == "log") r = b.create<mlir::math::LogOp>(l, x.ir);
  else if (member == "log2") r = b.create<mlir::math::Log2Op>(l, x.ir);
  else if (member == "sqrt") r = b.create<mlir::math::SqrtOp>(l, x.ir);
  else if (member == "rsqrt") r = b.create<mlir::math::RsqrtOp>(l, x.ir);
  else if (member == "sin") r = b.create<mlir::math::SinOp>(l, x.ir);
  else if (member == "cos") r = b.create<mlir::math::CosOp>(l, x.ir);
  else if (member == "abs") r = b.create<mlir::math::AbsFOp>(l, x.ir);
  else if (member == "floor") r = b.create<mlir::math::FloorOp>(l, x.ir);
  else if (member == "ceil") r = b.create<mlir::math::CeilOp>(l, x.ir);
  else r = b.create<mlir::math::ErfOp>(l, x.ir);
  return Value::ofRuntime(r, x.type);
}

// tl.fma(x, y, z): fused on floats, a multiply and an add on integers.
Value fma(LoweringContext &cx, BuiltinCall &c) {
  SourceRange at = c.at;
  auto a = bindArgs(cx, "tl.fma", {{"x", true}, {"y", true}, {"z", true}}, c.args, at);
  Common common = cx.commonType(*a[0], *a[1], at, at, at, false);
  TType ab = TType::tensor(common.dtype, common.shape);
  common = cx.commonType(Value::ofRuntime(mlir::Value(), ab), *a[2], at, at, at, false);
  if (!isFloat(common.dtype)) {
    Value xy = cx.binary(ast::BinaryOp::Mul, *a[0], *a[1], at, at, at);
    return cx.binary(ast::BinaryOp::Add, xy, *a[2], at, at, at);
  }
  Value x = cx.coerce(*a[0], common, at), y = cx.coerce(*a[1], common, at), z = cx.coerce(*a[2], common, at);
  TType sumType = x.type;
  return Value::ofRuntime(cx.builder().create<mlir::math::FmaOp>(cx.loc(at), x.ir, y.ir, z.ir), sumType);
}

// x.to(dtype, fp_downcast_rounding=None, bitcast=False).
Value to(LoweringContext &cx, BuiltinCall &c) {
  auto a = bindArgs(cx, ".to", {{"self", true}, {"dtype", true}, {"fp_downcast_rounding", false}, {"bitcast", false}}, c.args, c.at);
  DType d = cx.requireDType(*a[1], c.at, "the target dtype");
  bool bitcast = a[3] && cx.truthy(*a[3], c.at);
  return cx.cast(*a[0], d, c.at, bitcast);
}

}  // namespace

void registerElementwiseBuiltins(BuiltinRegistry &r) {
  r.addTlOrMethod("where", where);
  r.addTlOrMethod("maximum", maximumOrMinimum);
  r.addTlOrMethod("minimum", maximumOrMinimum);
  for (const char *name : {"exp", "exp2", "log", "log2", "sqrt", "rsqrt", "sin", "cos", "abs", "floor", "ceil", "erf"})
    r.addTlOrMethod(name, unaryMath);
  r.addTlOrMethod("fma", fma);
  r.addTlOrMethod("to", to);
}

}  // namespace tle::sema
