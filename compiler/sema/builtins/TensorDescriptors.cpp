// Tensor descriptors (Triton 3.6): tl.make_tensor_descriptor, desc.load / desc.store and
// tl.load_tensor_descriptor / tl.store_tensor_descriptor.
#include "sema/builtins/Registry.h"

#include "ir/Dialect.h"

namespace tle::sema {

namespace {

Value makeTensorDescriptor(LoweringContext &cx, BuiltinCall &c) {
  std::vector<SourceRange> where;
  auto a = bindArgs(cx, "tl.make_tensor_descriptor",
                    {{"base", true}, {"shape", true}, {"strides", true}, {"block_shape", true}, {"padding_option", false}}, c.args,
                    c.at, &where);
  const Value &base = *a[0];
  if (!base.isRuntime() || !base.type.isPointer || base.type.isBlock() || base.type.space != MemorySpace::Global)
    cx.fail(where[0], DiagId::TypeMismatch, "tl.make_tensor_descriptor's base must be a scalar pointer to global memory, got " + describeWithArticle(base));
  if (a[1]->kind != Value::Kind::Tuple) cx.fail(where[1], DiagId::TypeMismatch, "shape must be a list or tuple, got " + describeWithArticle(*a[1]));
  size_t rank = a[1]->elements.size();
  if (rank < 1 || rank > 5)
    cx.fail(where[1], DiagId::ShapeMismatch, "a tensor descriptor has 1 to 5 dimensions, got " + std::to_string(rank));
  if (a[2]->kind != Value::Kind::Tuple || a[2]->elements.size() != rank)
    cx.fail(where[2], DiagId::ShapeMismatch, "strides must have one entry per dimension of the shape (" + std::to_string(rank) + ")");
  if (a[3]->kind != Value::Kind::Tuple || a[3]->elements.size() != rank)
    cx.fail(where[3], DiagId::ShapeMismatch, "block_shape must have one entry per dimension of the shape (" + std::to_string(rank) +
                                                 "), got " + (a[3]->kind == Value::Kind::Tuple ? std::to_string(a[3]->elements.size()) : describeWithArticle(*a[3])));
  std::vector<int64_t> block;
  for (const Value &d : a[3]->elements) {
    int64_t n = cx.requireInt(d, where[3], "a block_shape entry");
    if (n <= 0 || (n & (n - 1)) != 0)
      cx.fail(where[3], DiagId::ShapeMismatch, "block dimensions must be powers of two, got " + std::to_string(n));
    block.push_back(n);
  }
  int64_t bytes = block.back() * ((bitWidth(base.type.dtype) + 7) / 8);
  if (bytes < 16)
    cx.fail(where[3], DiagId::ShapeMismatch, "a descriptor block must have at least 16 bytes in its last dimension, got " +
                                                 std::to_string(block.back()) + " x " + std::to_string(bytes / block.back()) + " bytes");
  const Value &lastStride = a[2]->elements.back();
  if (lastStride.isRuntime() || cx.requireInt(lastStride, where[2], "the last stride") != 1)
    cx.fail(where[2], DiagId::ShapeMismatch, "a tensor descriptor's last dimension must be contiguous: its stride must be the constant 1");
  std::string padding = "zero";
  if (a[4] && a[4]->kind != Value::Kind::None) {
    if (a[4]->kind != Value::Kind::Str || (a[4]->text != "zero" && a[4]->text != "nan"))
      cx.fail(where[4], DiagId::ConstantError, "padding_option must be 'zero' or 'nan'");
    padding = a[4]->text;
  }
  std::vector<mlir::Value> shape = integers(cx, *a[1], where[1], DType::I32, "shape entries");
  std::vector<mlir::Value> strides = integers(cx, *a[2], where[2], DType::I64, "strides");
  TType t;
  t.dtype = base.type.dtype;
  t.isTensorDesc = true;
  t.blockShape = block;
  mlir::OpBuilder &b = cx.builder();
  auto op = b.create<tle::ir::MakeTensorDescOp>(cx.loc(c.at), cx.irType(t), base.ir, shape, strides, b.getStringAttr(padding));
  return Value::ofRuntime(op.getResult(), t);
}

// desc.load / desc.store and tl.load_tensor_descriptor / tl.store_tensor_descriptor.
Value descriptorAccess(LoweringContext &cx, BuiltinCall &c) {
  const std::string &member = c.member;
  std::vector<SourceRange> where;
  bool load = member == "load" || member == "load_tensor_descriptor";
  std::string fn = member == "load" || member == "store" ? "desc." + member : "tl." + member;
  auto a = load ? bindArgs(cx, fn, {{"desc", true}, {"offsets", true}}, c.args, c.at, &where)
                : bindArgs(cx, fn, {{"desc", true}, {"offsets", true}, {"value", true}}, c.args, c.at, &where);
  const Value &desc = *a[0];
  if (!desc.isRuntime() || !desc.type.isTensorDesc)
    cx.fail(where[0], DiagId::TypeMismatch, fn + " needs a tensor descriptor, got " + describeWithArticle(desc));
  size_t rank = desc.type.blockShape.size();
  if (a[1]->kind != Value::Kind::Tuple || a[1]->elements.size() != rank)
    cx.fail(where[1], DiagId::ShapeMismatch, fn + " needs " + std::to_string(rank) + " offsets for " + withArticle(desc.type.str()) +
                                                 ", got " + (a[1]->kind == Value::Kind::Tuple ? std::to_string(a[1]->elements.size()) : describeWithArticle(*a[1])));
  std::vector<mlir::Value> offsets = integers(cx, *a[1], where[1], DType::I32, "offsets");
  TType block;
  block.dtype = desc.type.dtype;
  block.shape = desc.type.blockShape;
  mlir::OpBuilder &b = cx.builder();
  mlir::Location l = cx.loc(c.at);
  if (load) return Value::ofRuntime(b.create<tle::ir::DescLoadOp>(l, cx.irType(block), desc.ir, offsets).getResult(), block);
  const Value &value = *a[2];
  if (!value.isRuntime() || value.type.shape != block.shape || value.type.isPointer)
    cx.fail(where[2], DiagId::ShapeMismatch, fn + " stores whole blocks: the value must be " + withArticle(block.str()) + ", got " +
                                                 describeWithArticle(value) + " (block shape " + shapeText(block.shape) + ")");
  if (value.type.dtype != block.dtype)
    cx.fail(where[2], DiagId::TypeMismatch, fn + " needs a value of the descriptor's dtype " + dtypeName(block.dtype) + ", got " +
                                                withArticle(value.type.str()) + "; convert it with .to(...)");
  b.create<tle::ir::DescStoreOp>(l, desc.ir, offsets, value.ir);
  return Value::none();
}

// tl.tensor_descriptor and tl.tensor are types, for isinstance().
Value typeNotCallable(LoweringContext &cx, BuiltinCall &c) {
  cx.fail(c.at, DiagId::UnsupportedInKernel, "tl." + c.member + " is a type: use it with isinstance(), or create values with the tl functions");
}

}  // namespace

void registerDescriptorBuiltins(BuiltinRegistry &r) {
  r.addTlOrMethod("make_tensor_descriptor", makeTensorDescriptor);
  r.addTlOrMethod("load_tensor_descriptor", descriptorAccess);
  r.addTlOrMethod("store_tensor_descriptor", descriptorAccess);
  r.add("desc.load", descriptorAccess);
  r.add("desc.store", descriptorAccess);
  r.add("triton.language.tensor_descriptor", typeNotCallable);
  r.add("triton.language.tensor", typeNotCallable);
}

}  // namespace tle::sema
