// TLE-Raw: functions written in the hardware's own language (@tle.raw.language(name=...),
// their source as the docstring), their @tle.hardware_constraint, and tle.call, which
// lowers to tle.raw_call after checking the call against both.
#include "sema/Lowering.h"

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

// tle.call(fn, *args | args=[...], hardware={"threads": (...)}, layout={arg: {"space": ..., "order": [...]}})
Value FunctionLowering::rawCall(CallArgs &args, SourceRange at) {
  if (args.positional.empty()) fail(at, DiagId::ArgumentMismatch, "tle.call needs the raw function to call");
  Value fn = args.positional[0];
  SourceRange fnRange = args.positionalRanges[0];
  std::vector<Value> callArgs(args.positional.begin() + 1, args.positional.end());
  std::vector<SourceRange> argRanges(args.positionalRanges.begin() + 1, args.positionalRanges.end());
  std::optional<Value> hardware, layout;
  SourceRange hardwareRange = at, layoutRange = at;
  for (size_t k = 0; k < args.keywords.size(); ++k) {
    const auto &[key, v] = args.keywords[k];
    SourceRange r = args.keywordRanges[k];
    if (key == "args") {
      if (!callArgs.empty()) fail(r, DiagId::ArgumentMismatch, "tle.call got its arguments both positionally and as args=");
      if (v.kind != Value::Kind::Tuple) fail(r, DiagId::TypeMismatch, "args= must be a list of arguments, got " + v.describe());
      callArgs = v.elements;
      argRanges.assign(callArgs.size(), r);
    } else if (key == "hardware") {
      hardware = v, hardwareRange = r;
    } else if (key == "layout") {
      layout = v, layoutRange = r;
    } else {
      fail(r, DiagId::ArgumentMismatch, "tle.call has no parameter '" + key + "' (its parameters: fn, *args, args, hardware, layout)");
    }
  }
  if (fn.kind != Value::Kind::Function || !isRawFunction(*fn.function))
    fail(fnRange, DiagId::TypeMismatch, "tle.call needs a raw function (decorated with @tle.raw.language(name=...)), got " +
                                            fn.describe());
  const ast::FunctionDef &def = *fn.function;
  // The decorators' arguments are compile-time values of the function's module.
  auto keywordsOf = [&](const ast::Call *call) {
    std::vector<std::pair<std::string, std::pair<Value, SourceRange>>> out;
    if (!call) return out;
    Frame frame;
    frame.module = fn.scope;
    ScopedFrame scoped(frames_, frame);
    for (const ast::Keyword &k : call->keywords) out.push_back({k.arg, {evaluateConstant(*k.value), k.range}});
    return out;
  };
  std::string language;
  SourceRange languageRange = def.nameRange;
  for (auto &[key, v] : keywordsOf(decoratorCall(def, "raw.language"))) {
    if (key != "name") continue;
    if (v.first.kind != Value::Kind::Str) fail(v.second, DiagId::TypeMismatch, "the raw language name must be a string");
    language = v.first.text;
    languageRange = v.second;
  }
  if (language.empty()) fail(languageRange, DiagId::ArgumentMismatch, "a raw function needs its language: @tle.raw.language(name=\"cuda\")");
  const TargetInfo &target = *currentModule().target;
  const bool cuda = target.family() == TargetFamily::Cuda;
  if (language == "mlir")
    fail(languageRange, DiagId::NotImplemented, "raw functions in MLIR (written with MLIR's Python bindings) are not implemented; "
                                                "tlec compiles raw functions whose docstring is CUDA or AscendC source");
  if (language != "cuda" && language != "ascendc")
    fail(languageRange, DiagId::ConstantError, "unknown raw language '" + language + "'; tlec supports \"cuda\" and \"ascendc\"");
  if (!target.acceptsRawLanguage(language)) {
    diags_.report(DiagId::TierNotForTarget, at, "'" + def.name + "' is written in " + language + ", which target " + target.name() +
                                                    " cannot run; compile for " + (cuda ? "an ascend:* target" : "a cuda:* target"))
        .note(languageRange, "its language is declared here");
    throw LoweringFailed{};
  }
  // The source: the function's docstring.
  const ast::Constant *doc = nullptr;
  if (!def.body.empty())
    if (auto *e = ast::dyn_cast<ast::ExprStmt>(def.body[0].get()))
      if (auto *c = ast::dyn_cast<ast::Constant>(e->value.get()); c && c->type == ast::Constant::Type::String) doc = c;
  if (!doc || doc->value.find_first_not_of(" \t\n") == std::string::npos)
    fail(def.nameRange, DiagId::TypeMismatch, "raw function '" + def.name + "' must have its " + language +
                                                  " source as its docstring (its body is not compiled as Python)");
  if (callArgs.size() != def.params.size())
    fail(at, DiagId::ArgumentMismatch, "raw function '" + def.name + "' takes " + std::to_string(def.params.size()) +
                                           (def.params.size() == 1 ? " argument" : " arguments") + ", got " +
                                           std::to_string(callArgs.size()));

  // The hardware constraint: how many thread dimensions the code indexes, and how far it
  // synchronizes.
  int64_t threadsDim = 1;
  std::string syncScope = "block";
  SourceRange constraintRange = def.nameRange, syncRange = def.nameRange;
  for (auto &[key, v] : keywordsOf(decoratorCall(def, "hardware_constraint"))) {
    if (key == "threads_dim") {
      threadsDim = requireInt(v.first, v.second, "threads_dim");
      constraintRange = v.second;
      if (threadsDim < 1 || threadsDim > 3) fail(v.second, DiagId::ConstantError, "threads_dim must be 1, 2 or 3");
    } else if (key == "sync_scope") {
      if (v.first.kind != Value::Kind::Str || !(v.first.text == "thread" || v.first.text == "warp" || v.first.text == "block" ||
                                                v.first.text == "cluster"))
        fail(v.second, DiagId::ConstantError, "sync_scope must be \"thread\", \"warp\", \"block\" or \"cluster\"");
      syncScope = v.first.text;
      syncRange = v.second;
    } else {
      fail(v.second, DiagId::ArgumentMismatch, "tle.hardware_constraint has no parameter '" + key + "' (its parameters: threads_dim, sync_scope)");
    }
  }
  // hardware={"threads": (...)}: one count per thread dimension; the code runs on the
  // program's threads, so they must fit in them.
  int64_t programThreads = static_cast<int64_t>(currentModule().numWarps) * 32;
  std::vector<int64_t> threads;
  if (hardware && hardware->kind != Value::Kind::None) {
    if (hardware->kind != Value::Kind::Dict) fail(hardwareRange, DiagId::TypeMismatch, "hardware= must be a dict such as {\"threads\": (128,)}");
    for (size_t i = 0; i < hardware->dictKeys.size(); ++i) {
      const Value &key = hardware->dictKeys[i];
      const Value &v = hardware->elements[i];
      if (key.kind != Value::Kind::Str || key.text != "threads")
        fail(hardwareRange, DiagId::ConstantError, "hardware= has one key, \"threads\"; got " +
                                                       (key.kind == Value::Kind::Str ? "'" + key.text + "'" : key.describe()));
      std::vector<Value> dims = v.kind == Value::Kind::Tuple ? v.elements : std::vector<Value>{v};
      for (const Value &d : dims) {
        int64_t n = requireInt(d, hardwareRange, "a thread count");
        if (n <= 0) fail(hardwareRange, DiagId::ConstantError, "thread counts must be positive, got " + std::to_string(n));
        threads.push_back(n);
      }
    }
  }
  if (threads.empty()) {
    if (threadsDim != 1)
      fail(at, DiagId::ArgumentMismatch, "'" + def.name + "' has threads_dim=" + std::to_string(threadsDim) +
                                             ": give its launch with hardware={\"threads\": (...)} (" + std::to_string(threadsDim) + " counts)");
    threads.push_back(programThreads);
  }
  if (static_cast<int64_t>(threads.size()) != threadsDim) {
    diags_.report(DiagId::ShapeMismatch, hardwareRange, "hardware threads has " + std::to_string(threads.size()) + " dimension" +
                                                           (threads.size() == 1 ? "" : "s") + " but '" + def.name +
                                                           "' is constrained to threads_dim=" + std::to_string(threadsDim))
        .note(constraintRange, "the constraint is declared here");
    throw LoweringFailed{};
  }
  int64_t total = 1;
  for (int64_t t : threads) total *= t;
  if (cuda && total > programThreads)
    fail(hardwareRange, DiagId::ShapeMismatch, "the raw call needs " + std::to_string(total) + " threads but the kernel runs " +
                                                   std::to_string(programThreads) + " (--num-warps=" +
                                                   std::to_string(currentModule().numWarps) + " x 32); raise --num-warps or lower the count");
  // sync_scope against the enclosing kernel and target.
  if (syncScope == "warp" && cuda && total % 32 != 0)
    fail(hardwareRange, DiagId::ShapeMismatch, "sync_scope=\"warp\" synchronizes whole warps, but " + std::to_string(total) +
                                                   " threads is not a multiple of 32");
  if (syncScope == "cluster" && !target.has(Feature::Clusters))
    fail(syncRange, DiagId::TierNotForTarget, "sync_scope=\"cluster\" needs thread-block clusters (cuda:sm_90 or later); the target is " +
                                                  target.name());
  if (!cuda && (syncScope == "warp" || syncScope == "cluster"))
    fail(syncRange, DiagId::TierNotForTarget, "sync_scope=\"" + syncScope + "\" does not exist on " + target.name() + " (use \"thread\" or \"block\")");
  if ((syncScope == "block" || syncScope == "cluster") && insideWarpPartition_)
    fail(syncRange, DiagId::UnsupportedInKernel, "'" + def.name + "' synchronizes the whole block (sync_scope=\"" + syncScope +
                                                     "\"), but it is called in a warp-specialized partition that runs on part of the block's threads");

  // Arguments and their layouts.
  std::vector<mlir::Value> operands;
  std::vector<mlir::Type> resultTypes;
  std::vector<TType> resultTTypes;
  std::vector<std::string> spaces(callArgs.size());
  for (size_t i = 0; i < callArgs.size(); ++i) {
    Value v = callArgs[i].isRuntime() ? callArgs[i] : toRuntime(callArgs[i], argRanges[i]);
    if (v.type.isBlockPtr || v.type.isTensorDesc)
      fail(argRanges[i], DiagId::TypeMismatch, "a raw function takes blocks, scalars, pointers and buffers, not " + withArticle(v.type.str()));
    operands.push_back(v.ir);
    callArgs[i] = v;
    if (v.type.isBlock()) {
      resultTypes.push_back(v.ir.getType());
      resultTTypes.push_back(v.type);
    }
  }
  if (layout && layout->kind != Value::Kind::None) {
    if (layout->kind != Value::Kind::Dict) fail(layoutRange, DiagId::TypeMismatch, "layout= must be a dict from arguments to their layouts");
    for (size_t k = 0; k < layout->dictKeys.size(); ++k) {
      const Value &key = layout->dictKeys[k];
      size_t i = 0;
      while (i < callArgs.size() && !(key.isRuntime() && callArgs[i].isRuntime() && callArgs[i].ir == key.ir)) ++i;
      if (i == callArgs.size())
        fail(layoutRange, DiagId::ArgumentMismatch, "layout= names " + (key.isRuntime() ? withArticle(key.type.str()) : key.describe()) +
                                                        " that is not an argument of the call");
      const Value &spec = layout->elements[k];
      if (spec.kind != Value::Kind::Dict) fail(layoutRange, DiagId::TypeMismatch, "each layout must be a dict such as {\"space\": \"shared\", \"order\": [0]}");
      for (size_t j = 0; j < spec.dictKeys.size(); ++j) {
        const Value &sk = spec.dictKeys[j], &sv = spec.elements[j];
        std::string name = sk.kind == Value::Kind::Str ? sk.text : "";
        if (name == "space") {
          if (sv.kind != Value::Kind::Str || !(sv.text == "shared" || sv.text == "register" || sv.text == "global"))
            fail(layoutRange, DiagId::ConstantError, "a layout's space must be \"shared\", \"register\" or \"global\"");
          if (sv.text != "global" && !callArgs[i].type.isBlock())
            fail(layoutRange, DiagId::TypeMismatch, "only blocks can be placed in " + sv.text + " memory; argument " +
                                                        std::to_string(i + 1) + " is " + withArticle(callArgs[i].type.str()));
          spaces[i] = sv.text;
        } else if (name == "order") {
          size_t rank = callArgs[i].type.shape.size();
          std::vector<Value> order = sv.kind == Value::Kind::Tuple ? sv.elements : std::vector<Value>{sv};
          std::vector<bool> seen(rank, false);
          bool ok = order.size() == rank;
          for (const Value &o : order) {
            int64_t d = requireInt(o, layoutRange, "an order entry");
            ok = ok && d >= 0 && d < static_cast<int64_t>(rank) && !seen[d];
            if (ok) seen[d] = true;
          }
          if (!ok)
            fail(layoutRange, DiagId::ShapeMismatch, "a layout's order must be a permutation of the dimensions of argument " +
                                                         std::to_string(i + 1) + " (" + withArticle(callArgs[i].type.str()) + ")");
        } else {
          fail(layoutRange, DiagId::ConstantError, "a layout has the keys \"space\" and \"order\"");
        }
      }
    }
  }
  std::vector<llvm::StringRef> spaceRefs(spaces.begin(), spaces.end());
  auto op = builder_.create<tle::ir::RawCallOp>(loc(at), resultTypes, operands, builder_.getStringAttr(def.name),
                                                builder_.getStringAttr(language), builder_.getStringAttr(doc->value),
                                                builder_.getDenseI64ArrayAttr(threads), builder_.getStringAttr(syncScope),
                                                builder_.getStrArrayAttr(spaceRefs));
  std::vector<Value> results;
  for (size_t i = 0; i < resultTTypes.size(); ++i) results.push_back(Value::ofRuntime(op.getResult(static_cast<unsigned>(i)), resultTTypes[i]));
  return Value::ofTuple(results);
}

}  // namespace tle::sema
