// tle.reduce construction and the reductions built on it.
#include "sema/Lowering.h"

#include "ir/Dialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

namespace tle::sema {

Value FunctionLowering::reshape(const Value &v, const std::vector<int64_t> &shape, SourceRange at) {
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

Value FunctionLowering::minMax(bool isMax, const Value &a, const Value &b, bool propagateNan, SourceRange at) {
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

std::vector<Value> FunctionLowering::callCombine(const Value &fn, const std::vector<Value> &acc, const std::vector<Value> &next,
                                                 SourceRange at) {
  if (fn.kind != Value::Kind::Lambda && (fn.kind != Value::Kind::Function || !isJitFunction(*fn.function)))
    fail(at, DiagId::TypeMismatch, "combine_fn must be a @triton.jit function or a lambda, got " + fn.describe());
  CallArgs inner;
  for (const Value &v : acc) inner.positional.push_back(v), inner.positionalRanges.push_back(at);
  for (const Value &v : next) inner.positional.push_back(v), inner.positionalRanges.push_back(at);
  Value r = fn.kind == Value::Kind::Lambda ? callLambda(fn, inner, at) : callJit(fn, inner, at);
  return r.kind == Value::Kind::Tuple ? r.elements : std::vector<Value>{r};
}

std::vector<mlir::Value> FunctionLowering::combineRegion(mlir::Region &region, const std::vector<Value> &inputs,
                                                        const Combine &combine, mlir::Location l, SourceRange at) {
  std::vector<mlir::Type> argTypes;
  for (int half = 0; half < 2; ++half)
    for (const Value &v : inputs) argTypes.push_back(irScalarType(v.type.dtype));
  std::vector<mlir::Location> locs(argTypes.size(), l);
  mlir::Block *body = builder_.createBlock(&region, {}, argTypes, locs);
  std::vector<Value> acc, next;
  for (size_t i = 0; i < inputs.size(); ++i) {
    acc.push_back(Value::ofRuntime(body->getArgument(static_cast<unsigned>(i)), inputs[i].type.scalar()));
    next.push_back(Value::ofRuntime(body->getArgument(static_cast<unsigned>(i + inputs.size())), inputs[i].type.scalar()));
  }
  std::vector<Value> combined = combine(acc, next);
  if (combined.size() != inputs.size())
    fail(at, DiagId::TypeMismatch,
         "the combine function must return " + std::to_string(inputs.size()) + " values, got " + std::to_string(combined.size()));
  std::vector<mlir::Value> yields;
  for (size_t i = 0; i < combined.size(); ++i) {
    Value c = combined[i].isRuntime() ? combined[i] : toRuntime(combined[i], at, &acc[i].type);
    // A pointer is a scalar only where the accumulated values are pointers too.
    if (c.type.isBlock() || (c.type.isPointer && !acc[i].type.isPointer))
      fail(at, DiagId::TypeMismatch, "the combine function must return scalars, got " + withArticle(c.type.str()));
    if (c.type.dtype != acc[i].type.dtype) c = cast(c, acc[i].type.dtype, at);
    yields.push_back(c.ir);
  }
  return yields;
}

std::vector<Value> FunctionLowering::reduce(std::vector<Value> inputs, std::optional<int64_t> axis, bool keepDims,
                                            const Combine &combine, SourceRange at) {
  std::vector<int64_t> shape = inputs[0].type.shape;
  for (Value &v : inputs) {
    if (!v.isRuntime() || !v.type.isBlock())
      fail(at, DiagId::TypeMismatch, "a reduction needs a block, got " + (v.isRuntime() ? v.type.str() : v.describe()));
    if (v.type.shape != shape) fail(at, DiagId::ShapeMismatch, "reduced blocks must have one shape");
  }
  std::vector<int64_t> original = shape;
  int64_t ax;
  if (!axis) {
    int64_t n = 1;
    for (int64_t d : shape) n *= d;
    for (Value &v : inputs) v = reshape(v, {n}, at);
    shape = {n};
    ax = 0;
  } else {
    ax = *axis < 0 ? *axis + static_cast<int64_t>(shape.size()) : *axis;
    if (ax < 0 || ax >= static_cast<int64_t>(shape.size()))
      fail(at, DiagId::ShapeMismatch,
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
    resultTypes.push_back(irType(rt));
    srcs.push_back(v.ir);
  }
  mlir::Location l = loc(at);
  auto op = builder_.create<tle::ir::ReduceOp>(l, resultTypes, srcs, builder_.getI32IntegerAttr(static_cast<int32_t>(ax)));
  builder_.create<tle::ir::ReduceReturnOp>(l, combineRegion(op.getCombineOp(), inputs, combine, l, at));
  builder_.setInsertionPointAfter(op);

  std::vector<Value> results;
  for (size_t i = 0; i < inputs.size(); ++i) {
    Value r = Value::ofRuntime(op.getResult(static_cast<unsigned>(i)), resultTTypes[i]);
    if (keepDims) {
      std::vector<int64_t> kept = axis ? shape : std::vector<int64_t>(original.size(), 1);
      if (axis) kept[ax] = 1;
      r = reshape(r, kept, at);
    }
    results.push_back(r);
  }
  return results;
}

}  // namespace tle::sema
