// tle.reduce with its combine region, and the reductions built on it: tl.sum, max, min,
// argmax, argmin, xor_sum and tl.reduce with a user combine function (also as block
// methods: x.sum(axis=0)).
#include "sema/builtins/Registry.h"

#include "ir/Dialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

namespace tle::sema {

std::vector<Value> callCombine(LoweringContext &cx, const Value &fn, const std::vector<Value> &acc,
                               const std::vector<Value> &next, SourceRange at) {
  if (fn.kind != Value::Kind::Lambda && (fn.kind != Value::Kind::Function || !isJitFunction(*fn.function)))
    cx.fail(at, DiagId::TypeMismatch, "combine_fn must be a @triton.jit function or a lambda, got " + fn.describe());
  CallArgs inner;
  for (const Value &v : acc) inner.positional.push_back(v), inner.positionalRanges.push_back(at);
  for (const Value &v : next) inner.positional.push_back(v), inner.positionalRanges.push_back(at);
  Value r = cx.callFunction(fn, inner, at);
  return r.kind == Value::Kind::Tuple ? r.elements : std::vector<Value>{r};
}

std::vector<mlir::Value> combineRegion(LoweringContext &cx, mlir::Region &region, const std::vector<Value> &inputs,
                                       const Combine &combine, mlir::Location l, SourceRange at) {
  std::vector<mlir::Type> argTypes;
  for (int half = 0; half < 2; ++half)
    for (const Value &v : inputs) argTypes.push_back(cx.irScalarType(v.type.dtype));
  std::vector<mlir::Location> locs(argTypes.size(), l);
  mlir::Block *body = cx.builder().createBlock(&region, {}, argTypes, locs);
  std::vector<Value> acc, next;
  for (size_t i = 0; i < inputs.size(); ++i) {
    acc.push_back(Value::ofRuntime(body->getArgument(static_cast<unsigned>(i)), inputs[i].type.scalar()));
    next.push_back(Value::ofRuntime(body->getArgument(static_cast<unsigned>(i + inputs.size())), inputs[i].type.scalar()));
  }
  std::vector<Value> combined = combine(acc, next);
  if (combined.size() != inputs.size())
    cx.fail(at, DiagId::TypeMismatch,
            "the combine function must return " + std::to_string(inputs.size()) + " values, got " + std::to_string(combined.size()));
  std::vector<mlir::Value> yields;
  for (size_t i = 0; i < combined.size(); ++i) {
    Value c = combined[i].isRuntime() ? combined[i] : cx.toRuntime(combined[i], at, &acc[i].type);
    // A pointer is a scalar only where the accumulated values are pointers too.
    if (c.type.isBlock() || (c.type.isPointer && !acc[i].type.isPointer))
      cx.fail(at, DiagId::TypeMismatch, "the combine function must return scalars, got " + withArticle(c.type.str()));
    if (c.type.dtype != acc[i].type.dtype) c = cx.cast(c, acc[i].type.dtype, at);
    yields.push_back(c.ir);
  }
  return yields;
}

std::vector<Value> reduce(LoweringContext &cx, std::vector<Value> inputs, std::optional<int64_t> axis, bool keepDims,
                          const Combine &combine, SourceRange at) {
  std::vector<int64_t> shape = inputs[0].type.shape;
  for (Value &v : inputs) {
    if (!v.isRuntime() || !v.type.isBlock())
      cx.fail(at, DiagId::TypeMismatch, "a reduction needs a block, got " + (v.isRuntime() ? v.type.str() : v.describe()));
    if (v.type.shape != shape) cx.fail(at, DiagId::ShapeMismatch, "reduced blocks must have one shape");
  }
  std::vector<int64_t> original = shape;
  int64_t ax;
  if (!axis) {
    int64_t n = 1;
    for (int64_t d : shape) n *= d;
    for (Value &v : inputs) v = cx.reshape(v, {n}, at);
    shape = {n};
    ax = 0;
  } else {
    ax = *axis < 0 ? *axis + static_cast<int64_t>(shape.size()) : *axis;
    if (ax < 0 || ax >= static_cast<int64_t>(shape.size()))
      cx.fail(at, DiagId::ShapeMismatch,
              "axis " + std::to_string(*axis) + " is out of range for " + withArticle(inputs[0].type.str()));
  }
  std::vector<int64_t> resultShape = shape;
  resultShape.erase(resultShape.begin() + ax);
  std::vector<mlir::Type> resultTypes;
  std::vector<TType> resultTTypes;
  std::vector<mlir::Value> srcs;
  for (const Value &v : inputs) {
    TType rt = v.type.withShape(resultShape);
    resultTTypes.push_back(rt);
    resultTypes.push_back(cx.irType(rt));
    srcs.push_back(v.ir);
  }
  mlir::Location l = cx.loc(at);
  mlir::OpBuilder &b = cx.builder();
  auto op = b.create<tle::ir::ReduceOp>(l, resultTypes, srcs, b.getI32IntegerAttr(static_cast<int32_t>(ax)));
  b.create<tle::ir::ReduceReturnOp>(l, combineRegion(cx, op.getCombineOp(), inputs, combine, l, at));
  b.setInsertionPointAfter(op);

  std::vector<Value> results;
  for (size_t i = 0; i < inputs.size(); ++i) {
    Value r = Value::ofRuntime(op.getResult(static_cast<unsigned>(i)), resultTTypes[i]);
    if (keepDims) {
      std::vector<int64_t> kept = axis ? shape : std::vector<int64_t>(original.size(), 1);
      if (axis) kept[ax] = 1;
      r = cx.reshape(r, kept, at);
    }
    results.push_back(r);
  }
  return results;
}

namespace {

std::optional<int64_t> axisArg(LoweringContext &cx, const std::optional<Value> &v, SourceRange at) {
  if (!v || v->kind == Value::Kind::None) return std::nullopt;
  return cx.requireInt(*v, at, "the reduction axis");
}

// tl.reduce(input, axis, combine_fn, keep_dims): one block or a tuple of them.
Value reduceWithCombineFn(LoweringContext &cx, BuiltinCall &c) {
  std::vector<SourceRange> where;
  auto a = bindArgs(cx, "tl.reduce", {{"input", true}, {"axis", true}, {"combine_fn", true}, {"keep_dims", false}}, c.args, c.at, &where);
  std::vector<Value> inputs = a[0]->kind == Value::Kind::Tuple ? a[0]->elements : std::vector<Value>{*a[0]};
  const Value &fn = *a[2];
  Combine combine = [&](const std::vector<Value> &acc, const std::vector<Value> &next) {
    return callCombine(cx, fn, acc, next, where[2]);
  };
  bool keep = a[3] && cx.truthy(*a[3], c.at);
  std::vector<Value> r = reduce(cx, inputs, axisArg(cx, a[1], c.at), keep, combine, c.at);
  return r.size() == 1 ? r[0] : Value::ofTuple(r);
}

// Values with their indices (argmax, argmin, max/min with return_indices); ties go to the
// smaller index, as in Triton.
std::vector<Value> reduceWithIndices(LoweringContext &cx, const Value &input, std::optional<int64_t> axis, bool isMaxLike,
                                     bool keep, SourceRange at) {
  if (!axis && input.type.shape.size() != 1)
    cx.fail(at, DiagId::NotImplemented, "index-returning reductions over all axes of a multi-dimensional block are not implemented yet");
  int64_t ax = axis ? (*axis < 0 ? *axis + static_cast<int64_t>(input.type.shape.size()) : *axis) : 0;
  if (ax < 0 || ax >= static_cast<int64_t>(input.type.shape.size()))
    cx.fail(at, DiagId::ShapeMismatch, "axis out of range for " + withArticle(input.type.str()));
  int64_t n = input.type.shape[static_cast<size_t>(ax)];
  TType rangeType;
  rangeType.dtype = DType::I32;
  rangeType.shape = {n};
  mlir::OpBuilder &b = cx.builder();
  Value idx = Value::ofRuntime(b.create<tle::ir::MakeRangeOp>(cx.loc(at), cx.irType(rangeType), b.getI32IntegerAttr(0),
                                                              b.getI32IntegerAttr(static_cast<int32_t>(n))).getResult(),
                               rangeType);
  std::vector<int64_t> viewShape(input.type.shape.size(), 1);
  viewShape[static_cast<size_t>(ax)] = n;
  idx = cx.broadcastTo(cx.reshape(idx, viewShape, at), input.type.shape, at);
  Combine combine = [&](const std::vector<Value> &x, const std::vector<Value> &y) {
    Value better = cx.compare(isMaxLike ? ast::CmpOp::Gt : ast::CmpOp::Lt, x[0], y[0], at, at, at);
    Value equal = cx.compare(ast::CmpOp::Eq, x[0], y[0], at, at, at);
    Value smaller = cx.compare(ast::CmpOp::Lt, x[1], y[1], at, at, at);
    Value keepLeft = cx.binary(ast::BinaryOp::BitOr, better, cx.binary(ast::BinaryOp::BitAnd, equal, smaller, at, at, at), at, at, at);
    mlir::Location l = cx.loc(at);
    Value v = Value::ofRuntime(b.create<mlir::arith::SelectOp>(l, keepLeft.ir, x[0].ir, y[0].ir).getResult(), x[0].type);
    Value i = Value::ofRuntime(b.create<mlir::arith::SelectOp>(l, keepLeft.ir, x[1].ir, y[1].ir).getResult(), x[1].type);
    return std::vector<Value>{v, i};
  };
  return reduce(cx, {input, idx}, ax, keep, combine, at);
}

// tl.sum / max / min / argmax / argmin / xor_sum / reduce_or.
Value reduction(LoweringContext &cx, BuiltinCall &c) {
  const std::string &member = c.member;
  SourceRange at = c.at;
  std::vector<SourceRange> where;
  bool isMaxLike = member == "max" || member == "argmax";
  bool arg = member == "argmax" || member == "argmin";
  auto a = member == "max" || member == "min"
               ? bindArgs(cx, "tl." + member, {{"input", true}, {"axis", false}, {"return_indices", false},
                                               {"return_indices_tie_break_left", false}, {"keep_dims", false}}, c.args, at, &where)
           : arg ? bindArgs(cx, "tl." + member, {{"input", true}, {"axis", true}, {"tie_break_left", false}, {"keep_dims", false}}, c.args, at, &where)
           : member == "reduce_or" ? bindArgs(cx, "tl.reduce_or", {{"input", true}, {"axis", false}, {"keep_dims", false}}, c.args, at, &where)
                 : bindArgs(cx, "tl." + member, {{"input", true}, {"axis", false}, {"keep_dims", false}, {"dtype", false}}, c.args, at, &where);
  Value input = *a[0];
  if (!input.isRuntime() || !input.type.isBlock() || input.type.isPointer)
    cx.fail(where[0], DiagId::TypeMismatch, "tl." + member + " needs a block of numbers, got " + (input.isRuntime() ? input.type.str() : input.describe()));
  std::optional<int64_t> axis = axisArg(cx, a[1], at);
  if (member == "reduce_or") {
    // Triton: the axis is required, integers only, and the result keeps the input's dtype.
    if (!a[1] || a[1]->kind == Value::Kind::None) cx.fail(at, DiagId::ArgumentMismatch, "tl.reduce_or needs an axis");
    if (!isInt(input.type.dtype))
      cx.fail(where[0], DiagId::TypeMismatch, "tl.reduce_or needs integers, got " + std::string(dtypeName(input.type.dtype)));
    bool keepDims = a[2] && cx.truthy(*a[2], at);
    Combine combine = [&](const std::vector<Value> &x, const std::vector<Value> &y) {
      return std::vector<Value>{cx.binary(ast::BinaryOp::BitOr, x[0], y[0], at, at, at)};
    };
    return reduce(cx, {input}, axis, keepDims, combine, at)[0];
  }
  size_t keepIdx = member == "sum" || member == "xor_sum" ? 2 : 4;
  if (arg) keepIdx = 3;
  bool keep = a[keepIdx] && cx.truthy(*a[keepIdx], at);
  bool returnIndices = (member == "max" || member == "min") && a[2] && cx.truthy(*a[2], at);
  if (member == "sum" || member == "xor_sum") {
    DType d = input.type.dtype;
    if (member == "xor_sum" && !isInt(d)) cx.fail(at, DiagId::TypeMismatch, "tl.xor_sum needs integers, got " + std::string(dtypeName(d)));
    if (a[3] && a[3]->kind != Value::Kind::None) d = cx.requireDType(*a[3], where[3], "dtype");
    else if (member == "sum" && isInt(d) && bitWidth(d) < 32) d = isUnsigned(d) ? DType::U32 : DType::I32;  // Triton's overflow guard
    if (d != input.type.dtype) input = cx.cast(input, d, at);
    ast::BinaryOp op = member == "sum" ? ast::BinaryOp::Add : ast::BinaryOp::BitXor;
    Combine combine = [&](const std::vector<Value> &x, const std::vector<Value> &y) {
      return std::vector<Value>{cx.binary(op, x[0], y[0], at, at, at)};
    };
    return reduce(cx, {input}, axis, keep, combine, at)[0];
  }
  if (!arg && !returnIndices) {
    Combine combine = [&](const std::vector<Value> &x, const std::vector<Value> &y) {
      return std::vector<Value>{cx.minMax(isMaxLike, x[0], y[0], false, at)};
    };
    return reduce(cx, {input}, axis, keep, combine, at)[0];
  }
  std::vector<Value> r = reduceWithIndices(cx, input, axis, isMaxLike, keep, at);
  if (arg) return r[1];
  return Value::ofTuple(r);
}

}  // namespace

void registerReductionBuiltins(BuiltinRegistry &r) {
  for (const char *name : {"sum", "max", "min", "argmax", "argmin", "xor_sum", "reduce_or"}) r.addTlOrMethod(name, reduction);
  r.addTlOrMethod("reduce", reduceWithCombineFn);
}

}  // namespace tle::sema
