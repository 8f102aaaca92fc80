// Blocks joined along a new minor dimension, split back, interleaved, flattened and
// gathered: tl.join, tl.split, tl.interleave, tl.ravel, tl.gather (also as block methods).
#include "sema/builtins/Registry.h"

#include "ir/Dialect.h"

namespace tle::sema {

namespace {

Value numbers(LoweringContext &cx, const Value &v, SourceRange r, const std::string &fn) {
  Value x = v.isRuntime() ? v : cx.toRuntime(v, r);
  if (x.type.isPointer || x.type.isBlockPtr || x.type.isBuffer || x.type.isTensorDesc)
    cx.fail(r, DiagId::TypeMismatch, fn + " needs blocks of numbers, got " + describeWithArticle(v));
  return x;
}

// join(a, b): a and b broadcast together, must have one dtype; the result has a new
// minor dimension of 2 (interleave then merges it into the last dimension).
Value joinPair(LoweringContext &cx, const Value &lhs, const Value &rhs, SourceRange ra, SourceRange rb, const std::string &fn,
               SourceRange at) {
  Value x = numbers(cx, lhs, ra, fn), y = numbers(cx, rhs, rb, fn);
  if (x.type.dtype != y.type.dtype) {
    cx.diags().report(DiagId::TypeMismatch, at, fn + " needs operands of one dtype, got " + std::string(dtypeName(x.type.dtype)) +
                                                    " and " + dtypeName(y.type.dtype))
        .note(ra, "first operand is " + withArticle(x.type.str()))
        .note(rb, "second operand is " + withArticle(y.type.str()));
    throw LoweringFailed{};
  }
  std::vector<int64_t> shape = cx.commonType(x, y, at, ra, rb, false).shape;
  x = cx.broadcastTo(x, shape, ra);
  y = cx.broadcastTo(y, shape, rb);
  bool scalars = shape.empty();
  if (scalars) {  // the op joins blocks: two scalars become [1] blocks, then [2]
    x = cx.broadcastTo(x, {1}, ra);
    y = cx.broadcastTo(y, {1}, rb);
  }
  std::vector<int64_t> joined = x.type.shape;
  joined.push_back(2);
  TType t = x.type.withShape(joined);
  Value r = Value::ofRuntime(cx.builder().create<tle::ir::JoinOp>(cx.loc(at), cx.irType(t), x.ir, y.ir).getResult(), t);
  return scalars ? cx.reshape(r, {2}, at) : r;
}

Value join(LoweringContext &cx, BuiltinCall &c) {
  std::vector<SourceRange> where;
  auto a = bindArgs(cx, "tl.join", {{"a", true}, {"b", true}}, c.args, c.at, &where);
  return joinPair(cx, *a[0], *a[1], where[0], where[1], "tl.join", c.at);
}

Value interleave(LoweringContext &cx, BuiltinCall &c) {
  std::vector<SourceRange> where;
  auto a = bindArgs(cx, "tl.interleave", {{"a", true}, {"b", true}}, c.args, c.at, &where);
  Value j = joinPair(cx, *a[0], *a[1], where[0], where[1], "tl.interleave", c.at);
  std::vector<int64_t> shape = j.type.shape;
  if (shape.size() == 1) return j;  // two scalars
  shape.pop_back();
  shape.back() *= 2;
  return cx.reshape(j, shape, c.at);
}

Value split(LoweringContext &cx, BuiltinCall &c) {
  std::vector<SourceRange> where;
  auto a = bindArgs(cx, "tl.split", {{"a", true}}, c.args, c.at, &where);
  Value x = numbers(cx, *a[0], where[0], "tl.split");
  if (!x.type.isBlock() || x.type.shape.back() != 2)
    cx.fail(where[0], DiagId::ShapeMismatch, "tl.split needs a block whose last dimension is 2, got " + withArticle(x.type.str()));
  std::vector<int64_t> half = x.type.shape;
  half.pop_back();
  TType t = x.type.withShape(half);
  auto op = cx.builder().create<tle::ir::SplitOp>(cx.loc(c.at), cx.irType(t), cx.irType(t), x.ir);
  return Value::ofTuple({Value::ofRuntime(op.getLhs(), t), Value::ofRuntime(op.getRhs(), t)});
}

Value ravel(LoweringContext &cx, BuiltinCall &c) {
  std::vector<SourceRange> where;
  auto a = bindArgs(cx, "tl.ravel", {{"x", true}, {"can_reorder", false}}, c.args, c.at, &where);
  Value x = numbers(cx, *a[0], where[0], "tl.ravel");
  int64_t n = 1;
  for (int64_t d : x.type.shape) n *= d;
  return cx.reshape(x, {n}, c.at);
}

// gather(src, index, axis): index has src's rank, integers, and src's size in every other
// dimension; the result has index's shape.
Value gather(LoweringContext &cx, BuiltinCall &c) {
  std::vector<SourceRange> where;
  auto a = bindArgs(cx, "tl.gather", {{"src", true}, {"index", true}, {"axis", true}}, c.args, c.at, &where);
  Value src = *a[0], index = *a[1];
  if (!src.isRuntime() || !src.type.isBlock() || src.type.isPointer)
    cx.fail(where[0], DiagId::TypeMismatch, "tl.gather's source must be a block of numbers, got " + describeWithArticle(src));
  if (!index.isRuntime() || !index.type.isBlock() || index.type.isPointer || !isInt(index.type.dtype))
    cx.fail(where[1], DiagId::TypeMismatch, "tl.gather's index must be a block of integers, got " + describeWithArticle(index));
  int64_t rank = static_cast<int64_t>(src.type.shape.size());
  if (static_cast<int64_t>(index.type.shape.size()) != rank) {
    cx.diags().report(DiagId::ShapeMismatch, c.at, "tl.gather needs the source and the index to have one rank, got " +
                                                       std::to_string(rank) + " and " + std::to_string(index.type.shape.size()))
        .note(where[0], "source is " + withArticle(src.type.str()))
        .note(where[1], "index is " + withArticle(index.type.str()));
    throw LoweringFailed{};
  }
  int64_t axis = cx.requireInt(*a[2], where[2], "the gather axis");
  if (axis < -rank || axis >= rank)
    cx.fail(where[2], DiagId::ShapeMismatch, "axis " + std::to_string(axis) + " is out of range for " + withArticle(src.type.str()));
  if (axis < 0) axis += rank;
  for (int64_t d = 0; d < rank; ++d)
    if (d != axis && src.type.shape[d] != index.type.shape[d])
      cx.fail(where[1], DiagId::ShapeMismatch, "tl.gather: index dimension " + std::to_string(d) + " (" +
                                                   std::to_string(index.type.shape[d]) + ") must equal the source's (" +
                                                   std::to_string(src.type.shape[d]) + "); index shape " +
                                                   shapeText(index.type.shape) + ", source shape " + shapeText(src.type.shape));
  TType t = src.type.withShape(index.type.shape);
  mlir::OpBuilder &b = cx.builder();
  auto op = b.create<tle::ir::GatherOp>(cx.loc(c.at), cx.irType(t), src.ir, index.ir, b.getI32IntegerAttr(static_cast<int32_t>(axis)));
  return Value::ofRuntime(op.getResult(), t);
}

}  // namespace

void registerSplitJoinBuiltins(BuiltinRegistry &r) {
  r.addTlOrMethod("join", join);
  r.addTlOrMethod("interleave", interleave);
  r.addTlOrMethod("split", split);
  r.addTlOrMethod("ravel", ravel);
  r.addTlOrMethod("gather", gather);
}

}  // namespace tle::sema
