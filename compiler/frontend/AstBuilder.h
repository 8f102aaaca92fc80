// Builds the plain-C++ AST from an ANTLR parse tree, and checks the rules Python
// enforces at compile time rather than in its grammar (assignment targets, parameter
// and argument order, duplicate names, `return`/`break` placement, string escapes).
// Internal to the frontend library.
#pragma once

#include "TleParser.h"
#include "frontend/Ast.h"
#include "support/Diagnostics.h"

namespace tle {

// Appends the statements of one parsed chunk (see Parser.cpp) to `out`. `tokens` is the
// stream the chunk was parsed from; it is used to find where compound statements end.
void buildAst(TleParser::File_inputContext *chunk, antlr4::TokenStream &tokens, FileId file,
              DiagnosticEngine &diags, ast::StmtList &out);

}  // namespace tle
