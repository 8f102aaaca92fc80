// What both printers spell alike: C++ identifiers from source names, the source name an
// op's location records, and float literals.
#pragma once

#include "mlir/IR/Location.h"

#include <optional>
#include <set>
#include <string>

namespace tle::codegen {

// A valid C++ identifier for `name` that is none of `reserved` and does not start with "__".
std::string sanitize(llvm::StringRef name, const std::set<std::string> &reserved);
// The source variable an op's result is named after, when its location records one.
std::optional<std::string> nameFromLocation(mlir::Location loc);
// A C++ literal that reads back as `v` ("1.5f", "0.1"); finite values only.
std::string formatFloat(double v, bool single);

// A docstring's code (a TLE-Raw function): without its leading and trailing blank lines and
// the indentation its lines share, as Python's textwrap.dedent.
std::string docstringCode(const std::string &text);

// The comment above the statements of one source line: "// file.tle:12: the line's text"
// (the file's base name; `text` may be empty).
std::string sourceLineComment(const std::string &file, unsigned line, const std::string &text);

}  // namespace tle::codegen
