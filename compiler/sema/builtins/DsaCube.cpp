// TLE-Struct DSA beyond the vector unit: the cube unit's matrix multiply (operands in L0A
// and L0B, the result in L0C) and strided views of local buffers.
#include "sema/builtins/Registry.h"

#include "ir/Dialect.h"
#include "ir/DsaDialect.h"

namespace tle::sema {

namespace {

void localBuffer(LoweringContext &cx, const Value &v, SourceRange r, const std::string &what) {
  if (!v.isRuntime() || !v.type.isBuffer || !isAscendBuffer(v.type.space))
    cx.fail(r, DiagId::TypeMismatch, what + " must be a buffer from tle.dsa.alloc, got " + describeWithArticle(v));
}

// tle.dsa.matmul(a, b, c, init=False): c = a @ b (+ c unless init), [M, K] x [K, N] -> [M, N].
Value matmul(LoweringContext &cx, BuiltinCall &c) {
  SourceRange at = c.at;
  std::vector<SourceRange> where;
  auto a = bindArgs(cx, "tle.dsa.matmul", {{"a", true}, {"b", true}, {"c", true}, {"init", false}}, c.args, at, &where);
  const char *names[] = {"a", "b", "c"};
  const MemorySpace spaces[] = {MemorySpace::L0A, MemorySpace::L0B, MemorySpace::L0C};
  for (size_t i = 0; i < 3; ++i) {
    localBuffer(cx, *a[i], where[i], std::string("tle.dsa.matmul's '") + names[i] + "'");
    if (a[i]->type.space != spaces[i])
      cx.fail(where[i], DiagId::TypeMismatch, std::string("the cube unit ") + (i == 2 ? "writes its result to " : "reads its '") +
                                                  (i == 2 ? "" : std::string(names[i]) + "' operand from ") + std::string(memorySpaceName(spaces[i])) + "; '" +
                                                  names[i] + "' is " + describeWithArticle(*a[i]));
    if (a[i]->type.blockShape.size() != 2)
      cx.fail(where[i], DiagId::ShapeMismatch, std::string("tle.dsa.matmul needs 2-D buffers; '") + names[i] + "' is " + describeWithArticle(*a[i]));
  }
  const TType &ta = a[0]->type, &tb = a[1]->type, &tc = a[2]->type;
  int64_t m = ta.blockShape[0], k = ta.blockShape[1], k2 = tb.blockShape[0], n = tb.blockShape[1];
  if (k != k2) {
    cx.diags().report(DiagId::ShapeMismatch, at, "tle.dsa.matmul: the inner dimensions differ (" + std::to_string(k) + " and " +
                                                 std::to_string(k2) + ")")
        .note(where[0], "'a' is " + describeWithArticle(*a[0]))
        .note(where[1], "'b' is " + describeWithArticle(*a[1]));
    throw LoweringFailed{};
  }
  if (tc.blockShape[0] != m || tc.blockShape[1] != n)
    cx.fail(where[2], DiagId::ShapeMismatch, "tle.dsa.matmul's result must be " + std::to_string(m) + " x " + std::to_string(n) +
                                                 ", got " + describeWithArticle(*a[2]));
  DType in = ta.dtype;
  if (tb.dtype != in)
    cx.fail(where[1], DiagId::TypeMismatch, std::string("tle.dsa.matmul's operands must have one dtype, got ") + dtypeName(in) +
                                                " and " + dtypeName(tb.dtype));
  if (in != DType::FP16 && in != DType::BF16 && in != DType::I8 && in != DType::FP32)
    cx.fail(where[0], DiagId::TypeMismatch, std::string("the cube unit multiplies fp16, bf16, fp32 or int8, got ") + dtypeName(in));
  DType acc = in == DType::I8 ? DType::I32 : DType::FP32;
  if (tc.dtype != acc)
    cx.fail(where[2], DiagId::TypeMismatch, std::string("the cube unit accumulates ") + dtypeName(in) + " products in " +
                                                dtypeName(acc) + "; 'c' is " + describeWithArticle(*a[2]));
  bool init = a[3] && cx.truthy(*a[3], where[3]);
  cx.builder().create<tle::dsa::MatmulOp>(cx.loc(at), a[0]->ir, a[1]->ir, a[2]->ir, init, mlir::Value(), mlir::Value());
  return Value::none();
}

// tle.dsa.subview(src, offsets, sizes, strides): sizes and strides are compile-time,
// offsets non-negative; the view must lie inside the buffer.
Value subview(LoweringContext &cx, BuiltinCall &c) {
  SourceRange at = c.at;
  std::vector<SourceRange> where;
  auto a = bindArgs(cx, "tle.dsa.subview", {{"src", true}, {"offsets", true}, {"sizes", true}, {"strides", false}}, c.args, at, &where);
  localBuffer(cx, *a[0], where[0], "tle.dsa.subview's source");
  const TType &src = a[0]->type;
  size_t rank = src.blockShape.size();
  auto list = [&](size_t i, const char *what) {
    std::vector<Value> items = a[i]->kind == Value::Kind::Tuple ? a[i]->elements : std::vector<Value>{*a[i]};
    if (items.size() != rank)
      cx.fail(where[i], DiagId::ShapeMismatch, std::string("tle.dsa.subview needs one ") + what + " per buffer dimension (" +
                                                   std::to_string(rank) + "), got " + std::to_string(items.size()));
    return items;
  };
  std::vector<Value> offsets = list(1, "offset"), sizeValues = list(2, "size");
  std::vector<Value> strideValues = a[3] && a[3]->kind != Value::Kind::None ? list(3, "stride") : std::vector<Value>(rank, Value::ofInt(1));
  std::vector<int64_t> sizes, strides;
  for (size_t i = 0; i < rank; ++i) {
    int64_t size = cx.requireInt(sizeValues[i], where[2], "a subview size");
    int64_t stride = cx.requireInt(strideValues[i], where[3], "a subview stride");
    if (size < 1) cx.fail(where[2], DiagId::ShapeMismatch, "subview sizes must be at least 1, got " + std::to_string(size));
    if (stride < 1) cx.fail(where[3], DiagId::ShapeMismatch, "subview strides must be at least 1, got " + std::to_string(stride));
    if ((size - 1) * stride >= src.blockShape[i])
      cx.fail(where[2], DiagId::ShapeMismatch, "a subview of " + std::to_string(size) + " elements with stride " + std::to_string(stride) +
                                                   " does not fit dimension " + std::to_string(i) + " (" + std::to_string(src.blockShape[i]) +
                                                   ") of " + describeWithArticle(*a[0]));
    sizes.push_back(size);
    strides.push_back(stride);
  }
  std::vector<mlir::Value> offsetIr;
  TType i32;
  i32.dtype = DType::I32;
  for (size_t i = 0; i < rank; ++i) {
    const Value &o = offsets[i];
    if (!o.isRuntime()) {
      int64_t v = cx.requireInt(o, where[1], "a subview offset");
      if (v < 0) cx.fail(where[1], DiagId::ShapeMismatch, "subview offsets must be non-negative, got " + std::to_string(v));
      if (v + (sizes[i] - 1) * strides[i] >= src.blockShape[i])
        cx.fail(where[1], DiagId::ShapeMismatch, "the subview at offset " + std::to_string(v) + " runs past dimension " + std::to_string(i) +
                                                     " (" + std::to_string(src.blockShape[i]) + ") of " + describeWithArticle(*a[0]));
    }
    Value v = o.isRuntime() ? o : cx.toRuntime(o, where[1], &i32);
    if (v.type.isBlock() || v.type.isPointer || !isInt(v.type.dtype))
      cx.fail(where[1], DiagId::TypeMismatch, "subview offsets must be integer scalars, got " + describeWithArticle(o));
    offsetIr.push_back(v.type.dtype == DType::I32 ? v.ir : cx.cast(v, DType::I32, where[1]).ir);
  }
  TType t = src;
  t.blockShape = sizes;
  mlir::OpBuilder &b = cx.builder();
  auto op = b.create<tle::dsa::SubviewOp>(cx.loc(at), cx.irType(t), a[0]->ir, offsetIr, b.getDenseI64ArrayAttr(sizes),
                                          b.getDenseI64ArrayAttr(strides));
  return Value::ofRuntime(op.getResult(), t);
}

}  // namespace

void registerDsaCubeBuiltins(BuiltinRegistry &r) {
  r.add("tle.dsa.matmul", matmul);
  r.add("tle.dsa.subview", subview);
}

}  // namespace tle::sema
