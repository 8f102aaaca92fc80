// Tensor descriptors (Triton 3.6): tl.make_tensor_descriptor, desc.load / desc.store and
// tl.load_tensor_descriptor / tl.store_tensor_descriptor.
#include "sema/Lowering.h"

#include "ir/Dialect.h"

namespace tle::sema {

Value FunctionLowering::tensorDescriptor(const std::string &member, CallArgs &args, SourceRange at) {
  std::vector<SourceRange> where;
  mlir::Location l = loc(at);
  auto integers = [&](const Value &list, SourceRange r, DType d, const char *what) {
    if (list.kind != Value::Kind::Tuple) fail(r, DiagId::TypeMismatch, std::string(what) + " must be a list or tuple, got " + describeWithArticle(list));
    std::vector<mlir::Value> out;
    TType like;
    like.dtype = d;
    for (const Value &v : list.elements) {
      Value x = v.isRuntime() ? v : toRuntime(v, r, &like);
      if (x.type.isBlock() || x.type.isPointer || x.type.isBlockPtr || x.type.isBuffer || x.type.isTensorDesc || !isInt(x.type.dtype))
        fail(r, DiagId::TypeMismatch, std::string(what) + " must be integer scalars, got " + describeWithArticle(v));
      out.push_back(x.type.dtype == d ? x.ir : cast(x, d, r).ir);
    }
    return out;
  };
  if (member == "make_tensor_descriptor") {
    auto a = bindArgs(*this, "tl.make_tensor_descriptor",
                      {{"base", true}, {"shape", true}, {"strides", true}, {"block_shape", true}, {"padding_option", false}}, args,
                      at, &where);
    const Value &base = *a[0];
    if (!base.isRuntime() || !base.type.isPointer || base.type.isBlock() || base.type.space != MemorySpace::Global)
      fail(where[0], DiagId::TypeMismatch, "tl.make_tensor_descriptor's base must be a scalar pointer to global memory, got " + describeWithArticle(base));
    if (a[1]->kind != Value::Kind::Tuple) fail(where[1], DiagId::TypeMismatch, "shape must be a list or tuple, got " + describeWithArticle(*a[1]));
    size_t rank = a[1]->elements.size();
    if (rank < 1 || rank > 5)
      fail(where[1], DiagId::ShapeMismatch, "a tensor descriptor has 1 to 5 dimensions, got " + std::to_string(rank));
    if (a[2]->kind != Value::Kind::Tuple || a[2]->elements.size() != rank)
      fail(where[2], DiagId::ShapeMismatch, "strides must have one entry per dimension of the shape (" + std::to_string(rank) + ")");
    if (a[3]->kind != Value::Kind::Tuple || a[3]->elements.size() != rank)
      fail(where[3], DiagId::ShapeMismatch, "block_shape must have one entry per dimension of the shape (" + std::to_string(rank) +
                                                "), got " + (a[3]->kind == Value::Kind::Tuple ? std::to_string(a[3]->elements.size()) : describeWithArticle(*a[3])));
    std::vector<int64_t> block;
    for (const Value &d : a[3]->elements) {
      int64_t n = requireInt(d, where[3], "a block_shape entry");
      if (n <= 0 || (n & (n - 1)) != 0)
        fail(where[3], DiagId::ShapeMismatch, "block dimensions must be powers of two, got " + std::to_string(n));
      block.push_back(n);
    }
    int64_t bytes = block.back() * ((bitWidth(base.type.dtype) + 7) / 8);
    if (bytes < 16)
      fail(where[3], DiagId::ShapeMismatch, "a descriptor block must have at least 16 bytes in its last dimension, got " +
                                                std::to_string(block.back()) + " x " + std::to_string(bytes / block.back()) + " bytes");
    const Value &lastStride = a[2]->elements.back();
    if (lastStride.isRuntime() || requireInt(lastStride, where[2], "the last stride") != 1)
      fail(where[2], DiagId::ShapeMismatch, "a tensor descriptor's last dimension must be contiguous: its stride must be the constant 1");
    std::string padding = "zero";
    if (a[4] && a[4]->kind != Value::Kind::None) {
      if (a[4]->kind != Value::Kind::Str || (a[4]->text != "zero" && a[4]->text != "nan"))
        fail(where[4], DiagId::ConstantError, "padding_option must be 'zero' or 'nan'");
      padding = a[4]->text;
    }
    std::vector<mlir::Value> shape = integers(*a[1], where[1], DType::I32, "shape entries");
    std::vector<mlir::Value> strides = integers(*a[2], where[2], DType::I64, "strides");
    TType t;
    t.dtype = base.type.dtype;
    t.isTensorDesc = true;
    t.blockShape = block;
    auto op = builder_.create<tle::ir::MakeTensorDescOp>(l, irType(t), base.ir, shape, strides, builder_.getStringAttr(padding));
    return Value::ofRuntime(op.getResult(), t);
  }
  bool load = member == "load" || member == "load_tensor_descriptor";
  std::string fn = member == "load" || member == "store" ? "desc." + member : "tl." + member;
  auto a = load ? bindArgs(*this, fn, {{"desc", true}, {"offsets", true}}, args, at, &where)
                : bindArgs(*this, fn, {{"desc", true}, {"offsets", true}, {"value", true}}, args, at, &where);
  const Value &desc = *a[0];
  if (!desc.isRuntime() || !desc.type.isTensorDesc)
    fail(where[0], DiagId::TypeMismatch, fn + " needs a tensor descriptor, got " + describeWithArticle(desc));
  size_t rank = desc.type.blockShape.size();
  if (a[1]->kind != Value::Kind::Tuple || a[1]->elements.size() != rank)
    fail(where[1], DiagId::ShapeMismatch, fn + " needs " + std::to_string(rank) + " offsets for " + withArticle(desc.type.str()) +
                                              ", got " + (a[1]->kind == Value::Kind::Tuple ? std::to_string(a[1]->elements.size()) : describeWithArticle(*a[1])));
  std::vector<mlir::Value> offsets = integers(*a[1], where[1], DType::I32, "offsets");
  TType block;
  block.dtype = desc.type.dtype;
  block.shape = desc.type.blockShape;
  if (load) return Value::ofRuntime(builder_.create<tle::ir::DescLoadOp>(l, irType(block), desc.ir, offsets).getResult(), block);
  const Value &value = *a[2];
  if (!value.isRuntime() || value.type.shape != block.shape || value.type.isPointer)
    fail(where[2], DiagId::ShapeMismatch, fn + " stores whole blocks: the value must be " + withArticle(block.str()) + ", got " +
                                              describeWithArticle(value) + " (block shape " + shapeText(block.shape) + ")");
  if (value.type.dtype != block.dtype)
    fail(where[2], DiagId::TypeMismatch, fn + " needs a value of the descriptor's dtype " + dtypeName(block.dtype) + ", got " +
                                             withArticle(value.type.str()) + "; convert it with .to(...)");
  builder_.create<tle::ir::DescStoreOp>(l, desc.ir, offsets, value.ir);
  return Value::none();
}

}  // namespace tle::sema
