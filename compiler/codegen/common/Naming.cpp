#include "codegen/common/Naming.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Location.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <sstream>
#include <vector>

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

std::string docstringCode(const std::string &text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) lines.push_back(l.substr(0, l.find_last_not_of(" \t\r") + 1));
  while (!lines.empty() && lines.front().empty()) lines.erase(lines.begin());
  while (!lines.empty() && lines.back().empty()) lines.pop_back();
  size_t common = std::string::npos;
  for (const std::string &l : lines)
    if (!l.empty()) common = std::min(common, l.find_first_not_of(" \t"));
  std::string out;
  for (const std::string &l : lines) out += (l.empty() ? l : l.substr(common)) + "\n";
  return out;
}

std::string sourceLineComment(const std::string &file, unsigned line, const std::string &text) {
  size_t first = text.find_first_not_of(" \t");
  std::string code = first == std::string::npos ? "" : text.substr(first);
  std::string base = file;
  if (size_t slash = base.rfind('/'); slash != std::string::npos) base = base.substr(slash + 1);
  return "// " + base + ":" + std::to_string(line) + (code.empty() ? "" : ": " + code) + "\n";
}

}  // namespace tle::codegen
