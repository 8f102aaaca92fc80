// Turns the raw ANTLR token stream into Python's logical-line stream: drops NEWLINEs
// inside brackets and on blank or comment-only lines, synthesizes INDENT/DEDENT from
// each logical line's indentation, and reports token-level errors (bad characters,
// unterminated strings, bad numbers, unbalanced brackets, inconsistent indentation).
// Internal to the frontend library: it exposes ANTLR types.
#pragma once

#include "support/Diagnostics.h"

#include <memory>
#include <string_view>
#include <vector>

namespace antlr4 {
class Token;
}

namespace tle {

class SourceManager;
class TleLexer;

struct LogicalTokens {
  std::vector<std::unique_ptr<antlr4::Token>> tokens;  // ends with EOF
  std::vector<uint16_t> bracketDepth;                   // bracket depth after each token
  std::vector<size_t> errorAt;  // index of the next token when a non-fatal error was reported
  // A fatal error (unclosed bracket, bad dedent, unterminated triple-quoted string)
  // leaves a stream the parser cannot make sense of; parsing is skipped.
  bool fatal = false;
};

// Python's limits, kept so that deeply nested input gets a diagnostic, not a stack overflow.
constexpr unsigned kMaxBracketDepth = 200;
constexpr unsigned kMaxIndentLevels = 100;
// Operators the parser handles by recursion (prefix `-`/`+`/`~`/`not` runs, and `**`,
// `lambda`, `if` on one logical line); past this many, the line is rejected.
constexpr unsigned kMaxExpressionNesting = 1000;

LogicalTokens buildLogicalLines(tle::TleLexer &lexer, FileId file, const SourceManager &sources,
                                DiagnosticEngine &diags);

// `at` advanced over `text` (newlines start a new line at column 1).
SourceLoc advancePast(SourceLoc at, std::string_view text);

// The position just past a token: its start advanced over its text.
SourceLoc tokenEnd(const antlr4::Token &token, FileId file);
SourceLoc tokenBegin(const antlr4::Token &token, FileId file);
inline SourceRange tokenRange(const antlr4::Token &token, FileId file) {
  return {tokenBegin(token, file), tokenEnd(token, file)};
}

}  // namespace tle
