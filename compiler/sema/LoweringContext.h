// What lowering a builtin call needs, without the statement and expression walk: building
// IR, locations, types, conversions and Triton's operator rules, binding arguments, failing
// with a located diagnostic, the target model and module settings, and the two services of
// the walker that handlers use (inlining a user function, evaluating a constant in another
// module).
#pragma once

#include "sema/Value.h"
#include "support/Diagnostics.h"
#include "target/Target.h"

#include "mlir/IR/Builders.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tle {
class SourceManager;
}

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
  unsigned numWarps = 4;  // the program's warps (TLE-Raw calls, warp specialization)
  // Imported modules that are not .tle files (host libraries such as torch, or a
  // misspelt module): why a kernel cannot use them, with the paths searched.
  std::map<std::string, std::string> unresolvedImports;
  // Where f-string fields are parsed (each into a buffer of its own), and their ASTs, which
  // values made from them may point into.
  SourceManager *sources = nullptr;
  std::vector<std::unique_ptr<ast::Module>> fieldAsts;
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

// The walker's side of the context (FunctionLowering implements it).
class LoweringServices {
public:
  // The module whose code is being lowered (an inlined helper's, inside it).
  virtual ModuleScope &currentModule() = 0;
  // Inlines a call of a @jit function or a lambda.
  virtual Value callFunction(const Value &fn, CallArgs &args, SourceRange at) = 0;
  // A compile-time expression evaluated with `scope`'s names (decorator arguments).
  virtual Value evaluateConstantIn(ModuleScope &scope, const ast::Expr &e) = 0;

protected:
  ~LoweringServices() = default;
};

// Per-kernel facts that builtins establish and later builtins check.
struct BuiltinState {
  // The first mesh a kernel uses (shard_id, remote, distributed_barrier) fixes its launch
  // mesh; later meshes must be views of the same one.
  std::optional<Value> launchMesh;
  SourceRange launchMeshAt;
  unsigned clusterSize = 1;  // blocks per thread-block cluster: the launch mesh's block_cluster axes
  unsigned meshRanks = 0;    // GPUs of the launch mesh: its node and device axes (0: none)
  unsigned meshNodes = 1;    // nodes of the launch mesh: its node axes
  bool insideWarpPartition = false;  // lowering a worker partition of tle.gpu.warp_specialize
  bool inWarpSpecialize = false;     // lowering any of its partitions
};

class LoweringContext {
public:
  LoweringContext(mlir::OpBuilder &builder, DiagnosticEngine &diags, LoweringServices &walker)
      : builder_(builder), diags_(diags), walker_(walker) {}

  mlir::OpBuilder &builder() { return builder_; }
  DiagnosticEngine &diags() { return diags_; }
  // The module whose code is being lowered: its settings and imports.
  ModuleScope &module() { return walker_.currentModule(); }
  const TargetInfo &target() { return *module().target; }
  unsigned numWarps() { return module().numWarps; }
  BuiltinState &state() { return state_; }

  [[noreturn]] void fail(SourceRange at, DiagId id, const std::string &message);
  mlir::Location loc(SourceRange r);
  mlir::Type irType(const TType &t);
  mlir::Type irScalarType(DType d);

  Value callFunction(const Value &fn, CallArgs &args, SourceRange at) { return walker_.callFunction(fn, args, at); }
  Value evaluateConstantIn(ModuleScope &scope, const ast::Expr &e) { return walker_.evaluateConstantIn(scope, e); }

  // ---- compile-time values ----
  int64_t requireInt(const Value &v, SourceRange at, const char *what);
  DType requireDType(const Value &v, SourceRange at, const char *what);
  bool truthy(const Value &v, SourceRange at);

  // ---- conversions (Operators.cpp) ----
  Value toRuntime(const Value &v, SourceRange at, const TType *like = nullptr);
  // `v` as an i32 scalar (converted from other integer types); `what` names it in the error.
  Value integerScalarI32(const Value &v, SourceRange at, const std::string &what);
  Value cast(const Value &v, DType to, SourceRange at, bool bitcast = false);
  Value broadcastTo(const Value &v, const std::vector<int64_t> &shape, SourceRange at);
  Value reshape(const Value &v, const std::vector<int64_t> &shape, SourceRange at);
  Value splatConstant(double value, DType d, const std::vector<int64_t> &shape, SourceRange at);

  // ---- Triton's operators (Operators.cpp) ----
  Value binary(ast::BinaryOp op, const Value &a, const Value &b, SourceRange at, SourceRange ra, SourceRange rb);
  Value compare(ast::CmpOp op, const Value &a, const Value &b, SourceRange at, SourceRange ra, SourceRange rb);
  Value unary(ast::UnaryOp op, const Value &v, SourceRange at);
  Value minMax(bool isMax, const Value &a, const Value &b, bool propagateNan, SourceRange at);
  // The dtype two operands are computed in and the shape they broadcast to (Triton's
  // rules); reports a shape mismatch with both operands named.
  struct Common {
    DType dtype;
    std::vector<int64_t> shape;
  };
  Common commonType(const Value &a, const Value &b, SourceRange at, SourceRange ra, SourceRange rb, bool trueDiv,
                    bool divOrMod = false);
  // Materializes, converts and broadcasts `v` to `c`.
  Value coerce(const Value &v, const Common &c, SourceRange at);

private:
  mlir::OpBuilder &builder_;
  DiagnosticEngine &diags_;
  LoweringServices &walker_;
  BuiltinState state_;
};

// Binds call arguments to a builtin's parameters, Python style; `ranges` receives where
// each argument was written (the call for absent ones).
std::vector<std::optional<Value>> bindArgs(LoweringContext &cx, const std::string &fn, const std::vector<ParamSpec> &params,
                                           CallArgs &args, SourceRange at, std::vector<SourceRange> *ranges = nullptr);

// True for functions decorated with @triton.jit / @tle.jit (with or without arguments).
bool isJitFunction(const ast::FunctionDef &fn);

// Python's compile-time operators (ConstEval.cpp). Return false when the operation
// does not apply to these operand kinds; report errors (division by zero, overflow).
bool foldBinary(ast::BinaryOp op, const Value &a, const Value &b, Value &out, std::string &error);
bool foldCompare(ast::CmpOp op, const Value &a, const Value &b, Value &out, std::string &error);
bool foldUnary(ast::UnaryOp op, const Value &v, Value &out, std::string &error);

}  // namespace tle::sema
