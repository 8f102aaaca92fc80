// The TLE distributed API at compile time: device meshes (and mesh[...] views), sharding
// specs and their rules, tle.make_sharded_tensor, and shard_id for the levels of a mesh.
#include "sema/builtins/Registry.h"

#include "ir/Dialect.h"
#include "ir/GpuDialect.h"

#include <set>

namespace tle::sema {

namespace {

std::string axisList(const Value &mesh) {
  std::string s;
  for (const std::string &n : mesh.names) s += (s.empty() ? "" : ", ") + n;
  return s;
}

Value makeMesh(std::vector<std::string> names, std::vector<int64_t> dims, std::vector<std::string> levels,
               const Value *parent = nullptr) {
  Value m;
  m.kind = Value::Kind::Mesh;
  m.names = std::move(names);
  m.dims = std::move(dims);
  m.levels = std::move(levels);
  m.launchNames = parent ? parent->launchNames : m.names;
  m.launchDims = parent ? parent->launchDims : m.dims;
  m.launchLevels = parent ? parent->launchLevels : m.levels;
  return m;
}

}  // namespace

bool isDeviceLevel(const Value &mesh, size_t axis) {
  const std::string &level = axis < mesh.levels.size() ? mesh.levels[axis] : std::string();
  return level == "node" || level == "device";
}

bool isClusterLevel(const Value &mesh, size_t axis) { return axis < mesh.levels.size() && mesh.levels[axis] == "block_cluster"; }

void noteLaunchMesh(LoweringContext &cx, const Value &mesh, SourceRange at, const std::string &what) {
  BuiltinState &state = cx.state();
  if (!state.launchMesh) {
    Value launch = makeMesh(mesh.launchNames, mesh.launchDims, mesh.launchLevels, &mesh);
    int64_t blocks = 1, ranks = 1, nodes = 1;
    bool devices = false;
    for (size_t i = 0; i < launch.dims.size(); ++i) {
      if (isClusterLevel(launch, i)) blocks *= launch.dims[i];
      if (isDeviceLevel(launch, i)) ranks *= launch.dims[i], devices = true;
      if (launch.levels[i] == "node") nodes *= launch.dims[i];
    }
    if (blocks > 1 && !cx.target().has(Feature::Clusters))
      cx.fail(at, DiagId::TierNotForTarget, "the mesh's block_cluster level launches thread-block clusters of " + std::to_string(blocks) +
                                                " blocks, which need cuda:sm_90 or later; the target is " + cx.target().name());
    // Beyond the portable size the launcher opts in to non-portable clusters.
    if (const int most = cx.target().maxClusterBlocks(); blocks > 1 && blocks > most)
      cx.fail(at, DiagId::ShapeMismatch, "the mesh's block_cluster level makes clusters of " + std::to_string(blocks) +
                                             " blocks, over " + cx.target().name() + "'s limit of " + std::to_string(most) +
                                             " (" + std::to_string(cx.target().portableClusterBlocks()) +
                                             " portable, more with the non-portable opt-in the launcher makes)");
    state.launchMesh = launch;
    state.launchMeshAt = at;
    state.clusterSize = static_cast<unsigned>(blocks);
    state.meshRanks = devices ? static_cast<unsigned>(ranks) : 0;
    state.meshNodes = static_cast<unsigned>(nodes);
    return;
  }
  if (state.launchMesh->names != mesh.launchNames || state.launchMesh->dims != mesh.launchDims) {
    cx.diags().report(DiagId::ShapeMismatch, at, what + " is not a sub-mesh of the kernel's launch mesh (" + axisList(*state.launchMesh) +
                                                     "); a kernel launches on one device mesh")
        .note(state.launchMeshAt, "the launch mesh was fixed here");
    throw LoweringFailed{};
  }
}

// mesh[i] drops axis i; mesh[a:b] keeps axes a..b-1; `...` keeps the rest.
Value meshSubscript(LoweringContext &cx, const Value &mesh, const std::vector<const ast::Expr *> &indices, SourceRange at,
                    const std::function<Value(const ast::Expr &)> &evaluate) {
  std::vector<std::string> names, levels;
  std::vector<int64_t> dims;
  size_t axis = 0;
  auto keep = [&](size_t a) {
    names.push_back(mesh.names[a]);
    dims.push_back(mesh.dims[a]);
    levels.push_back(mesh.levels[a]);
  };
  for (const ast::Expr *idx : indices) {
    if (auto *sl = ast::dyn_cast<ast::Slice>(idx)) {
      int64_t n = static_cast<int64_t>(mesh.dims.size()) - static_cast<int64_t>(axis);
      int64_t lo = sl->lower ? cx.requireInt(evaluate(*sl->lower), idx->range, "a mesh slice bound") : 0;
      int64_t hi = sl->upper ? cx.requireInt(evaluate(*sl->upper), idx->range, "a mesh slice bound") : n;
      if (lo < 0 || hi > n || lo >= hi) cx.fail(idx->range, DiagId::ShapeMismatch, "an empty or out-of-range mesh slice");
      if (sl->step && cx.requireInt(evaluate(*sl->step), sl->step->range, "a mesh slice step") != 1)
        cx.fail(sl->step->range, DiagId::NotImplemented, "a mesh slice with a step (it keeps a range of adjacent axes)");
      (void)lo;
      for (int64_t i = 0; i < n && axis < mesh.dims.size(); ++i, ++axis)
        if (i >= lo && i < hi) keep(axis);
      continue;
    }
    Value v = evaluate(*idx);
    if (v.kind == Value::Kind::Ellipsis) {
      for (; axis < mesh.dims.size(); ++axis) keep(axis);
      continue;
    }
    int64_t i = cx.requireInt(v, idx->range, "a mesh index");
    if (axis >= mesh.dims.size() || i < 0 || i >= mesh.dims[axis])
      cx.fail(idx->range, DiagId::ShapeMismatch, "index " + std::to_string(i) + " is out of range for a mesh of shape (" +
                                                     axisList(mesh) + ")");
    ++axis;  // an integer selects one coordinate: the axis is dropped
  }
  for (; axis < mesh.dims.size(); ++axis) keep(axis);
  if (dims.empty()) cx.fail(at, DiagId::NotImplemented, "a mesh indexed down to a single device is not supported");
  return makeMesh(names, dims, levels, &mesh);
}

namespace {

// Argument `i`, given positionally or by its keyword.
std::optional<Value> argAt(const CallArgs &args, size_t i, const char *key) {
  if (i < args.positional.size()) return args.positional[i];
  for (auto &[k, v] : args.keywords)
    if (k == key) return v;
  return std::nullopt;
}

// tle.device_mesh(topology): {"level": size or [(name, size), ...], ...}, outermost first.
Value deviceMesh(LoweringContext &cx, BuiltinCall &c) {
  SourceRange at = c.at;
  std::optional<Value> topo = argAt(c.args, 0, "topology");
  if (!topo || topo->kind != Value::Kind::Dict)
    cx.fail(at, DiagId::TypeMismatch, "tle.device_mesh needs a topology dict such as {\"device\": 4, \"block\": 8}");
  if (topo->elements.empty()) cx.fail(at, DiagId::ConstantError, "the topology cannot be empty");
  std::vector<std::string> names, levels;
  std::vector<int64_t> dims;
  std::set<std::string> seen;
  for (size_t i = 0; i < topo->elements.size(); ++i) {
    if (topo->dictKeys[i].kind != Value::Kind::Str) cx.fail(at, DiagId::TypeMismatch, "topology keys must be level names (strings)");
    const std::string &level = topo->dictKeys[i].text;
    const Value &v = topo->elements[i];
    auto add = [&](const std::string &n, const Value &size) {
      if (size.kind != Value::Kind::Int) cx.fail(at, DiagId::TypeMismatch, "the size of '" + n + "' must be an integer");
      if (size.intValue <= 0) cx.fail(at, DiagId::ConstantError, "'" + n + "' must have a positive size, got " + std::to_string(size.intValue));
      if (!seen.insert(n).second) cx.fail(at, DiagId::ConstantError, "mesh dimension names must be unique; '" + n + "' appears twice");
      names.push_back(n);
      dims.push_back(size.intValue);
      levels.push_back(level);
    };
    if (v.kind == Value::Kind::Int) {
      add(level, v);
    } else if (v.kind == Value::Kind::Tuple) {
      for (const Value &d : v.elements) {
        if (d.kind != Value::Kind::Tuple || d.elements.size() != 2 || d.elements[0].kind != Value::Kind::Str)
          cx.fail(at, DiagId::TypeMismatch, "topology['" + level + "'] must be an int or a list of (name, size) pairs");
        add(d.elements[0].text, d.elements[1]);
      }
    } else {
      cx.fail(at, DiagId::TypeMismatch, "topology['" + level + "'] must be an int or a list of (name, size) pairs, got " + v.describe());
    }
  }
  return makeMesh(names, dims, levels);
}

Value meshFlatten(LoweringContext &cx, BuiltinCall &c) {
  int64_t n = 1;
  for (int64_t d : c.args.positional[0].dims) n *= d;
  return makeMesh({"flat"}, {n}, {""}, &c.args.positional[0]);
}

Value meshReshape(LoweringContext &cx, BuiltinCall &c) {
  SourceRange at = c.at;
  const Value &mesh = c.args.positional[0];
  std::vector<Value> shape(c.args.positional.begin() + 1, c.args.positional.end());
  if (shape.size() == 1 && shape[0].kind == Value::Kind::Tuple) shape = shape[0].elements;
  std::vector<int64_t> dims;
  int64_t n = 1, m = 1;
  for (const Value &d : shape) dims.push_back(cx.requireInt(d, at, "a mesh dimension")), n *= dims.back();
  for (int64_t d : mesh.dims) m *= d;
  if (n != m) cx.fail(at, DiagId::ShapeMismatch, "cannot reshape a mesh of " + std::to_string(m) + " devices into " + std::to_string(n));
  std::vector<std::string> names = mesh.names, levels = mesh.levels;
  if (dims.size() != mesh.dims.size()) {
    names.clear();
    for (size_t i = 0; i < dims.size(); ++i) names.push_back("dim" + std::to_string(i));
    levels.assign(dims.size(), "");
  }
  return makeMesh(names, dims, levels, &mesh);
}

// tle.S(axis) / tle.P(axis): the axis names themselves.
Value meshAxes(LoweringContext &cx, BuiltinCall &c) {
  if (c.args.positional.size() != 1) cx.fail(c.at, DiagId::ArgumentMismatch, c.name + " takes one mesh axis (or a list of axes)");
  return c.args.positional[0];
}

// The mesh a sharding or shard_id is over: its first argument.
Value meshOperand(LoweringContext &cx, BuiltinCall &c) {
  std::optional<Value> meshArg = argAt(c.args, 0, "mesh");
  if (!meshArg || meshArg->kind != Value::Kind::Mesh)
    cx.fail(c.at, DiagId::TypeMismatch, c.name + " needs a device mesh (tle.device_mesh) as its first argument");
  return *meshArg;
}

void checkAxis(LoweringContext &cx, const Value &mesh, const std::string &axis, SourceRange at) {
  for (const std::string &n : mesh.names)
    if (n == axis) return;
  cx.fail(at, DiagId::ShapeMismatch, "unknown mesh axis '" + axis + "'; the mesh has: " + axisList(mesh));
}

// tle.sharding(mesh, split, partial): per tensor dimension the mesh axes it is split over,
// and the axes holding partial sums.
Value sharding(LoweringContext &cx, BuiltinCall &c) {
  SourceRange at = c.at;
  const Value mesh = meshOperand(cx, c);
  Value spec;
  spec.kind = Value::Kind::Sharding;
  std::set<std::string> split;
  if (std::optional<Value> s = argAt(c.args, 1, "split"); s && s->kind != Value::Kind::None) {
    if (s->kind != Value::Kind::Tuple) cx.fail(at, DiagId::TypeMismatch, "split must be a list with one entry per tensor dimension");
    for (const Value &entry : s->elements) {
      std::vector<std::string> axes;
      std::vector<Value> items = entry.kind == Value::Kind::Tuple ? entry.elements : std::vector<Value>{entry};
      for (const Value &a : items) {
        if (a.kind == Value::Kind::None) continue;  // tle.B: replicated along this dimension
        if (a.kind != Value::Kind::Str) cx.fail(at, DiagId::TypeMismatch, "split entries must be mesh axis names, got " + a.describe());
        checkAxis(cx, mesh, a.text, at);
        if (!split.insert(a.text).second) cx.fail(at, DiagId::ShapeMismatch, "mesh axis '" + a.text + "' is split more than once");
        axes.push_back(a.text);
      }
      spec.splits.push_back(axes);
    }
  }
  if (std::optional<Value> p = argAt(c.args, 2, "partial"); p && p->kind != Value::Kind::None) {
    std::vector<Value> items = p->kind == Value::Kind::Tuple ? p->elements : std::vector<Value>{*p};
    for (const Value &a : items) {
      if (a.kind != Value::Kind::Str) cx.fail(at, DiagId::TypeMismatch, "partial entries must be mesh axis names, got " + a.describe());
      checkAxis(cx, mesh, a.text, at);
      if (split.count(a.text)) cx.fail(at, DiagId::ShapeMismatch, "mesh axis '" + a.text + "' cannot be both split and partial");
      spec.names.push_back(a.text);
    }
  }
  return spec;
}

// This program's coordinate along axis `axis` of `mesh` (noteLaunchMesh has run).
Value axisCoordinate(LoweringContext &cx, const Value &mesh, size_t axis, SourceRange at) {
  TType i32;
  i32.dtype = DType::I32;
  mlir::OpBuilder &b = cx.builder();
  auto coordinate = [&](Value linear, int64_t stride) {
    Value coord = stride == 1 ? linear : cx.binary(ast::BinaryOp::FloorDiv, linear, Value::ofInt(stride), at, at, at);
    return cx.binary(ast::BinaryOp::Mod, coord, Value::ofInt(mesh.dims[axis]), at, at, at);
  };
  if (isDeviceLevel(mesh, axis)) {
    // Across GPUs: the process's rank enumerates the node and device axes row-major.
    int64_t stride = 1;
    for (size_t i = axis + 1; i < mesh.dims.size(); ++i)
      if (isDeviceLevel(mesh, i)) stride *= mesh.dims[i];
    return coordinate(Value::ofRuntime(b.create<tle::ir::RankOp>(cx.loc(at), b.getI32Type()).getResult(), i32), stride);
  }
  if (isClusterLevel(mesh, axis)) {
    // Within the cluster: the block's cluster rank enumerates the launch mesh's
    // block_cluster axes row-major (a view keeps the launch mesh's axis names).
    const Value &launch = *cx.state().launchMesh;
    size_t k = 0;
    while (k < launch.names.size() && launch.names[k] != mesh.names[axis]) ++k;
    int64_t stride = 1;
    for (size_t i = k + 1; i < launch.dims.size(); ++i)
      if (isClusterLevel(launch, i)) stride *= launch.dims[i];
    return coordinate(Value::ofRuntime(b.create<tle::gpu::ClusterRankOp>(cx.loc(at), b.getI32Type()).getResult(), i32), stride);
  }
  // Program instances enumerate the other block levels of the mesh row-major (and wrap
  // around after the last); with clusters, program ids count clusters of consecutive
  // blocks first.
  int64_t stride = 1;
  for (size_t i = axis + 1; i < mesh.dims.size(); ++i)
    if (!isDeviceLevel(mesh, i) && !isClusterLevel(mesh, i)) stride *= mesh.dims[i];
  Value pid = Value::ofRuntime(b.create<tle::ir::ProgramIdOp>(cx.loc(at), b.getI32Type(), b.getI32IntegerAttr(0)).getResult(), i32);
  if (cx.state().clusterSize > 1) pid = cx.binary(ast::BinaryOp::FloorDiv, pid, Value::ofInt(cx.state().clusterSize), at, at, at);
  return coordinate(pid, stride);
}

// tle.shard_id(mesh, axis): this program's coordinate along a mesh axis. A level name
// ("node" for [("node_x", 2), ("node_y", 2)]) is the coordinate along all of its axes,
// row-major.
Value shardId(LoweringContext &cx, BuiltinCall &c) {
  SourceRange at = c.at;
  const Value mesh = meshOperand(cx, c);
  std::optional<Value> axisArg = argAt(c.args, 1, "axis");
  if (!axisArg) cx.fail(at, DiagId::ArgumentMismatch, "tle.shard_id needs a mesh axis");
  std::vector<size_t> axes;
  if (axisArg->kind == Value::Kind::Str) {
    for (size_t i = 0; i < mesh.names.size(); ++i)
      if (mesh.names[i] == axisArg->text) axes.push_back(i);
    if (axes.empty())
      for (size_t i = 0; i < mesh.levels.size(); ++i)
        if (mesh.levels[i] == axisArg->text) axes.push_back(i);
    if (axes.empty()) {
      std::string levels;
      for (size_t i = 0; i < mesh.levels.size(); ++i)
        if (!mesh.levels[i].empty() && (i == 0 || mesh.levels[i] != mesh.levels[i - 1])) levels += (levels.empty() ? "" : ", ") + mesh.levels[i];
      cx.fail(at, DiagId::ShapeMismatch, "unknown mesh axis '" + axisArg->text + "'; the mesh has: " + axisList(mesh) +
                                             (levels.empty() ? "" : " (levels: " + levels + ")"));
    }
  } else {
    int64_t i = cx.requireInt(*axisArg, at, "the mesh axis");
    int64_t n = static_cast<int64_t>(mesh.dims.size());
    if (i < -n || i >= n) cx.fail(at, DiagId::ShapeMismatch, "axis index " + std::to_string(i) + " is out of range for the mesh (" + axisList(mesh) + ")");
    axes.push_back(static_cast<size_t>(i < 0 ? i + n : i));
  }
  noteLaunchMesh(cx, mesh, at, "tle.shard_id's mesh");
  Value id;
  for (size_t axis : axes) {
    Value coord = axisCoordinate(cx, mesh, axis, at);
    id = id.kind == Value::Kind::None
             ? coord
             : cx.binary(ast::BinaryOp::Add, cx.binary(ast::BinaryOp::Mul, id, Value::ofInt(mesh.dims[axis]), at, at, at), coord, at, at, at);
  }
  return id;
}

Value makeShardedTensor(LoweringContext &cx, BuiltinCall &c) {
  auto a = bindArgs(cx, "tle.make_sharded_tensor", {{"handle", true}, {"sharding", true}, {"shape", false}}, c.args, c.at);
  if (a[1]->kind != Value::Kind::Sharding) cx.fail(c.at, DiagId::TypeMismatch, "sharding= must be a tle.sharding spec, got " + a[1]->describe());
  if (a[2] && a[2]->kind == Value::Kind::Tuple && !a[1]->splits.empty() && a[1]->splits.size() != a[2]->elements.size())
    cx.fail(c.at, DiagId::ShapeMismatch, "the split rank (" + std::to_string(a[1]->splits.size()) + ") must match the tensor rank (" +
                                             std::to_string(a[2]->elements.size()) + ")");
  return *a[0];  // sharding is metadata on the handle
}

}  // namespace

void registerDistributedBuiltins(BuiltinRegistry &r) {
  r.add("tle.device_mesh", deviceMesh);
  r.add("mesh.flatten", meshFlatten);
  r.add("mesh.reshape", meshReshape);
  r.add("tle.S", meshAxes);
  r.add("tle.P", meshAxes);
  r.add("tle.sharding", sharding);
  r.add("tle.shard_id", shardId);
  r.add("tle.make_sharded_tensor", makeShardedTensor);
}

}  // namespace tle::sema
