// Program geometry and block creation: tl.program_id, num_programs, arange, zeros, full,
// zeros_like; and the hints that create nothing (assume, multiple_of, max_contiguous,
// max_constancy).
#include "sema/builtins/Registry.h"

#include "ir/Dialect.h"

namespace tle::sema {

namespace {

Value programGeometry(LoweringContext &cx, BuiltinCall &c) {
  auto a = bindArgs(cx, "tl." + c.member, {{"axis", false}}, c.args, c.at);
  int64_t axis = a[0] ? cx.requireInt(*a[0], c.at, "the axis") : 0;
  if (axis < 0 || axis > 2) cx.fail(c.at, DiagId::ConstantError, "the grid axis must be 0, 1 or 2, got " + std::to_string(axis));
  TType t;
  t.dtype = DType::I32;
  mlir::OpBuilder &b = cx.builder();
  mlir::Location l = cx.loc(c.at);
  mlir::IntegerAttr ax = b.getI32IntegerAttr(static_cast<int32_t>(axis));
  mlir::Value r = c.member == "program_id" ? mlir::Value(b.create<tle::ir::ProgramIdOp>(l, b.getI32Type(), ax))
                                           : b.create<tle::ir::NumProgramsOp>(l, b.getI32Type(), ax);
  return Value::ofRuntime(r, t);
}

Value arange(LoweringContext &cx, BuiltinCall &c) {
  auto a = bindArgs(cx, "tl.arange", {{"start", true}, {"end", true}}, c.args, c.at);
  int64_t start = cx.requireInt(*a[0], c.at, "tl.arange's start");
  int64_t end = cx.requireInt(*a[1], c.at, "tl.arange's end");
  int64_t n = end - start;
  if (end <= start) cx.fail(c.at, DiagId::ConstantError, "tl.arange needs end > start, got " + std::to_string(start) + " and " + std::to_string(end));
  if ((n & (n - 1)) != 0) cx.fail(c.at, DiagId::ShapeMismatch, "tl.arange's range must have a power-of-two size, got " + std::to_string(n));
  // As in Triton: the range is of non-negative int32 values.
  if (start < 0 || end > INT32_MAX)
    cx.fail(c.at, DiagId::ConstantError, "tl.arange's bounds must be in [0, 2**31 - 1], got " + std::to_string(start) + " and " +
                                             std::to_string(end));
  TType t;
  t.dtype = DType::I32;
  t.shape = {n};
  mlir::OpBuilder &b = cx.builder();
  auto op = b.create<tle::ir::MakeRangeOp>(cx.loc(c.at), cx.irType(t), b.getI32IntegerAttr(static_cast<int32_t>(start)),
                                           b.getI32IntegerAttr(static_cast<int32_t>(end)));
  return Value::ofRuntime(op.getResult(), t);
}

// tl.zeros(shape, dtype), tl.full(shape, value, dtype).
Value zerosOrFull(LoweringContext &cx, BuiltinCall &c) {
  bool full = c.member == "full";
  auto a = full ? bindArgs(cx, "tl.full", {{"shape", true}, {"value", true}, {"dtype", true}}, c.args, c.at)
                : bindArgs(cx, "tl.zeros", {{"shape", true}, {"dtype", true}}, c.args, c.at);
  std::vector<int64_t> shape = blockShapeArg(cx, *a[0], c.at);
  DType d = cx.requireDType(*a[full ? 2 : 1], c.at, "the dtype");
  if (full && a[1]->isRuntime()) {
    Value v = cx.cast(*a[1], d, c.at);
    if (v.type.isBlock()) cx.fail(c.at, DiagId::TypeMismatch, "tl.full's value must be a scalar");
    return cx.broadcastTo(v, shape, c.at);
  }
  double value = 0;
  if (full) {
    if (!a[1]->isNumber()) cx.fail(c.at, DiagId::TypeMismatch, "tl.full's value must be a number, got " + a[1]->describe());
    value = a[1]->kind == Value::Kind::Float ? a[1]->floatValue : static_cast<double>(a[1]->kind == Value::Kind::Bool ? a[1]->boolValue : a[1]->intValue);
  }
  return cx.splatConstant(value, d, shape, c.at);
}

Value zerosLike(LoweringContext &cx, BuiltinCall &c) {
  auto a = bindArgs(cx, "tl.zeros_like", {{"input", true}}, c.args, c.at);
  if (!a[0]->isRuntime() || a[0]->type.isPointer) cx.fail(c.at, DiagId::TypeMismatch, "tl.zeros_like needs a block of numbers");
  return cx.splatConstant(0, a[0]->type.dtype, a[0]->type.shape, c.at);
}

Value assume(LoweringContext &cx, BuiltinCall &c) {
  auto a = bindArgs(cx, "tl.assume", {{"cond", true}}, c.args, c.at);
  if (!a[0]->isRuntime() && !cx.truthy(*a[0], c.at)) cx.fail(c.at, DiagId::StaticAssertFailed, "tl.assume of a condition that is false");
  return Value::none();  // a fact for the optimizer; nothing to emit yet
}

// tl.multiple_of / max_contiguous / max_constancy: the value unchanged, with the stated
// facts (one int per dimension, or one for all) for the axis analysis (tle.axis_hint).
Value valueHint(LoweringContext &cx, BuiltinCall &c) {
  auto a = bindArgs(cx, "tl." + c.member, {{"input", true}, {"values", true}}, c.args, c.at);
  const Value &input = *a[0];
  if (!input.isRuntime() || input.type.isPointer || !isInt(input.type.dtype))
    cx.fail(c.at, DiagId::TypeMismatch, "tl." + c.member + " needs integer values, got " + input.describe());
  const size_t rank = input.type.isBlock() ? input.type.shape.size() : 1;
  std::vector<Value> given = a[1]->kind == Value::Kind::Tuple ? a[1]->elements : std::vector<Value>{*a[1]};
  if (given.size() == 1 && rank > 1) given.assign(rank, given[0]);
  if (given.size() != rank)
    cx.fail(c.at, DiagId::ShapeMismatch,
            "tl." + c.member + " needs one value per dimension (" + std::to_string(rank) + "), got " + std::to_string(given.size()));
  llvm::SmallVector<int64_t> values;
  for (const Value &v : given) {
    const std::string what = "tl." + c.member + "'s value";
    int64_t n = cx.requireInt(v, c.at, what.c_str());
    if (n < 1) cx.fail(c.at, DiagId::ConstantError, "tl." + c.member + "'s values must be positive, got " + std::to_string(n));
    values.push_back(n);
  }
  mlir::OpBuilder &b = cx.builder();
  auto attr = b.getDenseI64ArrayAttr(values);
  auto hint = b.create<tle::ir::AxisHintOp>(cx.loc(c.at), input.ir.getType(), input.ir, c.member == "multiple_of" ? attr : nullptr,
                                            c.member == "max_contiguous" ? attr : nullptr, c.member == "max_constancy" ? attr : nullptr);
  return Value::ofRuntime(hint.getResult(), input.type);
}

}  // namespace

void registerCreationBuiltins(BuiltinRegistry &r) {
  r.addTlOrMethod("program_id", programGeometry);
  r.addTlOrMethod("num_programs", programGeometry);
  r.addTlOrMethod("arange", arange);
  r.addTlOrMethod("zeros", zerosOrFull);
  r.addTlOrMethod("full", zerosOrFull);
  r.addTlOrMethod("zeros_like", zerosLike);
  r.addTlOrMethod("assume", assume);
  for (const char *hint : {"multiple_of", "max_contiguous", "max_constancy"}) r.addTlOrMethod(hint, valueHint);
}

}  // namespace tle::sema
