// The entry point of semantic analysis: module-level names, kernel selection,
// specialization (signature, -D, defaults), lowering, verification, cleanup, printing.
#include "sema/Sema.h"

#include "frontend/Parser.h"
#include "ir/Dialect.h"
#include "ir/DsaDialect.h"
#include "ir/GpuDialect.h"
#include "ir/KernelSettings.h"
#include "ir/Locations.h"
#include "sema/Lowering.h"
#include "support/SourceManager.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"
#include "ir/IrModuleDetail.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/raw_ostream.h"

#include <functional>
#include <algorithm>
#include <fstream>
#include <set>
#include <cstring>
#include <sstream>

namespace tle {

using namespace sema;

namespace {

// FlagTree's real import path and the seeds' shorthand name the same module.
std::string canonicalModule(const std::string &dotted) {
  if (dotted == "triton.experimental.tle.language" || dotted == "triton.experimental.tle" || dotted == "tle" ||
      dotted == "tle.language")
    return "tle";
  // Its submodules (`import triton.experimental.tle.language.gpu as tleg`) are tle's members.
  for (const char *prefix : {"triton.experimental.tle.language.", "triton.experimental.tle.", "tle.language."})
    if (dotted.rfind(prefix, 0) == 0 && dotted.size() > std::strlen(prefix)) return "tle." + dotted.substr(std::strlen(prefix));
  // Triton-distributed's language module, under both of its names.
  if (dotted == "triton_dist.language" || dotted == "triton.distributed.language") return "dist";
  return dotted;
}

// Names of @jit functions that another @jit function calls: helpers, not kernels.
void collectCalls(const ast::Expr *e, std::set<std::string> &out);
void collectCalls(const ast::StmtList &stmts, std::set<std::string> &out);

void collectCalls(const ast::Expr *e, std::set<std::string> &out) {
  if (!e) return;
  using K = ast::Expr::Kind;
  switch (e->kind) {
  case K::Call: {
    auto *c = static_cast<const ast::Call *>(e);
    if (auto *n = ast::dyn_cast<ast::Name>(c->func.get())) out.insert(n->id);
    collectCalls(c->func.get(), out);
    // A function passed to another (tl.reduce's combine_fn) is a helper too.
    for (const ast::ExprPtr &a : c->args) {
      if (auto *n = ast::dyn_cast<ast::Name>(a.get())) out.insert(n->id);
      collectCalls(a.get(), out);
    }
    for (const ast::Keyword &k : c->keywords) {
      if (auto *n = ast::dyn_cast<ast::Name>(k.value.get())) out.insert(n->id);
      collectCalls(k.value.get(), out);
    }
    return;
  }
  case K::BinOp: {
    auto *b = static_cast<const ast::BinOp *>(e);
    collectCalls(b->left.get(), out);
    collectCalls(b->right.get(), out);
    return;
  }
  case K::UnaryOp: collectCalls(static_cast<const ast::UnaryOpExpr *>(e)->operand.get(), out); return;
  case K::BoolOp:
    for (const ast::ExprPtr &v : static_cast<const ast::BoolOpExpr *>(e)->values) collectCalls(v.get(), out);
    return;
  case K::Compare: {
    auto *c = static_cast<const ast::Compare *>(e);
    collectCalls(c->left.get(), out);
    for (const ast::ExprPtr &v : c->comparators) collectCalls(v.get(), out);
    return;
  }
  case K::IfExp: {
    auto *i = static_cast<const ast::IfExp *>(e);
    collectCalls(i->test.get(), out);
    collectCalls(i->body.get(), out);
    collectCalls(i->orelse.get(), out);
    return;
  }
  case K::Attribute: collectCalls(static_cast<const ast::Attribute *>(e)->value.get(), out); return;
  case K::Subscript: {
    auto *s = static_cast<const ast::Subscript *>(e);
    collectCalls(s->value.get(), out);
    collectCalls(s->slice.get(), out);
    return;
  }
  case K::Tuple:
    for (const ast::ExprPtr &v : static_cast<const ast::Tuple *>(e)->elts) collectCalls(v.get(), out);
    return;
  case K::List:
    for (const ast::ExprPtr &v : static_cast<const ast::List *>(e)->elts) collectCalls(v.get(), out);
    return;
  default: return;
  }
}

void collectCalls(const ast::StmtList &stmts, std::set<std::string> &out) {
  for (const ast::StmtPtr &s : stmts) {
    using K = ast::Stmt::Kind;
    switch (s->kind) {
    case K::Assign: {
      auto *a = static_cast<const ast::Assign *>(s.get());
      collectCalls(a->value.get(), out);
      break;
    }
    case K::AugAssign: collectCalls(static_cast<const ast::AugAssign *>(s.get())->value.get(), out); break;
    case K::AnnAssign: collectCalls(static_cast<const ast::AnnAssign *>(s.get())->value.get(), out); break;
    case K::ExprStmt: collectCalls(static_cast<const ast::ExprStmt *>(s.get())->value.get(), out); break;
    case K::Return: collectCalls(static_cast<const ast::Return *>(s.get())->value.get(), out); break;
    case K::If: {
      auto *i = static_cast<const ast::If *>(s.get());
      collectCalls(i->test.get(), out);
      collectCalls(i->body, out);
      collectCalls(i->orelse, out);
      break;
    }
    case K::For: {
      auto *f = static_cast<const ast::For *>(s.get());
      collectCalls(f->iter.get(), out);
      collectCalls(f->body, out);
      break;
    }
    case K::While: {
      auto *w = static_cast<const ast::While *>(s.get());
      collectCalls(w->test.get(), out);
      collectCalls(w->body, out);
      break;
    }
    case K::With: {
      auto *w = static_cast<const ast::With *>(s.get());
      for (const ast::WithItem &item : w->items) collectCalls(item.contextExpr.get(), out);
      collectCalls(w->body, out);
      break;
    }
    default: break;
    }
  }
}

// A kernel parameter given as `tensordesc<DTYPE[...]>`: its name, its signature entry, and
// where its parts start among the function's arguments.
struct DescriptorParam {
  std::string name;
  SignatureEntry entry;
  size_t firstArgument;
};

// The descriptor a kernel rebuilds from its parts (base, sizes, strides but the last).
Value descriptorFromArguments(FunctionLowering &fl, const DescriptorParam &d, mlir::Block *entry) {
  LoweringContext &cx = fl.context();
  const SignatureEntry &e = d.entry;
  const size_t rank = e.blockShape.size();
  for (int64_t n : e.blockShape)
    if (n <= 0 || (n & (n - 1)) != 0)
      cx.fail(e.range, DiagId::SignatureMismatch, "tensor descriptor block dimensions must be powers of two, got " + toString(e));
  TType t;
  t.dtype = *dtypeFromName(e.dtype);
  if (e.blockShape.back() * ((bitWidth(t.dtype) + 7) / 8) < 16)
    cx.fail(e.range, DiagId::SignatureMismatch,
            "a descriptor block must have at least 16 bytes in its last dimension, got " + toString(e));
  t.isTensorDesc = true;
  t.blockShape = e.blockShape;
  mlir::OpBuilder &b = cx.builder();
  mlir::Location loc = cx.loc(e.range);
  auto arg = [&](size_t i) { return static_cast<mlir::Value>(entry->getArgument(static_cast<unsigned>(d.firstArgument + i))); };
  std::vector<mlir::Value> shape, strides;
  for (size_t k = 0; k < rank; ++k) shape.push_back(arg(1 + k));
  for (size_t k = 0; k + 1 < rank; ++k) strides.push_back(arg(1 + rank + k));
  strides.push_back(b.create<mlir::arith::ConstantIntOp>(loc, 1, 64));
  auto op = b.create<tle::ir::MakeTensorDescOp>(loc, cx.irType(t), arg(0), shape, strides, b.getStringAttr("zero"));
  return Value::ofRuntime(op.getResult(), t);
}

std::string mangle(const std::vector<SignatureEntry> &sig) {
  std::string out;
  for (const SignatureEntry &e : sig) {
    out += "_";
    switch (e.kind) {
    case SignatureEntry::Kind::Pointer: out += std::string(e.isConst ? "pk" : "p") + e.dtype + (e.hint == 16 ? "a16" : ""); break;
    case SignatureEntry::Kind::Scalar: out += e.dtype + (e.hint == 16 ? "d16" : e.hint == 1 ? "e1" : ""); break;
    case SignatureEntry::Kind::Bound: out += "b"; break;
    case SignatureEntry::Kind::TensorDesc:
      out += "d" + e.dtype;
      for (int64_t d : e.blockShape) out += "x" + std::to_string(d);
      break;
    case SignatureEntry::Kind::Constexpr:
      for (char c : e.value) out += std::isalnum(static_cast<unsigned char>(c)) ? c : c == '-' ? 'm' : c == '.' ? 'p' : 'x';
      break;
    }
  }
  return out;
}

class Specializer {
public:
  Specializer(const ast::Module &module, const SemaOptions &options, SourceManager &sources, DiagnosticEngine &diags,
              mlir::MLIRContext &ctx)
      : module_(module), options_(options), sources_(sources), diags_(diags), ctx_(ctx), builder_(&ctx) {}

  bool run();
  mlir::OwningOpRef<mlir::ModuleOp> takeModule() { return std::move(irModule_); }
  const std::vector<std::string> &dependencies() const { return dependencies_; }

private:
  struct LoadedModule {
    std::unique_ptr<ast::Module> ast;
    ModuleScope scope;
  };
  bool buildScope(const ast::Module &module, ModuleScope &scope);
  ModuleScope *findModule(const std::string &dotted, unsigned level, const std::string &fromDir, std::string &searched,
                          bool &failed);
  bool parseDefines();
  void lowerKernel(const ast::FunctionDef &fn, const KernelRequest &request, const std::string &symbol);
  bool isConstexprParam(const ast::Param &p, FunctionLowering &fl);

  const ast::Module &module_;
  const SemaOptions &options_;
  SourceManager &sources_;

  // Triton's limit on a block's elements (TRITON_MAX_TENSOR_NUMEL): more does not fit one
  // program and would make the generated code explode. Checked on every value sema made,
  // at the op that made it; throws LoweringFailed after reporting.
  void checkBlockSizes(mlir::func::FuncOp func) {
    constexpr int64_t kMaxBlockElements = int64_t(1) << 20;
    std::optional<std::pair<mlir::Operation *, mlir::RankedTensorType>> over;
    func.walk([&](mlir::Operation *op) {
      for (mlir::Type t : op->getResultTypes()) {
        mlir::RankedTensorType tensor = llvm::dyn_cast<mlir::RankedTensorType>(t);
        if (auto buffer = llvm::dyn_cast<tle::ir::BufferType>(t)) tensor = llvm::dyn_cast<mlir::RankedTensorType>(buffer.getBlockType());
        if (!tensor || !tensor.hasStaticShape() || over) continue;
        if (tensor.getNumElements() > kMaxBlockElements) over = {op, tensor};
      }
    });
    if (!over) return;
    SourceRange at;
    if (auto file = tle::ir::fileLocation(over->first->getLoc()))
      at = SourceRange(SourceLoc{sources_.findFile(file->getFilename().str()), file->getLine(), file->getColumn()});
    std::string dims;
    for (int64_t d : over->second.getShape()) dims += (dims.empty() ? "" : ", ") + std::to_string(d);
    diags_.report(DiagId::ShapeMismatch, at, "a block of " + std::to_string(over->second.getNumElements()) + " elements ([" + dims +
                                                 "]) is over the limit of 1048576 (Triton's TRITON_MAX_TENSOR_NUMEL)");
    throw LoweringFailed{};
  }
  DiagnosticEngine &diags_;
  mlir::MLIRContext &ctx_;
  mlir::OpBuilder builder_;
  ModuleScope scope_;
  mlir::OwningOpRef<mlir::ModuleOp> irModule_;
  std::vector<std::unique_ptr<ast::Module>> defineModules_;  // keep -D ASTs alive
  std::map<std::string, std::pair<Value, SourceRange>> defines_;
  std::set<std::string> usedDefines_;
  std::map<std::string, std::unique_ptr<LoadedModule>> loaded_;  // by path
  std::vector<std::string> dependencies_;
};

std::string directoryOf(const std::string &path) {
  size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

bool isLibraryModule(const std::string &dotted) {
  std::string top = dotted.substr(0, dotted.find('.'));
  return top == "triton" || top == "tle" || top == "triton_dist" || canonicalModule(dotted) == "tle";
}

// Finds, loads and scopes DOTTED.tle (relative to `fromDir` for `level` > 0 imports).
// Returns null when there is no such file (`searched` lists where it looked) or when
// the file has errors (`failed`).
ModuleScope *Specializer::findModule(const std::string &dotted, unsigned level, const std::string &fromDir,
                                     std::string &searched, bool &failed) {
  std::string rel = dotted;
  std::replace(rel.begin(), rel.end(), '.', '/');
  rel += ".tle";
  std::vector<std::string> dirs;
  if (level > 0) {
    std::string base = fromDir;
    for (unsigned i = 1; i < level; ++i) base += "/..";
    dirs.push_back(base);
  } else {
    dirs.push_back(fromDir);
    dirs.insert(dirs.end(), options_.includeDirs.begin(), options_.includeDirs.end());
    if (!options_.stdlibDir.empty()) dirs.push_back(options_.stdlibDir);
  }
  for (const std::string &dir : dirs) {
    std::string path = dir == "." ? rel : dir + "/" + rel;
    searched += (searched.empty() ? "" : ", ") + path;
    std::ifstream in(path, std::ios::binary);
    if (!in) continue;
    if (auto it = loaded_.find(path); it != loaded_.end()) return &it->second->scope;
    std::ostringstream text;
    text << in.rdbuf();
    auto loaded = std::make_unique<LoadedModule>();
    LoadedModule *raw = loaded.get();
    loaded_[path] = std::move(loaded);
    dependencies_.push_back(path);
    FileId file = sources_.addBuffer(path, text.str());
    raw->ast = parseFile(sources_, file, diags_);
    if (!raw->ast || !buildScope(*raw->ast, raw->scope)) {
      failed = true;
      return nullptr;
    }
    return &raw->scope;
  }
  return nullptr;
}

// Module-level names: imports (resolved now), functions, and assignments (evaluated
// when first used).
bool Specializer::buildScope(const ast::Module &module, ModuleScope &scope) {
  scope.file = module.file;
  scope.fileName = module.name;
  scope.sources = &sources_;
  scope.target = options_.target;
  scope.numWarps = options_.numWarps;
  std::string dir = module.name == "<stdin>" ? "." : directoryOf(module.name);
  bool ok = true;
  auto bindModule = [&](const std::string &name, const std::string &dotted, unsigned level) {
    if (level == 0 && isLibraryModule(dotted)) {
      scope.names[name] = Value::ofModule(canonicalModule(dotted));
      return;
    }
    std::string searched;
    bool failed = false;
    if (ModuleScope *m = findModule(dotted, level, dir, searched, failed)) {
      scope.names[name] = Value::ofUserModule(dotted, m);
      return;
    }
    ok &= !failed;
    // Host libraries (torch, os, ...) are fine to import; a kernel just cannot use them.
    scope.names[name] = Value::ofModule(dotted);
    scope.unresolvedImports[dotted] = "it is not a .tle module (searched: " + searched + ")";
  };
  // A top-level `try`'s body binds names as the path on which nothing raises would
  // (`try: import triton.experimental.tle.language as tle`); its handlers are host code.
  std::vector<const ast::Stmt *> statements;
  std::function<void(const ast::StmtList &)> flatten = [&](const ast::StmtList &list) {
    for (const ast::StmtPtr &s : list) {
      if (auto *h = ast::dyn_cast<ast::HostStmt>(s.get())) flatten(h->body);
      else statements.push_back(s.get());
    }
  };
  flatten(module.body);
  for (const ast::Stmt *s : statements) {
    if (auto *imp = ast::dyn_cast<ast::Import>(s)) {
      for (const ast::Alias &a : imp->names) {
        if (!a.asname.empty()) bindModule(a.asname, a.name, 0);
        else bindModule(a.name.substr(0, a.name.find('.')), a.name.substr(0, a.name.find('.')), 0);
      }
    } else if (auto *from = ast::dyn_cast<ast::ImportFrom>(s)) {
      for (const ast::Alias &a : from->names) {
        if (a.name == "*") continue;
        std::string alias = a.asname.empty() ? a.name : a.asname;
        std::string full = from->module.empty() ? a.name : from->module + "." + a.name;
        if (from->level == 0 && isLibraryModule(full)) {
          std::string canonical = canonicalModule(full);
          if (canonical == "tle" || canonical == "dist" || canonical == "triton.language" ||
              canonical == "triton.language.math") {
            scope.names[alias] = Value::ofModule(canonical);
          } else {
            scope.fromImports[alias] = {Value::ofModule(canonicalModule(from->module)), a.name};
          }
          continue;
        }
        // `from M import N`: N is a submodule M/N.tle, or a name defined in M.tle.
        std::string searched;
        bool failed = false;
        if (ModuleScope *m = findModule(full, from->level, dir, searched, failed)) {
          scope.names[alias] = Value::ofUserModule(full, m);
          continue;
        }
        if (failed) {
          ok = false;
          continue;
        }
        searched.clear();
        if (ModuleScope *m = from->module.empty() ? nullptr : findModule(from->module, from->level, dir, searched, failed)) {
          scope.fromImports[alias] = {Value::ofUserModule(from->module, m), a.name};
          continue;
        }
        ok &= !failed;
        std::string mod = from->module.empty() ? a.name : from->module;
        scope.fromImports[alias] = {Value::ofModule(mod), a.name};
        scope.unresolvedImports[mod] = "it is not a .tle module (searched: " + searched + ")";
      }
    } else if (auto *fn = ast::dyn_cast<ast::FunctionDef>(s)) {
      scope.names[fn->name] = Value::ofFunction(fn, &scope);
      scope.lazyAssignments.erase(fn->name);
    } else if (auto *as = ast::dyn_cast<ast::Assign>(s)) {
      for (const ast::ExprPtr &t : as->targets)
        if (auto *n = ast::dyn_cast<ast::Name>(t.get())) {
          scope.lazyAssignments[n->id] = as->value.get();
          scope.names.erase(n->id);
        }
    } else if (auto *ann = ast::dyn_cast<ast::AnnAssign>(s)) {
      if (auto *n = ast::dyn_cast<ast::Name>(ann->target.get()); n && ann->value) {
        scope.lazyAssignments[n->id] = ann->value.get();
        scope.names.erase(n->id);
      }
    }
  }
  return ok;
}

// -D NAME=VALUE: VALUE is parsed as a Python expression in a buffer of its own, so its
// errors point into the option.
bool Specializer::parseDefines() {
  bool ok = true;
  for (const auto &[name, value] : options_.defines) {
    FileId f = sources_.addBuffer("<-D " + name + ">", name + " = " + value + "\n");
    std::unique_ptr<ast::Module> m = parseFile(sources_, f, diags_);
    if (!m) {
      ok = false;
      continue;
    }
    if (m->body.size() != 1 || !ast::isa<ast::Assign>(m->body[0].get()) ||
        static_cast<const ast::Assign *>(m->body[0].get())->targets.size() != 1) {
      diags_.report(DiagId::InvalidDefine, SourceRange({f, 1, 1}, sources_.endOfFile(f)),
                    "-D " + name + "=VALUE needs VALUE to be a single expression");
      ok = false;
      continue;
    }
    const auto *assign = static_cast<const ast::Assign *>(m->body[0].get());
    FunctionLowering fl(scope_, builder_, diags_);
    try {
      defines_[name] = {fl.evaluateConstant(*assign->value), assign->value->range};
    } catch (const LoweringFailed &) {
      ok = false;
    }
    defineModules_.push_back(std::move(m));
  }
  return ok;
}

bool Specializer::isConstexprParam(const ast::Param &p, FunctionLowering &fl) {
  if (!p.annotation) return false;
  try {
    Value a = fl.evaluateConstant(*p.annotation);
    return a.kind == Value::Kind::Builtin && a.text == "triton.language.constexpr";
  } catch (const LoweringFailed &) {
    return false;
  }
}

void Specializer::lowerKernel(const ast::FunctionDef &fn, const KernelRequest &request, const std::string &symbol) {
  FunctionLowering fl(scope_, builder_, diags_);
  std::map<std::string, Value> params;
  std::vector<mlir::Type> argTypes;
  std::vector<std::string> argNames;
  std::vector<TType> argTTypes;
  std::vector<mlir::DictionaryAttr> argAttrs;
  std::vector<DescriptorParam> descriptors;
  auto paramList = [&]() {
    std::string s;
    for (const ast::Param &p : fn.params) s += (s.empty() ? "" : ", ") + p.name;
    return s;
  };
  try {
    for (const ast::Param &p : fn.params)
      if (p.kind != ast::Param::Kind::Normal)
        fl.context().fail(p.range, DiagId::UnsupportedInKernel, "kernels cannot take *args or **kwargs");
    // A signature may stop early when the remaining parameters have defaults (or -D).
    size_t covered = request.signature ? request.signature->size() : 0;
    bool restBound = true;
    for (size_t i = covered; i < fn.params.size(); ++i)
      restBound &= fn.params[i].defaultValue != nullptr || defines_.count(fn.params[i].name) != 0;
    if (request.signature && (request.signature->size() > fn.params.size() || !restBound)) {
      diags_.report(DiagId::SignatureMismatch, request.signatureRange,
                    "the signature has " + std::to_string(request.signature->size()) + " entries but '" + fn.name +
                        "' has " + std::to_string(fn.params.size()) + " parameters (" + paramList() + ")")
          .note(fn.nameRange, "'" + fn.name + "' is defined here");
      return;
    }
    for (size_t i = 0; i < fn.params.size(); ++i) {
      const ast::Param &p = fn.params[i];
      bool constexprParam = isConstexprParam(p, fl);
      auto define = defines_.find(p.name);
      if (define != defines_.end()) usedDefines_.insert(p.name);
      if (request.signature && i < request.signature->size() && (*request.signature)[i].kind != SignatureEntry::Kind::Bound) {
        const SignatureEntry &e = (*request.signature)[i];
        if (e.kind == SignatureEntry::Kind::Constexpr) {
          if (define != defines_.end())
            fl.context().fail(define->second.second, DiagId::SignatureMismatch,
                              "'" + p.name + "' is given both in the signature and with -D");
          Value v;
          switch (e.valueKind) {
          case SignatureEntry::ValueKind::Int: v = Value::ofInt(std::stoll(e.value)); break;
          case SignatureEntry::ValueKind::Float: v = Value::ofFloat(std::stod(e.value)); break;
          case SignatureEntry::ValueKind::Bool: v = Value::ofBool(e.value == "True"); break;
          case SignatureEntry::ValueKind::String: v = Value::ofStr(e.value); break;
          case SignatureEntry::ValueKind::None: v = Value::none(); break;
          }
          params[p.name] = v;
          continue;
        }
        if (constexprParam)
          fl.context().fail(e.range, DiagId::SignatureMismatch,
                            "parameter '" + p.name + "' is tl.constexpr: give its value in the signature (e.g. 128), not a type");
        if (define != defines_.end())
          fl.context().fail(define->second.second, DiagId::SignatureMismatch,
                            "'" + p.name + "' is a runtime parameter (" + toString(e) + " in the signature); -D binds only constexprs");
        if (e.kind == SignatureEntry::Kind::TensorDesc) {
          // A host tensor descriptor arrives as its parts: the base (16-byte aligned, as TMA
          // descriptors need), one i32 size per dimension and one i64 stride per dimension
          // but the last (contiguous); the kernel rebuilds the descriptor from them.
          const size_t rank = e.blockShape.size();
          if (rank < 1 || rank > 5)
            fl.context().fail(e.range, DiagId::SignatureMismatch,
                              "a tensor descriptor has 1 to 5 dimensions, got " + std::to_string(rank) + " in " + toString(e));
          DescriptorParam d{p.name, e, argTypes.size()};
          auto add = [&](const std::string &name, TType t, unsigned divisibility) {
            argTypes.push_back(fl.context().irType(t));
            argNames.push_back("");
            argTTypes.push_back(t);
            argAttrs.push_back(tle::ir::parameterAttributes(&ctx_, name, divisibility, false, false));
          };
          TType base;
          base.dtype = *dtypeFromName(e.dtype);
          base.isPointer = true;
          add(p.name + "_base", base, 16);
          TType i32, i64;
          i32.dtype = DType::I32;
          i64.dtype = DType::I64;
          for (size_t k = 0; k < rank; ++k) add(p.name + "_shape" + std::to_string(k), i32, 1);
          for (size_t k = 0; k + 1 < rank; ++k) add(p.name + "_stride" + std::to_string(k), i64, 1);
          descriptors.push_back(std::move(d));
          continue;
        }
        if (e.kind == SignatureEntry::Kind::Scalar && e.hint == 1) {
          params[p.name] = Value::ofInt(1);  // Triton's ":1": specialized as the constant 1
          continue;
        }
        TType t;
        t.dtype = *dtypeFromName(e.dtype);
        t.isPointer = e.kind == SignatureEntry::Kind::Pointer;
        argTypes.push_back(fl.context().irType(t));
        argNames.push_back(p.name);
        argTTypes.push_back(t);
        argAttrs.push_back(tle::ir::parameterAttributes(&ctx_, p.name, e.hint == 16 ? 16 : 1, e.isConst,
                                                        !t.isPointer && isUnsigned(t.dtype)));
        continue;
      }
      // No signature entry (or `_`): the parameter must get a compile-time value.
      if (define != defines_.end()) {
        params[p.name] = define->second.first;
      } else if (p.defaultValue) {
        params[p.name] = fl.evaluateConstant(*p.defaultValue);
      } else {
        fl.context().fail(p.range, DiagId::SignatureMismatch,
                          "parameter '" + p.name + "' of kernel '" + fn.name +
                              "' needs a value or a type: compile it with --kernel " + fn.name + " --signature \"...\"" +
                              (constexprParam ? " or -D " + p.name + "=VALUE" : ""));
      }
    }
    // Create the function and lower the body into it.
    builder_.setInsertionPointToEnd(irModule_->getBody());
    auto type = builder_.getFunctionType(argTypes, {});
    auto func = builder_.create<mlir::func::FuncOp>(fl.context().loc(fn.nameRange), symbol, type);
    tle::ir::setKernelSettings(func, options_.numWarps, options_.numStages, *options_.target);
    for (size_t i = 0; i < argAttrs.size(); ++i) func.setArgAttrs(static_cast<unsigned>(i), argAttrs[i]);
    mlir::Block *entry = func.addEntryBlock();
    builder_.setInsertionPointToStart(entry);
    for (size_t i = 0; i < argNames.size(); ++i)
      if (!argNames[i].empty()) params[argNames[i]] = Value::ofRuntime(entry->getArgument(static_cast<unsigned>(i)), argTTypes[i]);
    for (const DescriptorParam &d : descriptors) params[d.name] = descriptorFromArguments(fl, d, entry);
    try {
      Value result = fl.lowerFunctionBody(fn, scope_, std::move(params), 0);
      if (result.kind != Value::Kind::None) fl.context().fail(fn.nameRange, DiagId::TypeMismatch, "a kernel cannot return a value");
      checkBlockSizes(func);
      if (unsigned blocks = fl.context().state().clusterSize; blocks > 1) tle::ir::setClusterSize(func, blocks);
      if (unsigned ranks = fl.context().state().meshRanks) tle::ir::setMeshRanks(func, ranks);
      if (unsigned nodes = fl.context().state().meshNodes; nodes > 1) tle::ir::setMeshNodes(func, nodes);
      builder_.create<mlir::func::ReturnOp>(fl.context().loc(fn.range));
    } catch (const LoweringFailed &) {
      func.erase();
      throw;
    }
  } catch (const LoweringFailed &) {
  }
}

bool Specializer::run() {
  if (!buildScope(module_, scope_)) return false;
  irModule_ = mlir::ModuleOp::create(mlir::FileLineColLoc::get(&ctx_, module_.name, 1, 1));
  unsigned errorsBefore = diags_.errorCount();

  // -D may also rebind module-level names.
  if (!parseDefines()) return false;
  for (const auto &[name, d] : defines_)
    if (scope_.lazyAssignments.count(name)) {
      scope_.lazyAssignments.erase(name);
      scope_.names[name] = d.first;
      usedDefines_.insert(name);
    }

  std::vector<const ast::FunctionDef *> jitFunctions;
  std::set<std::string> calledByJit;
  for (const ast::StmtPtr &s : module_.body)
    if (auto *fn = ast::dyn_cast<ast::FunctionDef>(s.get()); fn && isJitFunction(*fn)) {
      jitFunctions.push_back(fn);
      collectCalls(fn->body, calledByJit);
    }
  auto findJit = [&](const std::string &name) -> const ast::FunctionDef * {
    for (const ast::FunctionDef *fn : jitFunctions)
      if (fn->name == name) return fn;
    return nullptr;
  };

  std::vector<KernelRequest> requests = options_.kernels;
  if (requests.empty()) {
    for (const ast::FunctionDef *fn : jitFunctions)
      if (!calledByJit.count(fn->name)) requests.push_back({fn->name, std::nullopt, {}, {}});
    if (requests.empty()) {
      diags_.report(DiagId::KernelNotFound, "'" + module_.name + "' has no @triton.jit kernel");
      return false;
    }
  }
  std::map<std::string, int> requestCount;
  for (const KernelRequest &r : requests) ++requestCount[r.name];
  std::set<std::string> symbols;

  for (const KernelRequest &r : requests) {
    const ast::FunctionDef *fn = findJit(r.name);
    if (!fn) {
      auto it = scope_.names.find(r.name);
      if (it != scope_.names.end() && it->second.kind == Value::Kind::Function) {
        diags_.report(DiagId::KernelNotFound, "'" + r.name + "' is not a @triton.jit function")
            .note(it->second.function->nameRange, "'" + r.name + "' is defined here");
      } else {
        std::string names;
        for (const ast::FunctionDef *f : jitFunctions) names += (names.empty() ? "" : ", ") + f->name;
        diags_.report(DiagId::KernelNotFound,
                      "no @jit kernel named '" + r.name + "' in '" + module_.name + "'" +
                          (names.empty() ? std::string() : " (it has: " + names + ")"));
      }
      continue;
    }
    std::string symbol = !r.symbol.empty()                           ? r.symbol
                         : requestCount[r.name] > 1 && r.signature ? r.name + mangle(*r.signature)
                                                                   : r.name;
    if (!symbols.insert(symbol).second) {
      diags_.report(DiagId::SignatureMismatch, r.signatureRange.isValid() ? r.signatureRange : SourceRange(),
                    !r.symbol.empty() ? "two kernels would both be named '" + symbol + "'; give each its own --out-name"
                                      : "kernel '" + r.name + "' is requested twice with the same specialization");
      continue;
    }
    lowerKernel(*fn, r, symbol);
    if (diags_.shouldStop()) break;
  }
  for (const auto &[name, d] : defines_)
    if (diags_.errorCount() == errorsBefore && !usedDefines_.count(name))
      diags_.report(DiagId::UnusedDefine, d.second,
                    "-D " + name + " matches no constexpr parameter of the compiled kernels and no module-level name");
  if (diags_.errorCount() != errorsBefore) return false;

  // The IR must verify; a failure here is a bug in the lowering, not in the input.
  std::string verifyErrors;
  {
    mlir::ScopedDiagnosticHandler handler(&ctx_, [&](mlir::Diagnostic &d) {
      verifyErrors += d.str() + "\n";
      return mlir::success();
    });
    if (mlir::failed(mlir::verify(*irModule_))) {
      diags_.report(DiagId::InternalError, "internal error: the generated MLIR does not verify:\n" + verifyErrors);
      return false;
    }
    mlir::PassManager pm(&ctx_);
    pm.addPass(mlir::createCanonicalizerPass());
    pm.addPass(mlir::createCSEPass());
    if (mlir::failed(pm.run(*irModule_))) {
      diags_.report(DiagId::InternalError, "internal error: canonicalization failed:\n" + verifyErrors);
      return false;
    }
  }
  return true;
}

}  // namespace

IrModulePtr lowerToIr(const ast::Module &module, const SemaOptions &options, SourceManager &sources, DiagnosticEngine &diags,
                      std::vector<std::string> *dependencies) {
  IrModulePtr ir(new IrModule);
  Specializer s(module, options, sources, diags, ir->context);
  bool ok = s.run();
  if (dependencies) *dependencies = s.dependencies();
  if (!ok) return nullptr;
  ir->op = s.takeModule();
  return ir;
}

}  // namespace tle
