// The frontend's public entry points. Plain C++ only: callers never see ANTLR.
#pragma once

#include "frontend/Ast.h"
#include "support/Diagnostics.h"

#include <memory>
#include <string>
#include <vector>

namespace tle {

class SourceManager;

// Parses one file into an AST. Syntax errors are reported to `diags`; the result is null
// when any error was reported. Never throws, whatever the input.
std::unique_ptr<ast::Module> parseFile(const SourceManager &sources, FileId file, DiagnosticEngine &diags);

// The token stream the parser sees, after INDENT/DEDENT synthesis, one token per entry
// as `KIND 'text' line:col` (what `tlec --emit=tokens` prints). Empty on a fatal error.
std::vector<std::string> dumpTokens(const SourceManager &sources, FileId file, DiagnosticEngine &diags);

}  // namespace tle
