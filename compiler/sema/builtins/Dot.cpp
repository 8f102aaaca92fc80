// tl.dot: block matrix multiply with an accumulator, Triton's operand and precision rules.
#include "sema/builtins/Registry.h"

#include "ir/Dialect.h"

namespace tle::sema {

namespace {

Value dot(LoweringContext &cx, BuiltinCall &c) {
  std::vector<SourceRange> where;
  auto a = bindArgs(cx, "tl.dot",
                    {{"input", true}, {"other", true}, {"acc", false}, {"input_precision", false}, {"allow_tf32", false},
                     {"max_num_imprecise_acc", false}, {"out_dtype", false}},
                    c.args, c.at, &where);
  Value x = *a[0], y = *a[1];
  for (size_t i : {0u, 1u}) {
    const Value &v = *a[i];
    if (!v.isRuntime() || v.type.isPointer || v.type.shape.size() < 2 || v.type.shape.size() > 3)
      cx.fail(where[i], DiagId::ShapeMismatch, "tl.dot needs 2-D (or batched 3-D) blocks of numbers, got " +
                                                   (v.isRuntime() ? v.type.str() : v.describe()));
  }
  size_t r = x.type.shape.size();
  if (y.type.shape.size() != r) cx.fail(c.at, DiagId::ShapeMismatch, "tl.dot operands must have one rank: " + x.type.str() + " and " + y.type.str());
  int64_t m = x.type.shape[r - 2], k = x.type.shape[r - 1], k2 = y.type.shape[r - 2], n = y.type.shape[r - 1];
  if (k != k2) {
    cx.diags().report(DiagId::ShapeMismatch, c.at, "tl.dot: the inner dimensions differ (" + std::to_string(k) + " and " + std::to_string(k2) + ")")
        .note(where[0], "first operand is " + withArticle(x.type.str()))
        .note(where[1], "second operand is " + withArticle(y.type.str()));
    throw LoweringFailed{};
  }
  if (m < 16 || n < 16 || k < 16)
    cx.fail(c.at, DiagId::ShapeMismatch, "tl.dot needs every dimension to be at least 16, got M=" + std::to_string(m) +
                                             ", N=" + std::to_string(n) + ", K=" + std::to_string(k));
  DType in = x.type.dtype;
  if (x.type.dtype != y.type.dtype) {
    bool bothFp8 = isFp8(x.type.dtype) && isFp8(y.type.dtype);
    if (!bothFp8)
      cx.fail(c.at, DiagId::TypeMismatch, std::string("tl.dot operands must have one dtype, got ") + dtypeName(x.type.dtype) +
                                              " and " + dtypeName(y.type.dtype));
  }
  if (in == DType::I1 || (isInt(in) && in != DType::I8 && in != DType::U8))
    cx.fail(c.at, DiagId::TypeMismatch, std::string("tl.dot supports int8, fp8, fp16, bf16, fp32 and fp64 inputs, got ") + dtypeName(in));
  if ((in == DType::I8 || in == DType::U8) && k < 32)
    cx.fail(c.at, DiagId::ShapeMismatch, "tl.dot on 8-bit integers needs K >= 32 (as in Triton), got K=" + std::to_string(k));
  DType out = isInt(in) ? DType::I32 : in == DType::FP64 ? DType::FP64 : DType::FP32;
  if (a[6] && a[6]->kind != Value::Kind::None) out = cx.requireDType(*a[6], where[6], "out_dtype");
  std::vector<int64_t> shape = x.type.shape;
  shape[r - 1] = n;
  Value acc;
  if (a[2] && a[2]->kind != Value::Kind::None) {
    acc = *a[2];
    if (!acc.isRuntime() || acc.type.shape != shape)
      cx.fail(where[2], DiagId::ShapeMismatch, "tl.dot's accumulator must be a " + TType::tensor(out, shape).str() +
                                                   ", got " + (acc.isRuntime() ? acc.type.str() : acc.describe()));
  } else {
    acc = cx.splatConstant(0, out, shape, c.at);
  }
  std::string precision = in == DType::FP32 ? "tf32" : "ieee";
  if (a[4] && a[4]->kind == Value::Kind::Bool && !a[4]->boolValue) precision = "ieee";
  if (a[3] && a[3]->kind == Value::Kind::Str) {
    precision = a[3]->text;
    if (precision != "tf32" && precision != "tf32x3" && precision != "ieee")
      cx.fail(where[3], DiagId::ConstantError, "input_precision must be 'tf32', 'tf32x3' or 'ieee', got '" + precision + "'");
  }
  if (in != DType::FP32) precision = "ieee";
  mlir::OpBuilder &b = cx.builder();
  auto op = b.create<tle::ir::DotOp>(cx.loc(c.at), acc.ir.getType(), x.ir, y.ir, acc.ir, b.getStringAttr(precision));
  return Value::ofRuntime(op.getResult(), acc.type);
}

}  // namespace

void registerDotBuiltins(BuiltinRegistry &r) { r.addTlOrMethod("dot", dot); }

}  // namespace tle::sema
