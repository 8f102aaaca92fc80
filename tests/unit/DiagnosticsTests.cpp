// Rendering of diagnostics: text with carets, notes, colours, JSON, limits.
#include "TestSupport.h"

#include <doctest/doctest.h>

using namespace tle;

TEST_CASE("text: location, severity, message, id, numbered line and underline") {
  test::Harness h;
  FileId f = h.add("def f(x)\n    return x\n");
  h.diags.report(DiagId::ExpectedColon, SourceRange({f, 1, 5}, {f, 1, 6}), "expected ':'");
  CHECK(h.out.str() == "t.tle:1:5: error: expected ':' [expected-colon]\n"
                       "   1 | def f(x)\n"
                       "     |     ^\n");
}

TEST_CASE("text: ranges are underlined, notes follow their error") {
  test::Harness h;
  FileId f = h.add("def f(x, x):\n");
  h.diags.report(DiagId::DuplicateParameter, SourceRange({f, 1, 10}, {f, 1, 11}), "duplicate")
      .note(SourceRange({f, 1, 1}, {f, 1, 4}), "see here");
  CHECK(h.out.str() == "t.tle:1:10: error: duplicate [duplicate-parameter]\n"
                       "   1 | def f(x, x):\n"
                       "     |          ^\n"
                       "t.tle:1:1: note: see here\n"
                       "   1 | def f(x, x):\n"
                       "     | ^~~\n");
}

TEST_CASE("text: tabs and wide characters keep the caret aligned") {
  test::Harness h;
  FileId f = h.add("\tx = '\xE4\xB8\xAD\xE6\x96\x87' + y\n");
  h.diags.report(DiagId::SyntaxError, SourceRange({f, 1, 11}, {f, 1, 12}), "here");
  // The tab is 8 columns, each CJK character 2.
  CHECK(h.out.str().find("     | " + std::string(19, ' ') + "^\n") != std::string::npos);
}

TEST_CASE("text: a position past the end of the line and a location-less diagnostic") {
  test::Harness h;
  FileId f = h.add("x = 1 +\n");
  h.diags.report(DiagId::ExpectedExpression, SourceLoc{f, 1, 8}, "expected an expression");
  h.diags.report(DiagId::NoInputFile, "no input file");
  CHECK(h.out.str() == "t.tle:1:8: error: expected an expression [expected-expression]\n"
                       "   1 | x = 1 +\n"
                       "     |        ^\n"
                       "tlec: error: no input file [no-input-file]\n");
}

TEST_CASE("text: very long lines are cut to a window around the caret") {
  test::Harness h;
  std::string line = "x = " + std::string(500, 'a') + " $ " + std::string(500, 'b');
  FileId f = h.add(line + "\n");
  h.diags.report(DiagId::InvalidCharacter, SourceLoc{f, 1, 506}, "invalid");
  std::string out = h.out.str();
  CHECK(out.size() < 500);
  CHECK(out.find("...") != std::string::npos);
  size_t dollar = out.find('$');
  size_t caret = out.find('^');
  REQUIRE(dollar != std::string::npos);
  REQUIRE(caret != std::string::npos);
  CHECK(dollar - out.rfind('\n', dollar) == caret - out.rfind('\n', caret));
}

TEST_CASE("colours only when asked for or on a terminal") {
  DiagnosticOptions o;
  o.color = ColorMode::Always;
  test::Harness h(o);
  h.diags.report(DiagId::NoInputFile, "x");
  CHECK(h.out.str().find("\033[1;31merror:") != std::string::npos);

  DiagnosticOptions autoOpts;
  test::Harness notTerminal(autoOpts);
  notTerminal.diags.report(DiagId::NoInputFile, "x");
  CHECK(notTerminal.out.str().find('\033') == std::string::npos);
}

TEST_CASE("json: one array, escaped strings, notes, written at finish") {
  DiagnosticOptions o;
  o.format = DiagnosticFormat::Json;
  test::Harness h(o);
  FileId f = h.add("x\n");
  h.diags.report(DiagId::SyntaxError, SourceRange({f, 1, 1}, {f, 1, 2}), "say \"hi\"\n")
      .note(SourceRange({f, 1, 1}, {f, 1, 2}), "n");
  CHECK(h.out.str().empty());
  h.diags.finish();
  CHECK(h.out.str() ==
        "[\n  {\"severity\":\"error\",\"id\":\"syntax-error\",\"message\":\"say \\\"hi\\\"\\n\",\"file\":\"t.tle\","
        "\"line\":1,\"column\":1,\"end_line\":1,\"end_column\":2,\"notes\":[{\"message\":\"n\",\"file\":\"t.tle\","
        "\"line\":1,\"column\":1,\"end_line\":1,\"end_column\":2}]}\n]\n");

  test::Harness empty(o);
  empty.diags.finish();
  CHECK(empty.out.str() == "[]\n");
}

TEST_CASE("-Werror promotes warnings; -w drops them") {
  DiagnosticOptions werror = test::Harness::plain();
  werror.warningsAsErrors = true;
  test::Harness a(werror);
  a.diags.report(DiagId::InvalidEscape, "w");
  CHECK(a.diags.errorCount() == 1);
  CHECK(a.out.str().find("error: w [invalid-escape-sequence]") != std::string::npos);

  DiagnosticOptions quiet = test::Harness::plain();
  quiet.ignoreWarnings = true;
  test::Harness b(quiet);
  b.diags.report(DiagId::InvalidEscape, "w");
  CHECK(b.diags.warningCount() == 0);
  CHECK(b.out.str().empty());
}

TEST_CASE("the error limit stops reporting with a final notice") {
  DiagnosticOptions o = test::Harness::plain();
  o.errorLimit = 3;
  test::Harness h(o);
  for (int i = 0; i < 10; ++i) h.diags.report(DiagId::SyntaxError, "e");
  CHECK(h.diags.shouldStop());
  CHECK(h.ids() == "syntax-error syntax-error syntax-error too-many-errors");
}
