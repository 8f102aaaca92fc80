// TLE-Raw: functions written in the hardware's own language (@tle.raw.language(name=...),
// their source as the docstring), their @tle.hardware_constraint, and tle.call, which
// lowers to tle.raw_call after checking the call against both.
#include "sema/builtins/Builtins.h"
#include "sema/builtins/Registry.h"

#include "ir/Dialect.h"

#include <algorithm>

namespace tle::sema {

namespace {

// The name a decorator is called by: "raw.language" for @tle.raw.language(...),
// "hardware_constraint", "dialect" for FlagTree's @dialect(...).
std::string decoratorName(const ast::Expr &d) {
  const ast::Expr *e = &d;
  if (auto *c = ast::dyn_cast<ast::Call>(e)) e = c->func.get();
  std::string name;
  while (auto *a = ast::dyn_cast<ast::Attribute>(e)) {
    name = a->attr + (name.empty() ? "" : "." + name);
    e = a->value.get();
  }
  if (auto *n = ast::dyn_cast<ast::Name>(e)) name = n->id + (name.empty() ? "" : "." + name);
  // Drop the module prefix: tle.raw.language -> raw.language.
  for (const char *prefix : {"tle.", "tl.", "triton.experimental.tle."})
    if (name.rfind(prefix, 0) == 0) name = name.substr(std::string(prefix).size());
  return name;
}

const ast::Call *decoratorCall(const ast::FunctionDef &fn, const std::string &name) {
  for (const ast::ExprPtr &d : fn.decorators)
    if (decoratorName(*d) == name || (name == "raw.language" && decoratorName(*d) == "dialect"))
      return ast::dyn_cast<ast::Call>(d.get());
  return nullptr;
}

}  // namespace

bool isRawFunction(const ast::FunctionDef &fn) {
  return std::any_of(fn.decorators.begin(), fn.decorators.end(), [](const ast::ExprPtr &d) {
    std::string n = decoratorName(*d);
    return n == "raw.language" || n == "dialect";
  });
}

namespace {

// One tle.call as written: the raw function and its arguments, positional or args=[...].
struct RawCallArgs {
  Value fn;
  SourceRange fnRange;
  std::vector<Value> args;
  std::vector<SourceRange> argRanges;
  std::optional<Value> hardware, layout;
  SourceRange hardwareRange, layoutRange;
};

RawCallArgs parseRawCall(LoweringContext &cx, CallArgs &args, SourceRange at) {
  if (args.positional.empty()) cx.fail(at, DiagId::ArgumentMismatch, "tle.call needs the raw function to call");
  RawCallArgs call;
  call.fn = args.positional[0];
  call.fnRange = args.positionalRanges[0];
  call.args.assign(args.positional.begin() + 1, args.positional.end());
  call.argRanges.assign(args.positionalRanges.begin() + 1, args.positionalRanges.end());
  call.hardwareRange = call.layoutRange = at;
  for (size_t k = 0; k < args.keywords.size(); ++k) {
    const auto &[key, v] = args.keywords[k];
    SourceRange r = args.keywordRanges[k];
    if (key == "args") {
      if (!call.args.empty()) cx.fail(r, DiagId::ArgumentMismatch, "tle.call got its arguments both positionally and as args=");
      if (v.kind != Value::Kind::Tuple) cx.fail(r, DiagId::TypeMismatch, "args= must be a list of arguments, got " + v.describe());
      call.args = v.elements;
      call.argRanges.assign(call.args.size(), r);
    } else if (key == "hardware") {
      call.hardware = v, call.hardwareRange = r;
    } else if (key == "layout") {
      call.layout = v, call.layoutRange = r;
    } else {
      cx.fail(r, DiagId::ArgumentMismatch, "tle.call has no parameter '" + key + "' (its parameters: fn, *args, args, hardware, layout)");
    }
  }
  if (call.fn.kind != Value::Kind::Function || !isRawFunction(*call.fn.function))
    cx.fail(call.fnRange, DiagId::TypeMismatch, "tle.call needs a raw function (decorated with @tle.raw.language(name=...)), got " +
                                                    call.fn.describe());
  return call;
}

using DecoratorKeywords = std::vector<std::pair<std::string, std::pair<Value, SourceRange>>>;

// A decorator's keyword arguments: compile-time values of the raw function's module.
DecoratorKeywords decoratorKeywords(LoweringContext &cx, const Value &fn, const ast::Call *call) {
  DecoratorKeywords out;
  if (!call) return out;
  for (const ast::Keyword &k : call->keywords) out.push_back({k.arg, {cx.evaluateConstantIn(*fn.scope, *k.value), k.range}});
  return out;
}

// The raw function's language (@tle.raw.language(name=...)), one the target can run.
std::string rawLanguage(LoweringContext &cx, const Value &fn, SourceRange at) {
  const ast::FunctionDef &def = *fn.function;
  std::string language;
  SourceRange languageRange = def.nameRange;
  for (auto &[key, v] : decoratorKeywords(cx, fn, decoratorCall(def, "raw.language"))) {
    if (key != "name") continue;
    if (v.first.kind != Value::Kind::Str) cx.fail(v.second, DiagId::TypeMismatch, "the raw language name must be a string");
    language = v.first.text;
    languageRange = v.second;
  }
  if (language.empty()) cx.fail(languageRange, DiagId::ArgumentMismatch, "a raw function needs its language: @tle.raw.language(name=\"cuda\")");
  const TargetInfo &target = cx.target();
  const bool cuda = target.family() == TargetFamily::Cuda;
  if (language == "mlir")
    cx.fail(languageRange, DiagId::NotImplemented, "raw functions in MLIR (written with MLIR's Python bindings) are not implemented; "
                                                   "tlec compiles raw functions whose docstring is CUDA or AscendC source");
  if (language != "cuda" && language != "ascendc")
    cx.fail(languageRange, DiagId::ConstantError, "unknown raw language '" + language + "'; tlec supports \"cuda\" and \"ascendc\"");
  if (!target.acceptsRawLanguage(language)) {
    cx.diags().report(DiagId::TierNotForTarget, at, "'" + def.name + "' is written in " + language + ", which target " + target.name() +
                                                        " cannot run; compile for " + (cuda ? "an ascend:* target" : "a cuda:* target"))
        .note(languageRange, "its language is declared here");
    throw LoweringFailed{};
  }
  return language;
}

// The source: the function's docstring.
const std::string &rawSource(LoweringContext &cx, const ast::FunctionDef &def, const std::string &language) {
  const ast::Constant *doc = nullptr;
  if (!def.body.empty())
    if (auto *e = ast::dyn_cast<ast::ExprStmt>(def.body[0].get()))
      if (auto *c = ast::dyn_cast<ast::Constant>(e->value.get()); c && c->type == ast::Constant::Type::String) doc = c;
  if (!doc || doc->value.find_first_not_of(" \t\n") == std::string::npos)
    cx.fail(def.nameRange, DiagId::TypeMismatch, "raw function '" + def.name + "' must have its " + language +
                                                     " source as its docstring (its body is not compiled as Python)");
  return doc->value;
}

// How the raw code runs: threads per dimension and how far it synchronizes.
struct RawLaunch {
  std::vector<int64_t> threads;
  std::string syncScope = "block";
};

// hardware={"threads": (...)}: one count per thread dimension.
std::vector<int64_t> hardwareThreads(LoweringContext &cx, const std::optional<Value> &hardware, SourceRange hardwareRange) {
  std::vector<int64_t> threads;
  if (!hardware || hardware->kind == Value::Kind::None) return threads;
  if (hardware->kind != Value::Kind::Dict) cx.fail(hardwareRange, DiagId::TypeMismatch, "hardware= must be a dict such as {\"threads\": (128,)}");
  for (size_t i = 0; i < hardware->dictKeys.size(); ++i) {
    const Value &key = hardware->dictKeys[i];
    const Value &v = hardware->elements[i];
    if (key.kind != Value::Kind::Str || key.text != "threads")
      cx.fail(hardwareRange, DiagId::ConstantError, "hardware= has one key, \"threads\"; got " +
                                                        (key.kind == Value::Kind::Str ? "'" + key.text + "'" : key.describe()));
    std::vector<Value> dims = v.kind == Value::Kind::Tuple ? v.elements : std::vector<Value>{v};
    for (const Value &d : dims) {
      int64_t n = cx.requireInt(d, hardwareRange, "a thread count");
      if (n <= 0) cx.fail(hardwareRange, DiagId::ConstantError, "thread counts must be positive, got " + std::to_string(n));
      threads.push_back(n);
    }
  }
  return threads;
}

// The launch from @tle.hardware_constraint(threads_dim, sync_scope) and hardware=, checked
// against the kernel's threads, the target and the enclosing warp partition.
RawLaunch rawLaunch(LoweringContext &cx, const Value &fn, const RawCallArgs &call, SourceRange at) {
  const ast::FunctionDef &def = *fn.function;
  int64_t threadsDim = 1;
  RawLaunch launch;
  std::string &syncScope = launch.syncScope;
  SourceRange constraintRange = def.nameRange, syncRange = def.nameRange;
  for (auto &[key, v] : decoratorKeywords(cx, fn, decoratorCall(def, "hardware_constraint"))) {
    if (key == "threads_dim") {
      threadsDim = cx.requireInt(v.first, v.second, "threads_dim");
      constraintRange = v.second;
      if (threadsDim < 1 || threadsDim > 3) cx.fail(v.second, DiagId::ConstantError, "threads_dim must be 1, 2 or 3");
    } else if (key == "sync_scope") {
      if (v.first.kind != Value::Kind::Str || !(v.first.text == "thread" || v.first.text == "warp" || v.first.text == "block" ||
                                                v.first.text == "cluster"))
        cx.fail(v.second, DiagId::ConstantError, "sync_scope must be \"thread\", \"warp\", \"block\" or \"cluster\"");
      syncScope = v.first.text;
      syncRange = v.second;
    } else {
      cx.fail(v.second, DiagId::ArgumentMismatch, "tle.hardware_constraint has no parameter '" + key + "' (its parameters: threads_dim, sync_scope)");
    }
  }
  // The code runs on the program's threads, so they must fit in them. A program without
  // warps (an Ascend AI core) is one thread of control.
  const int warpSize = cx.target().threadsPerWarp();
  int64_t programThreads = warpSize > 0 ? static_cast<int64_t>(cx.numWarps()) * warpSize : 1;
  SourceRange hardwareRange = call.hardwareRange;
  std::vector<int64_t> &threads = launch.threads;
  threads = hardwareThreads(cx, call.hardware, hardwareRange);
  if (threads.empty()) {
    if (threadsDim != 1)
      cx.fail(at, DiagId::ArgumentMismatch, "'" + def.name + "' has threads_dim=" + std::to_string(threadsDim) +
                                                ": give its launch with hardware={\"threads\": (...)} (" + std::to_string(threadsDim) + " counts)");
    threads.push_back(programThreads);
  }
  if (static_cast<int64_t>(threads.size()) != threadsDim) {
    cx.diags().report(DiagId::ShapeMismatch, hardwareRange, "hardware threads has " + std::to_string(threads.size()) + " dimension" +
                                                                (threads.size() == 1 ? "" : "s") + " but '" + def.name +
                                                                "' is constrained to threads_dim=" + std::to_string(threadsDim))
        .note(constraintRange, "the constraint is declared here");
    throw LoweringFailed{};
  }
  const TargetInfo &target = cx.target();
  const bool cuda = target.family() == TargetFamily::Cuda;
  int64_t total = 1;
  for (int64_t t : threads) total *= t;
  if (cuda && total > programThreads)
    cx.fail(hardwareRange, DiagId::ShapeMismatch, "the raw call needs " + std::to_string(total) + " threads but the kernel runs " +
                                                      std::to_string(programThreads) + " (--num-warps=" +
                                                      std::to_string(cx.numWarps()) + " x " + std::to_string(warpSize) +
                                                      "); raise --num-warps or lower the count");
  // sync_scope against the enclosing kernel and target.
  if (syncScope == "warp" && cuda && total % warpSize != 0)
    cx.fail(hardwareRange, DiagId::ShapeMismatch, "sync_scope=\"warp\" synchronizes whole warps, but " + std::to_string(total) +
                                                      " threads is not a multiple of " + std::to_string(warpSize));
  if (syncScope == "cluster" && !target.has(Feature::Clusters))
    cx.fail(syncRange, DiagId::TierNotForTarget, "sync_scope=\"cluster\" needs thread-block clusters (cuda:sm_90 or later); the target is " +
                                                     target.name());
  if (!cuda && (syncScope == "warp" || syncScope == "cluster"))
    cx.fail(syncRange, DiagId::TierNotForTarget, "sync_scope=\"" + syncScope + "\" does not exist on " + target.name() + " (use \"thread\" or \"block\")");
  if ((syncScope == "block" || syncScope == "cluster") && cx.state().insideWarpPartition)
    cx.fail(syncRange, DiagId::UnsupportedInKernel, "'" + def.name + "' synchronizes the whole block (sync_scope=\"" + syncScope +
                                                        "\"), but it is called in a warp-specialized partition that runs on part of the block's threads");
  return launch;
}

// layout={arg: {"space": ..., "order": [...]}}: the memory space of each argument ("" where
// none is given); `args` are the call's runtime arguments.
std::vector<std::string> argumentSpaces(LoweringContext &cx, const std::optional<Value> &layout, SourceRange layoutRange,
                                        const std::vector<Value> &args) {
  std::vector<std::string> spaces(args.size());
  if (!layout || layout->kind == Value::Kind::None) return spaces;
  if (layout->kind != Value::Kind::Dict) cx.fail(layoutRange, DiagId::TypeMismatch, "layout= must be a dict from arguments to their layouts");
  for (size_t k = 0; k < layout->dictKeys.size(); ++k) {
    const Value &key = layout->dictKeys[k];
    size_t i = 0;
    while (i < args.size() && !(key.isRuntime() && args[i].isRuntime() && args[i].ir == key.ir)) ++i;
    if (i == args.size())
      cx.fail(layoutRange, DiagId::ArgumentMismatch, "layout= names " + (key.isRuntime() ? withArticle(key.type.str()) : key.describe()) +
                                                         " that is not an argument of the call");
    const Value &spec = layout->elements[k];
    if (spec.kind != Value::Kind::Dict) cx.fail(layoutRange, DiagId::TypeMismatch, "each layout must be a dict such as {\"space\": \"shared\", \"order\": [0]}");
    for (size_t j = 0; j < spec.dictKeys.size(); ++j) {
      const Value &sk = spec.dictKeys[j], &sv = spec.elements[j];
      std::string name = sk.kind == Value::Kind::Str ? sk.text : "";
      if (name == "space") {
        if (sv.kind != Value::Kind::Str || !(sv.text == "shared" || sv.text == "register" || sv.text == "global"))
          cx.fail(layoutRange, DiagId::ConstantError, "a layout's space must be \"shared\", \"register\" or \"global\"");
        if (sv.text != "global" && !args[i].type.isBlock())
          cx.fail(layoutRange, DiagId::TypeMismatch, "only blocks can be placed in " + sv.text + " memory; argument " +
                                                         std::to_string(i + 1) + " is " + withArticle(args[i].type.str()));
        spaces[i] = sv.text;
      } else if (name == "order") {
        size_t rank = args[i].type.shape.size();
        std::vector<Value> order = sv.kind == Value::Kind::Tuple ? sv.elements : std::vector<Value>{sv};
        std::vector<bool> seen(rank, false);
        bool ok = order.size() == rank;
        for (const Value &o : order) {
          int64_t d = cx.requireInt(o, layoutRange, "an order entry");
          ok = ok && d >= 0 && d < static_cast<int64_t>(rank) && !seen[d];
          if (ok) seen[d] = true;
        }
        if (!ok)
          cx.fail(layoutRange, DiagId::ShapeMismatch, "a layout's order must be a permutation of the dimensions of argument " +
                                                          std::to_string(i + 1) + " (" + withArticle(args[i].type.str()) + ")");
      } else {
        cx.fail(layoutRange, DiagId::ConstantError, "a layout has the keys \"space\" and \"order\"");
      }
    }
  }
  return spaces;
}

// tle.call(fn, *args | args=[...], hardware={"threads": (...)}, layout={arg: {"space": ..., "order": [...]}}):
// a tuple of the block arguments after the call (the walker rebinds the names passed).
Value rawCall(LoweringContext &cx, BuiltinCall &c) {
  SourceRange at = c.at;
  RawCallArgs call = parseRawCall(cx, c.args, at);
  const ast::FunctionDef &def = *call.fn.function;
  std::string language = rawLanguage(cx, call.fn, at);
  const std::string &source = rawSource(cx, def, language);
  if (call.args.size() != def.params.size())
    cx.fail(at, DiagId::ArgumentMismatch, "raw function '" + def.name + "' takes " + std::to_string(def.params.size()) +
                                              (def.params.size() == 1 ? " argument" : " arguments") + ", got " +
                                              std::to_string(call.args.size()));
  RawLaunch launch = rawLaunch(cx, call.fn, call, at);
  std::vector<mlir::Value> operands;
  std::vector<mlir::Type> resultTypes;
  std::vector<TType> resultTTypes;
  for (size_t i = 0; i < call.args.size(); ++i) {
    Value v = call.args[i].isRuntime() ? call.args[i] : cx.toRuntime(call.args[i], call.argRanges[i]);
    if (v.type.isBlockPtr || v.type.isTensorDesc)
      cx.fail(call.argRanges[i], DiagId::TypeMismatch, "a raw function takes blocks, scalars, pointers and buffers, not " + withArticle(v.type.str()));
    operands.push_back(v.ir);
    call.args[i] = v;
    if (v.type.isBlock()) {
      resultTypes.push_back(v.ir.getType());
      resultTTypes.push_back(v.type);
    }
  }
  std::vector<std::string> spaces = argumentSpaces(cx, call.layout, call.layoutRange, call.args);
  std::vector<llvm::StringRef> spaceRefs(spaces.begin(), spaces.end());
  mlir::OpBuilder &b = cx.builder();
  auto op = b.create<tle::ir::RawCallOp>(cx.loc(at), resultTypes, operands, b.getStringAttr(def.name), b.getStringAttr(language),
                                         b.getStringAttr(source), b.getDenseI64ArrayAttr(launch.threads),
                                         b.getStringAttr(launch.syncScope), b.getStrArrayAttr(spaceRefs));
  std::vector<Value> results;
  for (size_t i = 0; i < resultTTypes.size(); ++i) results.push_back(Value::ofRuntime(op.getResult(static_cast<unsigned>(i)), resultTTypes[i]));
  return Value::ofTuple(results);
}

// tle.raw.language and tle.hardware_constraint decorate raw functions.
Value rawDecorator(LoweringContext &cx, BuiltinCall &c) {
  cx.fail(c.at, DiagId::UnsupportedInKernel, c.name + " is a decorator of raw functions, not something to call in a kernel");
}

Value callSmem(LoweringContext &cx, BuiltinCall &c) {
  cx.fail(c.at, DiagId::NotImplemented, "tle.raw.call_smem is not implemented; use tle.call");
}

}  // namespace

void registerRawBuiltins(BuiltinRegistry &r) {
  r.add("tle.call", rawCall);
  r.add("tle.raw.language", rawDecorator);
  r.add("tle.hardware_constraint", rawDecorator);
  r.add("tle.raw.call_smem", callSmem);
}

}  // namespace tle::sema
