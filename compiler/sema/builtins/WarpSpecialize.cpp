// tle.gpu.warp_specialize: the program split into a default partition (the kernel's warps)
// and worker partitions on warp groups of their own, each a @jit function inlined into a
// region of tle.warp_specialize.
#include "sema/builtins/Registry.h"

#include "ir/Dialect.h"
#include "ir/GpuDialect.h"

namespace tle::sema {

namespace {

// tle.gpu.warp_specialize([(default_fn, (args...)), (worker_fn, (args...)), ...],
//                         worker_num_warps, worker_num_regs)
Value warpSpecialize(LoweringContext &cx, BuiltinCall &c) {
  SourceRange at = c.at;
  std::vector<SourceRange> where;
  auto a = bindArgs(cx, "tle.gpu.warp_specialize", {{"functions_and_args", true}, {"worker_num_warps", true}, {"worker_num_regs", true}},
                    c.args, at, &where);
  const TargetInfo &target = cx.target();
  BuiltinState &state = cx.state();
  if (!target.has(Feature::WarpSpecialization))
    cx.fail(at, DiagId::TierNotForTarget, "tle.gpu.warp_specialize needs Hopper (cuda:sm_90 or sm_90a: register reallocation and "
                                          "asynchronous barriers); the target is " + target.name());
  if (state.inWarpSpecialize)
    cx.fail(at, DiagId::UnsupportedInKernel, "tle.gpu.warp_specialize cannot be nested in a partition of another one");
  const Value &list = *a[0];
  if (list.kind != Value::Kind::Tuple || list.elements.size() < 2)
    cx.fail(where[0], DiagId::TypeMismatch, "functions_and_args must list (function, args) pairs: the default partition, then at least one worker");
  std::vector<std::pair<Value, Value>> partitions;
  for (const Value &entry : list.elements) {
    if (entry.kind != Value::Kind::Tuple || entry.elements.size() != 2)
      cx.fail(where[0], DiagId::TypeMismatch, "each entry of functions_and_args must be a (function, args) pair, got " + entry.describe());
    const Value &fn = entry.elements[0], &fnArgs = entry.elements[1];
    if (fn.kind != Value::Kind::Function || !isJitFunction(*fn.function))
      cx.fail(where[0], DiagId::TypeMismatch, "a warp_specialize partition must be a @triton.jit function, got " + fn.describe());
    if (fnArgs.kind != Value::Kind::Tuple)
      cx.fail(where[0], DiagId::TypeMismatch, "the arguments of partition '" + fn.function->name + "' must be a tuple, got " + fnArgs.describe());
    partitions.push_back({fn, fnArgs});
  }
  size_t workers = partitions.size() - 1;
  auto counts = [&](size_t i, const char *what) {
    std::vector<Value> items = a[i]->kind == Value::Kind::Tuple ? a[i]->elements : std::vector<Value>{*a[i]};
    if (items.size() != workers)
      cx.fail(where[i], DiagId::ArgumentMismatch, "warp_specialize got " + std::to_string(workers) + " worker function" +
                                                      (workers == 1 ? "" : "s") + " but " + std::to_string(items.size()) + " " + what);
    std::vector<int32_t> out;
    for (const Value &v : items) out.push_back(static_cast<int32_t>(cx.requireInt(v, where[i], what)));
    return out;
  };
  std::vector<int32_t> warps = counts(1, "warp counts"), regs = counts(2, "register counts");
  int64_t totalWarps = cx.numWarps();
  for (int32_t w : warps) {
    if (w <= 0 || (w & (w - 1)) != 0)
      cx.fail(where[1], DiagId::ConstantError, "worker warp counts must be powers of two, got " + std::to_string(w));
    totalWarps += w;
  }
  for (int32_t r : regs)
    if (r < 24 || r > 256 || r % 8 != 0)
      cx.fail(where[2], DiagId::ConstantError, "worker register counts must be multiples of 8 from 24 to 256 (setmaxnreg), got " + std::to_string(r));
  // tle.gpu is a CUDA tier (checked before any handler runs), so the target has warps.
  const int warpSize = cx.target().threadsPerWarp();
  const int maxWarps = warpSize > 0 ? cx.target().maxThreadsPerBlock() / warpSize : 0;
  if (totalWarps > maxWarps)
    cx.fail(where[1], DiagId::ShapeMismatch, "the partitions need " + std::to_string(totalWarps) + " warps (--num-warps=" +
                                                 std::to_string(cx.numWarps()) + " plus the workers'); a block has at most " +
                                                 std::to_string(maxWarps));

  mlir::Location l = cx.loc(at);
  mlir::OpBuilder &b = cx.builder();
  auto first = b.create<tle::gpu::WarpSpecializeOp>(l, mlir::TypeRange{}, warps, regs, static_cast<unsigned>(workers));
  Value defaultResult;
  std::vector<Value> results;
  auto lowerPartition = [&](mlir::Region &region, size_t i) {
    mlir::OpBuilder::InsertionGuard guard(b);
    b.createBlock(&region);
    CallArgs inner;
    inner.positional = partitions[i].second.elements;
    inner.positionalRanges.assign(inner.positional.size(), where[0]);
    state.inWarpSpecialize = true;
    state.insideWarpPartition = i != 0;
    Value r;
    try {
      r = cx.callFunction(partitions[i].first, inner, at);
    } catch (...) {
      state.inWarpSpecialize = state.insideWarpPartition = false;
      throw;
    }
    state.inWarpSpecialize = state.insideWarpPartition = false;
    std::vector<mlir::Value> yields;
    if (i == 0 && r.kind != Value::Kind::None) {
      std::vector<Value> items = r.kind == Value::Kind::Tuple ? r.elements : std::vector<Value>{r};
      for (Value &v : items) {
        v = cx.toRuntime(v, at);
        yields.push_back(v.ir);
      }
      results = items;
      defaultResult = r;
    } else if (i != 0 && r.kind != Value::Kind::None) {
      cx.fail(at, DiagId::TypeMismatch, "worker partition '" + partitions[i].first.function->name + "' returns a value; only the default partition may");
    }
    b.create<tle::gpu::PartitionYieldOp>(l, yields);
  };
  lowerPartition(first.getDefaultRegion(), 0);
  for (size_t i = 0; i < workers; ++i) lowerPartition(first.getWorkerRegions()[i], i + 1);
  if (results.empty()) {
    b.setInsertionPointAfter(first);
    return Value::none();
  }
  // The default partition returned values: rebuild the op with them as results.
  std::vector<mlir::Type> types;
  for (const Value &v : results) types.push_back(v.ir.getType());
  auto op = b.create<tle::gpu::WarpSpecializeOp>(l, types, warps, regs, static_cast<unsigned>(workers));
  op.getDefaultRegion().takeBody(first.getDefaultRegion());
  for (size_t i = 0; i < workers; ++i) op.getWorkerRegions()[i].takeBody(first.getWorkerRegions()[i]);
  first.erase();
  b.setInsertionPointAfter(op);
  std::vector<Value> out;
  for (size_t i = 0; i < results.size(); ++i) out.push_back(Value::ofRuntime(op.getResult(static_cast<unsigned>(i)), results[i].type));
  return defaultResult.kind == Value::Kind::Tuple ? Value::ofTuple(out) : out[0];
}

}  // namespace

void registerWarpSpecializeBuiltins(BuiltinRegistry &r) { r.add("tle.gpu.warp_specialize", warpSpecialize); }

}  // namespace tle::sema
