// The builtin registry: each builtin's qualified name (or the family of names) mapped to the
// handler that lowers a call of it. Handlers are grouped by family, one registration
// function per family; they see a LoweringContext, not the walker. Also the helpers more
// than one family uses.
#pragma once

#include "sema/LoweringContext.h"

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace tle::sema {

// One call of a builtin, as its handler receives it.
struct BuiltinCall {
  const Value &fn;          // the builtin called; its bound `self` is already args.positional[0]
  const std::string &name;  // fn.text: "triton.language.load", "method.sum", "tle.gpu.alloc"
  std::string member;       // the name's last component: "load", "sum", "alloc"
  CallArgs &args;
  SourceRange at;
};

using BuiltinHandler = Value (*)(LoweringContext &cx, BuiltinCall &call);

class BuiltinRegistry {
public:
  // Every family registered (built on first use).
  static const BuiltinRegistry &get();

  // One qualified name: "triton.language.load", "tle.remote", "len".
  void add(const std::string &name, BuiltinHandler handler);
  // tl.X and the block method x.X ("triton.language.X" and "method.X") for member X.
  void addTlOrMethod(const std::string &member, BuiltinHandler handler);
  // Every other name under `prefix` but not under `except`: the names a family does not
  // list one by one ("dist.", "tle.gpu." but not "tle.gpu.storage.").
  void addFamily(const std::string &prefix, BuiltinHandler handler, const std::string &except = "");

  // Exact names first, then tl./method. members, then families; null when none applies.
  BuiltinHandler find(const std::string &name, const std::string &member) const;

private:
  struct Family {
    std::string prefix, except;
    BuiltinHandler handler;
  };
  std::map<std::string, BuiltinHandler> exact_;
  std::map<std::string, BuiltinHandler> tlOrMethod_;
  std::vector<Family> families_;
};

// One registration function per handler file (named after it), grouped by family.
void registerPythonBuiltins(BuiltinRegistry &r);  // Python's builtins, Triton's compile-time helpers
void registerCreationBuiltins(BuiltinRegistry &r);  // program geometry, block creation, hints
// memory
void registerMemoryBuiltins(BuiltinRegistry &r);
void registerDescriptorBuiltins(BuiltinRegistry &r);
void registerDotBuiltins(BuiltinRegistry &r);
// reductions and scans
void registerReductionBuiltins(BuiltinRegistry &r);
void registerSortingBuiltins(BuiltinRegistry &r);  // tl.sort, tl.topk, tl.histogram
void registerScanBuiltins(BuiltinRegistry &r);
// element-wise math
void registerElementwiseBuiltins(BuiltinRegistry &r);
void registerMathExtraBuiltins(BuiltinRegistry &r);
// shapes
void registerShapeBuiltins(BuiltinRegistry &r);
void registerSplitJoinBuiltins(BuiltinRegistry &r);
// TLE-Struct for GPUs
void registerGpuStructBuiltins(BuiltinRegistry &r);
void registerWarpSpecializeBuiltins(BuiltinRegistry &r);
void registerPipeBuiltins(BuiltinRegistry &r);
// TLE-Struct for DSAs
void registerDsaStructBuiltins(BuiltinRegistry &r);
void registerDsaCubeBuiltins(BuiltinRegistry &r);
// distributed: TLE's meshes, remote access and barriers; Triton-distributed's dl.*
void registerDistributedBuiltins(BuiltinRegistry &r);
void registerRemoteBuiltins(BuiltinRegistry &r);
void registerTritonDistBuiltins(BuiltinRegistry &r);
void registerRawBuiltins(BuiltinRegistry &r);  // TLE-Raw: tle.call
void registerDebugBuiltins(BuiltinRegistry &r);  // printing, assertions, static_*

// ---- helpers shared by families ----

// A block shape: one int or a tuple of them, each a power of two.
std::vector<int64_t> blockShapeArg(LoweringContext &cx, const Value &v, SourceRange at);
// A shape of any compile-time ints (buffers check their own rules).
std::vector<int64_t> shapeArgAny(LoweringContext &cx, const Value &v, SourceRange at);
// A list of integer scalars (shape entries, strides, offsets) as `d` values; `what` names
// them in errors.
std::vector<mlir::Value> integers(LoweringContext &cx, const Value &list, SourceRange r, DType d, const char *what);

// The combine step of a reduction or scan on scalars: accumulated and next values in,
// combined values out (Reductions.cpp).
using Combine = std::function<std::vector<Value>(const std::vector<Value> &acc, const std::vector<Value> &next)>;
// Reduces same-shaped blocks along `axis` (None: all axes, flattened first) with a
// scalar combine step; returns one value per input.
std::vector<Value> reduce(LoweringContext &cx, std::vector<Value> inputs, std::optional<int64_t> axis, bool keepDims,
                          const Combine &combine, SourceRange at);
// Builds the combine region of a reduce or scan over `inputs`: 2N scalar arguments
// (accumulated, then new), the user's combine step, its results cast to the inputs'
// types. Returns the values to yield; the builder is left at the end of the region.
std::vector<mlir::Value> combineRegion(LoweringContext &cx, mlir::Region &region, const std::vector<Value> &inputs,
                                       const Combine &combine, mlir::Location l, SourceRange at);
// A user combine function (a @jit function or a lambda) called on scalars.
std::vector<Value> callCombine(LoweringContext &cx, const Value &fn, const std::vector<Value> &acc,
                               const std::vector<Value> &next, SourceRange at);

// True when axis `axis` of a mesh is a node or device level (across GPUs), not a block
// level (Distributed.cpp).
bool isDeviceLevel(const Value &mesh, size_t axis);
// True when axis `axis` of a mesh is a block_cluster level (blocks of one thread-block cluster).
bool isClusterLevel(const Value &mesh, size_t axis);
// Fixes the kernel's launch mesh at its first use (and with it the cluster size, checked
// against the target); later meshes must be views of it.
// `what` names the mesh in the error ("tle.distributed_barrier's mesh").
void noteLaunchMesh(LoweringContext &cx, const Value &mesh, SourceRange at, const std::string &what);

}  // namespace tle::sema
