// TLE distributed at run time: tle.remote (another shard's buffer or memory) and
// tle.distributed_barrier (synchronizing a mesh or a sub-mesh).
#include "sema/builtins/Registry.h"

#include "ir/Dialect.h"

#include <algorithm>
#include <optional>

#include "mlir/IR/Matchers.h"

namespace tle::sema {

namespace {

// The compile-time shard that pointers derived from a tle.remote op point into: the op is
// found through the ops that derive pointers from pointers (local_ptr, offsets, splats).
std::optional<int64_t> remoteShard(mlir::Value v) {
  for (int depth = 0; v && depth < 64; ++depth) {
    mlir::Operation *def = v.getDefiningOp();
    if (!def) return std::nullopt;
    if (auto r = mlir::dyn_cast<tle::ir::RemoteOp>(def)) {
      mlir::IntegerAttr shard;
      if (mlir::matchPattern(r.getShard(), mlir::m_Constant(&shard))) return shard.getInt();
      return std::nullopt;
    }
    if (def->getNumOperands() == 0) return std::nullopt;
    v = def->getOperand(0);
  }
  return std::nullopt;
}

std::string names(const std::vector<std::string> &list) {
  std::string s;
  for (const std::string &n : list) s += (s.empty() ? "" : ", ") + n;
  return s;
}

// tle.remote(tensor, shard_id, scope=None, space=None): a shared-memory buffer or pointers
// of another block of the cluster ("cluster"), or global pointers of a symmetric
// allocation on another GPU ("device"). A tuple shard_id gives coordinates along the
// axes of the scope mesh that the access crosses: the block_cluster axes for "cluster",
// the node and device axes for "device".
Value remote(LoweringContext &cx, BuiltinCall &c) {
  SourceRange at = c.at;
  std::vector<SourceRange> where;
  auto a = bindArgs(cx, "tle.remote", {{"tensor", true}, {"shard_id", true}, {"scope", false}, {"space", false}, {"dtype", false}},
                    c.args, at, &where);
  const Value &x = *a[0];
  if (!x.isRuntime() || !(x.type.isBuffer || x.type.isPointer))
    cx.fail(where[0], DiagId::TypeMismatch, "tle.remote needs a shared-memory buffer, shared-memory pointers or global pointers, got " + describeWithArticle(x));
  // Already remote: the same shard again is the same pointers (FlagTree's TopK selector passes
  // remote pointers to a helper that applies tle.remote to them once more); another shard is
  // an error.
  std::optional<int64_t> alreadyAt;
  if (x.type.space == MemorySpace::RemoteShared) {
    alreadyAt = remoteShard(x.ir);
    std::optional<int64_t> again;
    if (!a[1]->isRuntime() && a[1]->kind == Value::Kind::Int) again = a[1]->intValue;
    if (!alreadyAt || !again || *alreadyAt != *again)
      cx.fail(where[0], DiagId::TypeMismatch, "tle.remote cannot be applied twice with another shard: this is already " +
                                                  describeWithArticle(x) +
                                                  (alreadyAt ? " of shard " + std::to_string(*alreadyAt) : std::string()) +
                                                  "; materialize pointer views with tle.gpu.local_ptr(remote_buffer, indices)");
    return x;
  }
  if (x.type.isBuffer && x.type.space != MemorySpace::Shared)
    cx.fail(where[0], DiagId::TypeMismatch, "tle.remote needs a shared-memory buffer, got " + describeWithArticle(x));
  if (x.type.isPointer && x.type.space != MemorySpace::Shared && x.type.space != MemorySpace::Global)
    cx.fail(where[0], DiagId::TypeMismatch, "tle.remote needs pointers to shared or global memory, got " + describeWithArticle(x));
  std::string space = x.type.isPointer && x.type.space == MemorySpace::Global ? "device" : "cluster";
  if (a[3] && a[3]->kind != Value::Kind::None) {
    if (a[3]->kind != Value::Kind::Str || (a[3]->text != "cluster" && a[3]->text != "device"))
      cx.fail(where[3], DiagId::ConstantError, "space must be 'cluster' or 'device'");
    if (a[3]->text != space)
      cx.fail(where[3], DiagId::TypeMismatch, "space='" + a[3]->text + "' does not fit " + describeWithArticle(x) + ": " +
                                                  (space == "device" ? "global memory is reached across GPUs (space='device')"
                                                                     : "shared memory is reached across the cluster (space='cluster')"));
  }
  const Value *scope = nullptr;
  if (a[2] && a[2]->kind != Value::Kind::None) {
    if (a[2]->kind != Value::Kind::Mesh) cx.fail(where[2], DiagId::TypeMismatch, "scope must be a device mesh, got " + a[2]->describe());
    scope = &*a[2];
    noteLaunchMesh(cx, *scope, where[2], "tle.remote's scope");
  }
  if (space == "cluster") {
    // DSMEM reaches the blocks of this block's cluster: the kernel must be launched on clusters.
    const BuiltinState &state = cx.state();
    if (!state.launchMesh)
      cx.fail(at, DiagId::TypeMismatch, "tle.remote on shared memory reaches another block of this block's thread-block cluster, but the "
                                        "kernel is not launched on clusters: give scope=mesh with a mesh that has a block_cluster level");
    if (state.clusterSize <= 1) {
      cx.diags().report(DiagId::ShapeMismatch, scope ? where[2] : at,
                        "tle.remote on shared memory needs a thread-block cluster, but the kernel's launch mesh has no block_cluster "
                        "level of more than one block")
          .note(state.launchMeshAt, "the launch mesh was fixed here");
      throw LoweringFailed{};
    }
  }
  // The scope axes the shard id ranges over.
  std::vector<size_t> axes;
  if (scope) {
    for (size_t i = 0; i < scope->dims.size(); ++i)
      if (space == "device" ? isDeviceLevel(*scope, i) : scope->levels[i] == "block_cluster") axes.push_back(i);
    if (axes.empty() && space == "cluster")
      for (size_t i = 0; i < scope->dims.size(); ++i)
        if (!isDeviceLevel(*scope, i)) axes.push_back(i);
  }
  std::vector<std::string> axisNames;
  int64_t shards = 1;
  for (size_t i : axes) axisNames.push_back(scope->names[i]), shards *= scope->dims[i];
  std::string levelWords = space == "device" ? "node/device" : "cluster";
  TType i32;
  i32.dtype = DType::I32;
  const Value &id = *a[1];
  Value shard;
  if (id.kind == Value::Kind::Tuple) {
    if (!scope) cx.fail(where[1], DiagId::TypeMismatch, "a tuple shard_id needs scope=mesh to linearize its coordinates");
    if (axes.empty())
      cx.fail(where[2], DiagId::ShapeMismatch, "the scope mesh has no " + levelWords + " axes to address " + describeWithArticle(x) + " on");
    if (id.elements.size() != axes.size())
      cx.fail(where[1], DiagId::ShapeMismatch, "a tuple shard_id needs one coordinate per " + levelWords + " axis of the scope mesh (" +
                                                   names(axisNames) + "): " + std::to_string(axes.size()) + ", got " +
                                                   std::to_string(id.elements.size()));
    // Row-major over the axes: the last coordinate varies fastest.
    int64_t stride = 1;
    bool runtime = std::any_of(id.elements.begin(), id.elements.end(), [](const Value &v) { return v.isRuntime(); });
    int64_t linear = 0;
    Value sum;
    for (size_t k = axes.size(); k-- > 0;) {
      const Value &c = id.elements[k];
      int64_t size = scope->dims[axes[k]];
      if (!c.isRuntime()) {
        int64_t v = cx.requireInt(c, where[1], "a shard_id coordinate");
        if (v < 0 || v >= size)
          cx.fail(where[1], DiagId::ShapeMismatch, "shard_id coordinate " + std::to_string(v) + " is out of range for axis '" +
                                                       scope->names[axes[k]] + "' of size " + std::to_string(size));
        linear += v * stride;
      }
      if (runtime) {
        Value term = cx.binary(ast::BinaryOp::Mul, cx.integerScalarI32(c, where[1], "a shard_id coordinate"), Value::ofInt(stride), at, at, at);
        sum = sum.kind == Value::Kind::None ? term : cx.binary(ast::BinaryOp::Add, sum, term, at, at, at);
      }
      stride *= size;
    }
    shard = runtime ? sum : cx.toRuntime(Value::ofInt(linear), where[1], &i32);
  } else if (id.isRuntime()) {
    shard = cx.integerScalarI32(id, where[1], "a runtime shard_id");
  } else {
    int64_t v = cx.requireInt(id, where[1], "shard_id");
    if (v < 0) cx.fail(where[1], DiagId::ConstantError, "shard_id must be >= 0, got " + std::to_string(v));
    if (scope && !axes.empty() && v >= shards)
      cx.fail(where[1], DiagId::ShapeMismatch, "shard_id " + std::to_string(v) + " is out of range for the " + std::to_string(shards) +
                                                   " shards of the scope's " + levelWords + " axes (" + names(axisNames) + ")");
    if (space == "cluster" && v >= cx.state().clusterSize)
      cx.fail(where[1], DiagId::ShapeMismatch, "shard_id " + std::to_string(v) + " is out of range for a cluster of " +
                                                   std::to_string(cx.state().clusterSize) + " blocks");
    shard = cx.toRuntime(Value::ofInt(v), where[1], &i32);
  }
  TType t = x.type;
  if (space == "cluster") t.space = MemorySpace::RemoteShared;
  mlir::OpBuilder &b = cx.builder();
  auto op = b.create<tle::ir::RemoteOp>(cx.loc(at), cx.irType(t), x.ir, shard.ir, b.getStringAttr(space));
  return Value::ofRuntime(op.getResult(), t);
}

// tle.distributed_barrier(mesh=None): None is the thread-block cluster; a mesh must be a
// sub-mesh of the kernel's launch mesh.
Value distributedBarrier(LoweringContext &cx, BuiltinCall &c) {
  SourceRange at = c.at;
  std::vector<SourceRange> where;
  auto a = bindArgs(cx, "tle.distributed_barrier", {{"mesh", false}}, c.args, at, &where);
  mlir::OpBuilder &b = cx.builder();
  mlir::Location l = cx.loc(at);
  if (!a[0] || a[0]->kind == Value::Kind::None) {
    if (!cx.target().has(Feature::Clusters))
      cx.fail(at, DiagId::TierNotForTarget, "tle.distributed_barrier() synchronizes the thread-block cluster, which needs cuda:sm_90 or "
                                            "later; the target is " + cx.target().name() + " (use tl.debug_barrier() for the block)");
    b.create<tle::ir::DistributedBarrierOp>(l, "cluster", llvm::ArrayRef<int64_t>{}, llvm::ArrayRef<int64_t>{});
    return Value::none();
  }
  const Value &mesh = *a[0];
  if (mesh.kind != Value::Kind::Mesh) cx.fail(where[0], DiagId::TypeMismatch, "tle.distributed_barrier needs a device mesh, got " + mesh.describe());
  noteLaunchMesh(cx, mesh, where[0], "tle.distributed_barrier's mesh");
  const Value &launch = *cx.state().launchMesh;
  int64_t meshSize = 1, launchSize = 1;
  for (int64_t d : mesh.dims) meshSize *= d;
  for (int64_t d : launch.dims) launchSize *= d;
  std::vector<int64_t> axes;
  for (size_t i = 0; i < mesh.names.size(); ++i) {
    auto it = std::find(launch.names.begin(), launch.names.end(), mesh.names[i]);
    if (it == launch.names.end() || launch.dims[static_cast<size_t>(it - launch.names.begin())] != mesh.dims[i]) {
      if (meshSize == launchSize) {  // a flattened or reshaped view of the whole launch mesh
        axes.clear();
        for (size_t k = 0; k < launch.names.size(); ++k) axes.push_back(static_cast<int64_t>(k));
        break;
      }
      cx.fail(where[0], DiagId::ShapeMismatch, "tle.distributed_barrier's mesh is not a sub-mesh of the kernel's launch mesh (" +
                                                   names(launch.names) + "): its axis '" + mesh.names[i] + "' is not one of the launch axes");
    }
    axes.push_back(it - launch.names.begin());
  }
  bool device = false, block = false;
  std::vector<int64_t> clusterAxes;
  for (size_t k = 0; k < launch.names.size(); ++k)
    if (launch.levels.size() > k && launch.levels[k] == "block_cluster") clusterAxes.push_back(static_cast<int64_t>(k));
  for (int64_t k : axes) {
    const std::string &level = launch.levels.size() > static_cast<size_t>(k) ? launch.levels[k] : std::string();
    device |= level == "node" || level == "device";
    block |= level == "block";
  }
  std::sort(axes.begin(), axes.end());
  std::string kind = device ? "device" : block ? "grid" : axes == clusterAxes ? "cluster" : "submesh";
  if (device) {
    // The GPUs synchronize in the groups NCCL has teams for: every GPU ("device"), the GPUs of
    // each node (its NVLink/PCIe team: "node"), or one GPU per node, those with the same
    // device coordinates ("rail").
    bool allNodes = true, allDevices = true, someNode = false, someDevice = false;
    std::string missingNode, missingDevice;
    for (size_t k = 0; k < launch.names.size(); ++k) {
      if (!isDeviceLevel(launch, k)) continue;
      const bool in = std::find(axes.begin(), axes.end(), static_cast<int64_t>(k)) != axes.end();
      const bool node = launch.levels[k] == "node";
      (node ? allNodes : allDevices) &= in;
      (node ? someNode : someDevice) |= in;
      std::string &missing = node ? missingNode : missingDevice;
      if (!in && missing.empty()) missing = launch.names[k];
    }
    // The axis that splits a team: a device axis left out while others are in, else a node axis.
    const std::string missing = !allDevices && someDevice ? missingDevice : !missingNode.empty() ? missingNode : missingDevice;
    if (allNodes && allDevices) kind = "device";
    else if (allDevices && !someNode) kind = "node";
    else if (allNodes && !someDevice) kind = "rail";
    else {
      // Part of a node's GPUs: a strided NCCL team when the kept device axes are adjacent
      // (row-major ranks), in the node's own coordinates.
      std::vector<int64_t> nodeShape, kept;
      for (size_t k = 0; k < launch.names.size(); ++k) {
        if (launch.levels[k] != "device") continue;
        if (std::find(axes.begin(), axes.end(), static_cast<int64_t>(k)) != axes.end()) kept.push_back(static_cast<int64_t>(nodeShape.size()));
        nodeShape.push_back(launch.dims[k]);
      }
      if (someNode || kept.empty() || kept.back() - kept.front() + 1 != static_cast<int64_t>(kept.size()))
        cx.fail(where[0], DiagId::NotImplemented, "tle.distributed_barrier over part of the GPUs of a node (without its axis '" + missing +
                                                      "') needs the kept device axes adjacent and no node axis: NCCL's teams are strided ranges "
                                                      "of a node's GPUs");
      b.create<tle::ir::DistributedBarrierOp>(l, "node_group", nodeShape, kept);
      return Value::none();
    }
  }
  if (kind == "submesh") {
    // In the cluster's own coordinates: its block_cluster axes, and which of them the
    // synchronizing blocks span.
    std::vector<int64_t> clusterShape, memberAxes;
    for (size_t k = 0; k < clusterAxes.size(); ++k) {
      clusterShape.push_back(launch.dims[clusterAxes[k]]);
      if (std::find(axes.begin(), axes.end(), clusterAxes[k]) != axes.end()) memberAxes.push_back(static_cast<int64_t>(k));
    }
    if (memberAxes.size() != axes.size())
      cx.fail(where[0], DiagId::ShapeMismatch, "tle.distributed_barrier synchronizes the blocks of a cluster or of the whole grid; this "
                                               "sub-mesh mixes block_cluster axes with others");
    b.create<tle::ir::DistributedBarrierOp>(l, kind, clusterShape, memberAxes);
    return Value::none();
  }
  b.create<tle::ir::DistributedBarrierOp>(l, kind, launch.dims, axes);
  return Value::none();
}

}  // namespace

void registerRemoteBuiltins(BuiltinRegistry &r) {
  r.add("tle.remote", remote);
  r.add("tle.distributed_barrier", distributedBarrier);
}

}  // namespace tle::sema
