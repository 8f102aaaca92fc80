#include "frontend/SyntaxErrors.h"

#include "TleParser.h"
#include "frontend/LogicalLines.h"

#include <string>

namespace tle {

using P = TleParser;
using antlr4::Token;

namespace {

bool isKeyword(size_t t) {
  switch (t) {
  case P::AND: case P::AS: case P::ASSERT: case P::BREAK: case P::CONTINUE: case P::DEF: case P::ELIF:
  case P::ELSE: case P::FALSE: case P::FOR: case P::FROM: case P::IF: case P::IMPORT: case P::IN: case P::IS:
  case P::LAMBDA: case P::NONE: case P::NOT: case P::OR: case P::PASS: case P::RETURN: case P::TRUE:
  case P::WHILE: case P::WITH: case P::ASYNC: case P::AWAIT: case P::CLASS: case P::DEL: case P::EXCEPT:
  case P::FINALLY: case P::GLOBAL: case P::NONLOCAL: case P::RAISE: case P::TRY: case P::YIELD:
    return true;
  default:
    return false;
  }
}

bool canStartExpression(size_t t) {
  switch (t) {
  case P::NAME: case P::INTEGER: case P::FLOAT: case P::STRING: case P::LPAREN: case P::LBRACK: case P::LBRACE:
  case P::MINUS: case P::PLUS: case P::TILDE: case P::NOT: case P::LAMBDA: case P::NONE: case P::TRUE:
  case P::FALSE: case P::ELLIPSIS:
    return true;
  default:
    return false;
  }
}

bool canEndExpression(size_t t) {
  switch (t) {
  case P::NAME: case P::INTEGER: case P::FLOAT: case P::STRING: case P::RPAREN: case P::RBRACK: case P::RBRACE:
  case P::NONE: case P::TRUE: case P::FALSE: case P::ELLIPSIS:
    return true;
  default:
    return false;
  }
}

bool isLayout(size_t t) { return t == P::NEWLINE || t == P::INDENT || t == P::DEDENT || t == Token::EOF; }

std::string describe(Token *t) {
  switch (t->getType()) {
  case Token::EOF: return "end of file";
  case P::NEWLINE: return "end of line";
  case P::INDENT: return "indentation";
  case P::DEDENT: return "end of block";
  case P::NAME: return "name '" + t->getText() + "'";
  case P::INTEGER:
  case P::FLOAT: return "number '" + t->getText() + "'";
  case P::STRING: return "string literal";
  default:
    if (isKeyword(t->getType())) return "keyword '" + t->getText() + "'";
    return "'" + t->getText() + "'";
  }
}

// The innermost rule on the parser's stack that is one of `rules`, or null.
antlr4::ParserRuleContext *innermost(antlr4::Parser *parser, std::initializer_list<size_t> rules) {
  for (antlr4::RuleContext *c = parser->getContext(); c; c = dynamic_cast<antlr4::RuleContext *>(c->parent))
    for (size_t r : rules)
      if (c->getRuleIndex() == r) return dynamic_cast<antlr4::ParserRuleContext *>(c);
  return nullptr;
}

// What a block opener is called in "expected an indented block after ...".
std::string constructName(antlr4::ParserRuleContext *ctx) {
  switch (ctx->getRuleIndex()) {
  case P::RuleFuncdef: return "function definition";
  case P::RuleIf_stmt: return "'if' statement";
  case P::RuleElif_clause: return "'elif' statement";
  case P::RuleElse_clause: return "'else' clause";
  case P::RuleWhile_stmt: return "'while' statement";
  case P::RuleFor_stmt: return "'for' statement";
  case P::RuleWith_stmt: return "'with' statement";
  case P::RuleTry_stmt: return "'try' statement";
  case P::RuleExcept_clause: return "'except' clause";
  case P::RuleFinally_clause: return "'finally' clause";
  case P::RuleClassdef: return "class definition";
  default: return "statement";
  }
}

std::string colonContext(antlr4::ParserRuleContext *ctx) {
  switch (ctx->getRuleIndex()) {
  case P::RuleFuncdef: return "after function signature";
  case P::RuleIf_stmt: return "after 'if' condition";
  case P::RuleElif_clause: return "after 'elif' condition";
  case P::RuleElse_clause: return "after 'else'";
  case P::RuleWhile_stmt: return "after 'while' condition";
  case P::RuleFor_stmt: return "after 'for' header";
  case P::RuleWith_stmt: return "after 'with' items";
  case P::RuleLambdef: case P::RuleLambdef_nocond: return "after lambda parameters";
  default: return "";
  }
}

std::string expectedList(antlr4::Parser *parser, const antlr4::misc::IntervalSet &expected) {
  std::vector<std::string> names;
  for (ssize_t t : expected.toList()) {
    if (t == static_cast<ssize_t>(Token::EOF)) names.push_back("end of file");
    else if (t == static_cast<ssize_t>(P::NEWLINE)) names.push_back("end of line");
    else if (t == static_cast<ssize_t>(P::INDENT)) names.push_back("an indented block");
    else if (t == static_cast<ssize_t>(P::NAME)) names.push_back("a name");
    else names.push_back(parser->getVocabulary().getLiteralName(static_cast<size_t>(t)));
  }
  if (names.empty() || names.size() > 3) return "";
  std::string out = names[0];
  for (size_t i = 1; i < names.size(); ++i) out += (i + 1 == names.size() ? " or " : ", ") + names[i];
  return out;
}

}  // namespace

void SyntaxErrorStrategy::reportError(antlr4::Parser *parser, const antlr4::RecognitionException &e) {
  Token *offending = e.getOffendingToken();
  fail(parser, offending ? offending : parser->getCurrentToken());
}

antlr4::Token *SyntaxErrorStrategy::recoverInline(antlr4::Parser *parser) { fail(parser, parser->getCurrentToken()); }

void SyntaxErrorStrategy::recover(antlr4::Parser *, std::exception_ptr) { throw ChunkAbandoned{}; }

void SyntaxErrorStrategy::reportUnwantedToken(antlr4::Parser *parser) { fail(parser, parser->getCurrentToken()); }

void SyntaxErrorStrategy::reportMissingToken(antlr4::Parser *parser) { fail(parser, parser->getCurrentToken()); }

void SyntaxErrorStrategy::fail(antlr4::Parser *parser, Token *tok) {
  antlr4::TokenStream *stream = parser->getTokenStream();
  size_t index = tok->getTokenIndex();
  Token *prev = nullptr;
  for (size_t i = index; i > 0; --i) {
    Token *t = stream->get(i - 1);
    if (!isLayout(t->getType())) {
      prev = t;
      break;
    }
  }
  size_t type = tok->getType();
  antlr4::misc::IntervalSet expected;
  try {
    expected = parser->getExpectedTokens();
  } catch (...) {
  }
  auto has = [&](size_t t) { return expected.contains(t); };
  SourceRange at = tokenRange(*tok, file_);
  if (isLayout(type)) at.end = at.begin;
  // "expected X after Y" points just past Y, where the missing piece belongs.
  SourceRange afterPrev = prev ? SourceRange(tokenEnd(*prev, file_)) : at;
  std::string prevText = prev ? "'" + prev->getText() + "'" : "";
  bool sameLine = prev && prev->getLine() == tok->getLine() && !isLayout(type);
  bool inBrackets = index > 0 && index - 1 < bracketDepth_.size() && bracketDepth_[index - 1] > 0;

  auto report = [&](DiagId id, SourceRange r, std::string msg) -> DiagnosticEngine::Builder {
    reportedId_ = id;
    return diags_.report(id, r, std::move(msg));
  };

  if (type == P::INDENT) {
    report(DiagId::UnexpectedIndent, at, "unexpected indent");
  } else if (has(P::INDENT)) {
    auto *opener = innermost(parser, {P::RuleFuncdef, P::RuleIf_stmt, P::RuleElif_clause, P::RuleElse_clause,
                                      P::RuleWhile_stmt, P::RuleFor_stmt, P::RuleWith_stmt, P::RuleTry_stmt,
                                      P::RuleExcept_clause, P::RuleFinally_clause, P::RuleClassdef});
    std::string what = opener ? constructName(opener) : "statement";
    std::string line = opener ? " on line " + std::to_string(opener->getStart()->getLine()) : "";
    report(DiagId::ExpectedIndentedBlock, at, "expected an indented block after " + what + line);
  } else if ((type == P::ELSE || type == P::ELIF) && has(P::PASS)) {
    report(DiagId::SyntaxError, at,
           "invalid syntax: '" + tok->getText() + "' does not follow an 'if'" +
               (type == P::ELSE ? std::string(", 'for' or 'while' block") : std::string(" block")) +
               " at the same indentation");
  } else if (innermost(parser, {P::RuleDecorated}) && has(P::DEF) && type != P::DEF) {
    report(DiagId::DecoratorTarget, at, "expected a function definition after decorator, found " + describe(tok));
  } else if (has(P::COLON) && (expected.size() == 1 || (expected.size() == 2 && has(P::ARROW)))) {
    auto *ctx = innermost(parser, {P::RuleFuncdef, P::RuleIf_stmt, P::RuleElif_clause, P::RuleElse_clause,
                                   P::RuleWhile_stmt, P::RuleFor_stmt, P::RuleWith_stmt, P::RuleLambdef,
                                   P::RuleLambdef_nocond});
    bool condition = ctx && (ctx->getRuleIndex() == P::RuleIf_stmt || ctx->getRuleIndex() == P::RuleElif_clause ||
                             ctx->getRuleIndex() == P::RuleWhile_stmt);
    if (type == P::ASSIGN && condition) {
      report(DiagId::SyntaxError, at, "invalid syntax: '=' assigns; use '==' to compare in a condition");
    } else {
      std::string where = ctx ? colonContext(ctx) : "";
      report(DiagId::ExpectedColon, sameLine ? at : afterPrev, "expected ':'" + (where.empty() ? "" : " " + where));
    }
  } else if (has(P::NAME) && isKeyword(type) && !canStartExpression(type)) {
    report(DiagId::ExpectedName, at,
           "'" + tok->getText() + "' is a keyword and cannot be used as a name here");
  } else if (has(P::NAME) && !has(P::INTEGER)) {
    std::string what = "a name";
    if (prev && prev->getType() == P::DOT) what = "an attribute name";
    else if (prev && prev->getType() == P::DEF) what = "a function name";
    else if (innermost(parser, {P::RuleParameters, P::RuleLambda_params})) what = "a parameter name";
    else if (innermost(parser, {P::RuleImport_stmt})) what = "a module or name to import";
    if (isLayout(type))
      report(DiagId::ExpectedName, afterPrev, "expected " + what + (prev ? " after " + prevText : ""));
    else
      report(DiagId::ExpectedName, at, "expected " + what + ", found " + describe(tok));
  } else if (has(P::INTEGER) && !canStartExpression(type)) {
    if (isLayout(type) && prev)
      report(DiagId::ExpectedExpression, afterPrev, "expected an expression after " + prevText);
    else
      report(DiagId::ExpectedExpression, at, "expected an expression, found " + describe(tok));
  } else if (inBrackets && prev && canStartExpression(type) && canEndExpression(prev->getType()) &&
             type != P::NOT && type != P::LAMBDA) {
    report(DiagId::MissingComma, SourceRange(tokenBegin(*prev, file_), at.end),
           "invalid syntax; perhaps you forgot a comma?");
  } else if (type == Token::EOF) {
    report(DiagId::SyntaxError, afterPrev, "unexpected end of file");
  } else {
    std::string list = expectedList(parser, expected);
    report(DiagId::SyntaxError, at, "invalid syntax: unexpected " + describe(tok) + (list.empty() ? "" : "; expected " + list));
  }
  throw ChunkAbandoned{};
}

}  // namespace tle
