// Python's str(), repr() and format() of compile-time values, for f-strings in kernels
// (tl.dtype(f"uint{bits}"), tl.static_assert(..., f"...")).
#pragma once

#include "sema/Value.h"

#include <optional>
#include <string>

namespace tle::sema {

// str(v), or repr(v) when `repr`; nullopt for values without a string form here (blocks,
// modules, functions, ...).
std::optional<std::string> pythonStr(const Value &v, bool repr);

// format(v, spec) for the common part of the format mini-language: [[fill]align][sign][0]
// [width][.precision][type] with types d x X o b f F e E g G % s. nullopt with `error` set
// otherwise.
std::optional<std::string> pythonFormat(const Value &v, const std::string &spec, std::string &error);

}  // namespace tle::sema
