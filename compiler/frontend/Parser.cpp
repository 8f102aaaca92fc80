// Parsing one file: validate the bytes, lex, build logical lines, then parse each
// top-level statement ("chunk") on its own. Parsing chunk by chunk is the error
// recovery: a mistake in one function cannot derail the parse of the next, so a run
// reports the first error of every broken top-level statement and nothing spurious.
#include "frontend/Parser.h"

#include "TleLexer.h"
#include "TleParser.h"
#include "frontend/AstBuilder.h"
#include "frontend/LogicalLines.h"
#include "frontend/SyntaxErrors.h"
#include "support/SourceManager.h"
#include "support/Utf8.h"

#include <antlr4-runtime.h>

#include <algorithm>
#include <cstdio>

namespace tle {

namespace {

// Feeds copies of a slice of the logical token stream to a parser, then EOF.
class VectorTokenSource : public antlr4::TokenSource {
public:
  VectorTokenSource(std::vector<const antlr4::Token *> tokens, antlr4::TokenSource *origin)
      : tokens_(std::move(tokens)), origin_(origin) {}

  std::unique_ptr<antlr4::Token> nextToken() override {
    const antlr4::Token *t = tokens_[std::min(next_, tokens_.size() - 1)];
    if (next_ < tokens_.size()) ++next_;
    return std::make_unique<antlr4::CommonToken>(const_cast<antlr4::Token *>(t));
  }
  size_t getLine() const override { return tokens_[std::min(next_, tokens_.size() - 1)]->getLine(); }
  size_t getCharPositionInLine() override {
    return tokens_[std::min(next_, tokens_.size() - 1)]->getCharPositionInLine();
  }
  antlr4::CharStream *getInputStream() override { return origin_->getInputStream(); }
  std::string getSourceName() override { return origin_->getSourceName(); }
  antlr4::TokenFactory<antlr4::CommonToken> *getTokenFactory() override { return origin_->getTokenFactory(); }

private:
  std::vector<const antlr4::Token *> tokens_;  // the last one is EOF
  antlr4::TokenSource *origin_;
  size_t next_ = 0;
};

// Rejects what the lexer must never see: bytes that are not UTF-8, and NUL.
bool checkEncoding(const SourceManager &sources, FileId file, DiagnosticEngine &diags) {
  const std::string &text = sources.text(file);
  size_t bad = utf8::findInvalid(text);
  size_t nul = text.find('\0');
  if (bad == std::string::npos && nul == std::string::npos) return true;
  size_t at = std::min(bad, nul);
  size_t lineStart = text.rfind('\n', at == 0 ? 0 : at - 1);
  lineStart = lineStart == std::string::npos || at == 0 ? 0 : lineStart + 1;
  uint32_t line = static_cast<uint32_t>(std::count(text.begin(), text.begin() + static_cast<long>(at), '\n') + 1);
  uint32_t column = static_cast<uint32_t>(
      utf8::codePointCount(std::string_view(text).substr(lineStart, at - lineStart)) + 1);
  SourceLoc loc{file, line, column};
  if (at == nul) {
    diags.report(DiagId::NullByte, loc, "source file contains a null byte");
  } else {
    char hex[8];
    std::snprintf(hex, sizeof hex, "0x%02x", static_cast<unsigned char>(text[at]));
    diags.report(DiagId::InvalidUtf8, loc, std::string("invalid UTF-8 byte ") + hex + "; .tle files must be UTF-8");
  }
  return false;
}

struct Chunk {
  size_t begin, end;  // [begin, end) in the logical token stream
};

// Splits at every top-level statement, keeping decorators with their function and
// `else`/`elif` (and the unsupported `except`/`finally`) with the statement they continue.
std::vector<Chunk> splitTopLevel(const std::vector<std::unique_ptr<antlr4::Token>> &tokens) {
  std::vector<Chunk> chunks;
  size_t n = tokens.size() - 1;  // without EOF
  size_t start = 0;
  int level = 0;
  bool atStatementStart = true;
  bool onlyDecorators = false;
  for (size_t i = 0; i < n; ++i) {
    size_t type = tokens[i]->getType();
    if (atStatementStart && level == 0 && type != TleLexer::DEDENT && type != TleLexer::INDENT) {
      if (i == start) {
        onlyDecorators = type == TleLexer::AT;
      } else if (type == TleLexer::ELSE || type == TleLexer::ELIF || type == TleLexer::EXCEPT ||
                 type == TleLexer::FINALLY || onlyDecorators) {
        if (type != TleLexer::AT) onlyDecorators = false;
      } else {
        chunks.push_back({start, i});
        start = i;
        onlyDecorators = type == TleLexer::AT;
      }
    }
    if (type == TleLexer::INDENT) ++level;
    if (type == TleLexer::DEDENT) --level;
    atStatementStart = type == TleLexer::NEWLINE || type == TleLexer::DEDENT;
  }
  if (start < n) chunks.push_back({start, n});
  return chunks;
}

}  // namespace

std::unique_ptr<ast::Module> parseFile(const SourceManager &sources, FileId file, DiagnosticEngine &diags) {
  unsigned errorsBefore = diags.errorCount();
  if (!checkEncoding(sources, file, diags)) return nullptr;
  try {
    antlr4::ANTLRInputStream input(sources.text(file));
    TleLexer lexer(&input);
    lexer.removeErrorListeners();
    LogicalTokens logical = buildLogicalLines(lexer, file, sources, diags);
    if (logical.fatal) return nullptr;

    auto module = std::make_unique<ast::Module>();
    module->file = file;
    module->name = sources.name(file);
    const antlr4::Token *eof = logical.tokens.back().get();
    // After "expected an indented block", the statements that should have been the
    // block follow at top level; skip them up to the next definition or import rather
    // than report them as misplaced (`return` outside function, ...).
    bool skippingUnindentedBody = false;
    for (const Chunk &chunk : splitTopLevel(logical.tokens)) {
      if (diags.shouldStop()) break;
      if (skippingUnindentedBody) {
        size_t first = logical.tokens[chunk.begin]->getType();
        if (first != TleLexer::DEF && first != TleLexer::AT && first != TleLexer::IMPORT && first != TleLexer::FROM)
          continue;
        skippingUnindentedBody = false;
      }
      // A chunk with a lexical error would only produce cascading syntax errors.
      bool broken = std::any_of(logical.errorAt.begin(), logical.errorAt.end(),
                                [&](size_t i) { return i >= chunk.begin && i < chunk.end; });
      if (broken) continue;
      std::vector<const antlr4::Token *> slice;
      for (size_t i = chunk.begin; i < chunk.end; ++i) slice.push_back(logical.tokens[i].get());
      slice.push_back(chunk.end < logical.tokens.size() - 1 ? logical.tokens[chunk.end].get() : eof);
      // The stop token stands for "end of this chunk": give it EOF's type.
      antlr4::CommonToken stop(const_cast<antlr4::Token *>(slice.back()));
      stop.setType(antlr4::Token::EOF);
      stop.setText("<EOF>");
      slice.back() = &stop;
      std::vector<uint16_t> depth(logical.bracketDepth.begin() + static_cast<long>(chunk.begin),
                                  logical.bracketDepth.begin() + static_cast<long>(chunk.end));

      VectorTokenSource source(std::move(slice), &lexer);
      antlr4::CommonTokenStream stream(&source);
      TleParser parser(&stream);
      parser.removeErrorListeners();
      auto strategy = std::make_shared<SyntaxErrorStrategy>(file, diags, depth);
      parser.setErrorHandler(strategy);
      try {
        TleParser::File_inputContext *tree = parser.file_input();
        buildAst(tree, stream, file, diags, module->body);
      } catch (const ChunkAbandoned &) {
        skippingUnindentedBody = strategy->reportedId() == DiagId::ExpectedIndentedBlock;
      }
    }
    if (diags.errorCount() != errorsBefore) return nullptr;
    return module;
  } catch (const std::exception &e) {
    diags.report(DiagId::InternalError, SourceRange(SourceLoc{file, 1, 1}),
                 std::string("internal error while parsing: ") + e.what());
    return nullptr;
  }
}

std::vector<std::string> dumpTokens(const SourceManager &sources, FileId file, DiagnosticEngine &diags) {
  std::vector<std::string> out;
  if (!checkEncoding(sources, file, diags)) return out;
  antlr4::ANTLRInputStream input(sources.text(file));
  TleLexer lexer(&input);
  lexer.removeErrorListeners();
  LogicalTokens logical = buildLogicalLines(lexer, file, sources, diags);
  if (logical.fatal) return out;
  const antlr4::dfa::Vocabulary &vocab = lexer.getVocabulary();
  for (const auto &t : logical.tokens) {
    size_t type = t->getType();
    std::string name = type == antlr4::Token::EOF ? "EOF" : vocab.getSymbolicName(type);
    bool synthetic = type == antlr4::Token::EOF || type == TleLexer::INDENT || type == TleLexer::DEDENT;
    std::string text = synthetic ? "" : t->getText();
    std::string shown;
    for (char c : text) shown += c == '\n' ? std::string("\\n") : c == '\\' ? std::string("\\\\") : std::string(1, c);
    out.push_back(name + " '" + shown + "' " + std::to_string(t->getLine()) + ":" +
                  std::to_string(t->getCharPositionInLine() + 1));
  }
  return out;
}

}  // namespace tle
