// Scans: tle.scan with its combine region, tl.cumsum, tl.cumprod and tl.associative_scan
// built on it (also as block methods), and TLE-Lite's exclusive tle.cumsum.
#include "sema/builtins/Registry.h"

#include "ir/Dialect.h"

namespace tle::sema {

namespace {

// Inclusive scans along `axis`: one result per input, each of its input's type.
std::vector<Value> scan(LoweringContext &cx, std::vector<Value> inputs, int64_t axis, bool reverse, const Combine &combine,
                        SourceRange at) {
  std::vector<int64_t> shape = inputs[0].type.shape;
  for (const Value &v : inputs) {
    if (!v.isRuntime() || !v.type.isBlock() || v.type.isPointer)
      cx.fail(at, DiagId::TypeMismatch, "a scan needs blocks of numbers, got " + (v.isRuntime() ? withArticle(v.type.str()) : v.describe()));
    if (v.type.shape != shape) cx.fail(at, DiagId::ShapeMismatch, "scanned blocks must have one shape");
  }
  int64_t rank = static_cast<int64_t>(shape.size());
  if (axis < -rank || axis >= rank)
    cx.fail(at, DiagId::ShapeMismatch, "axis " + std::to_string(axis) + " is out of range for " + withArticle(inputs[0].type.str()));
  if (axis < 0) axis += rank;
  std::vector<mlir::Type> resultTypes;
  std::vector<mlir::Value> srcs;
  for (const Value &v : inputs) {
    resultTypes.push_back(v.ir.getType());
    srcs.push_back(v.ir);
  }
  mlir::Location l = cx.loc(at);
  mlir::OpBuilder &b = cx.builder();
  auto op = b.create<tle::ir::ScanOp>(l, resultTypes, srcs, b.getI32IntegerAttr(static_cast<int32_t>(axis)), b.getBoolAttr(reverse));
  b.create<tle::ir::ScanReturnOp>(l, combineRegion(cx, op.getCombineOp(), inputs, combine, l, at));
  b.setInsertionPointAfter(op);
  std::vector<Value> results;
  for (size_t i = 0; i < inputs.size(); ++i)
    results.push_back(Value::ofRuntime(op.getResult(static_cast<unsigned>(i)), inputs[i].type));
  return results;
}

// tl.associative_scan(input, axis, combine_fn, reverse=False).
Value associativeScan(LoweringContext &cx, BuiltinCall &c) {
  SourceRange at = c.at;
  std::vector<SourceRange> where;
  std::string fn = "tl." + c.member;
  auto a = bindArgs(cx, fn, {{"input", true}, {"axis", true}, {"combine_fn", true}, {"reverse", false}}, c.args, at, &where);
  std::vector<Value> inputs = a[0]->kind == Value::Kind::Tuple ? a[0]->elements : std::vector<Value>{*a[0]};
  if (inputs.empty()) cx.fail(where[0], DiagId::TypeMismatch, "tl.associative_scan needs at least one block");
  for (const Value &v : inputs)
    if (!v.isRuntime() || !v.type.isBlock() || v.type.isPointer)
      cx.fail(where[0], DiagId::TypeMismatch, "tl.associative_scan needs blocks of numbers, got " +
                                                  (v.isRuntime() ? withArticle(v.type.str()) : v.describe()));
  int64_t axis = cx.requireInt(*a[1], where[1], "the scan axis");
  const Value &combineFn = *a[2];
  bool reverse = a[3] && cx.truthy(*a[3], where[3]);
  Combine combine = [&](const std::vector<Value> &acc, const std::vector<Value> &next) {
    return callCombine(cx, combineFn, acc, next, where[2]);
  };
  std::vector<Value> r = scan(cx, inputs, axis, reverse, combine, at);
  return r.size() == 1 ? r[0] : Value::ofTuple(r);
}

// tl.cumsum(input, axis=0, reverse=False, dtype=None), tl.cumprod(input, axis=0, reverse=False).
Value cumulative(LoweringContext &cx, BuiltinCall &c) {
  SourceRange at = c.at;
  std::vector<SourceRange> where;
  std::string fn = "tl." + c.member;
  bool sum = c.member == "cumsum";
  auto a = sum ? bindArgs(cx, fn, {{"input", true}, {"axis", false}, {"reverse", false}, {"dtype", false}}, c.args, at, &where)
               : bindArgs(cx, fn, {{"input", true}, {"axis", false}, {"reverse", false}}, c.args, at, &where);
  Value x = *a[0];
  if (!x.isRuntime() || !x.type.isBlock() || x.type.isPointer)
    cx.fail(where[0], DiagId::TypeMismatch, fn + " needs a block of numbers, got " + (x.isRuntime() ? withArticle(x.type.str()) : x.describe()));
  int64_t axis = a[1] && a[1]->kind != Value::Kind::None ? cx.requireInt(*a[1], where[1], "the scan axis") : 0;
  int64_t rank = static_cast<int64_t>(x.type.shape.size());
  if (axis < -rank || axis >= rank)
    cx.fail(where[1], DiagId::ShapeMismatch, "axis " + std::to_string(axis) + " is out of range for the " + std::to_string(rank) +
                                                 "-dimensional " + x.type.str());
  bool reverse = a[2] && cx.truthy(*a[2], where[2]);
  // Triton's rules: bf16 is scanned in fp32; cumsum sums small integers in 32 bits unless
  // `dtype` says otherwise.
  if (x.type.dtype == DType::BF16) x = cx.cast(x, DType::FP32, where[0]);
  if (sum && a[3] && a[3]->kind != Value::Kind::None) x = cx.cast(x, cx.requireDType(*a[3], where[3], "dtype"), where[3]);
  else if (sum && isInt(x.type.dtype) && bitWidth(x.type.dtype) < 32) x = cx.cast(x, isUnsigned(x.type.dtype) ? DType::U32 : DType::I32, at);
  ast::BinaryOp op = sum ? ast::BinaryOp::Add : ast::BinaryOp::Mul;
  Combine combine = [&](const std::vector<Value> &p, const std::vector<Value> &q) {
    return std::vector<Value>{cx.binary(op, p[0], q[0], at, at, at)};
  };
  return scan(cx, {x}, axis, reverse, combine, at)[0];
}

// tle.cumsum(input, axis=0, reverse=False, dtype=None): the exclusive prefix sums and the total.
Value exclusiveCumsum(LoweringContext &cx, BuiltinCall &c) {
  std::vector<SourceRange> where;
  auto a = bindArgs(cx, "tle.cumsum", {{"input", true}, {"axis", false}, {"reverse", false}, {"dtype", false}}, c.args, c.at, &where);
  Value x = *a[0];
  if (!x.isRuntime() || !x.type.isBlock() || x.type.isPointer)
    cx.fail(where[0], DiagId::TypeMismatch, "tle.cumsum needs a block of numbers, got " + (x.isRuntime() ? x.type.str() : x.describe()));
  int64_t rank = static_cast<int64_t>(x.type.shape.size());
  int64_t axis = a[1] && a[1]->kind != Value::Kind::None ? cx.requireInt(*a[1], where[1], "the axis") : 0;
  if (axis < -rank || axis >= rank)
    cx.fail(where[1], DiagId::ShapeMismatch, "axis " + std::to_string(axis) + " is out of range for the " + std::to_string(rank) +
                                                 "-dimensional " + x.type.str());
  if (axis < 0) axis += rank;
  bool reverse = a[2] && cx.truthy(*a[2], where[2]);
  if (a[3] && a[3]->kind != Value::Kind::None) x = cx.cast(x, cx.requireDType(*a[3], where[3], "dtype"), where[3]);
  else if (isInt(x.type.dtype) && bitWidth(x.type.dtype) < 32) x = cx.cast(x, isUnsigned(x.type.dtype) ? DType::U32 : DType::I32, c.at);
  std::vector<int64_t> rest = x.type.shape;
  rest.erase(rest.begin() + axis);
  TType totalType = x.type.withShape(rest);
  mlir::OpBuilder &b = cx.builder();
  auto op = b.create<tle::ir::ExclusiveCumsumOp>(cx.loc(c.at), cx.irType(x.type), cx.irType(totalType), x.ir,
                                                 b.getI32IntegerAttr(static_cast<int32_t>(axis)), b.getBoolAttr(reverse));
  return Value::ofTuple({Value::ofRuntime(op.getExclusive(), x.type), Value::ofRuntime(op.getTotal(), totalType)});
}

}  // namespace

void registerScanBuiltins(BuiltinRegistry &r) {
  r.addTlOrMethod("cumsum", cumulative);
  r.addTlOrMethod("cumprod", cumulative);
  r.addTlOrMethod("associative_scan", associativeScan);
  r.add("tle.cumsum", exclusiveCumsum);
}

}  // namespace tle::sema
