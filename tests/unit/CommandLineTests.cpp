// tlec's command line: parsing, defaults, validation, and the depfile format.
#include "TestSupport.h"

#include "driver/CommandLine.h"
#include "driver/Compilation.h"

#include <doctest/doctest.h>

using namespace tle;

namespace {

struct Parsed {
  std::optional<Options> options;
  std::string errors;
};

Parsed parse(std::vector<const char *> args) {
  test::Harness h;
  args.insert(args.begin(), "tlec");
  Parsed p;
  p.options = parseCommandLine(static_cast<int>(args.size()), args.data(), h.diags);
  p.errors = h.out.str();
  return p;
}

}  // namespace

TEST_CASE("defaults") {
  Parsed p = parse({"k.tle"});
  REQUIRE(p.options);
  CHECK(p.options->input == "k.tle");
  CHECK(p.options->emit == EmitKind::Cuda);
  CHECK(p.options->target->name() == "cuda:sm_90a");
  CHECK(p.options->numWarps == 4);
  CHECK(p.options->numStages == 0);  // not given: the kernels keep the default
  CHECK(p.options->writesToStdout());
}

TEST_CASE("the output kind follows -o's extension unless --emit says otherwise") {
  CHECK(parse({"k.tle", "-o", "k.cu"}).options->emit == EmitKind::Cuda);
  CHECK(parse({"k.tle", "-o", "k.h"}).options->emit == EmitKind::Header);
  CHECK(parse({"k.tle", "-ok.ptx"}).options->emit == EmitKind::Ptx);
  CHECK(parse({"k.tle", "--output=k.cubin"}).options->emit == EmitKind::Cubin);
  CHECK(parse({"k.tle", "-o", "k.mlir"}).options->emit == EmitKind::Mlir);
  CHECK(parse({"k.tle", "-o", "k.cu", "--emit=ast"}).options->emit == EmitKind::Ast);
  CHECK(parse({"k.tle", "--target=ascend:910b"}).options->emit == EmitKind::AscendC);
}

TEST_CASE("repeatable options keep their order; signatures keep their commas") {
  Parsed p = parse({"k.tle", "--kernel", "a", "--signature", "*fp32:16, i32, 1024", "--kernel=b", "--signature=i32",
                    "-DBLOCK=128", "-D", "ACT=\"relu\"", "-DFLAG", "-I", "inc1", "-Iinc2"});
  REQUIRE(p.options);
  CHECK(p.options->kernels == std::vector<std::string>{"a", "b"});
  CHECK(p.options->signatures == std::vector<std::string>{"*fp32:16, i32, 1024", "i32"});
  REQUIRE(p.options->defines.size() == 3);
  CHECK(p.options->defines[0] == std::make_pair(std::string("BLOCK"), std::string("128")));
  CHECK(p.options->defines[1].second == "\"relu\"");
  CHECK(p.options->defines[2].second == "True");
  CHECK(p.options->includeDirs == std::vector<std::string>{"inc1", "inc2"});
}

TEST_CASE("gcc-style -MD -MF -MT and -Werror") {
  Parsed p = parse({"k.tle", "-o", "k.cu", "-MD", "-MF", "k.d", "-MT", "obj", "-Werror", "-w"});
  REQUIRE(p.options);
  CHECK(p.options->writeDepfile);
  CHECK(p.options->depfilePath == "k.d");
  CHECK(p.options->depTarget == "obj");
  CHECK(p.options->diagnostics.warningsAsErrors);
  CHECK(p.options->diagnostics.ignoreWarnings);
}

TEST_CASE("'--' ends the options") {
  Parsed p = parse({"--emit=ast", "--", "-odd-name.tle"});
  REQUIRE(p.options);
  CHECK(p.options->input == "-odd-name.tle");
}

TEST_CASE("invalid command lines are diagnosed, with suggestions") {
  CHECK(parse({}).errors == "tlec: error: no input file; usage: tlec [options] FILE.tle (see tlec --help) [no-input-file]\n");
  CHECK(parse({"k.tle", "--emitt=ast"}).errors ==
        "tlec: error: unknown option '--emitt=ast'; did you mean '--emit'? [invalid-argument]\n");
  CHECK(parse({"k.tle", "-x.tle"}).errors == "tlec: error: unknown option '-x.tle' [invalid-argument]\n");
  CHECK(parse({"k.tle", "--emit=llvm"}).errors.find("unknown --emit kind 'llvm'") != std::string::npos);
  CHECK(parse({"k.tle", "--target=cuda:sm_70"}).errors.find("unknown target 'cuda:sm_70'") != std::string::npos);
  CHECK(parse({"k.tle", "--num-warps=3"}).errors.find("--num-warps must be 1, 2, 4, 8, 16 or 32") != std::string::npos);
  CHECK(parse({"k.tle", "--num-stages=0"}).errors.find("--num-stages must be an integer from 1 to 16") != std::string::npos);
  CHECK(parse({"k.tle", "-D", "1X=2"}).errors.find("[invalid-define]") != std::string::npos);
  CHECK(parse({"k.tle", "-DX="}).errors.find("[invalid-define]") != std::string::npos);
  CHECK(parse({"a.tle", "b.tle"}).errors.find("only one input file") != std::string::npos);
  CHECK(parse({"k.tle", "-MD"}).errors.find("-MD needs -o FILE") != std::string::npos);
  CHECK(parse({"k.tle", "--kernel=a", "--signature=i32", "--signature=i64"}).errors.find("got 2 --signature for 1 --kernel") !=
        std::string::npos);
  CHECK(parse({"k.tle", "--target=ascend:910b", "--emit=ptx"}).errors.find("needs a CUDA target") != std::string::npos);
  CHECK(parse({"k.tle", "-o"}).errors == "tlec: error: option '-o' needs a value [invalid-argument]\n");
  CHECK(parse({"k.tle", "--color=sometimes"}).errors.find("--color must be auto, always or never") != std::string::npos);
}

TEST_CASE("diagnostic options are read before the rest of the command line") {
  const char *argv[] = {"tlec", "--bogus", "--diagnostics-format=json", "--color", "always", "-Werror"};
  DiagnosticOptions d = scanDiagnosticOptions(6, argv);
  CHECK(d.format == DiagnosticFormat::Json);
  CHECK(d.color == ColorMode::Always);
  CHECK(d.warningsAsErrors);
}

TEST_CASE("depfile: make syntax with escaped spaces and dollars") {
  CHECK(formatDepfile("out dir/k.cu", {"k.tle", "my lib/$x.tle"}) == "out\\ dir/k.cu: \\\n  k.tle \\\n  my\\ lib/$$x.tle\n");
}
