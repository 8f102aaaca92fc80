// Statements and expressions: the walk over one kernel's AST. Builtin calls, and the names that
// builtin modules and values export, are resolved in builtins/.
#include "sema/Lowering.h"

#include "frontend/Parser.h"
#include "sema/PythonFormat.h"
#include "support/SourceManager.h"

#include "sema/builtins/Builtins.h"

#include "ir/Dialect.h"
#include "ir/KernelSettings.h"
#include "support/Spelling.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <algorithm>
#include <set>

namespace tle::sema {

using namespace ast;

namespace {

constexpr int kMaxInlineDepth = 64;


// Names a statement list may assign (Python's rule: any binding makes a name local).
void collectAssigned(const Expr &target, std::set<std::string> &out) {
  if (auto *n = dyn_cast<Name>(&target)) out.insert(n->id);
  else if (auto *t = dyn_cast<Tuple>(&target))
    for (const ExprPtr &e : t->elts) collectAssigned(*e, out);
  else if (auto *l = dyn_cast<List>(&target))
    for (const ExprPtr &e : l->elts) collectAssigned(*e, out);
  else if (auto *s = dyn_cast<Starred>(&target))
    collectAssigned(*s->value, out);
}

void collectAssigned(const StmtList &stmts, std::set<std::string> &out) {
  for (const StmtPtr &s : stmts) {
    if (auto *a = dyn_cast<Assign>(s.get())) {
      for (const ExprPtr &t : a->targets) collectAssigned(*t, out);
    } else if (auto *a = dyn_cast<AugAssign>(s.get())) {
      collectAssigned(*a->target, out);
    } else if (auto *a = dyn_cast<AnnAssign>(s.get())) {
      collectAssigned(*a->target, out);
    } else if (auto *f = dyn_cast<For>(s.get())) {
      collectAssigned(*f->target, out);
      collectAssigned(f->body, out);
      collectAssigned(f->orelse, out);
    } else if (auto *w = dyn_cast<While>(s.get())) {
      collectAssigned(w->body, out);
      collectAssigned(w->orelse, out);
    } else if (auto *i = dyn_cast<If>(s.get())) {
      collectAssigned(i->body, out);
      collectAssigned(i->orelse, out);
    } else if (auto *w = dyn_cast<With>(s.get())) {
      for (const WithItem &item : w->items)
        if (item.optionalVars) collectAssigned(*item.optionalVars, out);
      collectAssigned(w->body, out);
    }
  }
}

// True when two compile-time values that Python's == does not compare here (meshes, sharding
// specs, dicts, lambdas, TLE objects, functions, modules, builtins) are the same value.
bool sameObject(const Value &a, const Value &b) {
  if (a.kind != b.kind) return false;
  auto sameList = [](const std::vector<Value> &x, const std::vector<Value> &y) {
    if (x.size() != y.size()) return false;
    for (size_t i = 0; i < x.size(); ++i)
      if (x[i].isRuntime() ? !(y[i].isRuntime() && x[i].ir == y[i].ir) : !sameObject(x[i], y[i])) return false;
    return true;
  };
  switch (a.kind) {
  case Value::Kind::Mesh: return a.names == b.names && a.dims == b.dims && a.levels == b.levels && a.launchNames == b.launchNames;
  case Value::Kind::Sharding: return a.splits == b.splits && a.names == b.names;
  case Value::Kind::Dict: return sameList(a.dictKeys, b.dictKeys) && sameList(a.elements, b.elements);
  case Value::Kind::Lambda: return a.lambda == b.lambda && a.captured == b.captured;
  case Value::Kind::Object:
    return a.text == b.text && a.ir == b.ir && a.names == b.names && a.objectName == b.objectName &&
           sameList(a.elements, b.elements) && sameList(a.boundArgs, b.boundArgs);
  case Value::Kind::Function: return a.function == b.function;
  case Value::Kind::Module: return a.text == b.text && a.scope == b.scope;
  case Value::Kind::Builtin: return a.text == b.text && sameList(a.boundArgs, b.boundArgs);
  default: return false;  // numbers, strings, tuples, dtypes: Python's == decides
  }
}
}  // namespace

bool isJitFunction(const FunctionDef &fn) { return hasJitDecorator(fn.decorators); }

// ============================================================================ functions

Value FunctionLowering::lowerFunctionBody(const FunctionDef &fn, ModuleScope &scope, std::map<std::string, Value> params,
                                          int inlineDepth) {
  Frame frame;
  frame.module = &scope;
  frame.locals = std::move(params);
  frame.function = &fn;
  frame.inlineDepth = inlineDepth;
  ScopedFrame scoped(frames_, std::move(frame));
  block(fn.body);
  return frames_.back().returnValue;
}

Value FunctionLowering::evaluateConstant(const Expr &e) {
  Frame frame;
  frame.module = &currentModule();
  Value v;
  {
    ScopedFrame scoped(frames_, frame);
    v = expr(e);
  }
  if (v.isRuntime()) cx_.fail(e.range, DiagId::NotConstexpr, "a module-level name must have a compile-time value");
  return v;
}

Value FunctionLowering::callJit(const Value &callee, CallArgs &args, SourceRange at) {
  const FunctionDef &fn = *callee.function;
  for (const Frame &f : frames_)
    if (f.function == &fn)
      cx_.fail(at, DiagId::Recursion, "'" + fn.name + "' calls itself; @jit functions are inlined and cannot be recursive");
  int depth = frames_.empty() ? 0 : frames_.back().inlineDepth + 1;
  if (depth > kMaxInlineDepth)
    cx_.fail(at, DiagId::Recursion, "helper calls nest more than " + std::to_string(kMaxInlineDepth) + " deep");

  std::map<std::string, Value> bound;
  std::vector<const Param *> positional;
  for (const Param &p : fn.params)
    if (p.kind == Param::Kind::Normal && !p.keywordOnly) positional.push_back(&p);
  if (args.positional.size() > positional.size())
    cx_.fail(at, DiagId::ArgumentMismatch,
             "'" + fn.name + "' takes " + std::to_string(positional.size()) + " positional arguments but " +
                 std::to_string(args.positional.size()) + " were given");
  for (size_t i = 0; i < args.positional.size(); ++i) bound[positional[i]->name] = args.positional[i];
  for (size_t k = 0; k < args.keywords.size(); ++k) {
    const std::string &key = args.keywords[k].first;
    const auto &value = args.keywords[k].second;
    auto it = std::find_if(fn.params.begin(), fn.params.end(), [&](const Param &p) { return p.name == key; });
    if (it == fn.params.end() || it->kind != Param::Kind::Normal) {
      std::string names;
      for (const Param &p : fn.params) names += (names.empty() ? "" : ", ") + p.name;
      cx_.fail(args.keywordRanges[k], DiagId::ArgumentMismatch,
               "'" + fn.name + "' has no parameter named '" + key + "' (its parameters: " + names + ")");
    }
    if (bound.count(key))
      cx_.fail(args.keywordRanges[k], DiagId::ArgumentMismatch, "'" + fn.name + "' got two values for '" + key + "'");
    bound[key] = value;
  }
  for (const Param &p : fn.params) {
    if (p.kind != Param::Kind::Normal) cx_.fail(p.range, DiagId::UnsupportedInKernel, "@jit functions cannot take *args or **kwargs");
    if (bound.count(p.name)) continue;
    if (!p.defaultValue)
      cx_.fail(at, DiagId::ArgumentMismatch, "'" + fn.name + "' is missing a value for parameter '" + p.name + "'");
    // Defaults are evaluated in the callee's module.
    Frame defaults;
    defaults.module = callee.scope;
    ScopedFrame scoped(frames_, defaults);
    bound[p.name] = evaluateConstant(*p.defaultValue);
  }
  return lowerFunctionBody(fn, *callee.scope, std::move(bound), depth);
}

Value FunctionLowering::callLambda(const Value &fn, CallArgs &args, SourceRange at) {
  const Lambda &lambda = *fn.lambda;
  std::map<std::string, Value> locals = *fn.captured;
  std::set<std::string> bound;
  if (args.positional.size() > lambda.params.size())
    cx_.fail(at, DiagId::ArgumentMismatch, "the lambda takes " + std::to_string(lambda.params.size()) +
                                               (lambda.params.size() == 1 ? " argument but " : " arguments but ") +
                                               std::to_string(args.positional.size()) + " were given");
  for (size_t i = 0; i < args.positional.size(); ++i) {
    locals[lambda.params[i].name] = args.positional[i];
    bound.insert(lambda.params[i].name);
  }
  for (size_t k = 0; k < args.keywords.size(); ++k) {
    const std::string &key = args.keywords[k].first;
    auto it = std::find_if(lambda.params.begin(), lambda.params.end(), [&](const Param &p) { return p.name == key; });
    if (it == lambda.params.end()) cx_.fail(args.keywordRanges[k], DiagId::ArgumentMismatch, "the lambda has no parameter '" + key + "'");
    if (!bound.insert(key).second) cx_.fail(args.keywordRanges[k], DiagId::ArgumentMismatch, "the lambda got two values for '" + key + "'");
    locals[key] = args.keywords[k].second;
  }
  for (const Param &p : lambda.params) {
    if (bound.count(p.name)) continue;
    if (!p.defaultValue) cx_.fail(at, DiagId::ArgumentMismatch, "the lambda is missing a value for parameter '" + p.name + "'");
    locals[p.name] = expr(*p.defaultValue);
  }
  int depth = frames_.empty() ? 0 : frames_.back().inlineDepth + 1;
  if (depth > kMaxInlineDepth) cx_.fail(at, DiagId::Recursion, "calls nest more than " + std::to_string(kMaxInlineDepth) + " deep");
  Frame frame;
  frame.module = fn.scope;
  frame.locals = std::move(locals);
  frame.function = frames_.empty() ? nullptr : frames_.back().function;
  frame.inlineDepth = depth;
  ScopedFrame scoped(frames_, std::move(frame));
  return expr(*lambda.body);
}

Value FunctionLowering::callFunction(const Value &fn, CallArgs &args, SourceRange at) {
  return fn.kind == Value::Kind::Lambda ? callLambda(fn, args, at) : callJit(fn, args, at);
}

Value FunctionLowering::evaluateConstantIn(ModuleScope &scope, const Expr &e) {
  Frame frame;
  frame.module = &scope;
  ScopedFrame scoped(frames_, frame);
  return evaluateConstant(e);
}

// =========================================================================== statements

namespace {
// The end of an f-string field that starts at `i` (just after its '{'): the position of the
// '}' that closes it, outside brackets and quotes; `conversion` and `spec` get the positions
// of a top-level '!' and ':' (npos when absent). npos when the field is not closed.
size_t fieldEnd(const std::string &s, size_t i, size_t &conversion, size_t &spec) {
  int depth = 0;
  char quote = 0;
  conversion = spec = std::string::npos;
  for (size_t j = i; j < s.size(); ++j) {
    char d = s[j];
    if (spec != std::string::npos) {
      if (d == '{') return std::string::npos;  // nested fields in a spec: not supported
      if (d == '}') return j;
      continue;
    }
    if (quote) {
      if (d == quote) quote = 0;
      continue;
    }
    if (d == '\'' || d == '"') quote = d;
    else if (d == '(' || d == '[' || d == '{') ++depth;
    else if ((d == ')' || d == ']' || d == '}') && depth > 0) --depth;
    else if (depth == 0 && d == '}') return j;
    else if (depth == 0 && d == '!' && j + 1 < s.size() && s[j + 1] != '=' && conversion == std::string::npos) conversion = j;
    else if (depth == 0 && d == ':') spec = j;
  }
  return std::string::npos;
}
}  // namespace

// An f-string: each field is parsed (a buffer of its own, named after the f-string's place)
// and evaluated here; it must be a compile-time value, formatted as Python would.
Value FunctionLowering::formatFString(const Constant &c) {
  const std::string &s = c.value;
  std::string out;
  ModuleScope &module = currentModule();
  for (size_t i = 0; i < s.size(); ++i) {
    char ch = s[i];
    if ((ch == '{' || ch == '}') && i + 1 < s.size() && s[i + 1] == ch) {
      out += ch;
      ++i;
      continue;
    }
    if (ch == '}') cx_.fail(c.range, DiagId::SyntaxError, "f-string: single '}' is not allowed");
    if (ch != '{') {
      out += ch;
      continue;
    }
    size_t conversion, specAt;
    size_t end = fieldEnd(s, i + 1, conversion, specAt);
    if (end == std::string::npos)
      cx_.fail(c.range, DiagId::SyntaxError, "f-string: expecting '}' (nested fields in a format spec are not supported)");
    size_t exprEnd = conversion != std::string::npos ? conversion : specAt != std::string::npos ? specAt : end;
    std::string text = s.substr(i + 1, exprEnd - i - 1);
    char conv = conversion != std::string::npos ? s[conversion + 1] : 0;
    std::string spec = specAt != std::string::npos ? s.substr(specAt + 1, end - specAt - 1) : std::string();
    if (conversion != std::string::npos && (conv != 'r' && conv != 's' && conv != 'a'))
      cx_.fail(c.range, DiagId::SyntaxError, "f-string: invalid conversion character: expected 's', 'r', or 'a'");
    if (text.find_first_not_of(" \t") == std::string::npos) cx_.fail(c.range, DiagId::SyntaxError, "f-string: empty expression not allowed");
    if (!module.sources) cx_.fail(c.range, DiagId::UnsupportedInKernel, "f-strings are not supported here");
    SourceLoc at = c.range.begin;
    FileId f = module.sources->addBuffer("<f-string at " + cx_.diags().sources().name(at.file) + ":" + std::to_string(at.line) + ":" +
                                             std::to_string(at.column) + ">",
                                         "(" + text + ")\n");
    std::unique_ptr<ast::Module> parsed = parseFile(*module.sources, f, cx_.diags());
    if (!parsed) throw LoweringFailed{};
    auto *stmt = parsed->body.size() == 1 ? dyn_cast<ExprStmt>(parsed->body[0].get()) : nullptr;
    if (!stmt) cx_.fail(c.range, DiagId::SyntaxError, "f-string: the field '" + text + "' is not an expression");
    const ast::Expr &fieldExpr = *stmt->value;
    module.fieldAsts.push_back(std::move(parsed));
    Value v = expr(fieldExpr);
    if (v.isRuntime())
      cx_.fail(c.range, DiagId::NotConstexpr, "an f-string in a kernel formats compile-time values only; '" + text + "' is " +
                                                  withArticle(v.type.str()));
    std::optional<std::string> piece;
    std::string error;
    if (conv == 'r' || conv == 'a') {
      piece = pythonStr(v, true);
      if (piece && !spec.empty()) piece = pythonFormat(Value::ofStr(*piece), spec, error);
    } else if (conv == 's') {
      piece = pythonStr(v, false);
      if (piece && !spec.empty()) piece = pythonFormat(Value::ofStr(*piece), spec, error);
    } else {
      piece = pythonFormat(v, spec, error);
    }
    if (!piece) cx_.fail(c.range, DiagId::TypeMismatch, "f-string field '" + text + "': " + (error.empty() ? v.describe() + " has no string form in kernels" : error));
    out += *piece;
    i = end;
  }
  return Value::ofStr(out);
}

namespace {
// The name under which ifStmt merges the function's return value (no Python name has '<').
const char *const kReturnKey = "<return>";

std::string describeReturn(const std::map<std::string, Value> &paths, const std::string &key) {
  if (auto len = paths.find(key + "#len"); len != paths.end()) return "a tuple of " + std::to_string(len->second.intValue);
  auto it = paths.find(key);
  return it == paths.end() ? "nothing" : it->second.describe();
}

// Whether `return` may run in these statements outside loops (a return in a loop body is
// an error of its own).
bool mayReturn(const StmtList &stmts) {
  for (const StmtPtr &s : stmts) {
    if (isa<Return>(s.get())) return true;
    if (auto *i = dyn_cast<If>(s.get()); i && (mayReturn(i->body) || mayReturn(i->orelse))) return true;
    if (auto *w = dyn_cast<With>(s.get()); w && mayReturn(w->body)) return true;
  }
  return false;
}
}  // namespace

void FunctionLowering::block(const StmtList &stmts) {
  std::vector<const Stmt *> list;
  for (const StmtPtr &s : stmts) list.push_back(s.get());
  sequence(list);
}

void FunctionLowering::sequence(llvm::ArrayRef<const Stmt *> stmts) {
  for (size_t i = 0; i < stmts.size(); ++i) {
    if (frames_.back().returned) break;
    if (auto *f = dyn_cast<If>(stmts[i]); f && (mayReturn(f->body) || mayReturn(f->orelse)))
      return ifStmt(*f, stmts.drop_front(i + 1), /*takesRest=*/true);
    stmt(*stmts[i]);
  }
}

void FunctionLowering::assign(const Expr &target, Value value, SourceRange valueRange) {
  if (auto *n = dyn_cast<Name>(&target)) {
    // The first name a value is bound to names it in generated code.
    if (value.isRuntime() && value.ir) {
      if (mlir::Operation *def = value.ir.getDefiningOp(); def && !mlir::isa<mlir::NameLoc>(def->getLoc()))
        def->setLoc(mlir::NameLoc::get(builder_.getStringAttr(n->id), def->getLoc()));
    }
    frames_.back().locals[n->id] = std::move(value);
    return;
  }
  if (isa<Tuple>(&target) || isa<List>(&target)) {
    const ExprList &elts = isa<Tuple>(&target) ? static_cast<const Tuple &>(target).elts : static_cast<const List &>(target).elts;
    if (value.kind != Value::Kind::Tuple)
      cx_.fail(valueRange, DiagId::TypeMismatch, "cannot unpack " + value.describe() + " into " + std::to_string(elts.size()) + " names");
    if (value.elements.size() != elts.size())
      cx_.fail(valueRange, DiagId::TypeMismatch,
               "cannot unpack a tuple of " + std::to_string(value.elements.size()) + " values into " +
                   std::to_string(elts.size()) + " names");
    for (size_t i = 0; i < elts.size(); ++i) assign(*elts[i], value.elements[i], valueRange);
    return;
  }
  cx_.fail(target.range, DiagId::UnsupportedInKernel,
           "only names can be assigned in a kernel; write memory with tl.store");
}

void FunctionLowering::stmt(const Stmt &s) {
  switch (s.kind) {
  case Stmt::Kind::Assign: {
    const auto &a = static_cast<const Assign &>(s);
    Value v = expr(*a.value);
    for (const ExprPtr &t : a.targets) assign(*t, v, a.value->range);
    return;
  }
  case Stmt::Kind::AnnAssign: {
    const auto &a = static_cast<const AnnAssign &>(s);
    if (!a.value) return;  // a bare annotation declares nothing at run time
    Value v = expr(*a.value);
    Value ann = expr(*a.annotation);
    if (ann.kind == Value::Kind::Builtin && ann.text == "triton.language.constexpr" && v.isRuntime())
      cx_.fail(a.value->range, DiagId::NotConstexpr, "a tl.constexpr variable needs a compile-time value, got a runtime " + v.describe());
    assign(*a.target, v, a.value->range);
    return;
  }
  case Stmt::Kind::AugAssign: {
    const auto &a = static_cast<const AugAssign &>(s);
    Value old = expr(*a.target);
    Value rhs = expr(*a.value);
    assign(*a.target, cx_.binary(a.op, old, rhs, s.range, a.target->range, a.value->range), s.range);
    return;
  }
  case Stmt::Kind::ExprStmt: {
    const auto &e = static_cast<const ExprStmt &>(s);
    if (auto *c = dyn_cast<Constant>(e.value.get()); c && c->type == Constant::Type::String) return;  // docstring
    expr(*e.value);
    return;
  }
  case Stmt::Kind::Return: {
    const auto &r = static_cast<const Return &>(s);
    Value v = r.value ? expr(*r.value) : Value::none();  // may push and pop frames of inlined calls
    frames_.back().returnValue = std::move(v);
    frames_.back().returned = true;
    return;
  }
  case Stmt::Kind::If: return ifStmt(static_cast<const If &>(s));
  case Stmt::Kind::For: return forStmt(static_cast<const For &>(s));
  case Stmt::Kind::While: return whileStmt(static_cast<const While &>(s));
  case Stmt::Kind::With: {
    const auto &w = static_cast<const With &>(s);
    for (const WithItem &item : w.items) {
      Value ctx = expr(*item.contextExpr);
      if (ctx.kind != Value::Kind::Builtin || (ctx.text != "tle.pipeline_group.instance" && ctx.text != "tle.dsa.hint.instance"))
        cx_.fail(item.contextExpr->range, DiagId::UnsupportedInKernel,
                 "only 'with tle.pipeline_group(...)' and 'with tle.dsa.hint(...)' are supported in a kernel, not " + ctx.describe());
    }
    block(w.body);
    return;
  }
  case Stmt::Kind::Assert: {
    const auto &a = static_cast<const Assert &>(s);
    Value v = expr(*a.test);
    if (v.isRuntime()) {  // a device-side check, as Triton's tl.device_assert
      std::string msg;
      if (a.msg) {
        Value m = expr(*a.msg);
        if (m.kind != Value::Kind::Str)
          cx_.fail(a.msg->range, DiagId::TypeMismatch, "the message of a runtime 'assert' must be a string, got " + m.describe());
        msg = m.text;
      }
      deviceAssert(cx_, v, msg, std::nullopt, a.test->range);
      return;
    }
    if (!cx_.truthy(v, a.test->range)) {
      std::string msg = "assertion failed";
      if (a.msg) {
        Value m = expr(*a.msg);
        if (m.kind == Value::Kind::Str) msg += ": " + m.text;
      }
      cx_.fail(a.test->range, DiagId::StaticAssertFailed, msg);
    }
    return;
  }
  case Stmt::Kind::Pass: return;
  case Stmt::Kind::HostStmt:  // the parser reported it already in a @jit function
    cx_.fail(s.range, DiagId::UnsupportedSyntax, hostOnlyMessage(static_cast<const HostStmt &>(s).keyword));
  case Stmt::Kind::Break:
  case Stmt::Kind::Continue:
    cx_.fail(s.range, DiagId::UnsupportedInKernel,
             std::string("'") + (s.kind == Stmt::Kind::Break ? "break" : "continue") +
                 "' is not supported in kernel loops; restructure the loop condition");
  case Stmt::Kind::FunctionDef:
    cx_.fail(static_cast<const FunctionDef &>(s).nameRange, DiagId::UnsupportedInKernel,
             "functions cannot be defined inside a kernel; define '" + static_cast<const FunctionDef &>(s).name +
                 "' at module level with @triton.jit");
  case Stmt::Kind::Import:
  case Stmt::Kind::ImportFrom:
    cx_.fail(s.range, DiagId::UnsupportedInKernel, "imports belong at module level, not inside a kernel");
  }
}

// A runtime `if` becomes scf.if. Both branches are lowered with their own copy of the
// local names; names that end up different are merged through the if's results.
void FunctionLowering::ifStmt(const If &s, llvm::ArrayRef<const Stmt *> rest, bool takesRest) {
  Value cond = expr(*s.test);
  if (!cond.isRuntime()) {
    block(cx_.truthy(cond, s.test->range) ? s.body : s.orelse);
    if (!frames_.back().returned) sequence(rest);
    return;
  }
  if (cond.type.isBlock())
    cx_.fail(s.test->range, DiagId::TypeMismatch,
             "an 'if' condition must be a scalar, got " + withArticle(cond.type.str()) + "; use tl.where for element-wise choice");
  if (cond.type.dtype != DType::I1) cond = cx_.compare(CmpOp::NotEq, cond, Value::ofInt(0), s.test->range, s.test->range, s.test->range);

  mlir::Location l = cx_.loc(s.range);
  auto first = builder_.create<mlir::scf::IfOp>(l, mlir::TypeRange{}, cond.ir, /*withElseRegion=*/true);
  std::map<std::string, Value> before = frames_.back().locals;
  auto lowerBranch = [&](mlir::Block *b, const StmtList &body) {
    builder_.setInsertionPoint(b->getTerminator());
    frames_.back().locals = before;
    block(body);
    if (!takesRest) return frames_.back().locals;
    // The rest of the function runs here unless the branch returned; either way the
    // function ends, and only its return value (flattened, tuples included) is merged.
    if (!frames_.back().returned) sequence(rest);
    Value returned = frames_.back().returned ? frames_.back().returnValue : Value::none();
    frames_.back().returned = false;
    frames_.back().returnValue = Value();
    std::map<std::string, Value> result;
    std::function<void(const Value &, const std::string &)> flatten = [&](const Value &v, const std::string &key) {
      if (v.kind != Value::Kind::Tuple) {
        result[key] = v;
        return;
      }
      result[key + "#len"] = Value::ofInt(static_cast<int64_t>(v.elements.size()));  // must agree too
      for (size_t i = 0; i < v.elements.size(); ++i) flatten(v.elements[i], key + "." + std::to_string(i));
    };
    flatten(returned, kReturnKey);
    return result;
  };
  std::map<std::string, Value> thenLocals = lowerBranch(first.thenBlock(), s.body);
  std::map<std::string, Value> elseLocals = lowerBranch(first.elseBlock(), s.orelse);
  if (takesRest)  // None on one path and a value on another cannot merge
    for (const auto &[key, tv] : thenLocals)
      if (auto e = elseLocals.find(key);
          e != elseLocals.end() && (tv.kind == Value::Kind::None) != (e->second.kind == Value::Kind::None))
        cx_.fail(s.range, DiagId::TypeMismatch,
                 "the paths through this 'if' return different kinds of values (" + describeReturn(thenLocals, kReturnKey) +
                     " and " + describeReturn(elseLocals, kReturnKey) + ")");

  // Names bound after the if: those both branches agree on stay as they are; the rest
  // that both branches define are merged.
  std::map<std::string, Value> after;
  std::vector<std::string> merged;
  std::vector<mlir::Type> types;
  std::vector<TType> ttypes;
  for (const auto &[name, tv] : thenLocals) {
    auto e = elseLocals.find(name);
    if (e == elseLocals.end()) continue;
    const Value &ev = e->second;
    if (tv.isRuntime() && ev.isRuntime() && tv.ir == ev.ir) {
      after[name] = tv;
      continue;
    }
    if (!tv.isRuntime() && !ev.isRuntime() && sameObject(tv, ev)) {  // meshes, lambdas, pipes, ...
      after[name] = tv;
      continue;
    }
    if (!tv.isRuntime() && !ev.isRuntime()) {
      Value same;
      std::string err;
      if (foldCompare(CmpOp::Eq, tv, ev, same, err) && same.boolValue) {
        after[name] = tv;
        continue;
      }
      if (!tv.isNumber() || !ev.isNumber()) continue;  // differs and cannot be merged: undefined after
    }
    TType t;
    if (tv.isRuntime() || ev.isRuntime()) {
      t = tv.isRuntime() ? tv.type : ev.type;
    } else {  // two different numbers: a type that holds both (float if either is)
      bool anyFloat = tv.kind == Value::Kind::Float || ev.kind == Value::Kind::Float;
      bool bothBool = tv.kind == Value::Kind::Bool && ev.kind == Value::Kind::Bool;
      t.dtype = anyFloat ? DType::FP32 : bothBool ? DType::I1 : DType::I32;
      for (const Value *v : {&tv, &ev})
        if (v->kind == Value::Kind::Int && (v->intValue > INT32_MAX || v->intValue < INT32_MIN)) t.dtype = DType::I64;
    }
    if (tv.isRuntime() && ev.isRuntime() && tv.type != ev.type)
      cx_.fail(s.range, DiagId::TypeMismatch,
               "'" + name + "' is " + withArticle(tv.type.str()) + " after the 'if' branch but " + withArticle(ev.type.str()) +
                   " after the 'else' branch; give it one type in both");
    merged.push_back(name);
    types.push_back(cx_.irType(t));
    ttypes.push_back(t);
  }
  if (!merged.empty()) {
    auto yieldIn = [&](mlir::Block *b, std::map<std::string, Value> &locals) {
      builder_.setInsertionPoint(b->getTerminator());
      std::vector<mlir::Value> values;
      for (size_t i = 0; i < merged.size(); ++i) {
        Value v = locals[merged[i]];
        v = v.isRuntime() ? v : cx_.toRuntime(v, s.range, &ttypes[i]);
        if (v.type != ttypes[i]) v = cx_.cast(v, ttypes[i].dtype, s.range);
        values.push_back(v.ir);
      }
      mlir::Operation *old = b->getTerminator();
      builder_.create<mlir::scf::YieldOp>(old->getLoc(), values);
      old->erase();
    };
    yieldIn(first.thenBlock(), thenLocals);
    yieldIn(first.elseBlock(), elseLocals);
    builder_.setInsertionPoint(first);
    // One variable merged: the result (or the select it folds to) is printed under its name.
    mlir::Location mergeLoc = l;
    if (merged.size() == 1 && merged[0] != kReturnKey && merged[0].find_first_of("#.") == std::string::npos)
      mergeLoc = mlir::NameLoc::get(builder_.getStringAttr(merged[0]), l);
    auto merge = builder_.create<mlir::scf::IfOp>(mergeLoc, types, cond.ir, /*withElseRegion=*/true);
    merge.getThenRegion().takeBody(first.getThenRegion());
    merge.getElseRegion().takeBody(first.getElseRegion());
    first.erase();
    for (size_t i = 0; i < merged.size(); ++i) after[merged[i]] = Value::ofRuntime(merge.getResult(i), ttypes[i]);
    builder_.setInsertionPointAfter(merge);
  } else {
    builder_.setInsertionPointAfter(first);
  }
  if (!takesRest) {
    frames_.back().locals = std::move(after);
    return;
  }
  // Rebuild the merged return value; a part the branches could not merge (None on one
  // path and a value on the other, tuples of different lengths) is an error.
  std::function<Value(const std::string &)> rebuild = [&](const std::string &key) -> Value {
    if (auto len = after.find(key + "#len"); len != after.end()) {
      if (len->second.kind != Value::Kind::Int)
        cx_.fail(s.range, DiagId::TypeMismatch,
                 "the paths through this 'if' return tuples of different lengths (" + describeReturn(thenLocals, key) +
                     " and " + describeReturn(elseLocals, key) + ")");
      std::vector<Value> elements;
      for (int64_t i = 0; i < len->second.intValue; ++i) elements.push_back(rebuild(key + "." + std::to_string(i)));
      return Value::ofTuple(std::move(elements));
    }
    auto it = after.find(key);
    if (it == after.end())
      cx_.fail(s.range, DiagId::TypeMismatch,
               "the paths through this 'if' return different kinds of values (" + describeReturn(thenLocals, key) +
                   " and " + describeReturn(elseLocals, key) + ")");
    return it->second;
  };
  frames_.back().returnValue = rebuild(kReturnKey);
  frames_.back().returned = true;
  frames_.back().locals = before;
}

// Loop-carried names: assigned in the body and already bound to a number or a runtime
// value (numbers become runtime scalars so that the loop can update them).
void FunctionLowering::loopCarried(const StmtList &body, const std::string &inductionVar, SourceRange at,
                                   std::vector<std::string> &names, std::vector<Value> &inits) {
  std::set<std::string> assigned;
  collectAssigned(body, assigned);
  assigned.erase(inductionVar);
  for (const std::string &n : assigned) {
    auto it = frames_.back().locals.find(n);
    if (it == frames_.back().locals.end()) continue;
    Value v = it->second;
    if (!v.isRuntime() && !v.isNumber()) continue;
    names.push_back(n);
    inits.push_back(v.isRuntime() ? v : cx_.toRuntime(v, at));
  }
}

// The values the loop body yields for its carried names, in their loop types.
std::vector<mlir::Value> FunctionLowering::carriedYields(const std::vector<std::string> &names,
                                                         const std::vector<Value> &inits, SourceRange at) {
  std::vector<mlir::Value> yields;
  for (size_t i = 0; i < names.size(); ++i) {
    Value v = frames_.back().locals[names[i]];
    if (!v.isRuntime()) v = cx_.toRuntime(v, at, &inits[i].type);
    // Triton's rule: a loop-carried value keeps its type. Converting silently would
    // truncate `s = 0 ... s += 0.5` to integers.
    if (v.type != inits[i].type) {
      bool dtypeOnly = v.type.shape == inits[i].type.shape && v.type.isPointer == inits[i].type.isPointer;
      cx_.fail(at, DiagId::TypeMismatch,
               "loop-carried '" + names[i] + "' is " + withArticle(inits[i].type.str()) + " before the loop but " +
                   withArticle(v.type.str()) + " at the end of its body" +
                   (dtypeOnly ? "; give it its final type before the loop (e.g. 0.0 rather than 0)" : ""));
    }
    yields.push_back(v.ir);
  }
  return yields;
}

void FunctionLowering::forStmt(const For &s) {
  const auto *callExpr = dyn_cast<Call>(s.iter.get());
  Value iterFn = callExpr ? expr(*callExpr->func) : Value::none();
  static const std::set<std::string> kRanges = {"range", "triton.language.range", "triton.language.static_range",
                                                "tle.range"};
  if (!callExpr || iterFn.kind != Value::Kind::Builtin || !kRanges.count(iterFn.text))
    cx_.fail(s.iter->range, DiagId::UnsupportedInKernel,
             "a kernel 'for' loop must iterate over range(...), tl.range(...) or tl.static_range(...)");
  if (!s.orelse.empty()) cx_.fail(s.range, DiagId::UnsupportedInKernel, "'for ... else' is not supported in kernels");
  auto *target = dyn_cast<Name>(s.target.get());
  if (!target) cx_.fail(s.target->range, DiagId::UnsupportedInKernel, "the loop variable must be a single name");

  std::vector<Value> bounds;
  std::vector<SourceRange> boundRanges;
  for (const ExprPtr &a : callExpr->args) {
    bounds.push_back(expr(*a));
    boundRanges.push_back(a->range);
  }
  // tl.range's and tle.range's keywords: those tlec honours are evaluated; the scheduling
  // hints it cannot honour yet get a warning and are not evaluated (FlagTree's
  // `executors=[0, range(1, 31)]` is not a kernel expression).
  static const std::set<std::string> kHonoured = {"num_stages", "loop_unroll_factor"};
  static const std::set<std::string> kNotHonoured = {"disallow_acc_multi_buffer", "flatten", "warp_specialize", "disable_licm",
                                                     "pipe_stages", "pipe_orders", "executors"};
  static const std::set<std::string> kSwitches = {"disallow_acc_multi_buffer", "flatten", "warp_specialize", "disable_licm"};
  std::map<std::string, Value> options;
  for (const Keyword &k : callExpr->keywords) {
    if (iterFn.text == "range" || iterFn.text == "triton.language.static_range" || k.arg.empty() ||
        (!kHonoured.count(k.arg) && !kNotHonoured.count(k.arg)))
      cx_.fail(k.range, DiagId::ArgumentMismatch,
               (iterFn.text == "range" ? std::string("range") : iterFn.text == "tle.range" ? "tle.range" : iterFn.text == "triton.language.static_range" ? "tl.static_range" : "tl.range") +
                   " has no parameter '" + k.arg + "'" +
                   (iterFn.text == "range" || iterFn.text == "triton.language.static_range"
                        ? ""
                        : " (its keywords: num_stages, loop_unroll_factor, disallow_acc_multi_buffer, flatten, warp_specialize, "
                          "disable_licm; tle.range also pipe_stages, pipe_orders, executors)"));
    if (kNotHonoured.count(k.arg)) {
      // A switch that is off (tutorial 09's warp_specialize=WARP_SPECIALIZE at False) asks
      // for nothing; the others are kernel expressions too, but not all (`executors`).
      if (kSwitches.count(k.arg)) {
        Value v = expr(*k.value);
        if ((v.kind == Value::Kind::Bool && !v.boolValue) || (v.kind == Value::Kind::Int && v.intValue == 0)) continue;
      }
      cx_.diags().report(DiagId::IgnoredHint, k.range,
                    "the loop hint '" + k.arg + "' is not honoured by tlec yet; the loop is compiled without it");
      continue;
    }
    options[k.arg] = expr(*k.value);
    const Value &v = options[k.arg];
    if (v.kind != Value::Kind::Int || v.intValue < 0)
      cx_.fail(k.value->range, DiagId::ConstantError,
               k.arg + " must be a compile-time integer >= 0, got " + (v.kind == Value::Kind::Int ? std::to_string(v.intValue) : v.describe()));
  }
  if (bounds.empty() || bounds.size() > 3)
    cx_.fail(s.iter->range, DiagId::ArgumentMismatch, "range expects 1 to 3 positional arguments (start, end, step)");
  Value start = bounds.size() == 1 ? Value::ofInt(0) : bounds[0];
  Value end = bounds.size() == 1 ? bounds[0] : bounds[1];
  Value step = bounds.size() == 3 ? bounds[2] : Value::ofInt(1);

  if (iterFn.text == "triton.language.static_range") {
    int64_t a = cx_.requireInt(start, s.iter->range, "tl.static_range's start");
    int64_t b = cx_.requireInt(end, s.iter->range, "tl.static_range's end");
    int64_t c = cx_.requireInt(step, s.iter->range, "tl.static_range's step");
    if (c == 0) cx_.fail(s.iter->range, DiagId::ConstantError, "tl.static_range's step must not be zero");
    int64_t trips = c > 0 ? (b > a ? (b - a + c - 1) / c : 0) : (a > b ? (a - b - c - 1) / -c : 0);
    if (trips > 4096) cx_.fail(s.iter->range, DiagId::ConstantError, "tl.static_range would unroll " + std::to_string(trips) + " iterations (limit 4096)");
    for (int64_t i = a; c > 0 ? i < b : i > b; i += c) {
      frames_.back().locals[target->id] = Value::ofInt(i);
      block(s.body);
    }
    return;
  }

  if (!step.isRuntime() && cx_.requireInt(step, s.iter->range, "the step") <= 0)
    cx_.fail(s.iter->range, DiagId::NotImplemented, "runtime loops with a zero or negative step are not implemented yet");
  // Loop bounds share one integer type: i32 unless a bound is wider.
  TType indexType;
  indexType.dtype = DType::I32;
  for (const Value *v : {&start, &end, &step})
    if (v->isRuntime()) {
      if (v->type.isBlock() || !isInt(v->type.dtype))
        cx_.fail(s.iter->range, DiagId::TypeMismatch, "range bounds must be integer scalars, got " + withArticle(v->type.str()));
      if (bitWidth(v->type.dtype) > 32) indexType.dtype = DType::I64;
    } else if (v->kind == Value::Kind::Int && (v->intValue > INT32_MAX || v->intValue < INT32_MIN)) {
      indexType.dtype = DType::I64;
    }
  auto asIndex = [&](const Value &v, SourceRange r) {
    Value rt = v.isRuntime() ? v : cx_.toRuntime(v, r, &indexType);
    return rt.type.dtype == indexType.dtype ? rt : cx_.cast(rt, indexType.dtype, r);
  };
  Value lb = asIndex(start, s.iter->range), ub = asIndex(end, s.iter->range), st = asIndex(step, s.iter->range);

  std::vector<std::string> carried;
  std::vector<Value> inits;
  loopCarried(s.body, target->id, s.range, carried, inits);
  std::vector<mlir::Value> initIr;
  for (const Value &v : inits) initIr.push_back(v.ir);

  mlir::Location l = cx_.loc(s.range);
  auto loop = builder_.create<mlir::scf::ForOp>(l, lb.ir, ub.ir, st.ir, initIr);
  if (auto ns = options.find("num_stages"); ns != options.end() && ns->second.kind == Value::Kind::Int)
    tle::ir::setLoopNumStages(loop, static_cast<unsigned>(ns->second.intValue));
  if (auto uf = options.find("loop_unroll_factor"); uf != options.end() && uf->second.intValue > 1)
    tle::ir::setLoopUnrollFactor(loop, static_cast<unsigned>(uf->second.intValue));

  std::map<std::string, Value> before = frames_.back().locals;
  mlir::Block *body = loop.getBody();
  {
    mlir::OpBuilder::InsertionGuard guard(builder_);
    if (!body->empty() && body->back().hasTrait<mlir::OpTrait::IsTerminator>())
      builder_.setInsertionPoint(&body->back());
    else
      builder_.setInsertionPointToEnd(body);
    auto &locals = frames_.back().locals;
    locals[target->id] = Value::ofRuntime(loop.getInductionVar(), indexType);
    for (size_t i = 0; i < carried.size(); ++i) locals[carried[i]] = Value::ofRuntime(loop.getRegionIterArg(i), inits[i].type);
    block(s.body);
    if (frames_.back().returned) cx_.fail(s.range, DiagId::UnsupportedInKernel, "'return' inside a runtime loop is not supported");
    if (!carried.empty()) builder_.create<mlir::scf::YieldOp>(l, carriedYields(carried, inits, s.range));
  }
  frames_.back().locals = before;
  for (size_t i = 0; i < carried.size(); ++i)
    frames_.back().locals[carried[i]] = Value::ofRuntime(loop.getResult(i), inits[i].type);
  builder_.setInsertionPointAfter(loop);
}

void FunctionLowering::whileStmt(const While &s) {
  if (!s.orelse.empty()) cx_.fail(s.range, DiagId::UnsupportedInKernel, "'while ... else' is not supported in kernels");
  std::vector<std::string> carried;
  std::vector<Value> inits;
  loopCarried(s.body, "", s.range, carried, inits);
  std::vector<mlir::Value> initIr;
  std::vector<mlir::Type> types;
  for (const Value &v : inits) {
    initIr.push_back(v.ir);
    types.push_back(v.ir.getType());
  }
  mlir::Location l = cx_.loc(s.range);
  auto loop = builder_.create<mlir::scf::WhileOp>(l, types, initIr);
  std::vector<mlir::Location> locs(types.size(), l);
  mlir::Block *beforeBlock = builder_.createBlock(&loop.getBefore(), {}, types, locs);
  std::map<std::string, Value> outer = frames_.back().locals;
  auto bindCarried = [&](mlir::Block *b) {
    for (size_t i = 0; i < carried.size(); ++i)
      frames_.back().locals[carried[i]] = Value::ofRuntime(b->getArgument(static_cast<unsigned>(i)), inits[i].type);
  };
  bindCarried(beforeBlock);
  Value cond = expr(*s.test);
  if (!cond.isRuntime())
    cx_.fail(s.test->range, DiagId::NotImplemented, "a 'while' loop with a compile-time condition is not supported");
  if (cond.type.isBlock())
    cx_.fail(s.test->range, DiagId::TypeMismatch, "a 'while' condition must be a scalar, got " + withArticle(cond.type.str()));
  if (cond.type.dtype != DType::I1) cond = cx_.compare(CmpOp::NotEq, cond, Value::ofInt(0), s.test->range, s.test->range, s.test->range);
  builder_.create<mlir::scf::ConditionOp>(l, cond.ir, beforeBlock->getArguments());

  mlir::Block *afterBlock = builder_.createBlock(&loop.getAfter(), {}, types, locs);
  frames_.back().locals = outer;
  bindCarried(afterBlock);
  block(s.body);
  if (frames_.back().returned) cx_.fail(s.range, DiagId::UnsupportedInKernel, "'return' inside a runtime loop is not supported");
  builder_.create<mlir::scf::YieldOp>(l, carriedYields(carried, inits, s.range));
  frames_.back().locals = outer;
  for (size_t i = 0; i < carried.size(); ++i)
    frames_.back().locals[carried[i]] = Value::ofRuntime(loop.getResult(static_cast<unsigned>(i)), inits[i].type);
  builder_.setInsertionPointAfter(loop);
}

// ========================================================================== expressions

std::vector<std::string> FunctionLowering::visibleNames() {
  std::vector<std::string> names;
  if (!frames_.empty())
    for (const auto &[n, v] : frames_.back().locals) names.push_back(n);
  for (const auto &[n, v] : currentModule().names) names.push_back(n);
  for (const auto &[n, e] : currentModule().lazyAssignments) names.push_back(n);
  return names;
}

Value FunctionLowering::lookupGlobal(const std::string &id, SourceRange at) {
  if (auto it = currentModule().names.find(id); it != currentModule().names.end()) return it->second;
  if (auto it = currentModule().fromImports.find(id); it != currentModule().fromImports.end()) {
    Value v = moduleAttribute(it->second.first, it->second.second, at);
    currentModule().names[id] = v;
    return v;
  }
  if (auto it = currentModule().lazyAssignments.find(id); it != currentModule().lazyAssignments.end()) {
    if (std::find(evaluatingGlobals_.begin(), evaluatingGlobals_.end(), id) != evaluatingGlobals_.end())
      cx_.fail(at, DiagId::Recursion, "module-level name '" + id + "' is defined in terms of itself");
    evaluatingGlobals_.push_back(id);
    Value v;
    try {
      v = evaluateConstant(*it->second);
    } catch (...) {
      evaluatingGlobals_.pop_back();
      throw;
    }
    evaluatingGlobals_.pop_back();
    currentModule().names[id] = v;
    return v;
  }
  static const std::set<std::string> kPythonBuiltins = {"range", "min", "max", "len", "int", "float", "bool",
                                                        "abs", "isinstance", "print", "tuple", "list", "str"};
  if (kPythonBuiltins.count(id)) return Value::ofBuiltin(id);
  std::string best = closestSpelling(id, visibleNames());
  cx_.fail(at, DiagId::UndefinedName,
           "name '" + id + "' is not defined" + (best.empty() ? "" : "; did you mean '" + best + "'?"));
}

Value FunctionLowering::moduleAttribute(const Value &module, const std::string &attr, SourceRange at) {
  if (!module.scope) return builtinModuleAttribute(cx_, module, attr, at);
  ModuleScope &scope = *module.scope;  // a user .tle module: its functions and module-level names
  if (scope.names.count(attr) || scope.lazyAssignments.count(attr) || scope.fromImports.count(attr)) {
    Frame frame;
    frame.module = &scope;
    ScopedFrame scoped(frames_, frame);
    return lookupGlobal(attr, at);
  }
  cx_.fail(at, DiagId::UnknownAttribute, "module '" + module.text + "' (" + scope.fileName + ") has no attribute '" + attr + "'");
}

Value FunctionLowering::name(const Name &n) {
  if (n.id == "__name__") return Value::ofStr("__main__");
  // Only the innermost frame: an inlined helper does not see its caller's locals.
  if (!frames_.empty())
    if (auto v = frames_.back().locals.find(n.id); v != frames_.back().locals.end()) return v->second;
  return lookupGlobal(n.id, n.range);
}

Value FunctionLowering::attribute(const Attribute &a) {
  Value base = expr(*a.value);
  switch (base.kind) {
  case Value::Kind::Module: return moduleAttribute(base, a.attr, a.attrRange);
  case Value::Kind::Runtime: return runtimeAttribute(cx_, base, a.attr, a.attrRange);
  case Value::Kind::Object: return objectAttribute(cx_, base, a.attr, a.attrRange);
  case Value::Kind::Mesh:
    if (a.attr == "shape") {
      std::vector<Value> d;
      for (int64_t n : base.dims) d.push_back(Value::ofInt(n));
      return Value::ofTuple(d);
    }
    if (a.attr == "ndim") return Value::ofInt(static_cast<int64_t>(base.dims.size()));
    if (a.attr == "size") {
      int64_t n = 1;
      for (int64_t d : base.dims) n *= d;
      return Value::ofInt(n);
    }
    if (a.attr == "dim_names") {
      std::vector<Value> d;
      for (const std::string &n : base.names) d.push_back(Value::ofStr(n));
      return Value::ofTuple(d);
    }
    if (a.attr == "flatten" || a.attr == "reshape") return Value::ofBuiltin("mesh." + a.attr, {base});
    break;
  case Value::Kind::Builtin:
    if (base.text.rfind("planned:", 0) == 0)
      cx_.fail(a.range, DiagId::NotImplemented, base.text.substr(8) + "." + a.attr + " is not implemented yet in tlec's lowering");
    break;
  case Value::Kind::DType:
    if (a.attr == "element_ty" && base.dtypeIsPointer) return Value::ofDType(base.dtype);
    if (base.dtypeIsPointer) break;
    if (a.attr == "primitive_bitwidth") return Value::ofInt(bitWidth(base.dtype));
    if (a.attr == "is_floating" || a.attr == "is_int" || a.attr == "is_int_signed" || a.attr == "is_int_unsigned" ||
        a.attr == "is_fp8" || a.attr == "is_bf16" || a.attr == "is_fp16" || a.attr == "is_fp32" || a.attr == "is_fp64")
      return Value::ofBuiltin("dtype." + a.attr, {base});
    break;
  default: break;
  }
  cx_.fail(a.attrRange, DiagId::UnknownAttribute, base.describe() + " has no attribute '" + a.attr + "'");
}

Value FunctionLowering::subscript(const Subscript &s) {
  Value base = expr(*s.value);
  std::vector<const Expr *> indices;
  if (auto *t = dyn_cast<Tuple>(s.slice.get()))
    for (const ExprPtr &e : t->elts) indices.push_back(e.get());
  else
    indices.push_back(s.slice.get());

  if (base.isRuntime()) {
    // x[:, None] and friends: full slices keep a dimension, None inserts one.
    Value v = base;
    size_t dim = 0;
    for (const Expr *idx : indices) {
      if (auto *sl = dyn_cast<Slice>(idx)) {
        if (sl->lower || sl->upper || sl->step)
          cx_.fail(idx->range, DiagId::UnsupportedInKernel, "only full slices ':' can index a block; use tle.extract_tile for parts");
        ++dim;
        continue;
      }
      Value iv = expr(*idx);
      if (iv.kind != Value::Kind::None)
        cx_.fail(idx->range, DiagId::UnsupportedInKernel, "a block can be indexed only with ':' and None, got " + iv.describe());
      std::vector<int64_t> shape = v.type.shape;
      if (dim > shape.size()) cx_.fail(idx->range, DiagId::ShapeMismatch, "too many indices for " + withArticle(v.type.str()));
      shape.insert(shape.begin() + static_cast<long>(dim), 1);
      TType t = v.type.withShape(shape);
      if (!v.type.isBlock()) {
        v = cx_.broadcastTo(v, shape, s.range);
      } else {
        auto op = builder_.create<tle::ir::ExpandDimsOp>(cx_.loc(s.range), cx_.irType(t), v.ir, builder_.getI32IntegerAttr(static_cast<int32_t>(dim)));
        v = Value::ofRuntime(op.getResult(), t);
      }
      ++dim;
    }
    size_t slices = static_cast<size_t>(std::count_if(indices.begin(), indices.end(), [](const Expr *e) { return isa<Slice>(e); }));
    if (slices > base.type.shape.size())
      cx_.fail(s.slice->range, DiagId::ShapeMismatch, "too many ':' for " + withArticle(base.type.str()));
    return v;
  }
  if (base.kind == Value::Kind::Mesh)
    return meshSubscript(cx_, base, indices, s.slice->range, [this](const Expr &e) { return expr(e); });
  if (base.kind == Value::Kind::Tuple || base.kind == Value::Kind::Str) {
    if (indices.size() != 1) cx_.fail(s.slice->range, DiagId::TypeMismatch, "a tuple takes one index");
    int64_t n = static_cast<int64_t>(base.kind == Value::Kind::Tuple ? base.elements.size() : base.text.size());
    if (auto *sl = dyn_cast<Slice>(indices[0])) {
      auto bound = [&](const ExprPtr &e, int64_t dflt) {
        if (!e) return dflt;
        int64_t v = cx_.requireInt(expr(*e), e->range, "a slice bound");
        if (v < 0) v += n;
        return std::clamp<int64_t>(v, 0, n);
      };
      int64_t step = sl->step ? cx_.requireInt(expr(*sl->step), sl->step->range, "a slice step") : 1;
      if (step != 1) cx_.fail(sl->range, DiagId::NotImplemented, "slices with a step are not supported on tuples yet");
      int64_t lo = bound(sl->lower, 0), hi = bound(sl->upper, n);
      if (base.kind == Value::Kind::Str) return Value::ofStr(hi > lo ? base.text.substr(lo, hi - lo) : "");
      std::vector<Value> elems;
      for (int64_t i = lo; i < hi; ++i) elems.push_back(base.elements[i]);
      return Value::ofTuple(std::move(elems));
    }
    int64_t i = cx_.requireInt(expr(*indices[0]), indices[0]->range, "a tuple index");
    if (i < 0) i += n;
    if (i < 0 || i >= n)
      cx_.fail(indices[0]->range, DiagId::ConstantError,
               "index " + std::to_string(i) + " is out of range for a " + base.describe() + " of length " + std::to_string(n));
    if (base.kind == Value::Kind::Str) return Value::ofStr(base.text.substr(i, 1));
    return base.elements[i];
  }
  cx_.fail(s.value->range, DiagId::TypeMismatch, base.describe() + " cannot be indexed");
}

Value FunctionLowering::call(const Call &c) {
  Value fn = expr(*c.func);
  CallArgs args;
  for (const ExprPtr &a : c.args) {
    if (auto *st = dyn_cast<Starred>(a.get())) {
      Value t = expr(*st->value);
      if (t.kind != Value::Kind::Tuple) cx_.fail(a->range, DiagId::TypeMismatch, "only tuples can be unpacked with '*', got " + t.describe());
      for (const Value &e : t.elements) {
        args.positional.push_back(e);
        args.positionalRanges.push_back(a->range);
      }
      continue;
    }
    args.positional.push_back(expr(*a));
    args.positionalRanges.push_back(a->range);
  }
  for (const Keyword &k : c.keywords) {
    if (k.arg.empty()) cx_.fail(k.range, DiagId::UnsupportedInKernel, "'**' unpacking is not supported in kernel calls");
    args.keywords.emplace_back(k.arg, expr(*k.value));
    args.keywordRanges.push_back(k.range);
  }
  if (fn.kind == Value::Kind::Builtin && fn.text == "tle.call") {
    // Block arguments are in-out: a name passed to the raw function is rebound to its
    // value after the call (the native code may have written it).
    std::vector<std::pair<const Expr *, Value>> passed;  // each argument as written, with its value
    for (size_t i = 1; i < c.args.size() && i < args.positional.size(); ++i) passed.push_back({c.args[i].get(), args.positional[i]});
    for (size_t k = 0; k < c.keywords.size() && k < args.keywords.size(); ++k) {
      const Value &list = args.keywords[k].second;
      const ExprList *elts = nullptr;
      if (auto *l = dyn_cast<List>(c.keywords[k].value.get())) elts = &l->elts;
      if (auto *t = dyn_cast<Tuple>(c.keywords[k].value.get())) elts = &t->elts;
      if (c.keywords[k].arg == "args" && elts && list.kind == Value::Kind::Tuple && list.elements.size() == elts->size())
        for (size_t i = 0; i < elts->size(); ++i) passed.push_back({(*elts)[i].get(), list.elements[i]});
    }
    Value results = callBuiltin(cx_, fn, args, c.range);
    size_t next = 0;
    for (const auto &[e, v] : passed) {
      if (!v.isRuntime() || !v.type.isBlock()) continue;
      if (next >= results.elements.size()) break;
      if (auto *n = dyn_cast<Name>(e)) frames_.back().locals[n->id] = results.elements[next];
      ++next;
    }
    return results.elements.size() == 1 ? results.elements[0] : results;
  }
  switch (fn.kind) {
  case Value::Kind::Lambda: return callLambda(fn, args, c.range);
  case Value::Kind::Function:
    if (isRawFunction(*fn.function))
      cx_.fail(c.func->range, DiagId::NotJitFunction,
               "'" + fn.function->name + "' is a raw function; call it with tle.call(" + fn.function->name + ", ...)");
    if (!isJitFunction(*fn.function))
      cx_.fail(c.func->range, DiagId::NotJitFunction,
               "'" + fn.function->name + "' is not a @triton.jit function; kernels can only call @jit functions");
    return callJit(fn, args, c.range);
  case Value::Kind::Builtin: return callBuiltin(cx_, fn, args, c.range);
  default: cx_.fail(c.func->range, DiagId::NotCallable, fn.describe() + " is not callable");
  }
}

Value FunctionLowering::expr(const Expr &e) {
  switch (e.kind) {
  case Expr::Kind::Name: return name(static_cast<const Name &>(e));
  case Expr::Kind::Constant: {
    const auto &c = static_cast<const Constant &>(e);
    switch (c.type) {
    case Constant::Type::Int: {
      errno = 0;
      char *end = nullptr;
      const std::string &t = c.value;
      unsigned long long v;
      if (t.size() > 2 && t[0] == '0' && (t[1] | 0x20) == 'x') v = std::strtoull(t.c_str() + 2, &end, 16);
      else if (t.size() > 2 && t[0] == '0' && (t[1] | 0x20) == 'o') v = std::strtoull(t.c_str() + 2, &end, 8);
      else if (t.size() > 2 && t[0] == '0' && (t[1] | 0x20) == 'b') v = std::strtoull(t.c_str() + 2, &end, 2);
      else v = std::strtoull(t.c_str(), &end, 10);
      if (errno == ERANGE || v > static_cast<unsigned long long>(INT64_MAX))
        cx_.fail(e.range, DiagId::ConstantError, "integer literal " + t + " does not fit in 64 bits");
      return Value::ofInt(static_cast<int64_t>(v));
    }
    case Constant::Type::Float: return Value::ofFloat(std::strtod(c.value.c_str(), nullptr));
    case Constant::Type::String:
      if (c.isFString) return formatFString(c);
      return Value::ofStr(c.value);
    case Constant::Type::Bytes: cx_.fail(e.range, DiagId::UnsupportedInKernel, "bytes literals are not supported in kernels");
    case Constant::Type::Bool: return Value::ofBool(c.value == "True");
    case Constant::Type::None: return Value::none();
    case Constant::Type::Ellipsis: {
      Value v;
      v.kind = Value::Kind::Ellipsis;
      return v;
    }
    }
    return Value::none();
  }
  case Expr::Kind::Attribute: return attribute(static_cast<const Attribute &>(e));
  case Expr::Kind::Subscript: return subscript(static_cast<const Subscript &>(e));
  case Expr::Kind::Call: return call(static_cast<const Call &>(e));
  case Expr::Kind::BinOp: {
    const auto &b = static_cast<const BinOp &>(e);
    Value l = expr(*b.left), r = expr(*b.right);
    return cx_.binary(b.op, l, r, e.range, b.left->range, b.right->range);
  }
  case Expr::Kind::UnaryOp: {
    const auto &u = static_cast<const UnaryOpExpr &>(e);
    return cx_.unary(u.op, expr(*u.operand), e.range);
  }
  case Expr::Kind::BoolOp: {
    const auto &b = static_cast<const BoolOpExpr &>(e);
    Value acc = expr(*b.values[0]);
    for (size_t i = 1; i < b.values.size(); ++i) {
      if (!acc.isRuntime()) {
        // Python's short circuit: `a and b` is a if a is false, else b.
        bool t = cx_.truthy(acc, b.values[i - 1]->range);
        if ((b.op == BoolOp::And) != t) return acc;
        acc = expr(*b.values[i]);
        continue;
      }
      Value rhs = expr(*b.values[i]);
      for (const Value *v : {&acc, &rhs})
        if (v->isRuntime() && (v->type.isBlock() || v->type.dtype != DType::I1))
          cx_.fail(e.range, DiagId::TypeMismatch,
                   std::string("'") + spelling(b.op) + "' needs boolean scalars, got " + withArticle(v->type.str()) +
                       "; use '&' and '|' for element-wise logic");
      acc = cx_.binary(b.op == BoolOp::And ? BinaryOp::BitAnd : BinaryOp::BitOr, acc, rhs, e.range, b.values[0]->range,
                       b.values[i]->range);
    }
    return acc;
  }
  case Expr::Kind::Compare: {
    const auto &c = static_cast<const Compare &>(e);
    Value left = expr(*c.left);
    SourceRange leftRange = c.left->range;
    Value result;
    for (size_t i = 0; i < c.ops.size(); ++i) {
      Value right = expr(*c.comparators[i]);
      Value r = cx_.compare(c.ops[i], left, right, e.range, leftRange, c.comparators[i]->range);
      result = i == 0 ? r : cx_.binary(BinaryOp::BitAnd, result, r, e.range, e.range, e.range);
      left = right;
      leftRange = c.comparators[i]->range;
    }
    return result;
  }
  case Expr::Kind::IfExp: {
    const auto &i = static_cast<const IfExp &>(e);
    Value t = expr(*i.test);
    if (t.isRuntime())
      cx_.fail(i.test->range, DiagId::NotConstexpr,
               "a conditional expression needs a compile-time condition; use tl.where for a runtime choice");
    return expr(cx_.truthy(t, i.test->range) ? *i.body : *i.orelse);
  }
  case Expr::Kind::Tuple:
  case Expr::Kind::List: {
    const ExprList &elts = e.kind == Expr::Kind::Tuple ? static_cast<const Tuple &>(e).elts : static_cast<const List &>(e).elts;
    std::vector<Value> values;
    for (const ExprPtr &x : elts) {
      if (auto *st = dyn_cast<Starred>(x.get())) {
        Value t = expr(*st->value);
        if (t.kind != Value::Kind::Tuple) cx_.fail(x->range, DiagId::TypeMismatch, "only tuples can be unpacked with '*'");
        values.insert(values.end(), t.elements.begin(), t.elements.end());
      } else {
        values.push_back(expr(*x));
      }
    }
    return Value::ofTuple(std::move(values));
  }
  case Expr::Kind::Dict: {
    const auto &d = static_cast<const ast::Dict &>(e);
    Value v;
    v.kind = Value::Kind::Dict;
    for (size_t i = 0; i < d.values.size(); ++i) {
      if (!d.keys[i]) cx_.fail(d.values[i]->range, DiagId::UnsupportedInKernel, "'**' unpacking is not supported in kernels");
      // A compile-time container; keys may be runtime values (tle.call's layout={x: ...}),
      // which match by identity.
      Value key = expr(*d.keys[i]), value = expr(*d.values[i]);
      v.dictKeys.push_back(key);
      v.elements.push_back(value);
    }
    return v;
  }
  case Expr::Kind::Lambda: {
    // Like TLE's visit_Lambda: a function value; its body sees the names bound where it
    // was written (as they are then) and the module's names.
    Value v;
    v.kind = Value::Kind::Lambda;
    v.lambda = static_cast<const ast::Lambda *>(&e);
    v.scope = &currentModule();
    v.captured = std::make_shared<const std::map<std::string, Value>>(frames_.back().locals);
    for (const Param &p : v.lambda->params)
      if (p.kind != Param::Kind::Normal) cx_.fail(p.range, DiagId::UnsupportedInKernel, "lambdas in kernels cannot take *args or **kwargs");
    return v;
  }
  case Expr::Kind::HostExpr:  // reached through a module-level constant
    cx_.fail(e.range, DiagId::UnsupportedSyntax, hostOnlyMessage(static_cast<const HostExpr &>(e).keyword));
  default:
    cx_.fail(e.range, DiagId::UnsupportedInKernel, "this kind of expression is not supported in kernels");
  }
}

}  // namespace tle::sema
