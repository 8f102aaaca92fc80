// Lowers one kernel specialization from the AST to the `tle` dialect, the way Triton's
// code generator does: a single walk that evaluates compile-time values, inlines @jit
// helpers, infers dtypes and shapes, and emits IR for everything else. Builtin calls go
// to the registry (builtins/), whose handlers see only the LoweringContext.
#pragma once

#include "sema/LoweringContext.h"

#include "mlir/IR/BuiltinOps.h"

#include <deque>
#include <map>
#include <string>
#include <vector>

namespace tle::sema {

class FunctionLowering final : private LoweringServices {
public:
  FunctionLowering(ModuleScope &module, mlir::OpBuilder &builder, DiagnosticEngine &diags)
      : root_(module), builder_(builder), cx_(builder, diags, *this) {}

  // Lowers the body of `fn` (defined in `scope`) into the current insertion block with
  // `params` bound. Returns the value of its `return` (None if there is none).
  Value lowerFunctionBody(const ast::FunctionDef &fn, ModuleScope &scope, std::map<std::string, Value> params,
                          int inlineDepth);

  // Evaluates a constant expression outside any function (module-level names, -D values).
  Value evaluateConstant(const ast::Expr &e);

  // IR helpers and diagnostics, as builtin handlers see them.
  LoweringContext &context() { return cx_; }

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

  // LoweringServices
  ModuleScope &currentModule() override { return frames_.empty() ? root_ : *frames_.back().module; }
  Value callFunction(const Value &fn, CallArgs &args, SourceRange at) override;
  Value evaluateConstantIn(ModuleScope &scope, const ast::Expr &e) override;

  // statements
  void block(const ast::StmtList &stmts);
  // Lowers statements in order; an `if` that may return takes the statements after it
  // into its branches (see ifStmt).
  void sequence(llvm::ArrayRef<const ast::Stmt *> stmts);
  Value formatFString(const ast::Constant &c);
  void stmt(const ast::Stmt &s);
  void assign(const ast::Expr &target, Value value, SourceRange valueRange);
  // `rest`: the statements after an `if` that may return, lowered on each branch that
  // does not; the function then ends in both branches and its return values merge.
  void ifStmt(const ast::If &s, llvm::ArrayRef<const ast::Stmt *> rest = {}, bool takesRest = false);
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
  Value subscript(const ast::Subscript &s);
  Value attribute(const ast::Attribute &a);
  // A user .tle module's names here; tl, tle and the other builtin modules in builtins/.
  Value moduleAttribute(const Value &module, const std::string &attr, SourceRange at);

  Value lookupGlobal(const std::string &name, SourceRange at);
  std::vector<std::string> visibleNames();

  ModuleScope &root_;
  mlir::OpBuilder &builder_;
  LoweringContext cx_;
  std::deque<Frame> frames_;  // a deque: references to a frame survive calls that push more
  std::vector<std::string> evaluatingGlobals_;  // cycle detection for module-level names
};

}  // namespace tle::sema
