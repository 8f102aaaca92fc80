// The parser: Python's precedence and structure, error recovery per top-level
// statement, and robustness against mangled input.
#include "TestSupport.h"

#include "frontend/AstPrinter.h"
#include "frontend/Parser.h"

#include <doctest/doctest.h>

#include <dirent.h>
#include <fstream>
#include <random>
#include <sstream>

using namespace tle;

namespace {

std::string dump(const std::string &source) {
  test::Harness h;
  auto module = parseFile(h.sources, h.add(source), h.diags);
  REQUIRE_MESSAGE(module, h.out.str());
  std::ostringstream os;
  ast::print(*module, os, {/*locations=*/false});
  return os.str();
}

bool contains(const std::string &haystack, const std::string &needle) {
  return haystack.find(needle) != std::string::npos;
}

std::vector<std::string> corpusFiles() {
  std::vector<std::string> files;
  for (const char *sub : {"triton", "seeds", "syntax"}) {
    std::string dir = std::string(TLE_CORPUS_DIR) + "/" + sub;
    if (DIR *d = opendir(dir.c_str())) {
      while (dirent *e = readdir(d)) {
        std::string name = e->d_name;
        if (name.size() > 4 && name.compare(name.size() - 4, 4, ".tle") == 0) files.push_back(dir + "/" + name);
      }
      closedir(d);
    }
  }
  return files;
}

std::string readFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace

TEST_CASE("power binds tighter than unary minus on its left, looser on its right") {
  CHECK(dump("x = -a ** 2\n") == "Module 't.tle'\n"
                                  "  Assign\n"
                                  "    target: Name x\n"
                                  "    value: UnaryOp -\n"
                                  "      operand: BinOp **\n"
                                  "        left: Name a\n"
                                  "        right: Constant int 2\n");
  CHECK(contains(dump("x = 2 ** -1\n"), "    value: BinOp **\n      left: Constant int 2\n      right: UnaryOp -\n"));
  CHECK(contains(dump("x = 2 ** 3 ** 2\n"), "    value: BinOp **\n      left: Constant int 2\n      right: BinOp **\n"));
}

TEST_CASE("binary operators associate left with Python's precedence") {
  std::string d = dump("x = a - b - c * d\n");
  CHECK(contains(d, "    value: BinOp -\n      left: BinOp -\n        left: Name a\n        right: Name b\n"
                    "      right: BinOp *\n"));
  CHECK(contains(dump("x = a | b ^ c & d << e + f\n"),
                 "value: BinOp |\n      left: Name a\n      right: BinOp ^\n        left: Name b\n"
                 "        right: BinOp &\n          left: Name c\n          right: BinOp <<\n"));
}

TEST_CASE("comparison chains stay one node; not binds looser than comparison") {
  CHECK(contains(dump("x = a < b <= c\n"), "value: Compare < <=\n      left: Name a\n      right: Name b\n      right: Name c\n"));
  CHECK(contains(dump("x = not a == b\n"), "value: UnaryOp not\n      operand: Compare ==\n"));
  CHECK(contains(dump("x = a is not b not in c\n"), "value: Compare is not not in\n"));
  CHECK(contains(dump("x = a or b and c\n"), "value: BoolOp or\n      value: Name a\n      value: BoolOp and\n"));
}

TEST_CASE("elif chains nest in orelse, as in Python's AST") {
  std::string d = dump("if a:\n    x = 1\nelif b:\n    x = 2\nelse:\n    x = 3\n");
  CHECK(contains(d, "  If\n    test: Name a\n    body:\n      Assign\n"));
  CHECK(contains(d, "    orelse:\n      If\n        test: Name b\n"));
  CHECK(contains(d, "        orelse:\n          Assign\n"));
}

TEST_CASE("subscripts with slices and None") {
  CHECK(contains(dump("y = x[:, None]\n"), "slice: Tuple\n        elt: Slice\n        elt: Constant None\n"));
  CHECK(contains(dump("y = x[1:2:3]\n"), "slice: Slice\n        lower: Constant int 1\n        upper: Constant int 2\n"
                                         "        step: Constant int 3\n"));
}

TEST_CASE("strings: concatenation, escapes, raw and byte prefixes") {
  CHECK(contains(dump("s = 'a' \"b\" '''c'''\n"), "value: Constant str 'abc'"));
  CHECK(contains(dump("s = '\\t\\x41\\u00e9'\n"), "value: Constant str '\\tA\xC3\xA9'"));
  CHECK(contains(dump("s = r'\\n'\n"), "value: Constant str '\\\\n'"));
  CHECK(contains(dump("s = b'\\xff'\n"), "value: Constant bytes '\\xff'"));
}

TEST_CASE("an invalid escape is a warning that -Werror turns into an error") {
  {
    test::Harness h;
    CHECK(parseFile(h.sources, h.add("s = '\\d'\n"), h.diags) != nullptr);
    CHECK(h.ids() == "invalid-escape-sequence");
    CHECK(h.diags.warningCount() == 1);
  }
  DiagnosticOptions o = test::Harness::plain();
  o.warningsAsErrors = true;
  test::Harness h(o);
  CHECK(parseFile(h.sources, h.add("s = '\\d'\n"), h.diags) == nullptr);
  CHECK(h.diags.errorCount() == 1);
}

TEST_CASE("one error per broken top-level statement, and the rest still parsed") {
  test::Harness h;
  std::string src = "def f(x)\n    return x\n\ndef g():\n    return 1\n\ndef h(, x):\n    pass\n\nx = 1 +\n";
  CHECK(parseFile(h.sources, h.add(src), h.diags) == nullptr);
  CHECK(h.ids() == "expected-colon expected-name expected-expression");
  CHECK(contains(h.out.str(), "t.tle:1:9: error: expected ':' after function signature"));
  CHECK(contains(h.out.str(), "t.tle:7:7: error: expected a parameter name, found ','"));
  CHECK(contains(h.out.str(), "t.tle:10:8: error: expected an expression after '+'"));
}

TEST_CASE("Python's compile-time checks") {
  auto idsOf = [](const std::string &src) {
    test::Harness h;
    parseFile(h.sources, h.add(src), h.diags);
    return h.ids();
  };
  CHECK(idsOf("f() = 1\n") == "invalid-assignment-target");
  CHECK(idsOf("a + b += 1\n") == "invalid-assignment-target");
  CHECK(idsOf("a, b: int = 1, 2\n") == "invalid-assignment-target");
  CHECK(idsOf("for 1 in x:\n    pass\n") == "invalid-assignment-target");
  CHECK(idsOf("def f(a, a):\n    pass\n") == "duplicate-parameter");
  CHECK(idsOf("def f(a=1, b):\n    pass\n") == "parameter-order");
  CHECK(idsOf("def f(*, **k):\n    pass\n") == "parameter-order");
  CHECK(idsOf("def f(**k, a):\n    pass\n") == "parameter-order");
  CHECK(idsOf("def f(a, *, b, /):\n    pass\n") == "parameter-order");
  CHECK(idsOf("f(a=1, 2)\n") == "argument-order");
  CHECK(idsOf("f(**k, 2)\n") == "argument-order");
  CHECK(idsOf("f(a=1, a=2)\n") == "duplicate-keyword-argument");
  CHECK(idsOf("f(x for x in y, 1)\n") == "syntax-error");
  CHECK(idsOf("return 1\n") == "return-outside-function");
  CHECK(idsOf("def f():\n    break\n") == "loop-control-outside-loop");
  CHECK(idsOf("for i in x:\n    def g():\n        continue\n") == "loop-control-outside-loop");
  CHECK(idsOf("for i in x:\n    if i:\n        break\n") == "");
  CHECK(idsOf("def f(a, /, b, *, c):\n    return lambda x, *y, **z: x\n") == "");
}

TEST_CASE("every corpus file parses") {
  std::vector<std::string> files = corpusFiles();
  CHECK(files.size() >= 40);
  for (const std::string &path : files) {
    test::Harness h;
    auto module = parseFile(h.sources, h.add(readFile(path), path), h.diags);
    CHECK_MESSAGE(module != nullptr, path << "\n" << h.out.str());
  }
}

// Mangles corpus files at random (fixed seed) and checks the frontend's contract: no
// crash, no hang, and a null module exactly when an error was reported, every error at
// a real position in the file.
TEST_CASE("mangled input never crashes and is always diagnosed consistently") {
  std::mt19937 rng(20261122);
  const std::string junk = "()[]{}:,.=+-*/\\'\"#@\t\n    xyz0123456789defifelsereturnlambda";
  unsigned parsedOk = 0, rejected = 0;
  for (const std::string &path : corpusFiles()) {
    std::string original = readFile(path);
    for (int round = 0; round < 60; ++round) {
      std::string text = original;
      int edits = 1 + static_cast<int>(rng() % 3);
      for (int e = 0; e < edits && !text.empty(); ++e) {
        size_t at = rng() % text.size();
        switch (rng() % 4) {
        case 0: text.erase(at, 1 + rng() % 8); break;
        case 1: text.insert(at, 1, junk[rng() % junk.size()]); break;
        case 2: text.insert(at, text.substr(rng() % text.size(), rng() % 40)); break;
        default: text[at] = static_cast<char>(rng() % 256); break;
        }
      }
      test::Harness h;
      FileId file = h.add(text, path);
      auto module = parseFile(h.sources, file, h.diags);
      CHECK((module == nullptr) == h.diags.hasErrors());
      for (const Diagnostic &d : h.diags.emitted()) {
        if (d.severity != Severity::Error) continue;
        CHECK(d.range.isValid());
        CHECK(d.range.begin.line <= h.sources.lineCount(file) + 1);
      }
      (module ? parsedOk : rejected) += 1;
    }
  }
  CHECK(rejected > 0);
  CHECK(parsedOk + rejected >= 40 * 60);
}
