// Inclusive scans: tle.scan with its combine region, and tl.cumsum, tl.cumprod and
// tl.associative_scan built on it.
#include "sema/Lowering.h"

#include "ir/Dialect.h"

namespace tle::sema {

std::vector<Value> FunctionLowering::scan(std::vector<Value> inputs, int64_t axis, bool reverse, const Combine &combine,
                                          SourceRange at) {
  std::vector<int64_t> shape = inputs[0].type.shape;
  for (const Value &v : inputs) {
    if (!v.isRuntime() || !v.type.isBlock() || v.type.isPointer)
      fail(at, DiagId::TypeMismatch, "a scan needs blocks of numbers, got " + (v.isRuntime() ? withArticle(v.type.str()) : v.describe()));
    if (v.type.shape != shape) fail(at, DiagId::ShapeMismatch, "scanned blocks must have one shape");
  }
  int64_t rank = static_cast<int64_t>(shape.size());
  if (axis < -rank || axis >= rank)
    fail(at, DiagId::ShapeMismatch, "axis " + std::to_string(axis) + " is out of range for " + withArticle(inputs[0].type.str()));
  if (axis < 0) axis += rank;
  std::vector<mlir::Type> resultTypes;
  std::vector<mlir::Value> srcs;
  for (const Value &v : inputs) {
    resultTypes.push_back(v.ir.getType());
    srcs.push_back(v.ir);
  }
  mlir::Location l = loc(at);
  auto op = builder_.create<tle::ir::ScanOp>(l, resultTypes, srcs, builder_.getI32IntegerAttr(static_cast<int32_t>(axis)),
                                             builder_.getBoolAttr(reverse));
  builder_.create<tle::ir::ScanReturnOp>(l, combineRegion(op.getCombineOp(), inputs, combine, l, at));
  builder_.setInsertionPointAfter(op);
  std::vector<Value> results;
  for (size_t i = 0; i < inputs.size(); ++i)
    results.push_back(Value::ofRuntime(op.getResult(static_cast<unsigned>(i)), inputs[i].type));
  return results;
}

// tl.cumsum(input, axis=0, reverse=False, dtype=None), tl.cumprod(input, axis=0, reverse=False),
// tl.associative_scan(input, axis, combine_fn, reverse=False).
Value FunctionLowering::scanBuiltin(const std::string &member, CallArgs &args, SourceRange at) {
  std::vector<SourceRange> where;
  std::string fn = "tl." + member;
  if (member == "associative_scan") {
    auto a = bindArgs(*this, fn, {{"input", true}, {"axis", true}, {"combine_fn", true}, {"reverse", false}}, args, at, &where);
    std::vector<Value> inputs = a[0]->kind == Value::Kind::Tuple ? a[0]->elements : std::vector<Value>{*a[0]};
    if (inputs.empty()) fail(where[0], DiagId::TypeMismatch, "tl.associative_scan needs at least one block");
    for (const Value &v : inputs)
      if (!v.isRuntime() || !v.type.isBlock() || v.type.isPointer)
        fail(where[0], DiagId::TypeMismatch, "tl.associative_scan needs blocks of numbers, got " +
                                                 (v.isRuntime() ? withArticle(v.type.str()) : v.describe()));
    int64_t axis = requireInt(*a[1], where[1], "the scan axis");
    const Value &combineFn = *a[2];
    bool reverse = a[3] && truthy(*a[3], where[3]);
    Combine combine = [&](const std::vector<Value> &acc, const std::vector<Value> &next) {
      return callCombine(combineFn, acc, next, where[2]);
    };
    std::vector<Value> r = scan(inputs, axis, reverse, combine, at);
    return r.size() == 1 ? r[0] : Value::ofTuple(r);
  }
  bool sum = member == "cumsum";
  auto a = sum ? bindArgs(*this, fn, {{"input", true}, {"axis", false}, {"reverse", false}, {"dtype", false}}, args, at, &where)
               : bindArgs(*this, fn, {{"input", true}, {"axis", false}, {"reverse", false}}, args, at, &where);
  Value x = *a[0];
  if (!x.isRuntime() || !x.type.isBlock() || x.type.isPointer)
    fail(where[0], DiagId::TypeMismatch, fn + " needs a block of numbers, got " + (x.isRuntime() ? withArticle(x.type.str()) : x.describe()));
  int64_t axis = a[1] && a[1]->kind != Value::Kind::None ? requireInt(*a[1], where[1], "the scan axis") : 0;
  int64_t rank = static_cast<int64_t>(x.type.shape.size());
  if (axis < -rank || axis >= rank)
    fail(where[1], DiagId::ShapeMismatch, "axis " + std::to_string(axis) + " is out of range for the " + std::to_string(rank) +
                                             "-dimensional " + x.type.str());
  bool reverse = a[2] && truthy(*a[2], where[2]);
  // Triton's rules: bf16 is scanned in fp32; cumsum sums small integers in 32 bits unless
  // `dtype` says otherwise.
  if (x.type.dtype == DType::BF16) x = cast(x, DType::FP32, where[0]);
  if (sum && a[3] && a[3]->kind != Value::Kind::None) x = cast(x, requireDType(*a[3], where[3], "dtype"), where[3]);
  else if (sum && isInt(x.type.dtype) && bitWidth(x.type.dtype) < 32) x = cast(x, isUnsigned(x.type.dtype) ? DType::U32 : DType::I32, at);
  ast::BinaryOp op = sum ? ast::BinaryOp::Add : ast::BinaryOp::Mul;
  Combine combine = [&](const std::vector<Value> &p, const std::vector<Value> &q) {
    return std::vector<Value>{binary(op, p[0], q[0], at, at, at)};
  };
  return scan({x}, axis, reverse, combine, at)[0];
}

}  // namespace tle::sema
