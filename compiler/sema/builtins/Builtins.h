// What the walker asks of the builtins: calling one (through the registry), the names that
// builtin modules and values export, and the few constructs that are statements or
// subscripts in the source but belong to a builtin family.
#pragma once

#include "sema/LoweringContext.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace tle::sema {

// Calls the builtin `fn` (a Value of kind Builtin): its bound `self` goes first, then the
// registry's handler for its name runs (Registry.cpp).
Value callBuiltin(LoweringContext &cx, const Value &fn, CallArgs &args, SourceRange at);

// `module.attr` for tl, triton, tle and the other modules tlec provides (Names.cpp).
Value builtinModuleAttribute(LoweringContext &cx, const Value &module, const std::string &attr, SourceRange at);
// `x.attr` of a runtime value: its dtype and shape, or a bound method (Names.cpp).
Value runtimeAttribute(LoweringContext &cx, const Value &v, const std::string &attr, SourceRange at);
// `obj.attr` of a TLE object: pipes, their writers, readers and slots (Pipes.cpp).
Value objectAttribute(LoweringContext &cx, const Value &object, const std::string &attr, SourceRange at);

// mesh[i], mesh[a:b], mesh[..., i] (Distributed.cpp); `evaluate` lowers an index expression.
Value meshSubscript(LoweringContext &cx, const Value &mesh, const std::vector<const ast::Expr *> &indices, SourceRange at,
                    const std::function<Value(const ast::Expr &)> &evaluate);

// A runtime `assert`, as tl.device_assert (Debugging.cpp).
void deviceAssert(LoweringContext &cx, const Value &cond, const std::string &message, const std::optional<Value> &mask,
                  SourceRange at);

// True for functions decorated with @tle.raw.language(...) (or FlagTree's @dialect(...)).
bool isRawFunction(const ast::FunctionDef &fn);

}  // namespace tle::sema
