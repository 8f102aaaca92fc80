#include "frontend/LogicalLines.h"

#include "TleLexer.h"
#include "support/SourceManager.h"
#include "support/Utf8.h"

#include <antlr4-runtime.h>

#include <cstdio>
#include <string>

namespace tle {

SourceLoc tokenBegin(const antlr4::Token &token, FileId file) {
  return {file, static_cast<uint32_t>(token.getLine()),
          static_cast<uint32_t>(token.getCharPositionInLine() + 1)};
}

SourceLoc tokenEnd(const antlr4::Token &token, FileId file) {
  SourceLoc loc = tokenBegin(token, file);
  size_t type = token.getType();
  // Synthesized INDENT/DEDENT/EOF have no text (ANTLR would answer "<EOF>").
  if (type == antlr4::Token::EOF || type == TleLexer::INDENT || type == TleLexer::DEDENT) return loc;
  return advancePast(loc, token.getText());
}

SourceLoc advancePast(SourceLoc loc, std::string_view text) {
  size_t pos = 0;
  while (pos < text.size()) {
    char32_t c = utf8::decode(text, pos);
    if (c == '\n') {
      ++loc.line;
      loc.column = 1;
    } else {
      ++loc.column;
    }
  }
  return loc;
}

namespace {

struct OpenBracket {
  char32_t ch;
  SourceRange range;
};

struct Indent {
  unsigned width;     // tabs to multiples of 8
  unsigned altWidth;  // tabs as one column: a mismatch between the two is a TabError
};

char32_t closerFor(char32_t open) { return open == '(' ? ')' : open == '[' ? ']' : '}'; }

class Builder {
public:
  Builder(TleLexer &lexer, FileId file, const SourceManager &sources, DiagnosticEngine &diags)
      : lexer_(lexer), file_(file), sources_(sources), diags_(diags) {}

  LogicalTokens run();

private:
  void emit(std::unique_ptr<antlr4::Token> token) {
    size_t type = token->getType();
    if (errorPending_ && type != TleLexer::INDENT && type != TleLexer::DEDENT) {
      out_.errorAt.push_back(out_.tokens.size());
      errorPending_ = false;
    }
    out_.bracketDepth.push_back(static_cast<uint16_t>(brackets_.size()));
    out_.tokens.push_back(std::move(token));
  }
  // A zero-width INDENT/DEDENT/NEWLINE/EOF at `at`.
  void synthesize(size_t type, SourceLoc at) {
    auto t = std::make_unique<antlr4::CommonToken>(
        std::make_pair<antlr4::TokenSource *, antlr4::CharStream *>(&lexer_, lexer_.getInputStream()), type,
        antlr4::Token::DEFAULT_CHANNEL, 0, static_cast<size_t>(-1));
    t->setText(type == antlr4::Token::EOF ? "<EOF>" : "");
    t->setLine(at.line);
    t->setCharPositionInLine(at.column - 1);
    emit(std::move(t));
  }
  bool handleIndentation(const antlr4::Token &first);
  bool handleBracket(const antlr4::Token &token);
  bool checkNesting(const antlr4::Token &token);
  void reportBadNumber(antlr4::Token &token);
  bool fatal(DiagId id, SourceRange range, std::string message) {
    diags_.report(id, range, std::move(message));
    out_.fatal = true;
    return false;
  }

  TleLexer &lexer_;
  FileId file_;
  const SourceManager &sources_;
  DiagnosticEngine &diags_;
  LogicalTokens out_;
  std::vector<OpenBracket> brackets_;
  std::vector<Indent> indents_{{0, 0}};
  bool errorPending_ = false;  // a non-fatal error belongs to the next real token's statement
  unsigned prefixRun_ = 0;      // consecutive prefix operators
  unsigned nestingOnLine_ = 0;  // `**`, `lambda` and `if` on this logical line
};

bool Builder::checkNesting(const antlr4::Token &token) {
  size_t type = token.getType();
  bool prefix = type == TleLexer::MINUS || type == TleLexer::PLUS || type == TleLexer::TILDE || type == TleLexer::NOT;
  prefixRun_ = prefix ? prefixRun_ + 1 : 0;
  if (type == TleLexer::POWER || type == TleLexer::LAMBDA || type == TleLexer::IF) ++nestingOnLine_;
  if (prefixRun_ > kMaxExpressionNesting || nestingOnLine_ > kMaxExpressionNesting)
    return fatal(DiagId::TooDeeplyNested, tokenRange(token, file_),
                 "expression is too deeply nested (more than " + std::to_string(kMaxExpressionNesting) +
                     " nested operators)");
  return true;
}

bool Builder::handleIndentation(const antlr4::Token &first) {
  std::string_view line = sources_.lineText(file_, static_cast<uint32_t>(first.getLine()));
  Indent here{0, 0};
  for (char c : line) {
    if (c == ' ') {
      ++here.width, ++here.altWidth;
    } else if (c == '\t') {
      here.width = (here.width / 8 + 1) * 8;
      ++here.altWidth;
    } else if (c == '\f') {
      here = {0, 0};
    } else {
      break;
    }
  }
  SourceLoc at = tokenBegin(first, file_);
  SourceRange indentRange({file_, at.line, 1}, at);
  const Indent &top = indents_.back();
  if (here.width == top.width) {
    if (here.altWidth != top.altWidth)
      return fatal(DiagId::InconsistentTabs, indentRange, "inconsistent use of tabs and spaces in indentation");
    return true;
  }
  if (here.width > top.width) {
    if (here.altWidth <= top.altWidth)
      return fatal(DiagId::InconsistentTabs, indentRange, "inconsistent use of tabs and spaces in indentation");
    if (indents_.size() > kMaxIndentLevels)
      return fatal(DiagId::TooDeeplyNested, indentRange,
                   "too many levels of indentation (the limit is " + std::to_string(kMaxIndentLevels) + ")");
    indents_.push_back(here);
    synthesize(TleLexer::INDENT, at);
    return true;
  }
  while (indents_.size() > 1 && here.width < indents_.back().width) {
    indents_.pop_back();
    synthesize(TleLexer::DEDENT, at);
  }
  if (here.width != indents_.back().width)
    return fatal(DiagId::InconsistentDedent, SourceRange(at),
                 "unindent does not match any outer indentation level");
  if (here.altWidth != indents_.back().altWidth)
    return fatal(DiagId::InconsistentTabs, indentRange, "inconsistent use of tabs and spaces in indentation");
  return true;
}

bool Builder::handleBracket(const antlr4::Token &token) {
  size_t type = token.getType();
  SourceRange range = tokenRange(token, file_);
  if (type == TleLexer::LPAREN || type == TleLexer::LBRACK || type == TleLexer::LBRACE) {
    if (brackets_.size() >= kMaxBracketDepth)
      return fatal(DiagId::TooDeeplyNested, range,
                   "too many nested parentheses (the limit is " + std::to_string(kMaxBracketDepth) + ")");
    brackets_.push_back({static_cast<char32_t>(token.getText()[0]), range});
    return true;
  }
  if (type != TleLexer::RPAREN && type != TleLexer::RBRACK && type != TleLexer::RBRACE) return true;
  char32_t close = static_cast<char32_t>(token.getText()[0]);
  if (brackets_.empty())
    return fatal(DiagId::UnmatchedBracket, range, "unmatched '" + token.getText() + "'");
  OpenBracket open = brackets_.back();
  if (closerFor(open.ch) != close) {
    std::string o = utf8::encode(open.ch);
    diags_
        .report(DiagId::MismatchedBracket, range,
                "closing parenthesis '" + token.getText() + "' does not match opening parenthesis '" + o + "'")
        .note(open.range, "'" + o + "' opened here");
    out_.fatal = true;
    return false;
  }
  brackets_.pop_back();
  return true;
}

void Builder::reportBadNumber(antlr4::Token &token) {
  std::string text = token.getText();
  std::string kind = "decimal";
  std::string message;
  if (text.size() > 1 && text[0] == '0') {
    char p = static_cast<char>(text[1] | 0x20);
    if (p == 'x') kind = "hexadecimal";
    else if (p == 'o') kind = "octal";
    else if (p == 'b') kind = "binary";
    else if (text.find_first_not_of("0123456789_") == std::string::npos)
      message = "leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers";
  }
  if (message.empty()) message = "invalid " + kind + " literal '" + text + "'";
  diags_.report(DiagId::InvalidNumber, tokenRange(token, file_), message);
  errorPending_ = true;
  // Keep parsing as if it were a number, so later errors are still found.
  auto *common = dynamic_cast<antlr4::CommonToken *>(&token);
  if (common)
    common->setType(text.find('.') != std::string::npos && kind == "decimal" ? TleLexer::FLOAT : TleLexer::INTEGER);
}

LogicalTokens Builder::run() {
  bool atLineStart = true;
  for (;;) {
    std::unique_ptr<antlr4::Token> token = lexer_.nextToken();
    size_t type = token->getType();
    if (type == antlr4::Token::EOF) {
      SourceLoc eof = sources_.endOfFile(file_);
      if (!brackets_.empty()) {
        OpenBracket open = brackets_.back();
        fatal(DiagId::UnclosedBracket, open.range, "'" + utf8::encode(open.ch) + "' was never closed");
        break;
      }
      if (!atLineStart) synthesize(TleLexer::NEWLINE, eof);
      while (indents_.size() > 1) {
        indents_.pop_back();
        synthesize(TleLexer::DEDENT, eof);
      }
      synthesize(antlr4::Token::EOF, eof);
      break;
    }
    if (type == TleLexer::NEWLINE) {
      if (!brackets_.empty() || atLineStart) continue;
      atLineStart = true;
      prefixRun_ = nestingOnLine_ = 0;
      emit(std::move(token));
      continue;
    }
    SourceRange range = tokenRange(*token, file_);
    switch (type) {
    case TleLexer::UNTERMINATED_STRING:
      fatal(DiagId::UnterminatedString, range, "unterminated string literal");
      return std::move(out_);
    case TleLexer::UNTERMINATED_LONG_STRING:
      fatal(DiagId::UnterminatedString, SourceRange(range.begin, {file_, range.begin.line, range.begin.column + 3}),
            "unterminated triple-quoted string literal");
      return std::move(out_);
    case TleLexer::STRAY_BACKSLASH:
      diags_.report(DiagId::StrayBackslash, range, "unexpected character after line continuation character");
      errorPending_ = true;
      continue;
    case TleLexer::ERROR_CHAR: {
      std::string text = token->getText();
      size_t pos = 0;
      char32_t c = text.empty() ? 0 : utf8::decode(text, pos);
      char code[16];
      std::snprintf(code, sizeof code, "U+%04X", static_cast<unsigned>(c));
      std::string shown = c < 0x20 || c == 0x7F ? std::string() : "'" + text + "' ";
      diags_.report(DiagId::InvalidCharacter, range, "invalid character " + shown + "(" + code + ")");
      errorPending_ = true;
      continue;
    }
    case TleLexer::BAD_NUMBER:
      reportBadNumber(*token);
      break;
    default:
      break;
    }
    if (atLineStart) {
      atLineStart = false;
      if (brackets_.empty() && !handleIndentation(*token)) return std::move(out_);
    }
    if (!handleBracket(*token)) return std::move(out_);
    if (!checkNesting(*token)) return std::move(out_);
    emit(std::move(token));
  }
  return std::move(out_);
}

}  // namespace

LogicalTokens buildLogicalLines(TleLexer &lexer, FileId file, const SourceManager &sources, DiagnosticEngine &diags) {
  return Builder(lexer, file, sources, diags).run();
}

}  // namespace tle
