// TLE-Struct for GPUs, shared-memory buffers: tle.gpu.alloc, local_ptr, copy, local_load
// and memory_space (warp_specialize and pipes have files of their own).
#include "sema/builtins/Registry.h"

#include "ir/Dialect.h"
#include "ir/GpuDialect.h"

namespace tle::sema {

namespace {

void requireBuffer(LoweringContext &cx, const Value &v, SourceRange r, const std::string &fn, bool remoteOk = false) {
  if (!v.isRuntime() || !v.type.isBuffer)
    cx.fail(r, DiagId::TypeMismatch, fn + " needs a buffer from tle.gpu.alloc, got " +
                                         withArticle(v.isRuntime() ? v.type.str() : v.describe()));
  if (v.type.space == MemorySpace::RemoteShared && !remoteOk)
    cx.fail(r, DiagId::TypeMismatch, fn + " needs a local buffer; address a remote buffer with tle.gpu.local_ptr");
}

// tle.gpu.alloc(shape, dtype, layout=None, scope=smem, nv_mma_shared_layout=None).
Value alloc(LoweringContext &cx, BuiltinCall &c) {
  std::vector<SourceRange> where;
  auto a = bindArgs(cx, "tle.gpu.alloc", {{"shape", true}, {"dtype", true}, {"layout", false}, {"scope", false}, {"nv_mma_shared_layout", false}},
                    c.args, c.at, &where);
  std::vector<int64_t> shape;
  std::vector<Value> dims = a[0]->kind == Value::Kind::Tuple ? a[0]->elements : std::vector<Value>{*a[0]};
  for (const Value &d : dims) {
    int64_t n = cx.requireInt(d, where[0], "a buffer dimension");
    if (n <= 0) cx.fail(where[0], DiagId::ShapeMismatch, "buffer dimensions must be positive, got " + std::to_string(n));
    shape.push_back(n);
  }
  DType d = cx.requireDType(*a[1], where[1], "the dtype");
  if (a[2] && a[2]->kind != Value::Kind::None)
    cx.fail(where[2], DiagId::NotImplemented, "explicit shared-memory layouts are not implemented yet; omit layout=");
  std::string scope = "smem";
  if (a[3] && a[3]->kind != Value::Kind::None) {
    if (a[3]->kind != Value::Kind::Builtin || a[3]->text.rfind("tle.gpu.storage.", 0) != 0)
      cx.fail(where[3], DiagId::TypeMismatch, "scope must be tle.gpu.smem (or tle.gpu.storage_kind.smem), got " + a[3]->describe());
    scope = a[3]->text.substr(16);
  }
  if (scope == "tmem")
    cx.fail(where[3], DiagId::UnsupportedInKernel, "tensor-memory (tmem) buffers are not supported: they need Blackwell (sm_100), and tlec targets sm_80-sm_90a");
  int64_t bytes = (bitWidth(d) + 7) / 8;
  for (int64_t n : shape) bytes *= n;
  const MemorySpaceInfo *shared = cx.target().memorySpace(MemorySpace::Shared);
  if (!shared) cx.fail(c.at, DiagId::TierNotForTarget, "tle.gpu.alloc needs shared memory, which " + cx.target().name() + " does not have");
  int64_t limit = shared->capacityBytes;
  if (bytes > limit)
    cx.fail(c.at, DiagId::ShapeMismatch, "a buffer of " + std::to_string(bytes) + " bytes exceeds the " + std::to_string(limit / 1024) +
                                             " KiB of shared memory a block can use on " + cx.target().name());
  TType t;
  t.dtype = d;
  t.isBuffer = true;
  t.blockShape = shape;
  t.space = MemorySpace::Shared;
  auto op = cx.builder().create<tle::ir::AllocOp>(cx.loc(c.at), cx.irType(t));
  return Value::ofRuntime(op.getResult(), t);
}

// tle.gpu.local_ptr(buffer, indices=None): pointers into a (possibly remote) buffer.
Value localPtr(LoweringContext &cx, BuiltinCall &c) {
  std::vector<SourceRange> where;
  auto a = bindArgs(cx, "tle.gpu.local_ptr", {{"buffer", true}, {"indices", false}}, c.args, c.at, &where);
  requireBuffer(cx, *a[0], where[0], "tle.gpu.local_ptr", /*remoteOk=*/true);
  const TType &buf = a[0]->type;
  if (!isSharedMemory(buf.space))
    cx.fail(where[0], DiagId::TypeMismatch, "tle.gpu.local_ptr needs a shared-memory buffer, got " + withArticle(buf.str()));
  std::vector<mlir::Value> indices;
  std::vector<int64_t> shape = buf.blockShape;
  if (a[1] && a[1]->kind != Value::Kind::None) {
    if (a[1]->kind != Value::Kind::Tuple)
      cx.fail(where[1], DiagId::TypeMismatch, "local_ptr indices must be a tuple or list with one index per buffer dimension");
    const std::vector<Value> &idx = a[1]->elements;
    if (idx.size() != buf.blockShape.size())
      cx.fail(where[1], DiagId::ShapeMismatch, "local_ptr needs " + std::to_string(buf.blockShape.size()) + " indices for " +
                                                   withArticle(buf.str()) + ", got " + std::to_string(idx.size()));
    std::optional<std::vector<int64_t>> common;
    TType i32;
    i32.dtype = DType::I32;
    for (const Value &i : idx) {
      Value v = i.isRuntime() ? i : cx.toRuntime(i, where[1], &i32);
      if (v.type.isPointer || !isInt(v.type.dtype))
        cx.fail(where[1], DiagId::TypeMismatch, "local_ptr indices must be integers, got " + withArticle(v.type.str()));
      if (common && *common != v.type.shape)
        cx.fail(where[1], DiagId::ShapeMismatch, "local_ptr indices must all have one shape (all scalars, or blocks of one shape)");
      common = v.type.shape;
      indices.push_back(v.ir);
    }
    shape = *common;
  }
  TType t;
  t.dtype = buf.dtype;
  t.isPointer = true;
  t.space = buf.space;  // a remote buffer: another block's shared memory
  t.shape = shape;
  auto op = cx.builder().create<tle::gpu::LocalPtrOp>(cx.loc(c.at), cx.irType(t), a[0]->ir, indices);
  return Value::ofRuntime(op.getResult(), t);
}

// tle.gpu.copy(desc, buffer, shape, offsets) and back (FlagTree's TMA-style form): the
// descriptor's block at `offsets` into the buffer (zeros past the tensor's edges), or the
// buffer into that block (nothing stored past the edges). Lowered as the descriptor's load
// and a store through the buffer's pointers (or a local_load and the descriptor's store).
Value copyWithDescriptor(LoweringContext &cx, BuiltinCall &c, const std::vector<std::optional<Value>> &a,
                         const std::vector<SourceRange> &where) {
  const bool fromDesc = a[0]->isRuntime() && a[0]->type.isTensorDesc;
  const Value &desc = fromDesc ? *a[0] : *a[1];
  const Value &local = fromDesc ? *a[1] : *a[0];
  SourceRange lr = fromDesc ? where[1] : where[0];
  if (!local.isRuntime() || !local.type.isBuffer || !isSharedMemory(local.type.space))
    cx.fail(lr, DiagId::TypeMismatch, "tle.gpu.copy with a tensor descriptor copies to or from a shared-memory buffer, got " +
                                          describeWithArticle(local));
  std::vector<int64_t> shape = shapeArgAny(cx, *a[2], where[2]);
  if (shape != desc.type.blockShape || shape != local.type.blockShape)
    cx.fail(where[2], DiagId::ShapeMismatch, "the copy shape " + shapeText(shape) + " must be the descriptor's block " +
                                                 shapeText(desc.type.blockShape) + " and the buffer's shape " +
                                                 shapeText(local.type.blockShape));
  if (desc.type.dtype != local.type.dtype)
    cx.fail(lr, DiagId::TypeMismatch, std::string("tle.gpu.copy between a descriptor of ") + dtypeName(desc.type.dtype) + " and " +
                                          withArticle(local.type.str()));
  if (!a[3] || a[3]->kind != Value::Kind::Tuple || a[3]->elements.size() != shape.size())
    cx.fail(a[3] ? where[3] : c.at, DiagId::ShapeMismatch,
            "tle.gpu.copy with a tensor descriptor needs " + std::to_string(shape.size()) + " offsets (where the block starts)");
  std::vector<mlir::Value> offsets = integers(cx, *a[3], where[3], DType::I32, "offsets");
  TType block;
  block.dtype = desc.type.dtype;
  block.shape = shape;
  mlir::OpBuilder &b = cx.builder();
  mlir::Location l = cx.loc(c.at);
  if (fromDesc) {
    mlir::Value tile = b.create<tle::ir::DescLoadOp>(l, cx.irType(block), desc.ir, offsets).getResult();
    TType ptrs = block;
    ptrs.isPointer = true;
    ptrs.space = local.type.space;
    mlir::Value into = b.create<tle::gpu::LocalPtrOp>(l, cx.irType(ptrs), local.ir, mlir::ValueRange{}).getResult();
    b.create<tle::ir::StoreOp>(l, into, tile, mlir::Value(), mlir::StringAttr(), mlir::StringAttr());
  } else {
    mlir::Value tile = b.create<tle::gpu::LocalLoadOp>(l, cx.irType(block), local.ir).getResult();
    b.create<tle::ir::DescStoreOp>(l, desc.ir, offsets, tile);
  }
  return Value::none();
}

// tle.gpu.copy(src, dst, shape): global memory (a block of pointers) to a buffer or back.
Value copy(LoweringContext &cx, BuiltinCall &c) {
  std::vector<SourceRange> where;
  auto a = bindArgs(cx, "tle.gpu.copy", {{"src", true}, {"dst", true}, {"shape", true}, {"offsets", false}}, c.args, c.at, &where);
  if ((a[0]->isRuntime() && a[0]->type.isTensorDesc) || (a[1]->isRuntime() && a[1]->type.isTensorDesc))
    return copyWithDescriptor(cx, c, a, where);
  if (a[3] && a[3]->kind != Value::Kind::None)
    cx.fail(where[3], DiagId::TypeMismatch, "tle.gpu.copy takes offsets only with a tensor descriptor (a block of pointers "
                                            "already says where)");
  bool toLocal = a[1]->isRuntime() && a[1]->type.isBuffer;
  const Value &global = toLocal ? *a[0] : *a[1];
  const Value &local = toLocal ? *a[1] : *a[0];
  SourceRange gr = toLocal ? where[0] : where[1], lr = toLocal ? where[1] : where[0];
  if (!local.isRuntime() || !local.type.isBuffer || local.type.space != MemorySpace::Shared || !global.isRuntime() ||
      !global.type.isPointer || global.type.space != MemorySpace::Global)
    cx.fail(c.at, DiagId::TypeMismatch, "tle.gpu.copy copies between global memory (a block of pointers) and a buffer; got " +
                                            withArticle(a[0]->isRuntime() ? a[0]->type.str() : a[0]->describe()) + " and " +
                                            withArticle(a[1]->isRuntime() ? a[1]->type.str() : a[1]->describe()));
  std::vector<int64_t> shape = shapeArgAny(cx, *a[2], where[2]);
  // Stricter than upstream, which does not check: a mismatch would copy the wrong elements.
  if (shape != local.type.blockShape)
    cx.fail(where[2], DiagId::ShapeMismatch, "the copy shape " + shapeText(shape) + " differs from the buffer's shape " +
                                                 shapeText(local.type.blockShape));
  if (global.type.shape != shape)
    cx.fail(gr, DiagId::ShapeMismatch, "the copy shape " + shapeText(shape) + " differs from the pointer block's shape " +
                                           shapeText(global.type.shape));
  if (global.type.dtype != local.type.dtype)
    cx.fail(lr, DiagId::TypeMismatch, std::string("tle.gpu.copy between ") + dtypeName(global.type.dtype) + " memory and " +
                                          withArticle(local.type.str()));
  cx.builder().create<tle::gpu::CopyOp>(cx.loc(c.at), a[0]->ir, a[1]->ir);
  return Value::none();
}

Value localLoad(LoweringContext &cx, BuiltinCall &c) {
  std::vector<SourceRange> where;
  auto a = bindArgs(cx, "tle.gpu.local_load", {{"buffer", true}}, c.args, c.at, &where);
  requireBuffer(cx, *a[0], where[0], "tle.gpu.local_load");
  TType t;
  t.dtype = a[0]->type.dtype;
  t.shape = a[0]->type.blockShape;
  auto op = cx.builder().create<tle::gpu::LocalLoadOp>(cx.loc(c.at), cx.irType(t), a[0]->ir);
  return Value::ofRuntime(op.getResult(), t);
}

Value memorySpace(LoweringContext &cx, BuiltinCall &c) {
  std::vector<SourceRange> where;
  auto a = bindArgs(cx, "tle.gpu.memory_space", {{"input", true}, {"space", true}}, c.args, c.at, &where);
  if (a[1]->kind != Value::Kind::Str || (a[1]->text != "shared_memory" && a[1]->text != "register"))
    cx.fail(where[1], DiagId::ConstantError, "the memory space must be \"shared_memory\" or \"register\"");
  // "register" is where a block lives anyway; staging a block through shared memory is not
  // done yet, and says so.
  if (a[1]->text == "shared_memory")
    cx.diags().report(DiagId::IgnoredHint, c.at,
                      "tle.gpu.memory_space(..., \"shared_memory\") is not honoured by tlec yet; the block stays where tlec's "
                      "layout passes put it");
  return *a[0];
}

Value notImplemented(LoweringContext &cx, BuiltinCall &c) {
  cx.fail(c.at, DiagId::NotImplemented, "tle.gpu." + c.member + " is not implemented yet in tlec's lowering");
}

}  // namespace

void registerGpuStructBuiltins(BuiltinRegistry &r) {
  r.add("tle.gpu.alloc", alloc);
  r.add("tle.gpu.local_ptr", localPtr);
  r.add("tle.gpu.copy", copy);
  r.add("tle.gpu.local_load", localLoad);
  r.add("tle.gpu.memory_space", memorySpace);
  // The storage kinds (tle.gpu.smem, tmem) are arguments, not functions.
  r.addFamily("tle.gpu.", notImplemented, /*except=*/"tle.gpu.storage.");
}

}  // namespace tle::sema
