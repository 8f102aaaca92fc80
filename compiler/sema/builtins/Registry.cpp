// The registry and the call of a builtin: names that are known but not lowered yet, the
// bound `self` of methods, then the handler the registry finds.
#include "sema/builtins/Builtins.h"
#include "sema/builtins/Registry.h"

#include <stdexcept>

namespace tle::sema {

namespace {

bool startsWith(const std::string &s, const std::string &prefix) { return s.rfind(prefix, 0) == 0; }

}  // namespace

void BuiltinRegistry::add(const std::string &name, BuiltinHandler handler) {
  if (!exact_.emplace(name, handler).second) throw std::logic_error("builtin registered twice: " + name);
}

void BuiltinRegistry::addTlOrMethod(const std::string &member, BuiltinHandler handler) {
  if (!tlOrMethod_.emplace(member, handler).second) throw std::logic_error("builtin registered twice: tl." + member);
}

void BuiltinRegistry::addFamily(const std::string &prefix, BuiltinHandler handler, const std::string &except) {
  families_.push_back({prefix, except, handler});
}

// Exact names win over members, so Python's min / max / abs and desc.load / desc.store are
// not tl.min, tl.load, ...; members apply to tl. and method. names only; the families'
// prefixes are disjoint, and their exceptions (tle.gpu.storage., tle.dsa.space.: arguments,
// not functions) fall through to "not implemented".
BuiltinHandler BuiltinRegistry::find(const std::string &name, const std::string &member) const {
  if (auto it = exact_.find(name); it != exact_.end()) return it->second;
  if (startsWith(name, "triton.language.") || startsWith(name, "method."))
    if (auto it = tlOrMethod_.find(member); it != tlOrMethod_.end()) return it->second;
  for (const Family &f : families_)
    if (startsWith(name, f.prefix) && (f.except.empty() || !startsWith(name, f.except))) return f.handler;
  return nullptr;
}

const BuiltinRegistry &BuiltinRegistry::get() {
  static const BuiltinRegistry registry = [] {
    BuiltinRegistry r;
    for (void (*family)(BuiltinRegistry &) :
         {registerPythonBuiltins, registerCreationBuiltins, registerMemoryBuiltins, registerDescriptorBuiltins,
          registerDotBuiltins, registerReductionBuiltins, registerSortingBuiltins, registerScanBuiltins, registerElementwiseBuiltins,
          registerMathExtraBuiltins, registerShapeBuiltins, registerSplitJoinBuiltins, registerGpuStructBuiltins,
          registerWarpSpecializeBuiltins, registerPipeBuiltins, registerDsaStructBuiltins, registerDsaCubeBuiltins,
          registerDistributedBuiltins, registerRemoteBuiltins, registerTritonDistBuiltins, registerRawBuiltins,
          registerDebugBuiltins})
      family(r);
    return r;
  }();
  return registry;
}

Value callBuiltin(LoweringContext &cx, const Value &fn, CallArgs &args, SourceRange at) {
  const std::string &name = fn.text;
  if (name == "planned:tle.reshard" || name == "planned:tle.distributed_dot")
    cx.fail(at, DiagId::NotImplemented, name.substr(8) + " is not implemented: its semantics are not defined upstream either (FlagTree defers " +
                                            (name == "planned:tle.reshard" ? "reshard to M4" : "distributed_dot to M5") +
                                            "); use tle.remote and tle.distributed_barrier");
  if (startsWith(name, "planned:")) cx.fail(at, DiagId::NotImplemented, name.substr(8) + " is not implemented yet in tlec's lowering");
  if (!fn.boundArgs.empty()) {
    args.positional.insert(args.positional.begin(), fn.boundArgs.begin(), fn.boundArgs.end());
    args.positionalRanges.insert(args.positionalRanges.begin(), fn.boundArgs.size(), at);
  }
  BuiltinCall call{fn, name, name.substr(name.rfind('.') + 1), args, at};
  if (BuiltinHandler handler = BuiltinRegistry::get().find(name, call.member)) return handler(cx, call);
  cx.fail(at, DiagId::NotImplemented, name + " is not implemented yet in tlec's lowering");
}

}  // namespace tle::sema
