// `tlec --emit=ast`: a stable, indented dump of the AST. One node per line, fields
// labelled, ranges as <line:col-line:col> (1-based, end exclusive). Tests pin this format.
#pragma once

#include "frontend/Ast.h"

#include <ostream>

namespace tle::ast {

struct PrintOptions {
  bool locations = true;
};

void print(const Module &module, std::ostream &out, PrintOptions options = {});

}  // namespace tle::ast
