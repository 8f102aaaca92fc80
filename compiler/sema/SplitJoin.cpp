// Blocks joined along a new minor dimension, split back, interleaved, flattened and
// gathered: tl.join, tl.split, tl.interleave, tl.ravel, tl.gather.
#include "sema/Lowering.h"

#include "ir/Dialect.h"

namespace tle::sema {

Value FunctionLowering::splitJoin(const std::string &member, CallArgs &args, SourceRange at) {
  std::vector<SourceRange> where;
  mlir::Location l = loc(at);
  auto numbers = [&](const Value &v, SourceRange r, const std::string &fn) {
    Value x = v.isRuntime() ? v : toRuntime(v, r);
    if (x.type.isPointer || x.type.isBlockPtr || x.type.isBuffer || x.type.isTensorDesc)
      fail(r, DiagId::TypeMismatch, fn + " needs blocks of numbers, got " + describeWithArticle(v));
    return x;
  };
  // join(a, b): a and b broadcast together, must have one dtype; the result has a new
  // minor dimension of 2 (interleave then merges it into the last dimension).
  auto join = [&](const Value &a, const Value &b, SourceRange ra, SourceRange rb, const std::string &fn) {
    Value x = numbers(a, ra, fn), y = numbers(b, rb, fn);
    if (x.type.dtype != y.type.dtype) {
      diags_.report(DiagId::TypeMismatch, at, fn + " needs operands of one dtype, got " + std::string(dtypeName(x.type.dtype)) +
                                                  " and " + dtypeName(y.type.dtype))
          .note(ra, "first operand is " + withArticle(x.type.str()))
          .note(rb, "second operand is " + withArticle(y.type.str()));
      throw LoweringFailed{};
    }
    std::vector<int64_t> shape = commonType(x, y, at, ra, rb, false).shape;
    x = broadcastTo(x, shape, ra);
    y = broadcastTo(y, shape, rb);
    bool scalars = shape.empty();
    if (scalars) {  // the op joins blocks: two scalars become [1] blocks, then [2]
      x = broadcastTo(x, {1}, ra);
      y = broadcastTo(y, {1}, rb);
    }
    std::vector<int64_t> joined = x.type.shape;
    joined.push_back(2);
    TType t = x.type.withShape(joined);
    Value r = Value::ofRuntime(builder_.create<tle::ir::JoinOp>(l, irType(t), x.ir, y.ir).getResult(), t);
    return scalars ? reshape(r, {2}, at) : r;
  };
  if (member == "join") {
    auto a = bindArgs(*this, "tl.join", {{"a", true}, {"b", true}}, args, at, &where);
    return join(*a[0], *a[1], where[0], where[1], "tl.join");
  }
  if (member == "interleave") {
    auto a = bindArgs(*this, "tl.interleave", {{"a", true}, {"b", true}}, args, at, &where);
    Value j = join(*a[0], *a[1], where[0], where[1], "tl.interleave");
    std::vector<int64_t> shape = j.type.shape;
    if (shape.size() == 1) return j;  // two scalars
    shape.pop_back();
    shape.back() *= 2;
    return reshape(j, shape, at);
  }
  if (member == "split") {
    auto a = bindArgs(*this, "tl.split", {{"a", true}}, args, at, &where);
    Value x = numbers(*a[0], where[0], "tl.split");
    if (!x.type.isBlock() || x.type.shape.back() != 2)
      fail(where[0], DiagId::ShapeMismatch, "tl.split needs a block whose last dimension is 2, got " + withArticle(x.type.str()));
    std::vector<int64_t> half = x.type.shape;
    half.pop_back();
    TType t = x.type.withShape(half);
    auto op = builder_.create<tle::ir::SplitOp>(l, irType(t), irType(t), x.ir);
    return Value::ofTuple({Value::ofRuntime(op.getLhs(), t), Value::ofRuntime(op.getRhs(), t)});
  }
  if (member == "ravel") {
    auto a = bindArgs(*this, "tl.ravel", {{"x", true}, {"can_reorder", false}}, args, at, &where);
    Value x = numbers(*a[0], where[0], "tl.ravel");
    int64_t n = 1;
    for (int64_t d : x.type.shape) n *= d;
    return reshape(x, {n}, at);
  }
  // gather(src, index, axis): index has src's rank, integers, and src's size in every other
  // dimension; the result has index's shape.
  auto a = bindArgs(*this, "tl.gather", {{"src", true}, {"index", true}, {"axis", true}}, args, at, &where);
  Value src = *a[0], index = *a[1];
  if (!src.isRuntime() || !src.type.isBlock() || src.type.isPointer)
    fail(where[0], DiagId::TypeMismatch, "tl.gather's source must be a block of numbers, got " + describeWithArticle(src));
  if (!index.isRuntime() || !index.type.isBlock() || index.type.isPointer || !isInt(index.type.dtype))
    fail(where[1], DiagId::TypeMismatch, "tl.gather's index must be a block of integers, got " + describeWithArticle(index));
  int64_t rank = static_cast<int64_t>(src.type.shape.size());
  if (static_cast<int64_t>(index.type.shape.size()) != rank) {
    diags_.report(DiagId::ShapeMismatch, at, "tl.gather needs the source and the index to have one rank, got " +
                                                 std::to_string(rank) + " and " + std::to_string(index.type.shape.size()))
        .note(where[0], "source is " + withArticle(src.type.str()))
        .note(where[1], "index is " + withArticle(index.type.str()));
    throw LoweringFailed{};
  }
  int64_t axis = requireInt(*a[2], where[2], "the gather axis");
  if (axis < -rank || axis >= rank)
    fail(where[2], DiagId::ShapeMismatch, "axis " + std::to_string(axis) + " is out of range for " + withArticle(src.type.str()));
  if (axis < 0) axis += rank;
  for (int64_t d = 0; d < rank; ++d)
    if (d != axis && src.type.shape[d] != index.type.shape[d])
      fail(where[1], DiagId::ShapeMismatch, "tl.gather: index dimension " + std::to_string(d) + " (" +
                                                std::to_string(index.type.shape[d]) + ") must equal the source's (" +
                                                std::to_string(src.type.shape[d]) + "); index shape " +
                                                shapeText(index.type.shape) + ", source shape " + shapeText(src.type.shape));
  TType t = src.type.withShape(index.type.shape);
  auto op = builder_.create<tle::ir::GatherOp>(l, irType(t), src.ir, index.ir, builder_.getI32IntegerAttr(static_cast<int32_t>(axis)));
  return Value::ofRuntime(op.getResult(), t);
}

}  // namespace tle::sema
