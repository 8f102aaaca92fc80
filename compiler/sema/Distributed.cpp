// The TLE distributed API at compile time: device meshes, sharding specs and their
// rules, and shard_id for the block levels of a mesh.
#include "sema/Lowering.h"

#include "ir/Dialect.h"

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

void FunctionLowering::noteLaunchMesh(const Value &mesh, SourceRange at, const std::string &what) {
  if (!launchMesh_) {
    Value launch = makeMesh(mesh.launchNames, mesh.launchDims, mesh.launchLevels, &mesh);
    launchMesh_ = launch;
    launchMeshAt_ = at;
    return;
  }
  if (launchMesh_->names != mesh.launchNames || launchMesh_->dims != mesh.launchDims) {
    diags_.report(DiagId::ShapeMismatch, at, what + " is not a sub-mesh of the kernel's launch mesh (" + axisList(*launchMesh_) +
                                                 "); a kernel launches on one device mesh")
        .note(launchMeshAt_, "the launch mesh was fixed here");
    throw LoweringFailed{};
  }
}

// mesh[i] drops axis i; mesh[a:b] keeps axes a..b-1; `...` keeps the rest.
Value FunctionLowering::meshSubscript(const Value &mesh, const std::vector<const ast::Expr *> &indices, SourceRange at) {
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
      int64_t lo = sl->lower ? requireInt(expr(*sl->lower), idx->range, "a mesh slice bound") : 0;
      int64_t hi = sl->upper ? requireInt(expr(*sl->upper), idx->range, "a mesh slice bound") : n;
      if (lo < 0 || hi > n || lo >= hi) fail(idx->range, DiagId::ShapeMismatch, "an empty or out-of-range mesh slice");
      (void)lo;
      for (int64_t i = 0; i < n && axis < mesh.dims.size(); ++i, ++axis)
        if (i >= lo && i < hi) keep(axis);
      continue;
    }
    Value v = expr(*idx);
    if (v.kind == Value::Kind::Ellipsis) {
      for (; axis < mesh.dims.size(); ++axis) keep(axis);
      continue;
    }
    int64_t i = requireInt(v, idx->range, "a mesh index");
    if (axis >= mesh.dims.size() || i < 0 || i >= mesh.dims[axis])
      fail(idx->range, DiagId::ShapeMismatch, "index " + std::to_string(i) + " is out of range for a mesh of shape (" +
                                                  axisList(mesh) + ")");
    ++axis;  // an integer selects one coordinate: the axis is dropped
  }
  for (; axis < mesh.dims.size(); ++axis) keep(axis);
  if (dims.empty()) fail(at, DiagId::NotImplemented, "a mesh indexed down to a single device is not supported");
  return makeMesh(names, dims, levels, &mesh);
}

Value FunctionLowering::distributed(const std::string &name, CallArgs &args, SourceRange at) {
  std::vector<std::string> dummy;
  auto arg = [&](size_t i, const char *key) -> std::optional<Value> {
    if (i < args.positional.size()) return args.positional[i];
    for (auto &[k, v] : args.keywords)
      if (k == key) return v;
    return std::nullopt;
  };
  if (name == "tle.device_mesh") {
    std::optional<Value> topo = arg(0, "topology");
    if (!topo || topo->kind != Value::Kind::Dict)
      fail(at, DiagId::TypeMismatch, "tle.device_mesh needs a topology dict such as {\"device\": 4, \"block\": 8}");
    if (topo->elements.empty()) fail(at, DiagId::ConstantError, "the topology cannot be empty");
    std::vector<std::string> names, levels;
    std::vector<int64_t> dims;
    std::set<std::string> seen;
    for (size_t i = 0; i < topo->elements.size(); ++i) {
      if (topo->dictKeys[i].kind != Value::Kind::Str) fail(at, DiagId::TypeMismatch, "topology keys must be level names (strings)");
      const std::string &level = topo->dictKeys[i].text;
      const Value &v = topo->elements[i];
      auto add = [&](const std::string &n, const Value &size) {
        if (size.kind != Value::Kind::Int) fail(at, DiagId::TypeMismatch, "the size of '" + n + "' must be an integer");
        if (size.intValue <= 0) fail(at, DiagId::ConstantError, "'" + n + "' must have a positive size, got " + std::to_string(size.intValue));
        if (!seen.insert(n).second) fail(at, DiagId::ConstantError, "mesh dimension names must be unique; '" + n + "' appears twice");
        names.push_back(n);
        dims.push_back(size.intValue);
        levels.push_back(level);
      };
      if (v.kind == Value::Kind::Int) {
        add(level, v);
      } else if (v.kind == Value::Kind::Tuple) {
        for (const Value &d : v.elements) {
          if (d.kind != Value::Kind::Tuple || d.elements.size() != 2 || d.elements[0].kind != Value::Kind::Str)
            fail(at, DiagId::TypeMismatch, "topology['" + level + "'] must be an int or a list of (name, size) pairs");
          add(d.elements[0].text, d.elements[1]);
        }
      } else {
        fail(at, DiagId::TypeMismatch, "topology['" + level + "'] must be an int or a list of (name, size) pairs, got " + v.describe());
      }
    }
    return makeMesh(names, dims, levels);
  }
  if (name == "mesh.flatten") {
    int64_t n = 1;
    for (int64_t d : args.positional[0].dims) n *= d;
    return makeMesh({"flat"}, {n}, {""}, &args.positional[0]);
  }
  if (name == "mesh.reshape") {
    const Value &mesh = args.positional[0];
    std::vector<Value> shape(args.positional.begin() + 1, args.positional.end());
    if (shape.size() == 1 && shape[0].kind == Value::Kind::Tuple) shape = shape[0].elements;
    std::vector<int64_t> dims;
    int64_t n = 1, m = 1;
    for (const Value &d : shape) dims.push_back(requireInt(d, at, "a mesh dimension")), n *= dims.back();
    for (int64_t d : mesh.dims) m *= d;
    if (n != m) fail(at, DiagId::ShapeMismatch, "cannot reshape a mesh of " + std::to_string(m) + " devices into " + std::to_string(n));
    std::vector<std::string> names = mesh.names, levels = mesh.levels;
    if (dims.size() != mesh.dims.size()) {
      names.clear();
      for (size_t i = 0; i < dims.size(); ++i) names.push_back("dim" + std::to_string(i));
      levels.assign(dims.size(), "");
    }
    return makeMesh(names, dims, levels, &mesh);
  }
  if (name == "tle.S" || name == "tle.P") {
    if (args.positional.size() != 1) fail(at, DiagId::ArgumentMismatch, name + " takes one mesh axis (or a list of axes)");
    return args.positional[0];
  }
  std::optional<Value> meshArg = arg(0, "mesh");
  if (!meshArg || meshArg->kind != Value::Kind::Mesh)
    fail(at, DiagId::TypeMismatch, name + " needs a device mesh (tle.device_mesh) as its first argument");
  const Value &mesh = *meshArg;
  auto checkAxis = [&](const std::string &axis) {
    for (const std::string &n : mesh.names)
      if (n == axis) return;
    fail(at, DiagId::ShapeMismatch, "unknown mesh axis '" + axis + "'; the mesh has: " + axisList(mesh));
  };
  if (name == "tle.sharding") {
    Value spec;
    spec.kind = Value::Kind::Sharding;
    std::set<std::string> split;
    if (std::optional<Value> s = arg(1, "split"); s && s->kind != Value::Kind::None) {
      if (s->kind != Value::Kind::Tuple) fail(at, DiagId::TypeMismatch, "split must be a list with one entry per tensor dimension");
      for (const Value &entry : s->elements) {
        std::vector<std::string> axes;
        std::vector<Value> items = entry.kind == Value::Kind::Tuple ? entry.elements : std::vector<Value>{entry};
        for (const Value &a : items) {
          if (a.kind == Value::Kind::None) continue;  // tle.B: replicated along this dimension
          if (a.kind != Value::Kind::Str) fail(at, DiagId::TypeMismatch, "split entries must be mesh axis names, got " + a.describe());
          checkAxis(a.text);
          if (!split.insert(a.text).second) fail(at, DiagId::ShapeMismatch, "mesh axis '" + a.text + "' is split more than once");
          axes.push_back(a.text);
        }
        spec.splits.push_back(axes);
      }
    }
    if (std::optional<Value> p = arg(2, "partial"); p && p->kind != Value::Kind::None) {
      std::vector<Value> items = p->kind == Value::Kind::Tuple ? p->elements : std::vector<Value>{*p};
      for (const Value &a : items) {
        if (a.kind != Value::Kind::Str) fail(at, DiagId::TypeMismatch, "partial entries must be mesh axis names, got " + a.describe());
        checkAxis(a.text);
        if (split.count(a.text)) fail(at, DiagId::ShapeMismatch, "mesh axis '" + a.text + "' cannot be both split and partial");
        spec.names.push_back(a.text);
      }
    }
    return spec;
  }
  if (name == "tle.shard_id") {
    std::optional<Value> axisArg = arg(1, "axis");
    if (!axisArg) fail(at, DiagId::ArgumentMismatch, "tle.shard_id needs a mesh axis");
    size_t axis = 0;
    if (axisArg->kind == Value::Kind::Str) {
      checkAxis(axisArg->text);
      while (mesh.names[axis] != axisArg->text) ++axis;
    } else {
      int64_t i = requireInt(*axisArg, at, "the mesh axis");
      int64_t n = static_cast<int64_t>(mesh.dims.size());
      if (i < -n || i >= n) fail(at, DiagId::ShapeMismatch, "axis index " + std::to_string(i) + " is out of range for the mesh (" + axisList(mesh) + ")");
      axis = static_cast<size_t>(i < 0 ? i + n : i);
    }
    noteLaunchMesh(mesh, at, "tle.shard_id's mesh");
    if (isDeviceLevel(mesh, axis)) {
      // Across GPUs: the process's rank enumerates the node and device axes row-major.
      int64_t stride = 1;
      for (size_t i = axis + 1; i < mesh.dims.size(); ++i)
        if (isDeviceLevel(mesh, i)) stride *= mesh.dims[i];
      TType i32;
      i32.dtype = DType::I32;
      Value rank = Value::ofRuntime(builder_.create<tle::ir::RankOp>(loc(at), builder_.getI32Type()).getResult(), i32);
      Value coord = binary(ast::BinaryOp::FloorDiv, rank, Value::ofInt(stride), at, at, at);
      return binary(ast::BinaryOp::Mod, coord, Value::ofInt(mesh.dims[axis]), at, at, at);
    }
    // Program instances enumerate the block levels of the mesh row-major: coordinate =
    // linear / stride % size.
    int64_t total = 1, stride = 1;
    for (size_t i = 0; i < mesh.dims.size(); ++i)
      if (!isDeviceLevel(mesh, i)) total *= mesh.dims[i];
    for (size_t i = axis + 1; i < mesh.dims.size(); ++i)
      if (!isDeviceLevel(mesh, i)) stride *= mesh.dims[i];
    TType i32;
    i32.dtype = DType::I32;
    Value pid = Value::ofRuntime(builder_.create<tle::ir::ProgramIdOp>(loc(at), builder_.getI32Type(), builder_.getI32IntegerAttr(0)).getResult(), i32);
    Value linear = binary(ast::BinaryOp::Mod, pid, Value::ofInt(total), at, at, at);
    Value coord = binary(ast::BinaryOp::FloorDiv, linear, Value::ofInt(stride), at, at, at);
    return binary(ast::BinaryOp::Mod, coord, Value::ofInt(mesh.dims[axis]), at, at, at);
  }
  fail(at, DiagId::NotImplemented, name + " is not implemented yet in tlec's lowering");
}

}  // namespace tle::sema
