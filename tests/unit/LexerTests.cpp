// The logical-line lexer: INDENT/DEDENT synthesis, blank and comment lines, joining,
// brackets, and the errors Python's tokenizer reports.
#include "TestSupport.h"

#include "frontend/Parser.h"

#include <doctest/doctest.h>

using namespace tle;

namespace {

// Token kinds only: "NAME ASSIGN INTEGER NEWLINE EOF".
std::string kinds(const std::string &source, test::Harness &h) {
  std::string out;
  for (const std::string &t : dumpTokens(h.sources, h.add(source), h.diags))
    out += (out.empty() ? "" : " ") + t.substr(0, t.find(' '));
  return out;
}

std::string kinds(const std::string &source) {
  test::Harness h;
  std::string k = kinds(source, h);
  CHECK_MESSAGE(h.ids() == "", h.out.str());
  return k;
}

}  // namespace

TEST_CASE("a simple statement ends with NEWLINE, with or without a final newline") {
  CHECK(kinds("x = 1\n") == "NAME ASSIGN INTEGER NEWLINE EOF");
  CHECK(kinds("x = 1") == "NAME ASSIGN INTEGER NEWLINE EOF");
  CHECK(kinds("") == "EOF");
  CHECK(kinds("\n\n# only a comment\n   \n") == "EOF");
}

TEST_CASE("blank and comment-only lines never open or close blocks") {
  std::string src = "def f():\n\n    # comment\n  # comment at an odd indent\n\n    return 1\n";
  CHECK(kinds(src) == "DEF NAME LPAREN RPAREN COLON NEWLINE INDENT RETURN INTEGER NEWLINE DEDENT EOF");
}

TEST_CASE("several blocks close at once, and at end of file") {
  CHECK(kinds("if a:\n  if b:\n    c\nd\n") ==
        "IF NAME COLON NEWLINE INDENT IF NAME COLON NEWLINE INDENT NAME NEWLINE DEDENT DEDENT NAME NEWLINE EOF");
  CHECK(kinds("if a:\n  if b:\n    c") ==
        "IF NAME COLON NEWLINE INDENT IF NAME COLON NEWLINE INDENT NAME NEWLINE DEDENT DEDENT EOF");
}

TEST_CASE("tabs count to the next multiple of 8, consistently used") {
  CHECK(kinds("if a:\n\tif b:\n\t\tc\n") ==
        "IF NAME COLON NEWLINE INDENT IF NAME COLON NEWLINE INDENT NAME NEWLINE DEDENT DEDENT EOF");
  // A tab and eight spaces are the same width but not the same indentation: TabError.
  test::Harness h;
  kinds("if a:\n        b\n\tc\n", h);
  CHECK(h.ids() == "inconsistent-tabs");
  CHECK(h.out.str().find("t.tle:3:1: error: inconsistent use of tabs and spaces in indentation") != std::string::npos);
}

TEST_CASE("backslash continuation joins lines without layout tokens") {
  CHECK(kinds("x = 1 + \\\n        2\ny = 3\n") == "NAME ASSIGN INTEGER PLUS INTEGER NEWLINE NAME ASSIGN INTEGER NEWLINE EOF");
}

TEST_CASE("newlines and indentation inside brackets are ignored, however deep") {
  std::string src = "x = [1,\n  (2,\n# comment\n      {3:\n4}),\n]\ny = 1\n";
  CHECK(kinds(src) ==
        "NAME ASSIGN LBRACK INTEGER COMMA LPAREN INTEGER COMMA LBRACE INTEGER COLON INTEGER RBRACE RPAREN COMMA "
        "RBRACK NEWLINE NAME ASSIGN INTEGER NEWLINE EOF");
}

TEST_CASE("dedent to a level that never existed is an error at the dedented line") {
  test::Harness h;
  CHECK(kinds("if x:\n    if y:\n        a\n  b\n", h) == "");
  CHECK(h.ids() == "inconsistent-dedent");
  CHECK(h.out.str().find("t.tle:4:3: error: unindent does not match any outer indentation level") != std::string::npos);
}

TEST_CASE("an indented first line produces INDENT (the parser reports it)") {
  CHECK(kinds("  x = 1\n") == "INDENT NAME ASSIGN INTEGER NEWLINE DEDENT EOF");
}

TEST_CASE("CRLF and lone CR line endings behave like LF") {
  CHECK(kinds("if a:\r\n  b\r\n") == kinds("if a:\n  b\n"));
  CHECK(kinds("if a:\r  b\r") == kinds("if a:\n  b\n"));
}

TEST_CASE("a triple-quoted string spans lines as one token") {
  CHECK(kinds("x = '''a\n\n  b'''\ny = 1\n") == "NAME ASSIGN STRING NEWLINE NAME ASSIGN INTEGER NEWLINE EOF");
}

TEST_CASE("columns count code points, not bytes") {
  test::Harness h;
  std::vector<std::string> toks = dumpTokens(h.sources, h.add("\xCE\xAC = '\xE4\xB8\xAD' # \xE4\xB8\xAD\n"), h.diags);
  REQUIRE(toks.size() >= 3);
  CHECK(toks[0] == "NAME '\xCE\xAC' 1:1");
  CHECK(toks[1] == "ASSIGN '=' 1:3");
  CHECK(toks[2] == "STRING ''\xE4\xB8\xAD'' 1:5");
}

TEST_CASE("token-level errors are reported with their own ids") {
  auto idsOf = [](const std::string &src) {
    test::Harness h;
    kinds(src, h);
    return h.ids();
  };
  CHECK(idsOf("x = 'abc\n") == "unterminated-string");
  CHECK(idsOf("x = '''abc\n") == "unterminated-string");
  CHECK(idsOf("x = 0x\n") == "invalid-number");
  CHECK(idsOf("x = 1__0\n") == "invalid-number");
  CHECK(idsOf("x = 09\n") == "invalid-number");
  CHECK(idsOf("x = 1 $ 2\n") == "invalid-character");
  CHECK(idsOf("x = 1 \\ 2\n") == "stray-backslash");
  CHECK(idsOf("x = (1,\n") == "unclosed-bracket");
  CHECK(idsOf("x = 1)\n") == "unmatched-bracket");
  CHECK(idsOf("x = [1)\n") == "mismatched-bracket");
  CHECK(idsOf("x = " + std::string(201, '(') + std::string(201, ')') + "\n") == "too-deeply-nested");
  CHECK(idsOf("x = " + std::string(200, '(') + "1" + std::string(200, ')') + "\n") == "");
}

TEST_CASE("more than 100 indentation levels is an error, not a crash") {
  std::string src;
  for (int i = 0; i < 102; ++i) src += std::string(static_cast<size_t>(i), ' ') + "if x:\n";
  src += std::string(102, ' ') + "pass\n";
  test::Harness h;
  kinds(src, h);
  CHECK(h.ids() == "too-deeply-nested");
}
