// Lowers one kernel specialization from the AST to the `tle` dialect, the way Triton's
// code generator does: a single walk that evaluates compile-time values, inlines @jit
// helpers, infers dtypes and shapes, and emits IR for everything else.
#pragma once

#include "sema/Value.h"
#include "support/Diagnostics.h"
#include "target/Target.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace tle::sema {

// Thrown after a diagnostic: abandons the kernel being lowered.
struct LoweringFailed {};

// Names visible at module level: imports, functions, and module-level assignments
// (evaluated when first used).
struct ModuleScope {
  std::map<std::string, Value> names;
  std::map<std::string, const ast::Expr *> lazyAssignments;
  // `from MODULE import NAME as ALIAS`: ALIAS -> (the module, NAME), resolved on use.
  std::map<std::string, std::pair<Value, std::string>> fromImports;
  FileId file = kNoFile;
  std::string fileName;
  const TargetInfo *target = &defaultTarget();  // which tiers, memories and features there are
  unsigned numWarps = 4;               // the program's threads are numWarps * 32 (TLE-Raw calls)
  // Imported modules that are not .tle files (host libraries such as torch, or a
  // misspelt module): why a kernel cannot use them, with the paths searched.
  std::map<std::string, std::string> unresolvedImports;
};

// One argument as written at a call site.
struct CallArgs {
  std::vector<Value> positional;
  std::vector<std::pair<std::string, Value>> keywords;
  std::vector<SourceRange> positionalRanges;
  std::vector<SourceRange> keywordRanges;
};

// One parameter of a builtin: its keyword name and whether it must be given.
struct ParamSpec {
  const char *name;
  bool required;
};

class FunctionLowering;

// Binds call arguments to a builtin's parameters, Python style; `ranges` receives where
// each argument was written (the call for absent ones).
std::vector<std::optional<Value>> bindArgs(FunctionLowering &fl, const std::string &fn, const std::vector<ParamSpec> &params,
                                           CallArgs &args, SourceRange at, std::vector<SourceRange> *ranges = nullptr);

class FunctionLowering {
public:
  FunctionLowering(ModuleScope &module, mlir::OpBuilder &builder, DiagnosticEngine &diags)
      : root_(module), builder_(builder), diags_(diags) {}

  // Lowers the body of `fn` (defined in `scope`) into the current insertion block with
  // `params` bound. Returns the value of its `return` (None if there is none).
  Value lowerFunctionBody(const ast::FunctionDef &fn, ModuleScope &scope, std::map<std::string, Value> params,
                          int inlineDepth);

  // Evaluates a constant expression outside any function (module-level names, -D values).
  Value evaluateConstant(const ast::Expr &e);

  [[noreturn]] void fail(SourceRange at, DiagId id, const std::string &message);

  // ---- IR helpers shared with Builtins.cpp and Operators.cpp ----
  mlir::Location loc(SourceRange r);
  mlir::Type irType(const TType &t);
  mlir::Type irScalarType(DType d);
  Value toRuntime(const Value &v, SourceRange at, const TType *like = nullptr);
  // `v` as an i32 scalar (converted from other integer types); `what` names it in the error.
  Value integerScalarI32(const Value &v, SourceRange at, const std::string &what);
  Value cast(const Value &v, DType to, SourceRange at, bool bitcast = false);
  Value broadcastTo(const Value &v, const std::vector<int64_t> &shape, SourceRange at);
  Value binary(ast::BinaryOp op, const Value &a, const Value &b, SourceRange at, SourceRange ra, SourceRange rb);
  Value compare(ast::CmpOp op, const Value &a, const Value &b, SourceRange at, SourceRange ra, SourceRange rb);
  Value unary(ast::UnaryOp op, const Value &v, SourceRange at);
  Value splatConstant(double value, DType d, const std::vector<int64_t> &shape, SourceRange at);
  // The dtype two operands are computed in and the shape they broadcast to (Triton's
  // rules); reports a shape mismatch with both operands named.
  struct Common {
    DType dtype;
    std::vector<int64_t> shape;
  };
  Common commonType(const Value &a, const Value &b, SourceRange at, SourceRange ra, SourceRange rb, bool trueDiv);
  // Materializes, converts and broadcasts `v` to `c`.
  Value coerce(const Value &v, const Common &c, SourceRange at);
  int64_t requireInt(const Value &v, SourceRange at, const char *what);
  DType requireDType(const Value &v, SourceRange at, const char *what);
  bool truthy(const Value &v, SourceRange at);

  // Reduces same-shaped blocks along `axis` (None: all axes, flattened first) with a
  // scalar combine step; returns one value per input.
  using Combine = std::function<std::vector<Value>(const std::vector<Value> &acc, const std::vector<Value> &next)>;
  std::vector<Value> reduce(std::vector<Value> inputs, std::optional<int64_t> axis, bool keepDims, const Combine &combine,
                            SourceRange at);
  // Builds the combine region of a reduce or scan over `inputs`: 2N scalar arguments
  // (accumulated, then new), the user's combine step, its results cast to the inputs'
  // types. Returns the values to yield; the builder is left at the end of the region.
  std::vector<mlir::Value> combineRegion(mlir::Region &region, const std::vector<Value> &inputs, const Combine &combine,
                                         mlir::Location l, SourceRange at);
  Value minMax(bool isMax, const Value &a, const Value &b, bool propagateNan, SourceRange at);
  Value reshape(const Value &v, const std::vector<int64_t> &shape, SourceRange at);
  // A mask argument as i1, broadcast to `shape`; nullopt for None or absent.
  Value tileOp(bool extract, CallArgs &args, SourceRange at);
  Value distributed(const std::string &name, CallArgs &args, SourceRange at);
  Value tritonDist(const std::string &member, CallArgs &args, SourceRange at);
  // The first mesh a kernel uses (shard_id, remote, distributed_barrier) fixes its launch
  // mesh; later meshes must be views of the same one.
  // `what` names the mesh in the error ("tle.distributed_barrier's mesh").
  void noteLaunchMesh(const Value &mesh, SourceRange at, const std::string &what);
  Value remote(CallArgs &args, SourceRange at);
  // tle.call of a raw function (RawCalls.cpp): a tuple of the block arguments after the call.
  Value rawCall(CallArgs &args, SourceRange at);
  Value distributedBarrier(CallArgs &args, SourceRange at);
  Value meshSubscript(const Value &mesh, const std::vector<const ast::Expr *> &indices, SourceRange at);
  Value gpuStruct(const std::string &member, CallArgs &args, SourceRange at);
  Value warpSpecialize(CallArgs &args, SourceRange at);  // WarpSpecialize.cpp
  // tle.pipe, its writer and readers, and buffer.slot (Pipes.cpp).
  Value pipeBuiltin(const std::string &name, CallArgs &args, SourceRange at);
  Value attributeOfObject(const Value &object, const std::string &attr, SourceRange at);
  Value dsaStruct(const std::string &member, CallArgs &args, SourceRange at);
  // tle.dsa.matmul and tle.dsa.subview (DsaCube.cpp).
  Value dsaCube(const std::string &member, CallArgs &args, SourceRange at);
  std::vector<int64_t> shapeArgAny(const Value &v, SourceRange at);
  std::vector<int32_t> boundaryCheck(const std::optional<Value> &v, const Value &ptr, SourceRange at);
  std::optional<Value> maskArg(const std::optional<Value> &mask, const std::vector<int64_t> &shape, SourceRange at);

  // Inclusive scans along `axis` (Scans.cpp): one result per input, each of its input's type.
  std::vector<Value> scan(std::vector<Value> inputs, int64_t axis, bool reverse, const Combine &combine, SourceRange at);
  Value scanBuiltin(const std::string &member, CallArgs &args, SourceRange at);
  // tl.split / join / interleave / ravel / gather (SplitJoin.cpp).
  Value splitJoin(const std::string &member, CallArgs &args, SourceRange at);
  // tl.clamp / sigmoid / softmax / fdiv / div_rn / umulhi / pow / log1p / cast (MathExtras.cpp).
  Value mathExtra(const std::string &member, CallArgs &args, SourceRange at);
  // tl.device_print / print / device_assert / static_print / runtime assert (Debugging.cpp).
  Value debugging(const std::string &name, CallArgs &args, SourceRange at);
  void deviceAssert(const Value &cond, const std::string &message, const std::optional<Value> &mask, SourceRange at);
  // tl.make_tensor_descriptor and descriptor loads and stores (TensorDescriptors.cpp).
  Value tensorDescriptor(const std::string &member, CallArgs &args, SourceRange at);
  // A user combine function (a @jit function) called on scalars.
  std::vector<Value> callCombine(const Value &fn, const std::vector<Value> &acc, const std::vector<Value> &next, SourceRange at);

  // ---- builtins (Builtins.cpp) ----
  Value callBuiltin(const Value &fn, CallArgs &args, SourceRange at);
  Value attributeOfModule(const Value &module, const std::string &attr, SourceRange at);
  Value attributeOfRuntime(const Value &v, const std::string &attr, SourceRange at);
  Value reduction(const std::string &member, CallArgs &args, SourceRange at);

private:
  struct Frame {
    std::map<std::string, Value> locals;
    ModuleScope *module = nullptr;  // where global names are looked up
    const ast::FunctionDef *function = nullptr;
    bool returned = false;
    Value returnValue;
    int inlineDepth = 0;
  };
  // Pushes a frame for its lifetime: popped however the scope is left (errors are exceptions).
  class ScopedFrame {
   public:
    ScopedFrame(std::deque<Frame> &frames, Frame frame) : frames_(frames) { frames_.push_back(std::move(frame)); }
    ~ScopedFrame() { frames_.pop_back(); }
    ScopedFrame(const ScopedFrame &) = delete;
    ScopedFrame &operator=(const ScopedFrame &) = delete;

   private:
    std::deque<Frame> &frames_;
  };

  // statements
  void block(const ast::StmtList &stmts);
  void stmt(const ast::Stmt &s);
  void assign(const ast::Expr &target, Value value, SourceRange valueRange);
  void ifStmt(const ast::If &s);
  void forStmt(const ast::For &s);
  void whileStmt(const ast::While &s);
  void loopCarried(const ast::StmtList &body, const std::string &inductionVar, SourceRange at,
                   std::vector<std::string> &names, std::vector<Value> &inits);
  std::vector<mlir::Value> carriedYields(const std::vector<std::string> &names, const std::vector<Value> &inits,
                                         SourceRange at);

  // expressions
  Value expr(const ast::Expr &e);
  Value name(const ast::Name &n);
  Value call(const ast::Call &c);
  Value callJit(const Value &fn, CallArgs &args, SourceRange at);
  Value callLambda(const Value &fn, CallArgs &args, SourceRange at);
  ModuleScope &currentModule() { return frames_.empty() ? root_ : *frames_.back().module; }
  Value subscript(const ast::Subscript &s);
  Value attribute(const ast::Attribute &a);

  Value lookupGlobal(const std::string &name, SourceRange at);
  std::vector<std::string> visibleNames();

  ModuleScope &root_;
  mlir::OpBuilder &builder_;
  DiagnosticEngine &diags_;
  std::deque<Frame> frames_;  // a deque: references to a frame survive calls that push more
  std::vector<std::string> evaluatingGlobals_;  // cycle detection for module-level names
  std::optional<Value> launchMesh_;             // see noteLaunchMesh
  bool insideWarpPartition_ = false;            // lowering a worker partition of tle.gpu.warp_specialize
  bool inWarpSpecialize_ = false;               // lowering any of its partitions
  SourceRange launchMeshAt_;
};

// True when axis `axis` of a mesh is a node or device level (across GPUs), not a block level.
bool isDeviceLevel(const Value &mesh, size_t axis);

// True for functions decorated with @tle.raw.language(...) (or FlagTree's @dialect(...)).
bool isRawFunction(const ast::FunctionDef &fn);

// True for functions decorated with @triton.jit / @tle.jit (with or without arguments).
bool isJitFunction(const ast::FunctionDef &fn);

// Python's compile-time operators (ConstEval.cpp). Return false when the operation
// does not apply to these operand kinds; report errors (division by zero, overflow).
bool foldBinary(ast::BinaryOp op, const Value &a, const Value &b, Value &out, std::string &error);
bool foldCompare(ast::CmpOp op, const Value &a, const Value &b, Value &out, std::string &error);
bool foldUnary(ast::UnaryOp op, const Value &v, Value &out, std::string &error);

}  // namespace tle::sema
