// Global memory: tl.load (and tle.load, which may be asynchronous), tl.store, the atomics,
// block pointers (tl.make_block_ptr, tl.advance) and tl.debug_barrier.
#include "sema/builtins/Registry.h"

#include "ir/Dialect.h"

#include <algorithm>

namespace tle::sema {

namespace {

std::vector<int32_t> boundaryCheck(LoweringContext &cx, const std::optional<Value> &v, const Value &ptr, SourceRange at) {
  std::vector<int32_t> dims;
  if (!v || v->kind == Value::Kind::None) return dims;
  std::vector<Value> items = v->kind == Value::Kind::Tuple ? v->elements : std::vector<Value>{*v};
  for (const Value &d : items) {
    int64_t i = cx.requireInt(d, at, "a boundary_check dimension");
    if (i < 0 || i >= static_cast<int64_t>(ptr.type.blockShape.size()))
      cx.fail(at, DiagId::ShapeMismatch, "boundary_check dimension " + std::to_string(i) + " is out of range for " + withArticle(ptr.type.str()));
    dims.push_back(static_cast<int32_t>(i));
  }
  return dims;
}

// A mask argument as i1, broadcast to `shape`; nullopt for None or absent.
std::optional<Value> maskArg(LoweringContext &cx, const std::optional<Value> &mask, const std::vector<int64_t> &shape, SourceRange at) {
  if (!mask || mask->kind == Value::Kind::None) return std::nullopt;
  Value m = mask->isRuntime() ? *mask : cx.toRuntime(*mask, at);
  if (m.type.dtype != DType::I1) m = cx.cast(m, DType::I1, at);
  return cx.broadcastTo(m, shape, at);
}

using Args = std::vector<std::optional<Value>>;

// A cache_modifier or eviction_policy argument (argument `i`) of a load or store (`access`):
// null when absent or empty, else one of `allowed`.
mlir::StringAttr hintArg(LoweringContext &cx, const Args &a, const std::vector<SourceRange> &where, size_t i,
                         std::initializer_list<const char *> allowed, const char *what, const char *access) {
  if (!a[i] || a[i]->kind == Value::Kind::None) return {};
  if (a[i]->kind != Value::Kind::Str) cx.fail(where[i], DiagId::TypeMismatch, std::string(what) + " must be a string");
  if (a[i]->text.empty()) return {};
  for (const char *ok : allowed)
    if (a[i]->text == ok) return cx.builder().getStringAttr(a[i]->text);
  std::string list;
  for (const char *ok : allowed) list += (list.empty() ? "'" : ", '") + std::string(ok) + "'";
  cx.fail(where[i], DiagId::ConstantError,
          std::string(what) + " for " + access + " must be one of " + list + ", got '" + a[i]->text + "'");
}

constexpr std::initializer_list<const char *> kLoadCaches = {".ca", ".cg", ".cv"};
constexpr std::initializer_list<const char *> kStoreCaches = {".wb", ".cg", ".cs", ".wt"};
constexpr std::initializer_list<const char *> kEvictions = {"evict_first", "evict_last", "evict_normal"};

// Triton's eviction priorities reach CUDA as the L1 eviction priority of ld.global /
// st.global, which PTX takes instead of a cache operator: given both, the cache operator
// stays. (The Ascend backend names the hints it drops itself.)
// A volatile load is ld.volatile, which has neither.
void warnEvictionPolicy(LoweringContext &cx, mlir::StringAttr eviction, mlir::StringAttr cache, bool isVolatile, SourceRange at) {
  if (!eviction || eviction.getValue() == "evict_normal" || cx.target().family() != TargetFamily::Cuda) return;
  if (isVolatile)
    cx.diags().report(DiagId::IgnoredHint, at,
                      "eviction_policy='" + eviction.getValue().str() + "' is not applied to a volatile load: ld.volatile takes no eviction priority");
  else if (cache)
    cx.diags().report(DiagId::IgnoredHint, at,
                      "eviction_policy='" + eviction.getValue().str() + "' is not applied together with cache_modifier='" + cache.getValue().str() +
                          "': PTX's ld.global and st.global take one or the other, and the access keeps the cache modifier");
}

// A load through a block pointer: boundary_check and padding_option instead of mask and other.
Value loadBlock(LoweringContext &cx, const Args &a, const std::vector<SourceRange> &where, const Value &ptr, SourceRange at) {
  if ((a[1] && a[1]->kind != Value::Kind::None) || (a[2] && a[2]->kind != Value::Kind::None))
    cx.fail(at, DiagId::TypeMismatch, "mask and other are not used with block pointers; use boundary_check and padding_option");
  std::vector<int32_t> check = boundaryCheck(cx, a[3], ptr, where[3]);
  mlir::OpBuilder &b = cx.builder();
  mlir::StringAttr padding;
  if (a[4] && a[4]->kind == Value::Kind::Str && !a[4]->text.empty()) {
    if (a[4]->text != "zero" && a[4]->text != "nan")
      cx.fail(where[4], DiagId::ConstantError, "padding_option must be 'zero' or 'nan', got '" + a[4]->text + "'");
    padding = b.getStringAttr(a[4]->text);
  }
  TType result;
  result.dtype = ptr.type.dtype;
  result.shape = ptr.type.blockShape;
  // Cache and eviction hints and volatile, as for a load through pointers.
  mlir::StringAttr cache = hintArg(cx, a, where, 5, kLoadCaches, "cache_modifier", "a load");
  mlir::StringAttr eviction = hintArg(cx, a, where, 6, kEvictions, "eviction_policy", "a load");
  bool isVolatile = a[7] && cx.truthy(*a[7], where[7]);
  warnEvictionPolicy(cx, eviction, cache, isVolatile, where[6]);
  auto op = b.create<tle::ir::LoadBlockOp>(cx.loc(at), cx.irType(result), ptr.ir, b.getDenseI32ArrayAttr(check), padding, cache,
                                           eviction, isVolatile);
  return Value::ofRuntime(op.getResult(), result);
}

// tl.load(pointer, mask, other, boundary_check, padding_option, cache_modifier, eviction_policy,
// volatile); tle.load adds is_async.
Value load(LoweringContext &cx, BuiltinCall &c) {
  bool tleLoad = c.name == "tle.load";
  std::vector<ParamSpec> ps = {{"pointer", true},        {"mask", false},           {"other", false},
                               {"boundary_check", false}, {"padding_option", false}, {"cache_modifier", false},
                               {"eviction_policy", false}, {"volatile", false}};
  if (tleLoad) ps.push_back({"is_async", false});
  std::vector<SourceRange> where;
  auto a = bindArgs(cx, tleLoad ? "tle.load" : "tl.load", ps, c.args, c.at, &where);
  Value ptr = *a[0];
  if (ptr.isRuntime() && ptr.type.isBlockPtr) return loadBlock(cx, a, where, ptr, c.at);
  if (!ptr.isRuntime() || !ptr.type.isPointer)
    cx.fail(where[0], DiagId::TypeMismatch, "tl.load needs a pointer or a block of pointers, got " +
                                                (ptr.isRuntime() ? ptr.type.str() : ptr.describe()));
  if (a[3] && !(a[3]->kind == Value::Kind::Tuple && a[3]->elements.empty()))
    cx.fail(where[3], DiagId::TypeMismatch, "boundary_check applies only to block pointers");
  std::optional<Value> mask;
  if (a[1] && a[1]->kind != Value::Kind::None) {
    mask = *a[1];
    if (!mask->isRuntime()) mask = cx.toRuntime(*mask, where[1]);
    if (mask->type.dtype != DType::I1) mask = cx.cast(*mask, DType::I1, where[1]);
    if (mask->type.isBlock() && !ptr.type.isBlock())
      cx.fail(where[1], DiagId::ShapeMismatch, "tl.load's mask is " + withArticle(mask->type.str()) +
                                                   " but its pointer is a scalar; as in Triton, a block mask needs a block of pointers");
    if (mask->type.shape != ptr.type.shape) {
      std::vector<int64_t> shape = ptr.type.shape;
      ptr = cx.broadcastTo(ptr, shape, where[0]);
      if (mask->type.shape != shape) {
        if (mask->type.shape.size() > shape.size())
          cx.fail(where[1], DiagId::ShapeMismatch, "the mask's shape does not fit the pointer block " + ptr.type.str());
        mask = cx.broadcastTo(*mask, shape, where[1]);
      }
    }
  }
  TType result = ptr.type.withDType(ptr.type.dtype);
  std::optional<Value> other;
  if (a[2] && a[2]->kind != Value::Kind::None && !mask)
    cx.fail(where[2], DiagId::TypeMismatch, "tl.load's other is given without a mask (as in Triton: other fills the masked-off elements)");
  if (a[2] && a[2]->kind != Value::Kind::None && mask) {
    other = a[2]->isRuntime() ? cx.cast(*a[2], result.dtype, where[2]) : cx.toRuntime(*a[2], where[2], &result);
    other = cx.broadcastTo(*other, result.shape, where[2]);
  }
  mlir::OpBuilder &b = cx.builder();
  mlir::StringAttr cache = hintArg(cx, a, where, 5, kLoadCaches, "cache_modifier", "a load");
  mlir::StringAttr eviction = hintArg(cx, a, where, 6, kEvictions, "eviction_policy", "a load");
  if ((cache || eviction) && ptr.type.space != MemorySpace::Global) {
    // Cache and eviction hints are global memory's; shared memory has neither.
    cx.diags().report(DiagId::IgnoredHint, where[cache ? 5 : 6],
                      "cache_modifier and eviction_policy apply to global memory; a load through shared-memory pointers ignores them");
    cache = {}, eviction = {};
  }
  bool isVolatile = a[7] && cx.truthy(*a[7], where[7]);
  warnEvictionPolicy(cx, eviction, cache, isVolatile, where[6]);
  bool isAsync = tleLoad && a[8] && cx.truthy(*a[8], where[8]);
  auto op = b.create<tle::ir::LoadOp>(cx.loc(c.at), cx.irType(result), ptr.ir, mask ? mask->ir : mlir::Value(),
                                      other ? other->ir : mlir::Value(), cache, eviction, isVolatile, isAsync);
  return Value::ofRuntime(op.getResult(), result);
}

Value storeBlock(LoweringContext &cx, const Args &a, const std::vector<SourceRange> &where, const Value &ptr, SourceRange at) {
  if (a[2] && a[2]->kind != Value::Kind::None)
    cx.fail(where[2], DiagId::TypeMismatch, "a mask is not used with block pointers; use boundary_check");
  std::vector<int32_t> check = boundaryCheck(cx, a[3], ptr, where[3]);
  TType elem;
  elem.dtype = ptr.type.dtype;
  Value value = a[1]->isRuntime() ? cx.cast(*a[1], elem.dtype, where[1]) : cx.toRuntime(*a[1], where[1], &elem);
  if (value.type.shape.size() > ptr.type.blockShape.size())
    cx.fail(where[1], DiagId::ShapeMismatch, "cannot store " + withArticle(value.type.str()) + " through " + withArticle(ptr.type.str()));
  value = cx.broadcastTo(value, ptr.type.blockShape, where[1]);
  mlir::OpBuilder &b = cx.builder();
  mlir::StringAttr cache = hintArg(cx, a, where, 4, kStoreCaches, "cache_modifier", "a store");
  mlir::StringAttr eviction = hintArg(cx, a, where, 5, kEvictions, "eviction_policy", "a store");
  warnEvictionPolicy(cx, eviction, cache, false, where[5]);
  b.create<tle::ir::StoreBlockOp>(cx.loc(at), ptr.ir, value.ir, b.getDenseI32ArrayAttr(check), cache, eviction);
  return Value::none();
}

Value store(LoweringContext &cx, BuiltinCall &c) {
  std::vector<SourceRange> where;
  auto a = bindArgs(cx, "tl.store",
                    {{"pointer", true}, {"value", true}, {"mask", false}, {"boundary_check", false},
                     {"cache_modifier", false}, {"eviction_policy", false}},
                    c.args, c.at, &where);
  Value ptr = *a[0];
  if (ptr.isRuntime() && ptr.type.isBlockPtr) return storeBlock(cx, a, where, ptr, c.at);
  if (!ptr.isRuntime() || !ptr.type.isPointer)
    cx.fail(where[0], DiagId::TypeMismatch, "tl.store needs a pointer or a block of pointers, got " +
                                                (ptr.isRuntime() ? ptr.type.str() : ptr.describe()));
  Value value = *a[1];
  if (value.isRuntime() && value.type.isBlock() && !ptr.type.isBlock())
    cx.fail(where[1], DiagId::ShapeMismatch, "tl.store's value is " + withArticle(value.type.str()) +
                                                 " but its pointer is a scalar; as in Triton, a block value needs a block of pointers "
                                                 "(every element would go to one address)");
  if (value.isRuntime() && value.type.shape.size() > ptr.type.shape.size())
    cx.fail(where[1], DiagId::ShapeMismatch, "cannot store " + withArticle(value.type.str()) + " through " + withArticle(ptr.type.str()));
  TType elem = ptr.type.withDType(ptr.type.dtype);
  value = value.isRuntime() ? cx.cast(value, elem.dtype, where[1]) : cx.toRuntime(value, where[1], &elem);
  value = cx.broadcastTo(value, ptr.type.shape, where[1]);
  std::optional<Value> mask = maskArg(cx, a[2], ptr.type.shape, where[2]);
  mlir::OpBuilder &b = cx.builder();
  mlir::Location l = cx.loc(c.at);
  mlir::StringAttr cache = hintArg(cx, a, where, 4, kStoreCaches, "cache_modifier", "a store");
  mlir::StringAttr eviction = hintArg(cx, a, where, 5, kEvictions, "eviction_policy", "a store");
  if ((cache || eviction) && ptr.type.space != MemorySpace::Global) {
    cx.diags().report(DiagId::IgnoredHint, where[cache ? 4 : 5],
                      "cache_modifier and eviction_policy apply to global memory; a store through shared-memory pointers ignores them");
    cache = {}, eviction = {};
  }
  warnEvictionPolicy(cx, eviction, cache, false, where[5]);
  b.create<tle::ir::StoreOp>(l, ptr.ir, value.ir, mask ? mask->ir : mlir::Value(), cache, eviction);
  return Value::none();
}

// tl.atomic_add / and / max / min / or / xchg / xor (read-modify-write) and tl.atomic_cas.
Value atomic(LoweringContext &cx, BuiltinCall &c) {
  const std::string &member = c.member;
  bool cas = member == "atomic_cas";
  std::vector<SourceRange> where;
  auto a = cas ? bindArgs(cx, "tl.atomic_cas", {{"pointer", true}, {"cmp", true}, {"val", true}, {"sem", false}, {"scope", false}}, c.args, c.at, &where)
               : bindArgs(cx, "tl." + member, {{"pointer", true}, {"val", true}, {"mask", false}, {"sem", false}, {"scope", false}}, c.args, c.at, &where);
  Value ptr = *a[0];
  if (!ptr.isRuntime() || !ptr.type.isPointer)
    cx.fail(where[0], DiagId::TypeMismatch, "tl." + member + " needs a pointer or a block of pointers");
  auto strOr = [&](size_t i, const char *dflt, std::initializer_list<const char *> allowed) {
    if (!a[i] || a[i]->kind == Value::Kind::None) return std::string(dflt);
    if (a[i]->kind != Value::Kind::Str) cx.fail(where[i], DiagId::TypeMismatch, "expected a string");
    for (const char *ok : allowed)
      if (a[i]->text == ok) return a[i]->text;
    cx.fail(where[i], DiagId::ConstantError, "unknown value '" + a[i]->text + "'");
  };
  std::string sem = strOr(3, "acq_rel", {"relaxed", "acquire", "release", "acq_rel"});
  std::string scope = strOr(4, "gpu", {"gpu", "cta", "sys"});
  TType elem = ptr.type.withDType(ptr.type.dtype);
  // As in Triton, a block operand (or mask) has the pointers' rank and broadcasts to their
  // shape; the pointers never broadcast to it.
  auto sameRank = [&](const Value &v, size_t i, const char *what) {
    if (v.type.isBlock() && !ptr.type.isBlock())
      cx.fail(where[i], DiagId::ShapeMismatch, "tl." + member + "'s " + what + " is " + withArticle(v.type.str()) +
                                                   " but its pointer is a scalar; as in Triton, a block " + what + " needs a block of pointers");
    if (v.type.isBlock() && v.type.shape.size() != ptr.type.shape.size())
      cx.fail(where[i], DiagId::ShapeMismatch, "tl." + member + "'s " + what + " is " + withArticle(v.type.str()) + " and its pointers " +
                                                   withArticle(ptr.type.str()) + "; as in Triton, they must have the same rank");
  };
  auto operand = [&](size_t i) {
    Value v = a[i]->isRuntime() ? cx.cast(*a[i], elem.dtype, where[i]) : cx.toRuntime(*a[i], where[i], &elem);
    sameRank(v, i, "operand");
    return v;
  };
  // Triton's read-modify-write atomics take 32- and 64-bit integers and floats, and 16-bit
  // floats for add; its compare-and-swap any element of 16, 32 or 64 bits.
  const DType pointee = elem.dtype;
  const bool narrow = pointee == DType::I1 || pointee == DType::I8 || pointee == DType::U8;
  if (narrow || (!cas && (pointee == DType::I16 || pointee == DType::U16)))
    cx.fail(where[0], DiagId::TypeMismatch,
            "tl." + member + " does not support " + std::string(dtypeName(pointee)) +
                (cas ? " (as in Triton: compare-and-swap takes 16-, 32- and 64-bit elements)"
                     : " (as in Triton: atomics take 32- and 64-bit elements, and fp16 or bf16 for tl.atomic_add)"));
  mlir::OpBuilder &b = cx.builder();
  mlir::Location l = cx.loc(c.at);
  if (cas) {
    Value cmp = operand(1), v = operand(2);
    cmp = cx.broadcastTo(cmp, ptr.type.shape, where[1]);
    v = cx.broadcastTo(v, ptr.type.shape, where[2]);
    TType rt = ptr.type.withDType(elem.dtype);
    auto op = b.create<tle::ir::AtomicCASOp>(l, cx.irType(rt), ptr.ir, cmp.ir, v.ir, b.getStringAttr(sem), b.getStringAttr(scope));
    return Value::ofRuntime(op.getResult(), rt);
  }
  Value v = operand(1);
  v = cx.broadcastTo(v, ptr.type.shape, where[1]);
  if (a[2] && a[2]->isRuntime()) sameRank(*a[2], 2, "mask");
  std::optional<Value> mask = maskArg(cx, a[2], ptr.type.shape, where[2]);
  std::string kind = member.substr(7);
  DType d = elem.dtype;
  if (kind == "xchg" && (d == DType::FP16 || d == DType::BF16))
    cx.fail(c.at, DiagId::TypeMismatch, "tl.atomic_xchg does not support " + std::string(dtypeName(d)) + " (as in Triton)");
  if ((kind == "and" || kind == "or" || kind == "xor") && !isInt(d))
    cx.fail(c.at, DiagId::TypeMismatch, "tl." + member + " needs integer values, got " + std::string(dtypeName(d)));
  if (kind == "add" && isFloat(d)) kind = "fadd";
  if ((kind == "max" || kind == "min") && isUnsigned(d)) kind = "u" + kind;
  if ((kind == "max" || kind == "min") && isFloat(d) && d != DType::FP32 && d != DType::FP64)
    cx.fail(c.at, DiagId::TypeMismatch, "tl." + member + " supports fp32 and fp64 floats, got " + std::string(dtypeName(d)));
  TType rt = ptr.type.withDType(d);
  auto op = b.create<tle::ir::AtomicRMWOp>(l, cx.irType(rt), b.getStringAttr(kind), ptr.ir, v.ir, mask ? mask->ir : mlir::Value(),
                                           b.getStringAttr(sem), b.getStringAttr(scope));
  return Value::ofRuntime(op.getResult(), rt);
}

Value makeBlockPtr(LoweringContext &cx, BuiltinCall &c) {
  std::vector<SourceRange> where;
  auto a = bindArgs(cx, "tl.make_block_ptr",
                    {{"base", true}, {"shape", true}, {"strides", true}, {"offsets", true}, {"block_shape", true},
                     {"order", true}},
                    c.args, c.at, &where);
  Value base = *a[0];
  if (!base.isRuntime() || !base.type.isPointer || base.type.isBlock())
    cx.fail(where[0], DiagId::TypeMismatch, "tl.make_block_ptr's base must be a scalar pointer, got " +
                                                (base.isRuntime() ? base.type.str() : base.describe()));
  auto tupleOf = [&](size_t i, const char *what) {
    if (a[i]->kind != Value::Kind::Tuple) cx.fail(where[i], DiagId::TypeMismatch, std::string(what) + " must be a tuple");
    return a[i]->elements;
  };
  std::vector<Value> shape = tupleOf(1, "shape"), strides = tupleOf(2, "strides"), offsets = tupleOf(3, "offsets");
  std::vector<int64_t> blockShape = blockShapeArg(cx, *a[4], where[4]);
  std::vector<Value> order = tupleOf(5, "order");
  size_t rank = blockShape.size();
  if (shape.size() != rank || strides.size() != rank || offsets.size() != rank || order.size() != rank)
    cx.fail(c.at, DiagId::ShapeMismatch, "shape, strides, offsets, block_shape and order must all have " +
                                             std::to_string(rank) + " entries");
  auto asInt = [&](const Value &v, DType d, SourceRange r) {
    TType like;
    like.dtype = d;
    Value x = v.isRuntime() ? v : cx.toRuntime(v, r, &like);
    if (x.type.isBlock() || x.type.isPointer || !isInt(x.type.dtype))
      cx.fail(r, DiagId::TypeMismatch, "block pointer shapes, strides and offsets must be integer scalars");
    return x.type.dtype == d ? x.ir : cx.cast(x, d, r).ir;
  };
  std::vector<mlir::Value> shapeIr, strideIr, offsetIr;
  for (const Value &v : shape) shapeIr.push_back(asInt(v, DType::I64, where[1]));
  for (const Value &v : strides) strideIr.push_back(asInt(v, DType::I64, where[2]));
  for (const Value &v : offsets) offsetIr.push_back(asInt(v, DType::I32, where[3]));
  std::vector<int32_t> orderValues;
  for (const Value &v : order) orderValues.push_back(static_cast<int32_t>(cx.requireInt(v, where[5], "an order entry")));
  std::vector<int32_t> sorted = orderValues;
  std::sort(sorted.begin(), sorted.end());
  for (size_t i = 0; i < sorted.size(); ++i)
    if (sorted[i] != static_cast<int32_t>(i)) {
      std::string text;
      for (int32_t o : orderValues) text += (text.empty() ? "" : ", ") + std::to_string(o);
      cx.fail(where[5], DiagId::ShapeMismatch, "tl.make_block_ptr's order must be a permutation of the dimensions 0.." +
                                                   std::to_string(rank - 1) + ", got (" + text + ")");
    }
  TType t;
  t.dtype = base.type.dtype;
  t.isBlockPtr = true;
  t.blockShape = blockShape;
  mlir::OpBuilder &b = cx.builder();
  auto op = b.create<tle::ir::MakeBlockPtrOp>(cx.loc(c.at), cx.irType(t), base.ir, shapeIr, strideIr, offsetIr,
                                              b.getDenseI32ArrayAttr(orderValues));
  return Value::ofRuntime(op.getResult(), t);
}

Value advance(LoweringContext &cx, BuiltinCall &c) {
  auto a = bindArgs(cx, "tl.advance", {{"base", true}, {"offsets", true}}, c.args, c.at);
  const Value &ptr = *a[0];
  if (!ptr.isRuntime() || !ptr.type.isBlockPtr)
    cx.fail(c.at, DiagId::TypeMismatch, "tl.advance needs a block pointer, got " + (ptr.isRuntime() ? ptr.type.str() : ptr.describe()));
  if (a[1]->kind != Value::Kind::Tuple || a[1]->elements.size() != ptr.type.blockShape.size())
    cx.fail(c.at, DiagId::ShapeMismatch, "tl.advance needs one offset per dimension of the " + ptr.type.str());
  std::vector<mlir::Value> offs;
  TType i32;
  i32.dtype = DType::I32;
  for (const Value &v : a[1]->elements) {
    Value x = v.isRuntime() ? v : cx.toRuntime(v, c.at, &i32);
    if (x.type.isBlock() || !isInt(x.type.dtype)) cx.fail(c.at, DiagId::TypeMismatch, "tl.advance offsets must be integer scalars");
    offs.push_back(x.type.dtype == DType::I32 ? x.ir : cx.cast(x, DType::I32, c.at).ir);
  }
  auto op = cx.builder().create<tle::ir::AdvanceOp>(cx.loc(c.at), ptr.ir.getType(), ptr.ir, offs);
  return Value::ofRuntime(op.getResult(), ptr.type);
}

Value debugBarrier(LoweringContext &cx, BuiltinCall &c) {
  bindArgs(cx, "tl.debug_barrier", {}, c.args, c.at);
  if (cx.state().insideWarpPartition)
    cx.fail(c.at, DiagId::UnsupportedInKernel, "tl.debug_barrier synchronizes every thread of the block, but a warp-specialized worker "
                                               "partition runs on part of them: it would never complete");
  cx.builder().create<tle::ir::BarrierOp>(cx.loc(c.at));
  return Value::none();
}

}  // namespace

void registerMemoryBuiltins(BuiltinRegistry &r) {
  r.add("triton.language.load", load);
  r.add("tle.load", load);
  r.addTlOrMethod("store", store);
  for (const char *op : {"atomic_add", "atomic_and", "atomic_cas", "atomic_max", "atomic_min", "atomic_or", "atomic_xchg", "atomic_xor"})
    r.addTlOrMethod(op, atomic);
  r.addTlOrMethod("make_block_ptr", makeBlockPtr);
  r.addTlOrMethod("advance", advance);
  r.addTlOrMethod("debug_barrier", debugBarrier);
}

}  // namespace tle::sema
