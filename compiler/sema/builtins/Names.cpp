// The names builtin modules export (`tl.*`, `triton.*`, `tle.*`, Triton-distributed's
// `dl.*`) and the attributes of runtime values (dtype, shape, block methods): the
// builtin values whose calls the registry dispatches.
#include "sema/builtins/Builtins.h"

#include <set>

namespace tle::sema {

namespace {

// Builtins tlec knows but does not lower yet: calling one is a "not implemented"
// error rather than an unknown name.
const std::set<std::string> kPlannedTl = {
    "dot_scaled", "flip", "randint", "rand", "randn", "inline_asm_elementwise", "swizzle2d",
    "pointer_type", "condition", "map_elementwise", "extra"};
const std::set<std::string> kPlannedTle = {"pipeline_group", "reshard", "distributed_dot", "gpu", "dsa"};

// tl functions that are also methods of a block (x.cumsum(0), x.sum(axis=0), x.trans(), ...).
const std::set<std::string> kScans = {"cumsum", "cumprod", "associative_scan"};
const std::set<std::string> kSplitJoin = {"split", "join", "interleave", "ravel", "gather"};
const std::set<std::string> kReductions = {"sum", "max", "min", "argmax", "argmin", "xor_sum", "reduce_or", "reduce",
                                           // sorting and counting, also block methods
                                           "sort", "topk", "histogram"};
const std::set<std::string> kShapeOps = {"trans", "permute", "reshape", "view"};

// The other tl functions tlec lowers.
const std::set<std::string> kTl = {
    "program_id", "num_programs", "arange", "load", "store", "zeros", "zeros_like", "full", "where", "maximum", "minimum",
    "fma", "static_assert", "static_range", "range", "constexpr", "multiple_of", "max_contiguous", "max_constancy",
    "broadcast_to", "expand_dims", "cdiv", "assume", "dot", "debug_barrier", "make_block_ptr", "advance",
    // element-wise math
    "exp", "exp2", "log", "log2", "sqrt", "rsqrt", "sin", "cos", "abs", "floor", "ceil", "erf", "clamp", "sigmoid",
    "softmax", "fdiv", "div_rn", "umulhi", "pow", "log1p", "cast", "bitcast",
    // atomics
    "atomic_add", "atomic_and", "atomic_cas", "atomic_max", "atomic_min", "atomic_or", "atomic_xchg", "atomic_xor",
    // printing and assertions
    "device_print", "device_assert", "static_print",
    // tensor descriptors, and the types usable with isinstance()
    "make_tensor_descriptor", "load_tensor_descriptor", "store_tensor_descriptor", "tensor_descriptor", "tensor"};

// TLE-Struct is per hardware family: tle.gpu for CUDA targets, tle.dsa for Ascend.
void checkStructTier(LoweringContext &cx, const std::string &family, SourceRange at) {
  bool gpu = family == "gpu";
  if (!cx.target().accepts(gpu ? Tier::GpuStruct : Tier::DsaStruct))
    cx.fail(at, DiagId::TierNotForTarget,
            "tle." + family + " (TLE-Struct for " + (gpu ? "GPUs" : "Ascend DSAs") + ") is not available for target " +
                cx.target().name() + "; " + (gpu ? "use tle.dsa.* or TLE-Lite for Ascend" : "use tle.gpu.* or TLE-Lite for CUDA"));
}

}  // namespace

Value builtinModuleAttribute(LoweringContext &cx, const Value &module, const std::string &attr, SourceRange at) {
  const std::string &m = module.text;
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
    if (attr == "dtype") return Value::ofBuiltin("triton.language.dtype");
    if (kTl.count(attr) || kReductions.count(attr) || kShapeOps.count(attr) || kScans.count(attr) || kSplitJoin.count(attr))
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
    if (attr == "gpu" || attr == "dsa") {
      checkStructTier(cx, attr, at);
      return Value::ofModule("tle." + attr);
    }
    if (kPlannedTle.count(attr)) return Value::ofBuiltin("planned:tle." + attr);
  } else if (m == "tle.raw") {
    if (attr == "language" || attr == "call_smem") return Value::ofBuiltin("tle.raw." + attr);
  } else if (m == "tle.gpu" || m == "tle.gpu.storage_kind") {
    checkStructTier(cx, "gpu", at);  // also for `import triton.experimental.tle.language.gpu as tleg`
    if (attr == "smem" || attr == "tmem") return Value::ofBuiltin("tle.gpu.storage." + attr);
    if (m == "tle.gpu" && attr == "storage_kind") return Value::ofModule("tle.gpu.storage_kind");
    if (m == "tle.gpu" && (attr == "alloc" || attr == "local_ptr" || attr == "copy" || attr == "local_load" ||
                           attr == "memory_space" || attr == "warp_specialize"))
      return Value::ofBuiltin("tle.gpu." + attr);
    return Value::ofBuiltin("planned:" + m + "." + attr);
  } else if (m == "tle.dsa" || m == "tle.dsa.ascend") {
    checkStructTier(cx, "dsa", at);
    static const std::set<std::string> kSpaces = {"UB", "L1", "L0A", "L0B", "L0C"};
    static const std::set<std::string> kDsa = {"alloc", "copy", "to_tensor", "to_buffer", "add", "sub", "mul", "div", "max", "min",
                                               "matmul", "subview", "hint"};
    if (m == "tle.dsa" && attr == "ascend") return Value::ofModule("tle.dsa.ascend");
    if (m == "tle.dsa.ascend" && kSpaces.count(attr)) return Value::ofBuiltin("tle.dsa.space." + attr);
    if (m == "tle.dsa" && kDsa.count(attr)) return Value::ofBuiltin("tle.dsa." + attr);
    return Value::ofBuiltin("planned:" + m + "." + attr);
  } else {
    auto why = cx.module().unresolvedImports.find(m);
    if (why != cx.module().unresolvedImports.end())
      cx.fail(at, DiagId::UnsupportedInKernel, "module '" + m + "' cannot be used inside a kernel: " + why->second);
    cx.fail(at, DiagId::UnsupportedInKernel, "module '" + m + "' cannot be used inside a kernel");
  }
  cx.fail(at, DiagId::UnknownAttribute, "module '" + m + "' has no attribute '" + attr + "'");
}

Value runtimeAttribute(LoweringContext &cx, const Value &v, const std::string &attr, SourceRange at) {
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
    cx.fail(at, DiagId::UnknownAttribute, withArticle(v.type.str()) + " has no attribute '" + attr + "'");
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
    return callBuiltin(cx, Value::ofBuiltin("method.trans", {v}), none, at);
  }
  if (attr == "extract_tile" || attr == "insert_tile") return Value::ofBuiltin("tle." + attr, {v});
  if (kScans.count(attr) || kSplitJoin.count(attr) || attr == "sigmoid" || attr == "softmax" || attr == "clamp" ||
      attr == "cast" || attr == "log1p")
    return Value::ofBuiltin("method." + attr, {v});
  if (kPlannedTl.count(attr))
    return Value::ofBuiltin("planned:method " + attr, {v});
  cx.fail(at, DiagId::UnknownAttribute, "" + withArticle(v.type.str()) + " has no attribute '" + attr + "'");
}

}  // namespace tle::sema
