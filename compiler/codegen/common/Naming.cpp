#include "codegen/common/Naming.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Location.h"

#include <cctype>
#include <cstdio>

namespace tle::codegen {

using namespace mlir;

std::string sanitize(StringRef name, const std::set<std::string> &reserved) {
  std::string out;
  for (char c : name) out += (std::isalnum(static_cast<unsigned char>(c)) || c == '_') ? c : '_';
  if (out.empty() || std::isdigit(static_cast<unsigned char>(out[0]))) out = "v" + out;
  if (reserved.count(out) || out.rfind("__", 0) == 0) out += "_";
  return out;
}

std::optional<std::string> nameFromLocation(Location loc) {
  if (auto n = dyn_cast<NameLoc>(loc)) return n.getName().str();
  if (auto fused = dyn_cast<FusedLoc>(loc))
    for (Location l : fused.getLocations())
      if (auto n = nameFromLocation(l)) return n;
  return std::nullopt;
}

std::string formatFloat(double v, bool single) {
  char buf[64];
  std::snprintf(buf, sizeof buf, single ? "%.9g" : "%.17g", v);
  std::string s = buf;
  if (s.find_first_of(".en") == std::string::npos) s += ".0";
  return single ? s + "f" : s;
}

}  // namespace tle::codegen
