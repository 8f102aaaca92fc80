// tl.sort, tl.topk and tl.histogram (also as block methods).
#include "sema/builtins/Registry.h"

#include "ir/Dialect.h"

namespace tle::sema {

namespace {

bool isPowerOfTwo(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

// The input of sort/topk: a block of numbers; `dim` must name its last dimension (Triton 3.6
// sorts along the last dimension only).
Value sortInput(LoweringContext &cx, const std::string &fn, const std::optional<Value> &x, const std::optional<Value> &dim,
                SourceRange xAt, SourceRange dimAt) {
  if (!x->isRuntime() || !x->type.isBlock() || x->type.isPointer)
    cx.fail(xAt, DiagId::TypeMismatch, fn + " needs a block of numbers, got " + (x->isRuntime() ? x->type.str() : x->describe()));
  const int64_t rank = static_cast<int64_t>(x->type.shape.size());
  if (dim && dim->kind != Value::Kind::None) {
    int64_t d = cx.requireInt(*dim, dimAt, "dim");
    if (d < -rank || d >= rank)
      cx.fail(dimAt, DiagId::ShapeMismatch, "dim " + std::to_string(d) + " is out of range for the " + std::to_string(rank) +
                                                "-dimensional " + x->type.str());
    if ((d < 0 ? d + rank : d) != rank - 1)
      cx.fail(dimAt, DiagId::NotImplemented, fn + " works along the last dimension only (as in Triton), got dim " + std::to_string(d));
  }
  return *x;
}

Value sortOp(LoweringContext &cx, const Value &x, bool descending, SourceRange at) {
  mlir::OpBuilder &b = cx.builder();
  auto op = b.create<tle::ir::SortOp>(cx.loc(at), cx.irType(x.type), x.ir, b.getBoolAttr(descending),
                                      b.getBoolAttr(isUnsigned(x.type.dtype)));
  return Value::ofRuntime(op.getResult(), x.type);
}

// tl.sort(x, dim=None, descending=False).
Value sort(LoweringContext &cx, BuiltinCall &c) {
  std::vector<SourceRange> where;
  auto a = bindArgs(cx, "tl.sort", {{"x", true}, {"dim", false}, {"descending", false}}, c.args, c.at, &where);
  Value x = sortInput(cx, "tl.sort", a[0], a[1], where[0], where[1]);
  bool descending = a[2] && a[2]->kind != Value::Kind::None && cx.truthy(*a[2], where[2]);
  return sortOp(cx, x, descending, c.at);
}

// tl.topk(x, k, dim=None): the k largest elements along the last dimension, largest first.
Value topk(LoweringContext &cx, BuiltinCall &c) {
  std::vector<SourceRange> where;
  auto a = bindArgs(cx, "tl.topk", {{"x", true}, {"k", true}, {"dim", false}}, c.args, c.at, &where);
  Value x = sortInput(cx, "tl.topk", a[0], a[2], where[0], where[2]);
  const int64_t n = x.type.shape.back();
  int64_t k = cx.requireInt(*a[1], where[1], "k");
  if (!isPowerOfTwo(k) || k > n)
    cx.fail(where[1], DiagId::ShapeMismatch, "k must be a power of two no larger than the last dimension (" + std::to_string(n) +
                                                 "), got " + std::to_string(k));
  Value sorted = sortOp(cx, x, /*descending=*/true, c.at);
  if (k == n) return sorted;
  std::vector<int64_t> shape = x.type.shape;
  shape.back() = k;
  TType t = x.type.withShape(shape);
  mlir::OpBuilder &b = cx.builder();
  auto op = b.create<tle::ir::ExtractTileOp>(cx.loc(c.at), cx.irType(t), sorted.ir, mlir::ValueRange{},
                                             b.getDenseI64ArrayAttr(std::vector<int64_t>(shape.size(), 0)));
  return Value::ofRuntime(op.getResult(), t);
}

// tl.histogram(input, num_bins, mask=None): counts of 0 .. num_bins-1 in a 1-D block of
// integers; other values, and masked-off elements, are not counted.
Value histogram(LoweringContext &cx, BuiltinCall &c) {
  std::vector<SourceRange> where;
  auto a = bindArgs(cx, "tl.histogram", {{"input", true}, {"num_bins", true}, {"mask", false}}, c.args, c.at, &where);
  const Value &x = *a[0];
  if (!x.isRuntime() || x.type.shape.size() != 1 || x.type.isPointer || !isInt(x.type.dtype))
    cx.fail(where[0], DiagId::TypeMismatch, "tl.histogram needs a 1-D block of integers, got " + (x.isRuntime() ? x.type.str() : x.describe()));
  int64_t bins = cx.requireInt(*a[1], where[1], "num_bins");
  if (!isPowerOfTwo(bins)) cx.fail(where[1], DiagId::ShapeMismatch, "num_bins must be a power of two, got " + std::to_string(bins));
  mlir::Value mask;
  if (a[2] && a[2]->kind != Value::Kind::None) {
    Value m = *a[2];
    if (!m.isRuntime()) {
      if (!cx.truthy(m, where[2])) m = cx.splatConstant(0, DType::I1, x.type.shape, where[2]);
      else m = Value::none();  // every element counts
    } else if (m.type.dtype != DType::I1) {
      cx.fail(where[2], DiagId::TypeMismatch, "mask must be a block of booleans, got " + m.type.str());
    } else {
      m = cx.broadcastTo(m, x.type.shape, where[2]);
    }
    if (m.kind != Value::Kind::None) mask = m.ir;
  }
  TType t = TType::tensor(DType::I32, {bins});
  auto op = cx.builder().create<tle::ir::HistogramOp>(cx.loc(c.at), cx.irType(t), x.ir, mask);
  return Value::ofRuntime(op.getResult(), t);
}

}  // namespace

void registerSortingBuiltins(BuiltinRegistry &r) {
  r.addTlOrMethod("sort", sort);
  r.addTlOrMethod("topk", topk);
  r.addTlOrMethod("histogram", histogram);
}

}  // namespace tle::sema
