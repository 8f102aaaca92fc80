// The names modules export (`tl.*`, `triton.*`, `tle.*`, Python builtins) and the
// lowering of the builtin functions.
#include "sema/Lowering.h"

#include "ir/Dialect.h"
#include "ir/DsaDialect.h"
#include "ir/GpuDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

#include <cmath>
#include <optional>
#include <set>

namespace tle::sema {

namespace {

// Builtins tlec knows but does not lower yet: calling one is a "not implemented"
// error rather than an unknown name.
const std::set<std::string> kPlannedTl = {
    "dot_scaled", "histogram", "sort", "flip", "randint", "rand", "randn", "inline_asm_elementwise", "swizzle2d",
    "pointer_type", "topk", "condition", "map_elementwise", "extra"};

// Implemented in their own files; also callable as methods of a block (x.cumsum(0), ...).
const std::set<std::string> kScans = {"cumsum", "cumprod", "associative_scan"};
const std::set<std::string> kSplitJoin = {"split", "join", "interleave", "ravel", "gather"};
const std::set<std::string> kMathExtras = {"clamp", "sigmoid", "softmax", "fdiv", "div_rn", "umulhi", "pow", "log1p", "cast",
                                           "bitcast"};
const std::set<std::string> kDebugging = {"device_print", "device_assert", "static_print"};
const std::set<std::string> kDescriptors = {"make_tensor_descriptor", "load_tensor_descriptor", "store_tensor_descriptor"};

const std::set<std::string> kPlannedTle = {
    "pipeline_group", "reshard", "distributed_dot", "gpu", "dsa"};

// Lowered here; also callable as methods of a block (x.sum(axis=0), x.to(tl.float16), ...).
const std::set<std::string> kReductions = {"sum", "max", "min", "argmax", "argmin", "xor_sum", "reduce"};
const std::set<std::string> kShapeOps = {"trans", "permute", "reshape", "view"};
const std::set<std::string> kAtomics = {"atomic_add", "atomic_and", "atomic_cas", "atomic_max", "atomic_min",
                                        "atomic_or",  "atomic_xchg", "atomic_xor"};

const std::set<std::string> kMathUnary = {"exp", "exp2", "log", "log2", "sqrt", "rsqrt", "sin", "cos", "abs",
                                          "floor", "ceil", "erf"};

std::string memberName(const std::string &qualified) { return qualified.substr(qualified.rfind('.') + 1); }

}  // namespace

std::vector<std::optional<Value>> bindArgs(FunctionLowering &fl, const std::string &fn, const std::vector<ParamSpec> &params,
                                           CallArgs &args, SourceRange at, std::vector<SourceRange> *ranges) {
  std::vector<std::optional<Value>> out(params.size());
  std::vector<SourceRange> where(params.size(), at);
  if (args.positional.size() > params.size())
    fl.fail(at, DiagId::ArgumentMismatch,
            fn + " takes at most " + std::to_string(params.size()) + " positional arguments, got " +
                std::to_string(args.positional.size()));
  for (size_t i = 0; i < args.positional.size(); ++i) {
    out[i] = args.positional[i];
    if (i < args.positionalRanges.size()) where[i] = args.positionalRanges[i];
  }
  for (size_t k = 0; k < args.keywords.size(); ++k) {
    const std::string &key = args.keywords[k].first;
    size_t i = 0;
    while (i < params.size() && key != params[i].name) ++i;
    if (i == params.size()) {
      std::string names;
      for (const ParamSpec &p : params) names += (names.empty() ? "" : ", ") + std::string(p.name);
      fl.fail(args.keywordRanges[k], DiagId::ArgumentMismatch,
              fn + " has no parameter '" + key + "' (its parameters: " + names + ")");
    }
    if (out[i]) fl.fail(args.keywordRanges[k], DiagId::ArgumentMismatch, fn + " got two values for '" + key + "'");
    out[i] = args.keywords[k].second;
    where[i] = args.keywordRanges[k];
  }
  for (size_t i = 0; i < params.size(); ++i)
    if (params[i].required && !out[i])
      fl.fail(at, DiagId::ArgumentMismatch, fn + " is missing its '" + params[i].name + "' argument");
  if (ranges) *ranges = where;
  return out;
}

std::vector<int64_t> FunctionLowering::shapeArgAny(const Value &v, SourceRange at) {
  std::vector<int64_t> shape;
  std::vector<Value> dims = v.kind == Value::Kind::Tuple ? v.elements : std::vector<Value>{v};
  for (const Value &d : dims) shape.push_back(requireInt(d, at, "a shape dimension"));
  return shape;
}

static std::vector<int64_t> shapeArg(FunctionLowering &fl, const Value &v, SourceRange at) {
  std::vector<int64_t> shape;
  auto dim = [&](const Value &d) {
    int64_t n = fl.requireInt(d, at, "a shape dimension");
    if (n <= 0 || (n & (n - 1)) != 0)
      fl.fail(at, DiagId::ShapeMismatch, "block dimensions must be powers of two, got " + std::to_string(n));
    shape.push_back(n);
  };
  if (v.kind == Value::Kind::Tuple) {
    for (const Value &d : v.elements) dim(d);
  } else {
    dim(v);
  }
  return shape;
}

// tle.gpu.alloc / local_ptr / copy / local_load / memory_space.
Value FunctionLowering::gpuStruct(const std::string &member, CallArgs &args, SourceRange at) {
  std::vector<SourceRange> where;
  mlir::Location l = loc(at);
  auto requireBuffer = [&](const Value &v, SourceRange r, const std::string &fn, bool remoteOk = false) {
    if (!v.isRuntime() || !v.type.isBuffer)
      fail(r, DiagId::TypeMismatch, fn + " needs a buffer from tle.gpu.alloc, got " +
                                        withArticle(v.isRuntime() ? v.type.str() : v.describe()));
    if (v.type.space == MemorySpace::RemoteShared && !remoteOk)
      fail(r, DiagId::TypeMismatch, fn + " needs a local buffer; address a remote buffer with tle.gpu.local_ptr");
  };
  if (member == "alloc") {
    auto a = bindArgs(*this, "tle.gpu.alloc", {{"shape", true}, {"dtype", true}, {"layout", false}, {"scope", false}, {"nv_mma_shared_layout", false}},
                      args, at, &where);
    std::vector<int64_t> shape;
    std::vector<Value> dims = a[0]->kind == Value::Kind::Tuple ? a[0]->elements : std::vector<Value>{*a[0]};
    for (const Value &d : dims) {
      int64_t n = requireInt(d, where[0], "a buffer dimension");
      if (n <= 0) fail(where[0], DiagId::ShapeMismatch, "buffer dimensions must be positive, got " + std::to_string(n));
      shape.push_back(n);
    }
    DType d = requireDType(*a[1], where[1], "the dtype");
    if (a[2] && a[2]->kind != Value::Kind::None)
      fail(where[2], DiagId::NotImplemented, "explicit shared-memory layouts are not implemented yet; omit layout=");
    std::string scope = "smem";
    if (a[3] && a[3]->kind != Value::Kind::None) {
      if (a[3]->kind != Value::Kind::Builtin || a[3]->text.rfind("tle.gpu.storage.", 0) != 0)
        fail(where[3], DiagId::TypeMismatch, "scope must be tle.gpu.smem (or tle.gpu.storage_kind.smem), got " + a[3]->describe());
      scope = a[3]->text.substr(16);
    }
    if (scope == "tmem")
      fail(where[3], DiagId::UnsupportedInKernel, "tensor-memory (tmem) buffers are not supported: they need Blackwell (sm_100), and tlec targets sm_80-sm_90a");
    int64_t bytes = (bitWidth(d) + 7) / 8;
    for (int64_t n : shape) bytes *= n;
    int64_t limit = currentModule().target->memorySpace(MemorySpace::Shared)->capacityBytes;
    if (bytes > limit)
      fail(at, DiagId::ShapeMismatch, "a buffer of " + std::to_string(bytes) + " bytes exceeds the " + std::to_string(limit / 1024) +
                                          " KiB of shared memory a block can use on " + currentModule().target->name());
    TType t;
    t.dtype = d;
    t.isBuffer = true;
    t.blockShape = shape;
    t.space = MemorySpace::Shared;
    auto op = builder_.create<tle::ir::AllocOp>(l, irType(t));
    return Value::ofRuntime(op.getResult(), t);
  }
  if (member == "local_ptr") {
    auto a = bindArgs(*this, "tle.gpu.local_ptr", {{"buffer", true}, {"indices", false}}, args, at, &where);
    requireBuffer(*a[0], where[0], "tle.gpu.local_ptr", /*remoteOk=*/true);
    const TType &buf = a[0]->type;
    if (!isSharedMemory(buf.space))
      fail(where[0], DiagId::TypeMismatch, "tle.gpu.local_ptr needs a shared-memory buffer, got " + withArticle(buf.str()));
    std::vector<mlir::Value> indices;
    std::vector<int64_t> shape = buf.blockShape;
    if (a[1] && a[1]->kind != Value::Kind::None) {
      if (a[1]->kind != Value::Kind::Tuple)
        fail(where[1], DiagId::TypeMismatch, "local_ptr indices must be a tuple or list with one index per buffer dimension");
      const std::vector<Value> &idx = a[1]->elements;
      if (idx.size() != buf.blockShape.size())
        fail(where[1], DiagId::ShapeMismatch, "local_ptr needs " + std::to_string(buf.blockShape.size()) + " indices for " +
                                                  withArticle(buf.str()) + ", got " + std::to_string(idx.size()));
      std::optional<std::vector<int64_t>> common;
      TType i32;
      i32.dtype = DType::I32;
      for (const Value &i : idx) {
        Value v = i.isRuntime() ? i : toRuntime(i, where[1], &i32);
        if (v.type.isPointer || !isInt(v.type.dtype))
          fail(where[1], DiagId::TypeMismatch, "local_ptr indices must be integers, got " + withArticle(v.type.str()));
        if (common && *common != v.type.shape)
          fail(where[1], DiagId::ShapeMismatch, "local_ptr indices must all have one shape (all scalars, or blocks of one shape)");
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
    auto op = builder_.create<tle::gpu::LocalPtrOp>(l, irType(t), a[0]->ir, indices);
    return Value::ofRuntime(op.getResult(), t);
  }
  if (member == "copy") {
    auto a = bindArgs(*this, "tle.gpu.copy", {{"src", true}, {"dst", true}, {"shape", true}}, args, at, &where);
    bool toLocal = a[1]->isRuntime() && a[1]->type.isBuffer;
    const Value &global = toLocal ? *a[0] : *a[1];
    const Value &local = toLocal ? *a[1] : *a[0];
    SourceRange gr = toLocal ? where[0] : where[1], lr = toLocal ? where[1] : where[0];
    if (!local.isRuntime() || !local.type.isBuffer || local.type.space != MemorySpace::Shared || !global.isRuntime() ||
        !global.type.isPointer || global.type.space != MemorySpace::Global)
      fail(at, DiagId::TypeMismatch, "tle.gpu.copy copies between global memory (a block of pointers) and a buffer; got " +
                                         withArticle(a[0]->isRuntime() ? a[0]->type.str() : a[0]->describe()) + " and " +
                                         withArticle(a[1]->isRuntime() ? a[1]->type.str() : a[1]->describe()));
    std::vector<int64_t> shape = shapeArgAny(*a[2], where[2]);
    // Stricter than upstream, which does not check: a mismatch would copy the wrong elements.
    if (shape != local.type.blockShape)
      fail(where[2], DiagId::ShapeMismatch, "the copy shape " + shapeText(shape) + " differs from the buffer's shape " +
                                                shapeText(local.type.blockShape));
    if (global.type.shape != shape)
      fail(gr, DiagId::ShapeMismatch, "the copy shape " + shapeText(shape) + " differs from the pointer block's shape " +
                                          shapeText(global.type.shape));
    if (global.type.dtype != local.type.dtype)
      fail(lr, DiagId::TypeMismatch, std::string("tle.gpu.copy between ") + dtypeName(global.type.dtype) + " memory and " +
                                         withArticle(local.type.str()));
    builder_.create<tle::gpu::CopyOp>(l, a[0]->ir, a[1]->ir);
    return Value::none();
  }
  if (member == "local_load") {
    auto a = bindArgs(*this, "tle.gpu.local_load", {{"buffer", true}}, args, at, &where);
    requireBuffer(*a[0], where[0], "tle.gpu.local_load");
    TType t;
    t.dtype = a[0]->type.dtype;
    t.shape = a[0]->type.blockShape;
    auto op = builder_.create<tle::gpu::LocalLoadOp>(l, irType(t), a[0]->ir);
    return Value::ofRuntime(op.getResult(), t);
  }
  if (member == "memory_space") {
    auto a = bindArgs(*this, "tle.gpu.memory_space", {{"input", true}, {"space", true}}, args, at, &where);
    if (a[1]->kind != Value::Kind::Str || (a[1]->text != "shared_memory" && a[1]->text != "register"))
      fail(where[1], DiagId::ConstantError, "the memory space must be \"shared_memory\" or \"register\"");
    return *a[0];  // a placement hint for the layout passes
  }
  if (member == "warp_specialize") return warpSpecialize(args, at);
  fail(at, DiagId::NotImplemented, "tle.gpu." + member + " is not implemented yet in tlec's lowering");
}

// Triton-distributed's signal and symmetric-memory primitives (imported as `dl`).
Value FunctionLowering::tritonDist(const std::string &member, CallArgs &args, SourceRange at) {
  std::vector<SourceRange> where;
  mlir::Location l = loc(at);
  TType i32;
  i32.dtype = DType::I32;
  auto signalPtr = [&](const Value &v, SourceRange r, const std::string &fn) {
    if (!v.isRuntime() || !v.type.isPointer || v.type.space != MemorySpace::Global)
      fail(r, DiagId::TypeMismatch, fn + " needs a pointer to global signals, got " + withArticle(v.isRuntime() ? v.type.str() : v.describe()));
    if (v.type.dtype != DType::I32 && v.type.dtype != DType::I64 && v.type.dtype != DType::U32 && v.type.dtype != DType::U64)
      fail(r, DiagId::TypeMismatch, fn + ": signals are 32- or 64-bit integers, got a pointer to " + std::string(dtypeName(v.type.dtype)));
  };
  auto oneOf = [&](const std::optional<Value> &v, SourceRange r, const char *dflt, std::initializer_list<const char *> allowed,
                   const std::string &what) {
    if (!v || v->kind == Value::Kind::None) return std::string(dflt);
    if (v->kind == Value::Kind::Str)
      for (const char *ok : allowed)
        if (v->text == ok) return v->text;
    std::string list;
    for (const char *ok : allowed) list += (list.empty() ? "'" : ", '") + std::string(ok) + "'";
    fail(r, DiagId::ConstantError, what + " must be one of " + list + ", got " + (v->kind == Value::Kind::Str ? "'" + v->text + "'" : v->describe()));
  };
  if (member == "rank" || member == "num_ranks") {
    bindArgs(*this, "dl." + member, {}, args, at);
    mlir::Value r = member == "rank" ? mlir::Value(builder_.create<tle::ir::RankOp>(l, builder_.getI32Type()))
                                     : builder_.create<tle::ir::NumRanksOp>(l, builder_.getI32Type());
    return Value::ofRuntime(r, i32);
  }
  if (member == "wait") {
    auto a = bindArgs(*this, "dl.wait", {{"barrierPtrs", true}, {"numBarriers", true}, {"scope", false}, {"semantic", false}}, args, at, &where);
    signalPtr(*a[0], where[0], "dl.wait");
    Value count = integerScalarI32(*a[1], where[1], "the signal count");
    std::string scope = oneOf(a[2], where[2], "gpu", {"gpu", "sys"}, "the scope");
    std::string sem = oneOf(a[3], where[3], "acquire", {"acquire", "relaxed"}, "the semantic");
    auto op = builder_.create<tle::ir::WaitOp>(l, builder_.getI32Type(), a[0]->ir, count.ir, builder_.getStringAttr(scope),
                                               builder_.getStringAttr(sem));
    return Value::ofRuntime(op.getResult(), i32);
  }
  if (member == "notify") {
    auto a = bindArgs(*this, "dl.notify", {{"ptr", true}, {"rank", true}, {"signal", false}, {"sig_op", false}, {"comm_scope", false}},
                      args, at, &where);
    signalPtr(*a[0], where[0], "dl.notify");
    Value rank = integerScalarI32(*a[1], where[1], "the rank");
    TType sigType;
    sigType.dtype = a[0]->type.dtype;
    Value signal = a[2] ? (a[2]->isRuntime() ? cast(*a[2], sigType.dtype, where[2]) : toRuntime(*a[2], where[2], &sigType))
                        : toRuntime(Value::ofInt(1), at, &sigType);
    if (signal.type.isBlock()) fail(where[2], DiagId::TypeMismatch, "the signal value must be a scalar");
    std::string sigOp = oneOf(a[3], where[3], "set", {"set", "add"}, "sig_op");
    std::string scope = oneOf(a[4], where[4], "gpu", {"gpu", "sys"}, "comm_scope");
    builder_.create<tle::ir::NotifyOp>(l, a[0]->ir, rank.ir, signal.ir, builder_.getStringAttr(sigOp), builder_.getStringAttr(scope));
    return Value::none();
  }
  if (member == "consume_token") {
    auto a = bindArgs(*this, "dl.consume_token", {{"value", true}, {"token", true}}, args, at, &where);
    if (!a[0]->isRuntime()) fail(where[0], DiagId::TypeMismatch, "dl.consume_token needs a runtime value (usually a pointer)");
    if (!a[1]->isRuntime() || a[1]->type.isBlock() || a[1]->type.dtype != DType::I32)
      fail(where[1], DiagId::TypeMismatch, "dl.consume_token needs the token returned by dl.wait");
    auto op = builder_.create<tle::ir::ConsumeTokenOp>(l, a[0]->ir.getType(), a[0]->ir, a[1]->ir);
    return Value::ofRuntime(op.getResult(), a[0]->type);
  }
  // symm_at
  auto a = bindArgs(*this, "dl.symm_at", {{"ptr", true}, {"rank", true}}, args, at, &where);
  if (!a[0]->isRuntime() || !a[0]->type.isPointer || a[0]->type.space != MemorySpace::Global)
    fail(where[0], DiagId::TypeMismatch, "dl.symm_at needs a pointer into a symmetric allocation, got " +
                                             withArticle(a[0]->isRuntime() ? a[0]->type.str() : a[0]->describe()));
  Value rank = integerScalarI32(*a[1], where[1], "the rank");
  auto op = builder_.create<tle::ir::SymmAtOp>(l, a[0]->ir.getType(), a[0]->ir, rank.ir);
  return Value::ofRuntime(op.getResult(), a[0]->type);
}

// tle.dsa.alloc / copy / add..min / to_tensor / to_buffer (Ascend).
Value FunctionLowering::dsaStruct(const std::string &member, CallArgs &args, SourceRange at) {
  std::vector<SourceRange> where;
  mlir::Location l = loc(at);
  auto spaceOf = [&](const Value &v, SourceRange r) {
    if (v.kind != Value::Kind::Builtin || v.text.rfind("tle.dsa.space.", 0) != 0)
      fail(r, DiagId::TypeMismatch, "a DSA memory space is one of tle.dsa.ascend.UB, L1, L0A, L0B, L0C; got " + v.describe());
    return *memorySpaceNamed(v.text.substr(14));
  };
  auto requireBuffer = [&](const Value &v, SourceRange r, const std::string &what) {
    if (!v.isRuntime() || !v.type.isBuffer || !isAscendBuffer(v.type.space))
      fail(r, DiagId::TypeMismatch, what + " must be a buffer from tle.dsa.alloc, got " +
                                        withArticle(v.isRuntime() ? v.type.str() : v.describe()));
  };
  if (member == "alloc") {
    auto a = bindArgs(*this, "tle.dsa.alloc", {{"shape", true}, {"dtype", true}, {"mem_addr_space", true}}, args, at, &where);
    std::vector<int64_t> shape;
    for (int64_t n : shapeArgAny(*a[0], where[0])) {
      if (n <= 0) fail(where[0], DiagId::ShapeMismatch, "buffer dimensions must be positive, got " + std::to_string(n));
      shape.push_back(n);
    }
    DType d = requireDType(*a[1], where[1], "the dtype");
    MemorySpace space = spaceOf(*a[2], where[2]);
    int64_t bytes = (bitWidth(d) + 7) / 8;
    for (int64_t n : shape) bytes *= n;
    const TargetInfo &dsa = *currentModule().target;
    int64_t capacity = dsa.memorySpace(space)->capacityBytes;
    if (bytes > capacity)
      fail(at, DiagId::ShapeMismatch, "a buffer of " + std::to_string(bytes) + " bytes exceeds the " + std::to_string(capacity / 1024) +
                                          " KiB of " + std::string(memorySpaceName(space)) + " on " + dsa.name());
    TType t;
    t.dtype = d;
    t.isBuffer = true;
    t.blockShape = shape;
    t.space = space;
    return Value::ofRuntime(builder_.create<tle::ir::AllocOp>(l, irType(t)).getResult(), t);
  }
  if (member == "copy") {
    auto a = bindArgs(*this, "tle.dsa.copy", {{"src", true}, {"dst", true}, {"shape", true}}, args, at, &where);
    bool srcBuf = a[0]->isRuntime() && a[0]->type.isBuffer, dstBuf = a[1]->isRuntime() && a[1]->type.isBuffer;
    if (!srcBuf && !dstBuf)
      fail(at, DiagId::TypeMismatch, "tle.dsa.copy copies between global memory and a local buffer, or from L1 to L0A/L0B; "
                                     "neither operand is a buffer");
    bool cubeOperand = srcBuf && dstBuf;  // L1 -> L0A / L0B, the cube's operand path (MTE1)
    if (cubeOperand) {
      requireBuffer(*a[0], where[0], "the source");
      requireBuffer(*a[1], where[1], "the destination");
      MemorySpace from = a[0]->type.space, to = a[1]->type.space;
      if (from != MemorySpace::L1 || (to != MemorySpace::L0A && to != MemorySpace::L0B))
        fail(at, DiagId::TypeMismatch, "tle.dsa.copy between two buffers only moves L1 to L0A or L0B (the cube's operand path); got " +
                                           std::string(memorySpaceName(from)) + " to " + std::string(memorySpaceName(to)));
      if (a[0]->type.blockShape != a[1]->type.blockShape || a[0]->type.dtype != a[1]->type.dtype)
        fail(at, DiagId::ShapeMismatch, "the buffers (" + a[0]->type.str() + " and " + a[1]->type.str() +
                                            ") must have one shape and element type");
    }
    const Value &local = srcBuf && !cubeOperand ? *a[0] : *a[1];
    const Value &global = srcBuf && !cubeOperand ? *a[1] : *a[0];
    requireBuffer(local, srcBuf ? where[0] : where[1], "the local operand");
    if (cubeOperand) {
    } else if (!global.isRuntime() || !global.type.isPointer)
      fail(srcBuf ? where[1] : where[0], DiagId::TypeMismatch, "the global operand of tle.dsa.copy must be a block of pointers");
    MemorySpace space = local.type.space;
    if (!cubeOperand && (space == MemorySpace::L0A || space == MemorySpace::L0B))
      fail(srcBuf ? where[0] : where[1], DiagId::TypeMismatch,
           "global memory cannot be copied to or from " + std::string(memorySpaceName(space)) + " directly; stage it through an L1 buffer");
    if (!cubeOperand && space == MemorySpace::L0C && !srcBuf)
      fail(where[1], DiagId::TypeMismatch, "L0C receives cube (matrix) results only; it cannot be loaded from global memory");
    if (!cubeOperand && (global.type.shape != local.type.blockShape || global.type.dtype != local.type.dtype))
      fail(at, DiagId::ShapeMismatch, "the pointer block (" + global.type.str() + ") and the buffer (" + local.type.str() +
                                          ") must have one shape and element type");
    std::vector<Value> sizes = a[2]->kind == Value::Kind::Tuple ? a[2]->elements : std::vector<Value>{*a[2]};
    if (sizes.size() != local.type.blockShape.size())
      fail(where[2], DiagId::ShapeMismatch, "tle.dsa.copy needs one size per buffer dimension (" +
                                                std::to_string(local.type.blockShape.size()) + "), got " + std::to_string(sizes.size()));
    std::vector<mlir::Value> sizeIr;
    TType i32;
    i32.dtype = DType::I32;
    for (size_t i = 0; i < sizes.size(); ++i) {
      const Value &s = sizes[i];
      if (!s.isRuntime()) {
        int64_t n = requireInt(s, where[2], "a copy size");
        if (n <= 0 || n > local.type.blockShape[i])
          fail(where[2], DiagId::ShapeMismatch, "copy size " + std::to_string(n) + " in dimension " + std::to_string(i) +
                                                    " is outside 1.." + std::to_string(local.type.blockShape[i]));
      }
      Value v = s.isRuntime() ? s : toRuntime(s, where[2], &i32);
      if (v.type.isBlock() || v.type.isPointer || !isInt(v.type.dtype))
        fail(where[2], DiagId::TypeMismatch, "copy sizes must be integer scalars");
      sizeIr.push_back(v.type.dtype == DType::I32 ? v.ir : cast(v, DType::I32, where[2]).ir);
    }
    builder_.create<tle::dsa::CopyOp>(l, a[0]->ir, a[1]->ir, sizeIr);
    return Value::none();
  }
  if (member == "to_tensor") {
    auto a = bindArgs(*this, "tle.dsa.to_tensor", {{"buffer", true}, {"writable", false}}, args, at, &where);
    requireBuffer(*a[0], where[0], "tle.dsa.to_tensor's operand");
    if (a[0]->type.space != MemorySpace::UB)
      fail(where[0], DiagId::TypeMismatch, "tle.dsa.to_tensor needs a UB buffer, got " + withArticle(a[0]->type.str()));
    TType t;
    t.dtype = a[0]->type.dtype;
    t.shape = a[0]->type.blockShape;
    bool writable = a[1] && truthy(*a[1], where[1]);
    return Value::ofRuntime(builder_.create<tle::dsa::ToTensorOp>(l, irType(t), a[0]->ir, writable).getResult(), t);
  }
  if (member == "to_buffer") {
    auto a = bindArgs(*this, "tle.dsa.to_buffer", {{"tensor", true}, {"space", true}}, args, at, &where);
    const Value &x = *a[0];
    if (!x.isRuntime() || !x.type.isBlock() || x.type.isPointer)
      fail(where[0], DiagId::TypeMismatch, "tle.dsa.to_buffer needs a block of numbers, got " + withArticle(x.isRuntime() ? x.type.str() : x.describe()));
    MemorySpace space = spaceOf(*a[1], where[1]);
    if (space != MemorySpace::UB)
      fail(where[1], DiagId::TypeMismatch, "tle.dsa.to_buffer can place a block only in UB, not " + std::string(memorySpaceName(space)));
    TType t;
    t.dtype = x.type.dtype;
    t.isBuffer = true;
    t.blockShape = x.type.shape;
    t.space = space;
    return Value::ofRuntime(builder_.create<tle::dsa::ToBufferOp>(l, irType(t), x.ir).getResult(), t);
  }
  if (member == "matmul" || member == "subview") return dsaCube(member, args, at);
  if (member == "hint") {  // `with tle.dsa.hint(inter_no_alias=True):` -- compile-time keywords only
    if (!args.positional.empty()) fail(args.positionalRanges[0], DiagId::ArgumentMismatch, "tle.dsa.hint takes keyword arguments only");
    for (size_t k = 0; k < args.keywords.size(); ++k)
      if (args.keywords[k].second.isRuntime())
        fail(args.keywordRanges[k], DiagId::NotConstexpr, "keyword arguments to tle.dsa.hint are only supported for constant values");
    return Value::ofBuiltin("tle.dsa.hint.instance");
  }
  // add / sub / mul / div / max / min: the vector unit works on UB only.
  std::string fn = "tle.dsa." + member;
  auto a = bindArgs(*this, fn, {{"lhs", true}, {"rhs", true}, {"out", true}}, args, at, &where);
  const char *names[] = {"lhs", "rhs", "out"};
  for (size_t i = 0; i < 3; ++i) {
    requireBuffer(*a[i], where[i], fn + "'s '" + names[i] + "'");
    if (a[i]->type.space != MemorySpace::UB)
      fail(where[i], DiagId::TypeMismatch, fn + " runs on the vector unit, which reads UB buffers only; '" + names[i] +
                                               "' is " + withArticle(a[i]->type.str()));
    if (a[i]->type != a[2]->type)
      fail(where[i], DiagId::ShapeMismatch, fn + "'s operands must have one shape and element type: " + a[i]->type.str() +
                                                " and " + a[2]->type.str());
  }
  builder_.create<tle::dsa::ElementwiseOp>(l, builder_.getStringAttr(member), a[0]->ir, a[1]->ir, a[2]->ir);
  return Value::none();
}

// tle.extract_tile(x, index, shape) / tle.insert_tile(x, tile, index): the source is cut
// into a grid of tiles; `index` picks one, by grid coordinates or as a row-major number.
Value FunctionLowering::tileOp(bool extract, CallArgs &args, SourceRange at) {
  std::vector<SourceRange> where;
  const char *fn = extract ? "tle.extract_tile" : "tle.insert_tile";
  auto a = extract ? bindArgs(*this, fn, {{"x", true}, {"index", true}, {"shape", true}}, args, at, &where)
                   : bindArgs(*this, fn, {{"x", true}, {"tile", true}, {"index", true}}, args, at, &where);
  Value x = *a[0];
  if (!x.isRuntime() || !x.type.isBlock() || x.type.isPointer)
    fail(where[0], DiagId::TypeMismatch, std::string(fn) + " needs a block, got " + (x.isRuntime() ? x.type.str() : x.describe()));
  std::vector<int64_t> tileShape;
  Value tile;
  if (extract) {
    tileShape = shapeArg(*this, *a[2], where[2]);
  } else {
    tile = *a[1];
    if (!tile.isRuntime() || !tile.type.isBlock())
      fail(where[1], DiagId::TypeMismatch, "tle.insert_tile's tile must be a block, got " + (tile.isRuntime() ? tile.type.str() : tile.describe()));
    if (tile.type.dtype != x.type.dtype)
      fail(where[1], DiagId::TypeMismatch, std::string("element type mismatch: source is ") + dtypeName(x.type.dtype) +
                                               ", tile is " + dtypeName(tile.type.dtype));
    tileShape = tile.type.shape;
  }
  size_t rank = x.type.shape.size();
  SourceRange shapeRange = extract ? where[2] : where[1];
  if (tileShape.size() != rank)
    fail(shapeRange, DiagId::ShapeMismatch, "the tile rank (" + std::to_string(tileShape.size()) + ") must match the source rank (" +
                                                std::to_string(rank) + ")");
  std::vector<int64_t> grid;
  for (size_t i = 0; i < rank; ++i) {
    if (x.type.shape[i] % tileShape[i] != 0)
      fail(shapeRange, DiagId::ShapeMismatch, "source dimension " + std::to_string(i) + " (" + std::to_string(x.type.shape[i]) +
                                                  ") is not divisible by the tile dimension (" + std::to_string(tileShape[i]) + ")");
    grid.push_back(x.type.shape[i] / tileShape[i]);
  }
  const Value &index = *a[extract ? 1 : 2];
  SourceRange indexRange = where[extract ? 1 : 2];
  std::vector<int64_t> coords;
  if (index.kind == Value::Kind::Tuple) {
    if (index.elements.size() != rank)
      fail(indexRange, DiagId::ShapeMismatch, "the index has " + std::to_string(index.elements.size()) + " entries but the source has rank " +
                                                  std::to_string(rank));
    for (size_t i = 0; i < rank; ++i) {
      if (index.elements[i].isRuntime())
        fail(indexRange, DiagId::NotImplemented, "runtime tile indices are not implemented yet; the index must be compile-time");
      int64_t c = requireInt(index.elements[i], indexRange, "a tile index");
      if (c < 0 || c >= grid[i])
        fail(indexRange, DiagId::TileIndexOutOfBounds, "index[" + std::to_string(i) + "]=" + std::to_string(c) +
                                                           " is out of bounds for the tile grid (0.." + std::to_string(grid[i] - 1) + ")");
      coords.push_back(c);
    }
  } else {
    if (index.isRuntime())
      fail(indexRange, DiagId::NotImplemented, "runtime tile indices are not implemented yet; the index must be compile-time");
    int64_t linear = requireInt(index, indexRange, "a tile index");
    int64_t total = 1;
    for (int64_t g : grid) total *= g;
    if (linear < 0 || linear >= total)
      fail(indexRange, DiagId::TileIndexOutOfBounds, "tile index " + std::to_string(linear) + " is out of range [0, " +
                                                         std::to_string(total) + ")");
    coords.assign(rank, 0);
    for (size_t i = rank; i-- > 0;) {
      coords[i] = linear % grid[i];
      linear /= grid[i];
    }
  }
  std::vector<int64_t> offsets;
  for (size_t i = 0; i < rank; ++i) offsets.push_back(coords[i] * tileShape[i]);
  mlir::Location l = loc(at);
  if (extract) {
    TType t = x.type.withShape(tileShape);
    auto op = builder_.create<tle::ir::ExtractTileOp>(l, irType(t), x.ir, builder_.getDenseI64ArrayAttr(offsets));
    return Value::ofRuntime(op.getResult(), t);
  }
  auto op = builder_.create<tle::ir::InsertTileOp>(l, x.ir.getType(), x.ir, tile.ir, builder_.getDenseI64ArrayAttr(offsets));
  return Value::ofRuntime(op.getResult(), x.type);
}

std::vector<int32_t> FunctionLowering::boundaryCheck(const std::optional<Value> &v, const Value &ptr, SourceRange at) {
  std::vector<int32_t> dims;
  if (!v || v->kind == Value::Kind::None) return dims;
  std::vector<Value> items = v->kind == Value::Kind::Tuple ? v->elements : std::vector<Value>{*v};
  for (const Value &d : items) {
    int64_t i = requireInt(d, at, "a boundary_check dimension");
    if (i < 0 || i >= static_cast<int64_t>(ptr.type.blockShape.size()))
      fail(at, DiagId::ShapeMismatch, "boundary_check dimension " + std::to_string(i) + " is out of range for " + withArticle(ptr.type.str()));
    dims.push_back(static_cast<int32_t>(i));
  }
  return dims;
}

std::optional<Value> FunctionLowering::maskArg(const std::optional<Value> &mask, const std::vector<int64_t> &shape,
                                              SourceRange at) {
  if (!mask || mask->kind == Value::Kind::None) return std::nullopt;
  Value m = mask->isRuntime() ? *mask : toRuntime(*mask, at);
  if (m.type.dtype != DType::I1) m = cast(m, DType::I1, at);
  return broadcastTo(m, shape, at);
}

Value FunctionLowering::attributeOfModule(const Value &module, const std::string &attr, SourceRange at) {
  const std::string &m = module.text;
  if (module.scope) {  // a user .tle module: its functions and module-level names
    ModuleScope &scope = *module.scope;
    if (scope.names.count(attr) || scope.lazyAssignments.count(attr) || scope.fromImports.count(attr)) {
      Frame frame;
      frame.module = &scope;
      ScopedFrame scoped(frames_, frame);
      return lookupGlobal(attr, at);
    }
    fail(at, DiagId::UnknownAttribute, "module '" + m + "' (" + scope.fileName + ") has no attribute '" + attr + "'");
  }
  if (m == "triton_dist" && attr == "jit") return Value::ofBuiltin("triton.jit");
  if (m == "triton_dist" && attr == "language") return Value::ofModule("dist");
  if (m == "dist") {
    if (attr == "wait" || attr == "notify" || attr == "consume_token" || attr == "symm_at" || attr == "rank" ||
        attr == "num_ranks")
      return Value::ofBuiltin("dist." + attr);
    return Value::ofBuiltin("planned:dl." + attr);
  }
  if (m == "triton") {
    if (attr == "language") return Value::ofModule("triton.language");
    if (attr == "jit" || attr == "autotune" || attr == "heuristics" || attr == "Config" || attr == "cdiv" ||
        attr == "next_power_of_2" || attr == "constexpr")
      return Value::ofBuiltin(attr == "constexpr" ? "triton.language.constexpr" : "triton." + attr);
  } else if (m == "triton.language" || m == "triton.language.math") {
    if (attr == "math") return Value::ofModule("triton.language.math");
    if (auto d = dtypeFromTlName(attr)) return Value::ofDType(*d);
    static const std::set<std::string> kImplemented = {
        "program_id", "num_programs", "arange", "load", "store", "zeros", "zeros_like", "full", "where", "maximum",
        "minimum", "fma", "static_assert", "static_range", "range", "constexpr", "multiple_of", "max_contiguous",
        "max_constancy", "broadcast_to", "expand_dims", "cdiv", "assume"};
    if (kImplemented.count(attr) || kMathUnary.count(attr) || kReductions.count(attr) || kShapeOps.count(attr) ||
        kAtomics.count(attr) || attr == "dot" || attr == "debug_barrier" || attr == "make_block_ptr" || attr == "advance" ||
        kScans.count(attr) || kSplitJoin.count(attr) || kMathExtras.count(attr) || kDebugging.count(attr) ||
        kDescriptors.count(attr) || attr == "tensor_descriptor" || attr == "tensor")
      return Value::ofBuiltin("triton.language." + attr);
    if (kPlannedTl.count(attr)) return Value::ofBuiltin("planned:tl." + attr);
  } else if (m == "tle") {
    if (attr == "load" || attr == "range" || attr == "extract_tile" || attr == "insert_tile" || attr == "cumsum")
      return Value::ofBuiltin("tle." + attr);
    if (attr == "pipeline_group") return Value::ofBuiltin("tle.pipeline_group");
    if (attr == "device_mesh" || attr == "sharding" || attr == "shard_id" || attr == "S" || attr == "P" ||
        attr == "make_sharded_tensor" || attr == "remote" || attr == "distributed_barrier" || attr == "call" ||
        attr == "pipe")
      return Value::ofBuiltin("tle." + attr);
    if (attr == "B") return Value::none();  // "broadcast": replicated along the dimension
    if (attr == "raw") return Value::ofModule("tle.raw");
    if (attr == "jit") return Value::ofBuiltin("triton.jit");
    if (attr == "hardware_constraint") return Value::ofBuiltin("tle.hardware_constraint");
    // TLE-Struct is per hardware family: tle.gpu for CUDA targets, tle.dsa for Ascend.
    if (attr == "gpu" || attr == "dsa") {
      if (!currentModule().target->accepts(attr == "gpu" ? Tier::GpuStruct : Tier::DsaStruct))
        fail(at, DiagId::TierNotForTarget,
             "tle." + attr + " (TLE-Struct for " + (attr == "gpu" ? "GPUs" : "Ascend DSAs") +
                 ") is not available for target " + currentModule().target->name() + "; " +
                 (attr == "gpu" ? "use tle.dsa.* or TLE-Lite for Ascend" : "use tle.gpu.* or TLE-Lite for CUDA"));
      return Value::ofModule("tle." + attr);
    }
    if (kPlannedTle.count(attr)) return Value::ofBuiltin("planned:tle." + attr);
  } else if (m == "tle.raw") {
    if (attr == "language" || attr == "call_smem") return Value::ofBuiltin("tle.raw." + attr);
  } else if (m == "tle.gpu" || m == "tle.gpu.storage_kind") {
    if (attr == "smem" || attr == "tmem") return Value::ofBuiltin("tle.gpu.storage." + attr);
    if (m == "tle.gpu" && attr == "storage_kind") return Value::ofModule("tle.gpu.storage_kind");
    if (m == "tle.gpu" && (attr == "alloc" || attr == "local_ptr" || attr == "copy" || attr == "local_load" ||
                           attr == "memory_space" || attr == "warp_specialize"))
      return Value::ofBuiltin("tle.gpu." + attr);
    return Value::ofBuiltin("planned:" + m + "." + attr);
  } else if (m == "tle.dsa" || m == "tle.dsa.ascend") {
    static const std::set<std::string> kSpaces = {"UB", "L1", "L0A", "L0B", "L0C"};
    static const std::set<std::string> kDsa = {"alloc", "copy", "to_tensor", "to_buffer", "add", "sub", "mul", "div", "max", "min",
                                               "matmul", "subview", "hint"};
    if (m == "tle.dsa" && attr == "ascend") return Value::ofModule("tle.dsa.ascend");
    if (m == "tle.dsa.ascend" && kSpaces.count(attr)) return Value::ofBuiltin("tle.dsa.space." + attr);
    if (m == "tle.dsa" && kDsa.count(attr)) return Value::ofBuiltin("tle.dsa." + attr);
    return Value::ofBuiltin("planned:" + m + "." + attr);
  } else {
    auto why = currentModule().unresolvedImports.find(m);
    if (why != currentModule().unresolvedImports.end())
      fail(at, DiagId::UnsupportedInKernel, "module '" + m + "' cannot be used inside a kernel: " + why->second);
    fail(at, DiagId::UnsupportedInKernel, "module '" + m + "' cannot be used inside a kernel");
  }
  fail(at, DiagId::UnknownAttribute, "module '" + m + "' has no attribute '" + attr + "'");
}

Value FunctionLowering::attributeOfRuntime(const Value &v, const std::string &attr, SourceRange at) {
  if (v.type.isBuffer && attr == "slot") return Value::ofBuiltin("buffer.slot", {v});
  if (v.type.isTensorDesc) {
    if (attr == "load" || attr == "store") return Value::ofBuiltin("desc." + attr, {v});
    if (attr == "dtype") return Value::ofDType(v.type.dtype);
    if (attr == "block_shape") {
      std::vector<Value> dims;
      for (int64_t d : v.type.blockShape) dims.push_back(Value::ofInt(d));
      return Value::ofTuple(std::move(dims));
    }
    if (attr == "gather" || attr == "scatter" || attr.rfind("atomic_", 0) == 0 || attr == "shape" || attr == "strides")
      return Value::ofBuiltin("planned:tensor descriptor ." + attr, {v});
    fail(at, DiagId::UnknownAttribute, withArticle(v.type.str()) + " has no attribute '" + attr + "'");
  }
  // `ptr.type` is pointer_type(dtype), whose element_ty is the dtype; for scalars it is the dtype.
  if (attr == "dtype" || (attr == "type" && !v.type.isBlock())) {
    Value d = Value::ofDType(v.type.dtype);
    d.dtypeIsPointer = v.type.isPointer || v.type.isBlockPtr;
    return d;
  }
  if (attr == "shape") {
    std::vector<Value> dims;
    for (int64_t d : v.type.shape) dims.push_back(Value::ofInt(d));
    return Value::ofTuple(std::move(dims));
  }
  if (attr == "to" || attr == "broadcast_to" || attr == "expand_dims" || kReductions.count(attr) || kShapeOps.count(attr))
    return Value::ofBuiltin("method." + attr, {v});
  if (attr == "T") {
    CallArgs none;
    return callBuiltin(Value::ofBuiltin("method.trans", {v}), none, at);
  }
  if (attr == "extract_tile" || attr == "insert_tile") return Value::ofBuiltin("tle." + attr, {v});
  if (kScans.count(attr) || kSplitJoin.count(attr) || attr == "sigmoid" || attr == "softmax" || attr == "clamp" ||
      attr == "cast" || attr == "log1p")
    return Value::ofBuiltin("method." + attr, {v});
  if (kPlannedTl.count(attr))
    return Value::ofBuiltin("planned:method " + attr, {v});
  fail(at, DiagId::UnknownAttribute, "" + withArticle(v.type.str()) + " has no attribute '" + attr + "'");
}

Value FunctionLowering::callBuiltin(const Value &fn, CallArgs &args, SourceRange at) {
  const std::string &name = fn.text;
  if (name == "planned:tle.reshard" || name == "planned:tle.distributed_dot")
    fail(at, DiagId::NotImplemented, name.substr(8) + " is not implemented: its semantics are not defined upstream either (FlagTree defers " +
                                         (name == "planned:tle.reshard" ? "reshard to M4" : "distributed_dot to M5") +
                                         "); use tle.remote and tle.distributed_barrier");
  if (name.rfind("planned:", 0) == 0)
    fail(at, DiagId::NotImplemented, name.substr(8) + " is not implemented yet in tlec's lowering");
  if (!fn.boundArgs.empty()) {
    args.positional.insert(args.positional.begin(), fn.boundArgs.begin(), fn.boundArgs.end());
    args.positionalRanges.insert(args.positionalRanges.begin(), fn.boundArgs.size(), at);
  }
  std::string member = memberName(name);
  mlir::Location l = loc(at);

  // ---- Python builtins ----
  if (name == "range")
    fail(at, DiagId::UnsupportedInKernel, "range() can only be used as the iterable of a 'for' loop");
  if (name == "min" || name == "max") {
    std::vector<Value> items = args.positional;
    if (items.size() == 1 && items[0].kind == Value::Kind::Tuple) items = items[0].elements;
    if (items.empty()) fail(at, DiagId::ArgumentMismatch, name + "() needs at least one argument");
    Value best = items[0];
    for (size_t i = 1; i < items.size(); ++i) {
      // On runtime values Python's min/max mean tl.minimum/tl.maximum, as in Triton.
      if (items[i].isRuntime() || best.isRuntime()) {
        best = minMax(name == "max", best, items[i], false, at);
        continue;
      }
      Value less;
      std::string err;
      if (!foldCompare(name == "min" ? ast::CmpOp::Lt : ast::CmpOp::Gt, items[i], best, less, err))
        fail(at, DiagId::TypeMismatch, "cannot compare " + items[i].describe() + " and " + best.describe());
      if (less.boolValue) best = items[i];
    }
    return best;
  }
  if (name == "len") {
    auto a = bindArgs(*this, "len()", {{"obj", true}}, args, at);
    if (a[0]->kind == Value::Kind::Tuple) return Value::ofInt(static_cast<int64_t>(a[0]->elements.size()));
    if (a[0]->kind == Value::Kind::Str) return Value::ofInt(static_cast<int64_t>(a[0]->text.size()));
    if (a[0]->isRuntime() && a[0]->type.isBlock()) return Value::ofInt(a[0]->type.shape[0]);
    fail(at, DiagId::TypeMismatch, "len() of " + a[0]->describe());
  }
  if (name == "int" || name == "float" || name == "bool" || name == "abs") {
    auto a = bindArgs(*this, name + "()", {{"x", true}}, args, at);
    const Value &x = *a[0];
    if (x.isRuntime()) {
      if (name == "abs") {
        CallArgs inner;
        inner.positional = {x};
        inner.positionalRanges = {at};
        return callBuiltin(Value::ofBuiltin("triton.language.abs"), inner, at);
      }
      fail(at, DiagId::NotConstexpr, name + "() needs a compile-time value; use .to(...) on runtime values");
    }
    if (name == "float" && x.kind == Value::Kind::Str) {
      std::string t = x.text;
      for (char &ch : t) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
      if (t == "inf" || t == "+inf" || t == "infinity") return Value::ofFloat(HUGE_VAL);
      if (t == "-inf" || t == "-infinity") return Value::ofFloat(-HUGE_VAL);
      if (t == "nan" || t == "+nan" || t == "-nan") return Value::ofFloat(std::nan(""));
      char *end = nullptr;
      double d = std::strtod(x.text.c_str(), &end);
      if (end && *end == '\0' && !x.text.empty()) return Value::ofFloat(d);
      fail(at, DiagId::ConstantError, "could not convert string to float: '" + x.text + "'");
    }
    double f = x.kind == Value::Kind::Float ? x.floatValue : static_cast<double>(x.kind == Value::Kind::Bool ? x.boolValue : x.intValue);
    if (!x.isNumber()) {
      if (name == "bool") return Value::ofBool(truthy(x, at));
      fail(at, DiagId::TypeMismatch, name + "() of " + x.describe());
    }
    if (name == "int") return Value::ofInt(static_cast<int64_t>(f));
    if (name == "float") return Value::ofFloat(f);
    if (name == "bool") return Value::ofBool(f != 0);
    if (x.kind == Value::Kind::Float) return Value::ofFloat(std::fabs(f));
    return Value::ofInt(static_cast<int64_t>(std::llabs(static_cast<long long>(f))));
  }
  if (name == "isinstance") {
    auto a = bindArgs(*this, "isinstance()", {{"obj", true}, {"classinfo", true}}, args, at);
    std::vector<Value> classes = a[1]->kind == Value::Kind::Tuple ? a[1]->elements : std::vector<Value>{*a[1]};
    for (const Value &c : classes) {
      if (c.kind != Value::Kind::Builtin) fail(at, DiagId::TypeMismatch, "isinstance() needs types, got " + c.describe());
      const std::string &t = c.text;
      const Value &o = *a[0];
      bool match = (t == "int" && (o.kind == Value::Kind::Int || o.kind == Value::Kind::Bool)) ||
                   (t == "float" && o.kind == Value::Kind::Float) || (t == "bool" && o.kind == Value::Kind::Bool) ||
                   (t == "str" && o.kind == Value::Kind::Str) ||
                   ((t == "tuple" || t == "list") && o.kind == Value::Kind::Tuple) ||
                   (t == "triton.language.constexpr" && !o.isRuntime()) ||
                   (t == "triton.language.tensor_descriptor" && o.isRuntime() && o.type.isTensorDesc) ||
                   (t == "triton.language.tensor" && o.isRuntime() && !o.type.isTensorDesc && !o.type.isBlockPtr &&
                    !o.type.isBuffer);
      if (match) return Value::ofBool(true);
    }
    return Value::ofBool(false);
  }
  if (name.rfind("dtype.", 0) == 0) {
    bindArgs(*this, name, {{"self", true}}, args, at);
    DType d = fn.boundArgs[0].dtype;
    std::string q = name.substr(6);
    bool r = q == "is_floating" ? isFloat(d) : q == "is_int" ? isInt(d) : q == "is_int_signed" ? isInt(d) && !isUnsigned(d)
           : q == "is_int_unsigned" ? isUnsigned(d) : q == "is_fp8" ? isFp8(d) : q == "is_bf16" ? d == DType::BF16
           : q == "is_fp16" ? d == DType::FP16 : q == "is_fp32" ? d == DType::FP32 : d == DType::FP64;
    return Value::ofBool(r);
  }
  if (name == "print") return debugging(name, args, at);
  if (name == "tuple" || name == "list" || name == "str")
    fail(at, DiagId::NotImplemented, name + "() is not supported in kernels yet");

  // ---- triton.* ----
  if (name == "triton.cdiv" || name == "triton.language.cdiv") {
    auto a = bindArgs(*this, "cdiv", {{"x", true}, {"div", true}}, args, at);
    Value sum = binary(ast::BinaryOp::Add, *a[0], *a[1], at, at, at);
    sum = binary(ast::BinaryOp::Sub, sum, Value::ofInt(1), at, at, at);
    return binary(ast::BinaryOp::FloorDiv, sum, *a[1], at, at, at);
  }
  if (name == "triton.next_power_of_2") {
    auto a = bindArgs(*this, "triton.next_power_of_2", {{"n", true}}, args, at);
    int64_t n = requireInt(*a[0], at, "next_power_of_2's argument");
    int64_t p = 1;
    while (p < n && p < (int64_t(1) << 62)) p <<= 1;
    return Value::ofInt(p);
  }
  if (name == "triton.jit" || name == "triton.autotune" || name == "triton.heuristics" || name == "triton.Config")
    fail(at, DiagId::UnsupportedInKernel, name + " is a decorator/configuration and cannot be called inside a kernel");
  if (name == "triton.language.constexpr") {
    auto a = bindArgs(*this, "tl.constexpr", {{"value", true}}, args, at);
    if (a[0]->isRuntime()) fail(at, DiagId::NotConstexpr, "tl.constexpr() needs a compile-time value");
    return *a[0];
  }
  if (name == "triton.language.static_assert") {
    auto a = bindArgs(*this, "tl.static_assert", {{"cond", true}, {"msg", false}}, args, at);
    if (a[0]->isRuntime()) fail(at, DiagId::NotConstexpr, "tl.static_assert needs a compile-time condition");
    if (!truthy(*a[0], at)) {
      std::string msg = "static assertion failed";
      if (a[1] && a[1]->kind == Value::Kind::Str && !a[1]->text.empty()) msg += ": " + a[1]->text;
      fail(at, DiagId::StaticAssertFailed, msg);
    }
    return Value::none();
  }
  if (name == "triton.language.static_range" || name == "triton.language.range" || name == "tle.range")
    fail(at, DiagId::UnsupportedInKernel, member + "() can only be used as the iterable of a 'for' loop");
  if (name == "tle.pipeline_group") {
    auto a = bindArgs(*this, "tle.pipeline_group", {{"group", true}}, args, at);
    requireInt(*a[0], at, "the pipeline group");
    return Value::ofBuiltin("tle.pipeline_group.instance");
  }

  // ---- program geometry and tensor creation ----
  if (member == "program_id" || member == "num_programs") {
    auto a = bindArgs(*this, "tl." + member, {{"axis", false}}, args, at);
    int64_t axis = a[0] ? requireInt(*a[0], at, "the axis") : 0;
    if (axis < 0 || axis > 2) fail(at, DiagId::ConstantError, "the grid axis must be 0, 1 or 2, got " + std::to_string(axis));
    TType t;
    t.dtype = DType::I32;
    mlir::IntegerAttr ax = builder_.getI32IntegerAttr(static_cast<int32_t>(axis));
    mlir::Value r = member == "program_id" ? mlir::Value(builder_.create<tle::ir::ProgramIdOp>(l, builder_.getI32Type(), ax))
                                           : builder_.create<tle::ir::NumProgramsOp>(l, builder_.getI32Type(), ax);
    return Value::ofRuntime(r, t);
  }
  if (member == "arange") {
    auto a = bindArgs(*this, "tl.arange", {{"start", true}, {"end", true}}, args, at);
    int64_t start = requireInt(*a[0], at, "tl.arange's start");
    int64_t end = requireInt(*a[1], at, "tl.arange's end");
    int64_t n = end - start;
    if (end <= start) fail(at, DiagId::ConstantError, "tl.arange needs end > start, got " + std::to_string(start) + " and " + std::to_string(end));
    if ((n & (n - 1)) != 0) fail(at, DiagId::ShapeMismatch, "tl.arange's range must have a power-of-two size, got " + std::to_string(n));
    if (start < INT32_MIN || end > INT32_MAX) fail(at, DiagId::ConstantError, "tl.arange bounds must fit in int32");
    TType t;
    t.dtype = DType::I32;
    t.shape = {n};
    auto op = builder_.create<tle::ir::MakeRangeOp>(l, irType(t), builder_.getI32IntegerAttr(static_cast<int32_t>(start)),
                                                    builder_.getI32IntegerAttr(static_cast<int32_t>(end)));
    return Value::ofRuntime(op.getResult(), t);
  }
  if (member == "zeros" || member == "full") {
    bool full = member == "full";
    auto a = full ? bindArgs(*this, "tl.full", {{"shape", true}, {"value", true}, {"dtype", true}}, args, at)
                  : bindArgs(*this, "tl.zeros", {{"shape", true}, {"dtype", true}}, args, at);
    std::vector<int64_t> shape = shapeArg(*this, *a[0], at);
    DType d = requireDType(*a[full ? 2 : 1], at, "the dtype");
    if (full && a[1]->isRuntime()) {
      Value v = cast(*a[1], d, at);
      if (v.type.isBlock()) fail(at, DiagId::TypeMismatch, "tl.full's value must be a scalar");
      return broadcastTo(v, shape, at);
    }
    double value = 0;
    if (full) {
      if (!a[1]->isNumber()) fail(at, DiagId::TypeMismatch, "tl.full's value must be a number, got " + a[1]->describe());
      value = a[1]->kind == Value::Kind::Float ? a[1]->floatValue : static_cast<double>(a[1]->kind == Value::Kind::Bool ? a[1]->boolValue : a[1]->intValue);
    }
    return splatConstant(value, d, shape, at);
  }
  if (member == "zeros_like") {
    auto a = bindArgs(*this, "tl.zeros_like", {{"input", true}}, args, at);
    if (!a[0]->isRuntime() || a[0]->type.isPointer) fail(at, DiagId::TypeMismatch, "tl.zeros_like needs a block of numbers");
    return splatConstant(0, a[0]->type.dtype, a[0]->type.shape, at);
  }
  if (member == "broadcast_to") {
    auto a = bindArgs(*this, "tl.broadcast_to", {{"input", true}, {"shape", true}}, args, at);
    std::vector<int64_t> shape;
    if (a[1]->kind == Value::Kind::Tuple)
      for (const Value &d : a[1]->elements) shape.push_back(requireInt(d, at, "a shape dimension"));
    Value in = toRuntime(*a[0], at);
    std::vector<int64_t> padded(shape.size() - std::min(shape.size(), in.type.shape.size()), 1);
    padded.insert(padded.end(), in.type.shape.begin(), in.type.shape.end());
    for (size_t i = 0; i < shape.size() && padded.size() == shape.size(); ++i)
      if (padded[i] != shape[i] && padded[i] != 1)
        fail(at, DiagId::ShapeMismatch, "cannot broadcast " + withArticle(in.type.str()) + " to the requested shape");
    if (in.type.shape.size() > shape.size()) fail(at, DiagId::ShapeMismatch, "cannot broadcast " + withArticle(in.type.str()) + " to fewer dimensions");
    return broadcastTo(in, shape, at);
  }
  if (member == "expand_dims") {
    auto a = bindArgs(*this, "tl.expand_dims", {{"input", true}, {"axis", true}}, args, at);
    Value in = toRuntime(*a[0], at);
    int64_t axis = requireInt(*a[1], at, "the axis");
    int64_t rank = static_cast<int64_t>(in.type.shape.size());
    if (axis < 0) axis += rank + 1;
    if (axis < 0 || axis > rank) fail(at, DiagId::ShapeMismatch, "axis out of range for " + withArticle(in.type.str()));
    std::vector<int64_t> shape = in.type.shape;
    shape.insert(shape.begin() + axis, 1);
    if (!in.type.isBlock()) return broadcastTo(in, shape, at);
    TType t = in.type.withShape(shape);
    auto op = builder_.create<tle::ir::ExpandDimsOp>(l, irType(t), in.ir, builder_.getI32IntegerAttr(static_cast<int32_t>(axis)));
    return Value::ofRuntime(op.getResult(), t);
  }
  if (member == "assume") {
    auto a = bindArgs(*this, "tl.assume", {{"cond", true}}, args, at);
    if (!a[0]->isRuntime() && !truthy(*a[0], at)) fail(at, DiagId::StaticAssertFailed, "tl.assume of a condition that is false");
    return Value::none();  // a fact for the optimizer; nothing to emit yet
  }
  if (member == "multiple_of" || member == "max_contiguous" || member == "max_constancy") {
    auto a = bindArgs(*this, "tl." + member, {{"input", true}, {"values", true}}, args, at);
    return *a[0];  // a hint for later passes; it does not change the value
  }
  if (member == "to") {
    auto a = bindArgs(*this, ".to", {{"self", true}, {"dtype", true}, {"fp_downcast_rounding", false}, {"bitcast", false}}, args, at);
    DType d = requireDType(*a[1], at, "the target dtype");
    bool bitcast = a[3] && truthy(*a[3], at);
    return cast(*a[0], d, at, bitcast);
  }

  // ---- scans, joins and splits, more element-wise functions, printing, descriptors ----
  bool tlOrMethod = name.rfind("triton.language.", 0) == 0 || name.rfind("method.", 0) == 0;
  if (tlOrMethod && kScans.count(member)) return scanBuiltin(member, args, at);
  if (tlOrMethod && kSplitJoin.count(member)) return splitJoin(member, args, at);
  if (tlOrMethod && kMathExtras.count(member)) return mathExtra(member, args, at);
  if (tlOrMethod && kDebugging.count(member)) return debugging(name, args, at);
  if ((tlOrMethod && kDescriptors.count(member)) || name == "desc.load" || name == "desc.store")
    return tensorDescriptor(member, args, at);
  if (name == "triton.language.tensor_descriptor" || name == "triton.language.tensor")
    fail(at, DiagId::UnsupportedInKernel, "tl." + member + " is a type: use it with isinstance(), or create values with the tl functions");

  // ---- Triton-distributed ----
  if (name.rfind("dist.", 0) == 0) return tritonDist(member, args, at);

  // ---- distributed ----
  if (name == "tle.make_sharded_tensor") {
    auto a = bindArgs(*this, "tle.make_sharded_tensor", {{"handle", true}, {"sharding", true}, {"shape", false}}, args, at);
    if (a[1]->kind != Value::Kind::Sharding) fail(at, DiagId::TypeMismatch, "sharding= must be a tle.sharding spec, got " + a[1]->describe());
    if (a[2] && a[2]->kind == Value::Kind::Tuple && !a[1]->splits.empty() && a[1]->splits.size() != a[2]->elements.size())
      fail(at, DiagId::ShapeMismatch, "the split rank (" + std::to_string(a[1]->splits.size()) + ") must match the tensor rank (" +
                                          std::to_string(a[2]->elements.size()) + ")");
    return *a[0];  // sharding is metadata on the handle
  }
  if (name.rfind("tle.", 0) == 0 && (member == "device_mesh" || member == "sharding" || member == "shard_id" ||
                                     member == "S" || member == "P"))
    return distributed(name, args, at);
  if (name == "mesh.flatten" || name == "mesh.reshape") return distributed(name, args, at);
  if (name == "tle.remote") return remote(args, at);
  if (name == "tle.pipe" || name.rfind("pipe.", 0) == 0 || name == "buffer.slot") return pipeBuiltin(name, args, at);
  if (name == "tle.raw.language" || name == "tle.hardware_constraint")
    fail(at, DiagId::UnsupportedInKernel, name + " is a decorator of raw functions, not something to call in a kernel");
  if (name == "tle.raw.call_smem") fail(at, DiagId::NotImplemented, "tle.raw.call_smem is not implemented; use tle.call");
  if (name == "tle.distributed_barrier") return distributedBarrier(args, at);

  // ---- TLE-Struct DSA buffers ----
  if (name.rfind("tle.dsa.", 0) == 0 && name.rfind("tle.dsa.space.", 0) != 0) return dsaStruct(member, args, at);

  // ---- TLE-Struct GPU buffers ----
  if (name.rfind("tle.gpu.", 0) == 0 && name.rfind("tle.gpu.storage.", 0) != 0) return gpuStruct(member, args, at);

  // ---- TLE-Lite tiles and scans ----
  if (name == "tle.extract_tile" || name == "tle.insert_tile") return tileOp(name == "tle.extract_tile", args, at);
  if (name == "tle.cumsum") {
    std::vector<SourceRange> where;
    auto a = bindArgs(*this, "tle.cumsum", {{"input", true}, {"axis", false}, {"reverse", false}, {"dtype", false}}, args, at, &where);
    Value x = *a[0];
    if (!x.isRuntime() || !x.type.isBlock() || x.type.isPointer)
      fail(where[0], DiagId::TypeMismatch, "tle.cumsum needs a block of numbers, got " + (x.isRuntime() ? x.type.str() : x.describe()));
    int64_t rank = static_cast<int64_t>(x.type.shape.size());
    int64_t axis = a[1] && a[1]->kind != Value::Kind::None ? requireInt(*a[1], where[1], "the axis") : 0;
    if (axis < -rank || axis >= rank)
      fail(where[1], DiagId::ShapeMismatch, "axis " + std::to_string(axis) + " is out of range for the " + std::to_string(rank) +
                                               "-dimensional " + x.type.str());
    if (axis < 0) axis += rank;
    bool reverse = a[2] && truthy(*a[2], where[2]);
    if (a[3] && a[3]->kind != Value::Kind::None) x = cast(x, requireDType(*a[3], where[3], "dtype"), where[3]);
    else if (isInt(x.type.dtype) && bitWidth(x.type.dtype) < 32) x = cast(x, isUnsigned(x.type.dtype) ? DType::U32 : DType::I32, at);
    std::vector<int64_t> rest = x.type.shape;
    rest.erase(rest.begin() + axis);
    TType totalType = x.type.withShape(rest);
    auto op = builder_.create<tle::ir::ExclusiveCumsumOp>(l, irType(x.type), irType(totalType), x.ir,
                                                          builder_.getI32IntegerAttr(static_cast<int32_t>(axis)),
                                                          builder_.getBoolAttr(reverse));
    return Value::ofTuple({Value::ofRuntime(op.getExclusive(), x.type), Value::ofRuntime(op.getTotal(), totalType)});
  }

  // ---- block pointers ----
  if (member == "make_block_ptr") {
    std::vector<SourceRange> where;
    auto a = bindArgs(*this, "tl.make_block_ptr",
                      {{"base", true}, {"shape", true}, {"strides", true}, {"offsets", true}, {"block_shape", true},
                       {"order", true}},
                      args, at, &where);
    Value base = *a[0];
    if (!base.isRuntime() || !base.type.isPointer || base.type.isBlock())
      fail(where[0], DiagId::TypeMismatch, "tl.make_block_ptr's base must be a scalar pointer, got " +
                                               (base.isRuntime() ? base.type.str() : base.describe()));
    auto tupleOf = [&](size_t i, const char *what) {
      if (a[i]->kind != Value::Kind::Tuple) fail(where[i], DiagId::TypeMismatch, std::string(what) + " must be a tuple");
      return a[i]->elements;
    };
    std::vector<Value> shape = tupleOf(1, "shape"), strides = tupleOf(2, "strides"), offsets = tupleOf(3, "offsets");
    std::vector<int64_t> blockShape = shapeArg(*this, *a[4], where[4]);
    std::vector<Value> order = tupleOf(5, "order");
    size_t rank = blockShape.size();
    if (shape.size() != rank || strides.size() != rank || offsets.size() != rank || order.size() != rank)
      fail(at, DiagId::ShapeMismatch, "shape, strides, offsets, block_shape and order must all have " +
                                          std::to_string(rank) + " entries");
    auto asInt = [&](const Value &v, DType d, SourceRange r) {
      TType like;
      like.dtype = d;
      Value x = v.isRuntime() ? v : toRuntime(v, r, &like);
      if (x.type.isBlock() || x.type.isPointer || !isInt(x.type.dtype))
        fail(r, DiagId::TypeMismatch, "block pointer shapes, strides and offsets must be integer scalars");
      return x.type.dtype == d ? x.ir : cast(x, d, r).ir;
    };
    std::vector<mlir::Value> shapeIr, strideIr, offsetIr;
    for (const Value &v : shape) shapeIr.push_back(asInt(v, DType::I64, where[1]));
    for (const Value &v : strides) strideIr.push_back(asInt(v, DType::I64, where[2]));
    for (const Value &v : offsets) offsetIr.push_back(asInt(v, DType::I32, where[3]));
    std::vector<int32_t> orderValues;
    for (const Value &v : order) orderValues.push_back(static_cast<int32_t>(requireInt(v, where[5], "an order entry")));
    TType t;
    t.dtype = base.type.dtype;
    t.isBlockPtr = true;
    t.blockShape = blockShape;
    auto op = builder_.create<tle::ir::MakeBlockPtrOp>(l, irType(t), base.ir, shapeIr, strideIr, offsetIr,
                                                       builder_.getDenseI32ArrayAttr(orderValues));
    return Value::ofRuntime(op.getResult(), t);
  }
  if (member == "advance") {
    auto a = bindArgs(*this, "tl.advance", {{"base", true}, {"offsets", true}}, args, at);
    const Value &ptr = *a[0];
    if (!ptr.isRuntime() || !ptr.type.isBlockPtr)
      fail(at, DiagId::TypeMismatch, "tl.advance needs a block pointer, got " + (ptr.isRuntime() ? ptr.type.str() : ptr.describe()));
    if (a[1]->kind != Value::Kind::Tuple || a[1]->elements.size() != ptr.type.blockShape.size())
      fail(at, DiagId::ShapeMismatch, "tl.advance needs one offset per dimension of the " + ptr.type.str());
    std::vector<mlir::Value> offs;
    TType i32;
    i32.dtype = DType::I32;
    for (const Value &v : a[1]->elements) {
      Value x = v.isRuntime() ? v : toRuntime(v, at, &i32);
      if (x.type.isBlock() || !isInt(x.type.dtype)) fail(at, DiagId::TypeMismatch, "tl.advance offsets must be integer scalars");
      offs.push_back(x.type.dtype == DType::I32 ? x.ir : cast(x, DType::I32, at).ir);
    }
    auto op = builder_.create<tle::ir::AdvanceOp>(l, ptr.ir.getType(), ptr.ir, offs);
    return Value::ofRuntime(op.getResult(), ptr.type);
  }

  // ---- memory ----
  if (name == "triton.language.load" || name == "tle.load") {
    std::vector<ParamSpec> ps = {{"pointer", true},        {"mask", false},           {"other", false},
                                 {"boundary_check", false}, {"padding_option", false}, {"cache_modifier", false},
                                 {"eviction_policy", false}, {"volatile", false}};
    if (name == "tle.load") ps.push_back({"is_async", false});
    std::vector<SourceRange> where;
    auto a = bindArgs(*this, name == "tle.load" ? "tle.load" : "tl.load", ps, args, at, &where);
    Value ptr = *a[0];
    if (ptr.isRuntime() && ptr.type.isBlockPtr) {
      if ((a[1] && a[1]->kind != Value::Kind::None) || (a[2] && a[2]->kind != Value::Kind::None))
        fail(at, DiagId::TypeMismatch, "mask and other are not used with block pointers; use boundary_check and padding_option");
      std::vector<int32_t> check = boundaryCheck(a[3], ptr, where[3]);
      mlir::StringAttr padding;
      if (a[4] && a[4]->kind == Value::Kind::Str && !a[4]->text.empty()) {
        if (a[4]->text != "zero" && a[4]->text != "nan")
          fail(where[4], DiagId::ConstantError, "padding_option must be 'zero' or 'nan', got '" + a[4]->text + "'");
        padding = builder_.getStringAttr(a[4]->text);
      }
      TType result;
      result.dtype = ptr.type.dtype;
      result.shape = ptr.type.blockShape;
      auto op = builder_.create<tle::ir::LoadBlockOp>(l, irType(result), ptr.ir, builder_.getDenseI32ArrayAttr(check),
                                                      padding, mlir::StringAttr(), mlir::StringAttr(), false);
      return Value::ofRuntime(op.getResult(), result);
    }
    if (!ptr.isRuntime() || !ptr.type.isPointer)
      fail(where[0], DiagId::TypeMismatch, "tl.load needs a pointer or a block of pointers, got " +
                                               (ptr.isRuntime() ? ptr.type.str() : ptr.describe()));
    if (a[3] && !(a[3]->kind == Value::Kind::Tuple && a[3]->elements.empty()))
      fail(where[3], DiagId::TypeMismatch, "boundary_check applies only to block pointers");
    std::optional<Value> mask;
    if (a[1] && a[1]->kind != Value::Kind::None) {
      mask = *a[1];
      if (!mask->isRuntime()) mask = toRuntime(*mask, where[1]);
      if (mask->type.dtype != DType::I1) mask = cast(*mask, DType::I1, where[1]);
      if (mask->type.shape != ptr.type.shape) {
        std::vector<int64_t> shape = ptr.type.isBlock() ? ptr.type.shape : mask->type.shape;
        ptr = broadcastTo(ptr, shape, where[0]);
        if (mask->type.shape != shape) {
          if (mask->type.shape.size() > shape.size())
            fail(where[1], DiagId::ShapeMismatch, "the mask's shape does not fit the pointer block " + ptr.type.str());
          mask = broadcastTo(*mask, shape, where[1]);
        }
      }
    }
    TType result = ptr.type.withDType(ptr.type.dtype);
    std::optional<Value> other;
    if (a[2] && a[2]->kind != Value::Kind::None && mask) {
      other = a[2]->isRuntime() ? cast(*a[2], result.dtype, where[2]) : toRuntime(*a[2], where[2], &result);
      other = broadcastTo(*other, result.shape, where[2]);
    }
    auto strAttr = [&](size_t i, const char *what) -> mlir::StringAttr {
      if (!a[i] || a[i]->kind == Value::Kind::None) return {};
      if (a[i]->kind != Value::Kind::Str) fail(where[i], DiagId::TypeMismatch, std::string(what) + " must be a string");
      if (a[i]->text.empty()) return {};
      return builder_.getStringAttr(a[i]->text);
    };
    mlir::StringAttr cache = strAttr(5, "cache_modifier");
    mlir::StringAttr eviction = strAttr(6, "eviction_policy");
    if (cache && !(cache.getValue() == ".ca" || cache.getValue() == ".cg" || cache.getValue() == ".cv"))
      fail(where[5], DiagId::ConstantError, "cache_modifier for a load must be '.ca', '.cg' or '.cv', got '" + cache.getValue().str() + "'");
    if (eviction && !(eviction.getValue() == "evict_first" || eviction.getValue() == "evict_last" || eviction.getValue() == "evict_normal"))
      fail(where[6], DiagId::ConstantError, "eviction_policy must be 'evict_first', 'evict_last' or 'evict_normal'");
    bool isVolatile = a[7] && truthy(*a[7], where[7]);
    bool isAsync = name == "tle.load" && a[8] && truthy(*a[8], where[8]);
    auto op = builder_.create<tle::ir::LoadOp>(l, irType(result), ptr.ir, mask ? mask->ir : mlir::Value(),
                                               other ? other->ir : mlir::Value(), cache, eviction, isVolatile, isAsync);
    return Value::ofRuntime(op.getResult(), result);
  }
  if (member == "store") {
    std::vector<SourceRange> where;
    auto a = bindArgs(*this, "tl.store",
                      {{"pointer", true}, {"value", true}, {"mask", false}, {"boundary_check", false},
                       {"cache_modifier", false}, {"eviction_policy", false}},
                      args, at, &where);
    Value ptr = *a[0];
    if (ptr.isRuntime() && ptr.type.isBlockPtr) {
      if (a[2] && a[2]->kind != Value::Kind::None)
        fail(where[2], DiagId::TypeMismatch, "a mask is not used with block pointers; use boundary_check");
      std::vector<int32_t> check = boundaryCheck(a[3], ptr, where[3]);
      TType elem;
      elem.dtype = ptr.type.dtype;
      Value value = a[1]->isRuntime() ? cast(*a[1], elem.dtype, where[1]) : toRuntime(*a[1], where[1], &elem);
      if (value.type.shape.size() > ptr.type.blockShape.size())
        fail(where[1], DiagId::ShapeMismatch, "cannot store " + withArticle(value.type.str()) + " through " + withArticle(ptr.type.str()));
      value = broadcastTo(value, ptr.type.blockShape, where[1]);
      builder_.create<tle::ir::StoreBlockOp>(l, ptr.ir, value.ir, builder_.getDenseI32ArrayAttr(check), mlir::StringAttr(),
                                             mlir::StringAttr());
      return Value::none();
    }
    if (!ptr.isRuntime() || !ptr.type.isPointer)
      fail(where[0], DiagId::TypeMismatch, "tl.store needs a pointer or a block of pointers, got " +
                                               (ptr.isRuntime() ? ptr.type.str() : ptr.describe()));
    Value value = *a[1];
    if (value.isRuntime() && value.type.isBlock() && !ptr.type.isBlock()) ptr = broadcastTo(ptr, value.type.shape, where[0]);
    if (value.isRuntime() && value.type.shape.size() > ptr.type.shape.size())
      fail(where[1], DiagId::ShapeMismatch, "cannot store " + withArticle(value.type.str()) + " through " + withArticle(ptr.type.str()));
    TType elem = ptr.type.withDType(ptr.type.dtype);
    value = value.isRuntime() ? cast(value, elem.dtype, where[1]) : toRuntime(value, where[1], &elem);
    value = broadcastTo(value, ptr.type.shape, where[1]);
    std::optional<Value> mask = maskArg(a[2], ptr.type.shape, where[2]);
    auto strAttr = [&](size_t i, std::initializer_list<const char *> allowed, const char *what) -> mlir::StringAttr {
      if (!a[i] || a[i]->kind == Value::Kind::None) return {};
      if (a[i]->kind != Value::Kind::Str) fail(where[i], DiagId::TypeMismatch, std::string(what) + " must be a string");
      if (a[i]->text.empty()) return {};
      for (const char *ok : allowed)
        if (a[i]->text == ok) return builder_.getStringAttr(a[i]->text);
      std::string list;
      for (const char *ok : allowed) list += (list.empty() ? "'" : ", '") + std::string(ok) + "'";
      fail(where[i], DiagId::ConstantError, std::string(what) + " for a store must be one of " + list + ", got '" + a[i]->text + "'");
    };
    builder_.create<tle::ir::StoreOp>(l, ptr.ir, value.ir, mask ? mask->ir : mlir::Value(),
                                      strAttr(4, {".wb", ".cg", ".cs", ".wt"}, "cache_modifier"),
                                      strAttr(5, {"evict_first", "evict_last", "evict_normal"}, "eviction_policy"));
    return Value::none();
  }

  // ---- element-wise ----
  if (member == "where") {
    auto a = bindArgs(*this, "tl.where", {{"condition", true}, {"x", true}, {"y", true}}, args, at);
    Value c = toRuntime(*a[0], at);
    if (c.type.dtype != DType::I1) c = cast(c, DType::I1, at);
    const Value &x = *a[1], &y = *a[2];
    if ((x.isRuntime() && x.type.isPointer) || (y.isRuntime() && y.type.isPointer))
      fail(at, DiagId::NotImplemented, "tl.where on pointers is not implemented yet");
    // x and y are promoted as for arithmetic; all three broadcast together.
    Common xy = commonType(x, y, at, at, at, false);
    Common all = commonType(c, Value::ofRuntime(mlir::Value(), TType::tensor(xy.dtype, xy.shape)), at, at, at, false);
    xy.shape = all.shape;
    c = broadcastTo(c, all.shape, at);
    Value xv = coerce(x, xy, at);
    Value yv = coerce(y, xy, at);
    auto op = builder_.create<mlir::arith::SelectOp>(l, c.ir, xv.ir, yv.ir);
    return Value::ofRuntime(op.getResult(), xv.type);
  }
  if (member == "maximum" || member == "minimum") {
    auto a = bindArgs(*this, "tl." + member, {{"x", true}, {"y", true}, {"propagate_nan", false}}, args, at);
    Value x = *a[0], y = *a[1];
    Common common = commonType(x, y, at, at, at, false);
    DType d = common.dtype;
    Value xv = coerce(x, common, at);
    Value yv = coerce(y, common, at);
    bool isMax = member == "maximum";
    bool propagateAll = a[2] && a[2]->kind == Value::Kind::Int && a[2]->intValue != 0;
    mlir::Value r;
    if (isFloat(d)) {
      if (propagateAll) r = isMax ? mlir::Value(builder_.create<mlir::arith::MaximumFOp>(l, xv.ir, yv.ir)) : builder_.create<mlir::arith::MinimumFOp>(l, xv.ir, yv.ir);
      else r = isMax ? mlir::Value(builder_.create<mlir::arith::MaxNumFOp>(l, xv.ir, yv.ir)) : builder_.create<mlir::arith::MinNumFOp>(l, xv.ir, yv.ir);
    } else if (isUnsigned(d) || d == DType::I1) {
      r = isMax ? mlir::Value(builder_.create<mlir::arith::MaxUIOp>(l, xv.ir, yv.ir)) : builder_.create<mlir::arith::MinUIOp>(l, xv.ir, yv.ir);
    } else {
      r = isMax ? mlir::Value(builder_.create<mlir::arith::MaxSIOp>(l, xv.ir, yv.ir)) : builder_.create<mlir::arith::MinSIOp>(l, xv.ir, yv.ir);
    }
    return Value::ofRuntime(r, xv.type);
  }
  if (kMathUnary.count(member)) {
    auto a = bindArgs(*this, "tl." + member, {{"x", true}}, args, at);
    Value x = toRuntime(*a[0], at);
    if (x.type.isPointer) fail(at, DiagId::TypeMismatch, "tl." + member + " is not defined on pointers");
    DType d = x.type.dtype;
    if (member == "abs" && !isFloat(d)) {
      if (isUnsigned(d) || d == DType::I1) return x;
      return Value::ofRuntime(builder_.create<mlir::math::AbsIOp>(l, x.ir), x.type);
    }
    if (!isFloat(d))
      fail(at, DiagId::TypeMismatch, "tl." + member + " needs a floating-point argument, got " + std::string(dtypeName(d)));
    mlir::Value r;
    if (member == "exp") r = builder_.create<mlir::math::ExpOp>(l, x.ir);
    else if (member == "exp2") r = builder_.create<mlir::math::Exp2Op>(l, x.ir);
    else if (member == "log") r = builder_.create<mlir::math::LogOp>(l, x.ir);
    else if (member == "log2") r = builder_.create<mlir::math::Log2Op>(l, x.ir);
    else if (member == "sqrt") r = builder_.create<mlir::math::SqrtOp>(l, x.ir);
    else if (member == "rsqrt") r = builder_.create<mlir::math::RsqrtOp>(l, x.ir);
    else if (member == "sin") r = builder_.create<mlir::math::SinOp>(l, x.ir);
    else if (member == "cos") r = builder_.create<mlir::math::CosOp>(l, x.ir);
    else if (member == "abs") r = builder_.create<mlir::math::AbsFOp>(l, x.ir);
    else if (member == "floor") r = builder_.create<mlir::math::FloorOp>(l, x.ir);
    else if (member == "ceil") r = builder_.create<mlir::math::CeilOp>(l, x.ir);
    else r = builder_.create<mlir::math::ErfOp>(l, x.ir);
    return Value::ofRuntime(r, x.type);
  }
  if (member == "fma") {
    auto a = bindArgs(*this, "tl.fma", {{"x", true}, {"y", true}, {"z", true}}, args, at);
    Common common = commonType(*a[0], *a[1], at, at, at, false);
    TType ab = TType::tensor(common.dtype, common.shape);
    common = commonType(Value::ofRuntime(mlir::Value(), ab), *a[2], at, at, at, false);
    if (!isFloat(common.dtype)) {
      Value xy = binary(ast::BinaryOp::Mul, *a[0], *a[1], at, at, at);
      return binary(ast::BinaryOp::Add, xy, *a[2], at, at, at);
    }
    Value x = coerce(*a[0], common, at), y = coerce(*a[1], common, at), z = coerce(*a[2], common, at);
    TType sumType = x.type;
    return Value::ofRuntime(builder_.create<mlir::math::FmaOp>(l, x.ir, y.ir, z.ir), sumType);
  }
  // ---- reductions ----
  if (kReductions.count(member)) return reduction(member, args, at);
  // ---- shapes ----
  if (member == "trans" || member == "permute") {
    std::vector<SourceRange> where;
    Value x = args.positional.empty() ? Value::none() : args.positional[0];
    if (!x.isRuntime() || !x.type.isBlock()) fail(at, DiagId::TypeMismatch, "tl." + member + " needs a block");
    std::vector<int64_t> dims;
    std::vector<Value> rest(args.positional.begin() + 1, args.positional.end());
    for (auto &[k, v] : args.keywords)
      if (k == "dims") rest.push_back(v);
      else fail(at, DiagId::ArgumentMismatch, "tl." + member + " has no parameter '" + k + "'");
    if (rest.size() == 1 && rest[0].kind == Value::Kind::Tuple) rest = rest[0].elements;
    for (const Value &d : rest) dims.push_back(requireInt(d, at, "a dimension"));
    int64_t rank = static_cast<int64_t>(x.type.shape.size());
    if (dims.empty()) {
      if (rank != 2 && member == "trans") fail(at, DiagId::ShapeMismatch, "tl.trans without dims needs a 2-D block, got " + withArticle(x.type.str()));
      for (int64_t i = rank - 1; i >= 0; --i) dims.push_back(i);
    }
    if (static_cast<int64_t>(dims.size()) != rank) fail(at, DiagId::ShapeMismatch, "dims must list every dimension of the " + x.type.str());
    std::vector<int64_t> shape;
    std::vector<int32_t> order;
    std::vector<bool> seen(static_cast<size_t>(rank), false);
    for (int64_t d : dims) {
      if (d < 0 || d >= rank || seen[static_cast<size_t>(d)]) fail(at, DiagId::ShapeMismatch, "dims must be a permutation of 0.." + std::to_string(rank - 1));
      seen[static_cast<size_t>(d)] = true;
      shape.push_back(x.type.shape[static_cast<size_t>(d)]);
      order.push_back(static_cast<int32_t>(d));
    }
    TType t = x.type.withShape(shape);
    auto op = builder_.create<tle::ir::TransOp>(l, irType(t), x.ir, builder_.getDenseI32ArrayAttr(order));
    return Value::ofRuntime(op.getResult(), t);
  }
  if (member == "reshape" || member == "view") {
    Value x = args.positional.empty() ? Value::none() : args.positional[0];
    std::vector<Value> rest(args.positional.begin() + (args.positional.empty() ? 0 : 1), args.positional.end());
    for (auto &[k, v] : args.keywords)
      if (k == "shape") rest.push_back(v);
      else if (k != "can_reorder") fail(at, DiagId::ArgumentMismatch, "tl." + member + " has no parameter '" + k + "'");
    if (rest.size() == 1 && rest[0].kind == Value::Kind::Tuple) rest = rest[0].elements;
    std::vector<int64_t> shape;
    for (const Value &d : rest) shape.push_back(requireInt(d, at, "a shape dimension"));
    return reshape(x, shape, at);
  }
  // ---- dot ----
  if (member == "dot") {
    std::vector<SourceRange> where;
    auto a = bindArgs(*this, "tl.dot",
                      {{"input", true}, {"other", true}, {"acc", false}, {"input_precision", false}, {"allow_tf32", false},
                       {"max_num_imprecise_acc", false}, {"out_dtype", false}},
                      args, at, &where);
    Value x = *a[0], y = *a[1];
    for (size_t i : {0u, 1u}) {
      const Value &v = *a[i];
      if (!v.isRuntime() || v.type.isPointer || v.type.shape.size() < 2 || v.type.shape.size() > 3)
        fail(where[i], DiagId::ShapeMismatch, "tl.dot needs 2-D (or batched 3-D) blocks of numbers, got " +
                                                  (v.isRuntime() ? v.type.str() : v.describe()));
    }
    size_t r = x.type.shape.size();
    if (y.type.shape.size() != r) fail(at, DiagId::ShapeMismatch, "tl.dot operands must have one rank: " + x.type.str() + " and " + y.type.str());
    int64_t m = x.type.shape[r - 2], k = x.type.shape[r - 1], k2 = y.type.shape[r - 2], n = y.type.shape[r - 1];
    if (k != k2) {
      diags_.report(DiagId::ShapeMismatch, at, "tl.dot: the inner dimensions differ (" + std::to_string(k) + " and " + std::to_string(k2) + ")")
          .note(where[0], "first operand is " + withArticle(x.type.str()))
          .note(where[1], "second operand is " + withArticle(y.type.str()));
      throw LoweringFailed{};
    }
    if (m < 16 || n < 16 || k < 16)
      fail(at, DiagId::ShapeMismatch, "tl.dot needs every dimension to be at least 16, got M=" + std::to_string(m) +
                                          ", N=" + std::to_string(n) + ", K=" + std::to_string(k));
    DType in = x.type.dtype;
    if (x.type.dtype != y.type.dtype) {
      bool bothFp8 = isFp8(x.type.dtype) && isFp8(y.type.dtype);
      if (!bothFp8)
        fail(at, DiagId::TypeMismatch, std::string("tl.dot operands must have one dtype, got ") + dtypeName(x.type.dtype) +
                                           " and " + dtypeName(y.type.dtype));
    }
    if (in == DType::I1 || (isInt(in) && in != DType::I8 && in != DType::U8))
      fail(at, DiagId::TypeMismatch, std::string("tl.dot supports int8, fp8, fp16, bf16, fp32 and fp64 inputs, got ") + dtypeName(in));
    DType out = isInt(in) ? DType::I32 : in == DType::FP64 ? DType::FP64 : DType::FP32;
    if (a[6] && a[6]->kind != Value::Kind::None) out = requireDType(*a[6], where[6], "out_dtype");
    std::vector<int64_t> shape = x.type.shape;
    shape[r - 1] = n;
    Value acc;
    if (a[2] && a[2]->kind != Value::Kind::None) {
      acc = *a[2];
      if (!acc.isRuntime() || acc.type.shape != shape)
        fail(where[2], DiagId::ShapeMismatch, "tl.dot's accumulator must be a " + TType::tensor(out, shape).str() +
                                                  ", got " + (acc.isRuntime() ? acc.type.str() : acc.describe()));
    } else {
      acc = splatConstant(0, out, shape, at);
    }
    std::string precision = in == DType::FP32 ? "tf32" : "ieee";
    if (a[4] && a[4]->kind == Value::Kind::Bool && !a[4]->boolValue) precision = "ieee";
    if (a[3] && a[3]->kind == Value::Kind::Str) {
      precision = a[3]->text;
      if (precision != "tf32" && precision != "tf32x3" && precision != "ieee")
        fail(where[3], DiagId::ConstantError, "input_precision must be 'tf32', 'tf32x3' or 'ieee', got '" + precision + "'");
    }
    if (in != DType::FP32) precision = "ieee";
    auto op = builder_.create<tle::ir::DotOp>(l, acc.ir.getType(), x.ir, y.ir, acc.ir, builder_.getStringAttr(precision));
    return Value::ofRuntime(op.getResult(), acc.type);
  }
  // ---- atomics and barriers ----
  if (kAtomics.count(member)) {
    bool cas = member == "atomic_cas";
    std::vector<SourceRange> where;
    auto a = cas ? bindArgs(*this, "tl.atomic_cas", {{"pointer", true}, {"cmp", true}, {"val", true}, {"sem", false}, {"scope", false}}, args, at, &where)
                 : bindArgs(*this, "tl." + member, {{"pointer", true}, {"val", true}, {"mask", false}, {"sem", false}, {"scope", false}}, args, at, &where);
    Value ptr = *a[0];
    if (!ptr.isRuntime() || !ptr.type.isPointer)
      fail(where[0], DiagId::TypeMismatch, "tl." + member + " needs a pointer or a block of pointers");
    auto strOr = [&](size_t i, const char *dflt, std::initializer_list<const char *> allowed) {
      if (!a[i] || a[i]->kind == Value::Kind::None) return std::string(dflt);
      if (a[i]->kind != Value::Kind::Str) fail(where[i], DiagId::TypeMismatch, "expected a string");
      for (const char *ok : allowed)
        if (a[i]->text == ok) return a[i]->text;
      fail(where[i], DiagId::ConstantError, "unknown value '" + a[i]->text + "'");
    };
    size_t semIdx = 3, scopeIdx = 4;
    std::string sem = strOr(semIdx, "acq_rel", {"relaxed", "acquire", "release", "acq_rel"});
    std::string scope = strOr(scopeIdx, "gpu", {"gpu", "cta", "sys"});
    TType elem = ptr.type.withDType(ptr.type.dtype);
    auto operand = [&](size_t i) {
      Value v = a[i]->isRuntime() ? cast(*a[i], elem.dtype, where[i]) : toRuntime(*a[i], where[i], &elem);
      if (v.type.shape.size() > ptr.type.shape.size()) ptr = broadcastTo(ptr, v.type.shape, where[0]);
      return v;
    };
    if (cas) {
      Value c = operand(1), v = operand(2);
      c = broadcastTo(c, ptr.type.shape, where[1]);
      v = broadcastTo(v, ptr.type.shape, where[2]);
      TType rt = ptr.type.withDType(elem.dtype);
      auto op = builder_.create<tle::ir::AtomicCASOp>(l, irType(rt), ptr.ir, c.ir, v.ir, builder_.getStringAttr(sem), builder_.getStringAttr(scope));
      return Value::ofRuntime(op.getResult(), rt);
    }
    Value v = operand(1);
    v = broadcastTo(v, ptr.type.shape, where[1]);
    std::optional<Value> mask = maskArg(a[2], ptr.type.shape, where[2]);
    std::string kind = member.substr(7);
    DType d = elem.dtype;
    if ((kind == "and" || kind == "or" || kind == "xor") && !isInt(d))
      fail(at, DiagId::TypeMismatch, "tl." + member + " needs integer values, got " + std::string(dtypeName(d)));
    if (kind == "add" && isFloat(d)) kind = "fadd";
    if ((kind == "max" || kind == "min") && isUnsigned(d)) kind = "u" + kind;
    if ((kind == "max" || kind == "min") && isFloat(d) && d != DType::FP32 && d != DType::FP64)
      fail(at, DiagId::TypeMismatch, "tl." + member + " supports fp32 and fp64 floats, got " + std::string(dtypeName(d)));
    TType rt = ptr.type.withDType(d);
    auto op = builder_.create<tle::ir::AtomicRMWOp>(l, irType(rt), builder_.getStringAttr(kind), ptr.ir, v.ir,
                                                    mask ? mask->ir : mlir::Value(), builder_.getStringAttr(sem),
                                                    builder_.getStringAttr(scope));
    return Value::ofRuntime(op.getResult(), rt);
  }
  if (member == "debug_barrier") {
    bindArgs(*this, "tl.debug_barrier", {}, args, at);
    if (insideWarpPartition_)
      fail(at, DiagId::UnsupportedInKernel, "tl.debug_barrier synchronizes every thread of the block, but a warp-specialized worker "
                                            "partition runs on part of them: it would never complete");
    builder_.create<tle::ir::BarrierOp>(l);
    return Value::none();
  }
  fail(at, DiagId::NotImplemented, name + " is not implemented yet in tlec's lowering");
}

// tl.sum / max / min / argmax / argmin / xor_sum / reduce.
Value FunctionLowering::reduction(const std::string &member, CallArgs &args, SourceRange at) {
  using Combine = FunctionLowering::Combine;
  std::vector<SourceRange> where;
  auto axisOf = [&](const std::optional<Value> &v) -> std::optional<int64_t> {
    if (!v || v->kind == Value::Kind::None) return std::nullopt;
    return requireInt(*v, at, "the reduction axis");
  };
  if (member == "reduce") {
    auto a = bindArgs(*this, "tl.reduce", {{"input", true}, {"axis", true}, {"combine_fn", true}, {"keep_dims", false}}, args, at, &where);
    std::vector<Value> inputs = a[0]->kind == Value::Kind::Tuple ? a[0]->elements : std::vector<Value>{*a[0]};
    const Value &fn = *a[2];
    Combine combine = [&](const std::vector<Value> &acc, const std::vector<Value> &next) {
      return callCombine(fn, acc, next, where[2]);
    };
    bool keep = a[3] && truthy(*a[3], at);
    std::vector<Value> r = reduce(inputs, axisOf(a[1]), keep, combine, at);
    return r.size() == 1 ? r[0] : Value::ofTuple(r);
  }
  bool isMaxLike = member == "max" || member == "argmax";
  bool arg = member == "argmax" || member == "argmin";
  auto a = member == "max" || member == "min"
               ? bindArgs(*this, "tl." + member, {{"input", true}, {"axis", false}, {"return_indices", false},
                                                 {"return_indices_tie_break_left", false}, {"keep_dims", false}}, args, at, &where)
           : arg ? bindArgs(*this, "tl." + member, {{"input", true}, {"axis", true}, {"tie_break_left", false}, {"keep_dims", false}}, args, at, &where)
                 : bindArgs(*this, "tl." + member, {{"input", true}, {"axis", false}, {"keep_dims", false}, {"dtype", false}}, args, at, &where);
  Value input = *a[0];
  if (!input.isRuntime() || !input.type.isBlock() || input.type.isPointer)
    fail(where[0], DiagId::TypeMismatch, "tl." + member + " needs a block of numbers, got " + (input.isRuntime() ? input.type.str() : input.describe()));
  std::optional<int64_t> axis = axisOf(a[1]);
  size_t keepIdx = member == "sum" || member == "xor_sum" ? 2 : 4;
  if (arg) keepIdx = 3;
  bool keep = a[keepIdx] && truthy(*a[keepIdx], at);
  bool returnIndices = (member == "max" || member == "min") && a[2] && truthy(*a[2], at);
  if (member == "sum" || member == "xor_sum") {
    DType d = input.type.dtype;
    if (member == "xor_sum" && !isInt(d)) fail(at, DiagId::TypeMismatch, "tl.xor_sum needs integers, got " + std::string(dtypeName(d)));
    if (a[3] && a[3]->kind != Value::Kind::None) d = requireDType(*a[3], where[3], "dtype");
    else if (isInt(d) && bitWidth(d) < 32) d = isUnsigned(d) ? DType::U32 : DType::I32;  // Triton's overflow guard
    if (d != input.type.dtype) input = cast(input, d, at);
    ast::BinaryOp op = member == "sum" ? ast::BinaryOp::Add : ast::BinaryOp::BitXor;
    Combine combine = [&](const std::vector<Value> &x, const std::vector<Value> &y) {
      return std::vector<Value>{binary(op, x[0], y[0], at, at, at)};
    };
    return reduce({input}, axis, keep, combine, at)[0];
  }
  if (!arg && !returnIndices) {
    Combine combine = [&](const std::vector<Value> &x, const std::vector<Value> &y) {
      return std::vector<Value>{minMax(isMaxLike, x[0], y[0], false, at)};
    };
    return reduce({input}, axis, keep, combine, at)[0];
  }
  // Values with their indices; ties go to the smaller index, as in Triton.
  if (!axis && input.type.shape.size() != 1)
    fail(at, DiagId::NotImplemented, "index-returning reductions over all axes of a multi-dimensional block are not implemented yet");
  int64_t ax = axis ? (*axis < 0 ? *axis + static_cast<int64_t>(input.type.shape.size()) : *axis) : 0;
  if (ax < 0 || ax >= static_cast<int64_t>(input.type.shape.size()))
    fail(at, DiagId::ShapeMismatch, "axis out of range for " + withArticle(input.type.str()));
  int64_t n = input.type.shape[static_cast<size_t>(ax)];
  TType rangeType;
  rangeType.dtype = DType::I32;
  rangeType.shape = {n};
  Value idx = Value::ofRuntime(builder_.create<tle::ir::MakeRangeOp>(loc(at), irType(rangeType), builder_.getI32IntegerAttr(0),
                                                                    builder_.getI32IntegerAttr(static_cast<int32_t>(n))).getResult(),
                               rangeType);
  std::vector<int64_t> viewShape(input.type.shape.size(), 1);
  viewShape[static_cast<size_t>(ax)] = n;
  idx = broadcastTo(reshape(idx, viewShape, at), input.type.shape, at);
  Combine combine = [&](const std::vector<Value> &x, const std::vector<Value> &y) {
    Value better = compare(isMaxLike ? ast::CmpOp::Gt : ast::CmpOp::Lt, x[0], y[0], at, at, at);
    Value equal = compare(ast::CmpOp::Eq, x[0], y[0], at, at, at);
    Value smaller = compare(ast::CmpOp::Lt, x[1], y[1], at, at, at);
    Value keepLeft = binary(ast::BinaryOp::BitOr, better, binary(ast::BinaryOp::BitAnd, equal, smaller, at, at, at), at, at, at);
    mlir::Location l = loc(at);
    Value v = Value::ofRuntime(builder_.create<mlir::arith::SelectOp>(l, keepLeft.ir, x[0].ir, y[0].ir).getResult(), x[0].type);
    Value i = Value::ofRuntime(builder_.create<mlir::arith::SelectOp>(l, keepLeft.ir, x[1].ir, y[1].ir).getResult(), x[1].type);
    return std::vector<Value>{v, i};
  };
  std::vector<Value> r = reduce({input, idx}, ax, keep, combine, at);
  if (arg) return r[1];
  return Value::ofTuple(r);
}

}  // namespace tle::sema
