#include "driver/CommandLine.h"

#include "support/Spelling.h"

#include <cxxopts.hpp>

#include <algorithm>
#include <cctype>
#include <cstring>

namespace tle {

namespace {

struct EmitName {
  const char *name;
  EmitKind kind;
};
constexpr EmitName kEmitNames[] = {
    {"tokens", EmitKind::Tokens}, {"ast", EmitKind::Ast},     {"mlir", EmitKind::Mlir},
    {"cuda", EmitKind::Cuda},     {"header", EmitKind::Header}, {"ptx", EmitKind::Ptx},
    {"cubin", EmitKind::Cubin},   {"ascendc", EmitKind::AscendC},
};


// Long options tlec knows, for "did you mean" suggestions.
const char *const kKnownOptions[] = {
    "--output", "--emit", "--target", "--kernel", "--signature", "--out-name", "--num-warps", "--num-stages",
    "--specialize", "--tma", "--define", "--include", "--MD", "--MF", "--MT", "--color", "--diagnostics-format", "--Werror",
    "--verbose", "--version", "--help",
};

const char *const kKnownShortOptions[] = {"-o", "-D", "-I", "-MD", "-MF", "-MT", "-Werror", "-w", "-v", "-h"};


std::string suggestOption(const std::string &given) {
  std::string name = given.substr(0, given.find('='));
  std::string best;
  size_t bestDistance = name.size() <= 3 ? 2 : 3;  // one-letter typos match anything at 2
  auto consider = [&](const std::string &candidate) {
    size_t d = editDistance(name, candidate);
    if (d < bestDistance) bestDistance = d, best = candidate;
  };
  if (name.size() <= 2) return best;  // "-q" resembles every short option equally
  if (name.rfind("--", 0) != 0)
    for (const char *k : kKnownShortOptions) consider(k);
  for (const char *k : kKnownOptions) {
    consider(k);
    if (name.rfind("--", 0) != 0) {  // "-emit" is a misspelt "--emit"
      size_t d = editDistance("-" + name, k);
      if (d < bestDistance) bestDistance = d, best = k;
    }
  }
  return best;
}

// A single-dash argument cxxopts would misread: gcc-style -MD is not -M -D, and an
// unknown `-x.tle` must not become six one-letter options.
bool isKnownShortForm(const std::string &a) {
  if (a.size() < 2 || a[0] != '-' || a[1] == '-') return true;
  switch (a[1]) {
  case 'o': case 'D': case 'I': return true;  // value attached or following
  case 'v': return a.find_first_not_of('v', 1) == std::string::npos;
  case 'w': case 'h': return a.size() == 2;
  default: return false;
  }
}

struct SplitArgs {
  std::vector<std::string> forParser;  // argv[0] and the options, gcc spellings rewritten
  std::vector<std::string> positional; // everything after "--"
  std::vector<std::string> unknown;    // single-dash options tlec does not have
};

SplitArgs splitArgs(int argc, const char *const *argv) {
  SplitArgs out;
  out.forParser.push_back(argc > 0 ? argv[0] : "tlec");
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--") {
      for (++i; i < argc; ++i) out.positional.push_back(argv[i]);
      break;
    }
    if (a == "-MD" || a == "-MF" || a == "-MT" || a == "-Werror") a = "-" + a;
    else if (a.rfind("-MF", 0) == 0 || a.rfind("-MT", 0) == 0) a = "-" + a.substr(0, 3) + "=" + a.substr(3);
    else if (!isKnownShortForm(a)) {
      out.unknown.push_back(a);
      continue;
    }
    out.forParser.push_back(std::move(a));
  }
  return out;
}

// cxxopts words its errors in its own style, with typographic quotes; say it in ours.
std::string translateParseError(const std::string &what) {
  std::string text = what;
  for (const char *q : {"\xE2\x80\x98", "\xE2\x80\x99"}) {
    for (size_t p; (p = text.find(q)) != std::string::npos;) text.replace(p, 3, "'");
  }
  auto quoted = [&]() {
    size_t a = text.find('\'');
    size_t b = a == std::string::npos ? a : text.find('\'', a + 1);
    return b == std::string::npos ? std::string() : text.substr(a + 1, b - a - 1);
  };
  auto dashed = [](const std::string &name) { return (name.size() == 1 ? "-" : "--") + name; };
  if (text.find("is missing an argument") != std::string::npos || text.find("requires an argument") != std::string::npos)
    return "option '" + dashed(quoted()) + "' needs a value";
  if (text.find("does not take an argument") != std::string::npos)
    return "option '" + dashed(quoted()) + "' does not take a value";
  if (text.find("failed to parse") != std::string::npos)
    return "invalid value '" + quoted() + "': the option it was given to does not take a value";
  return text;
}

bool parseUnsigned(const std::string &s, unsigned &out) {
  if (s.empty() || s.size() > 6 || s.find_first_not_of("0123456789") != std::string::npos) return false;
  out = static_cast<unsigned>(std::stoul(s));
  return true;
}

bool isIdentifier(const std::string &s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  return std::all_of(s.begin(), s.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

bool endsWith(const std::string &s, const char *suffix) {
  size_t n = std::strlen(suffix);
  return s.size() >= n && s.compare(s.size() - n, n, suffix) == 0;
}

}  // namespace

const char *emitKindName(EmitKind kind) {
  for (const EmitName &e : kEmitNames)
    if (e.kind == kind) return e.name;
  return "?";
}

DiagnosticOptions scanDiagnosticOptions(int argc, const char *const *argv) {
  DiagnosticOptions d;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--") break;
    std::string value;
    if (a.rfind("--color=", 0) == 0) value = a.substr(8);
    else if (a == "--color" && i + 1 < argc) value = argv[i + 1];
    if (value == "always") d.color = ColorMode::Always;
    else if (value == "never") d.color = ColorMode::Never;
    else if (value == "auto") d.color = ColorMode::Auto;
    value.clear();
    if (a.rfind("--diagnostics-format=", 0) == 0) value = a.substr(21);
    else if (a == "--diagnostics-format" && i + 1 < argc) value = argv[i + 1];
    if (value == "json") d.format = DiagnosticFormat::Json;
    else if (value == "text") d.format = DiagnosticFormat::Text;
    if (a == "-Werror" || a == "--Werror") d.warningsAsErrors = true;
    if (a == "-w") d.ignoreWarnings = true;
  }
  return d;
}

std::string helpText() {
  std::string text = R"(OVERVIEW: tlec, the ahead-of-time compiler for Triton/TLE kernels (.tle files)

USAGE: tlec [options] FILE.tle        (FILE may be '-' for standard input;
                                       '--' ends the options)

OUTPUT:
  -o, --output FILE          Write the result to FILE (default: standard output).
                             Written atomically: on any error FILE is left untouched.
  --emit KIND                What to produce: tokens, ast, mlir, cuda, header, ptx, cubin,
                             ascendc. Default: from the extension of -o (.cu/.cuh cuda,
                             .h/.hpp header, .ptx ptx, .cubin cubin, .mlir mlir), else cuda
                             (ascendc for an Ascend target). ascendc writes AscendC C++
                             for the vector units (see docs/ascendc.md for what maps).
  --target TARGET            What to compile for (default cuda:sm_90a):
@TARGETS@

KERNELS:
  --kernel NAME              Compile kernel NAME (repeatable; default: every @jit function
                             that no other @jit function uses).
  --signature SIG            Parameter types and constexpr values, Triton AOT syntax, e.g.
                             "*fp32:16, i32, 1024"; also "quoted" strings, true/false, None,
                             and host tensor descriptors as tensordesc<fp16[64, 64]>.
                             The i-th --signature applies to the i-th --kernel; trailing
                             parameters with defaults may be left out.
  --out-name NAME            The symbol for the i-th --kernel (its __global__ function;
                             the launcher is NAME_launch). Default: the kernel's name, with
                             the signature mangled in when one kernel is compiled twice.
  --num-warps N              Warps per program: 1, 2, 4, 8, 16 or 32 (default 4).
  --num-stages N             Software-pipelining depth, 1-16 (default 3).
  --specialize MODE          auto (default): for parameters without a :16 or :1 hint, also
                             compile variants assuming aligned pointers, unit strides and
                             integers that are multiples of 16 bytes of elements (8 for
                             16-bit tiles), and let the launcher pick the one the
                             arguments meet (CUDA targets; docs/abi.md). none: one
                             kernel per --signature, exactly as hinted.
  --tma MODE                 auto (default): on CUDA sm_90+, tensor-descriptor loads that
                             feed tl.dot are copied by TMA where the kernel variant allows
                             it (16-byte rows; docs/abi.md). off: by cp.async.
  -D, --define NAME=VALUE    Bind the constexpr parameter (or module-level name) NAME to
                             VALUE, a Python expression; -D NAME means True.
  -I, --include DIR          Search DIR for imported .tle modules (repeatable), after the
                             importing file's directory and before tlec's stdlib/tle.

DEPENDENCIES:
  -MD                        Also write a make-style dependency file (OUTPUT.d by default).
  -MF FILE                   Write the dependency file to FILE (implies -MD).
  -MT TARGET                 Name TARGET as the rule's target (default: the output file).

DIAGNOSTICS:
  --color WHEN               auto (default), always, never. Under auto, colour is used when
                             standard error is a terminal, NO_COLOR is unset or empty and
                             TERM is not 'dumb'.
  --diagnostics-format FMT   text (default) or json (one JSON array on standard error).
  -Werror                    Treat warnings as errors.
  -w                         Suppress warnings.
  -v, --verbose              Log what each stage does (repeat for more detail).

  --version                  Print the version and exit.
  -h, --help                 Print this help and exit.

Exit status: 0 on success, 1 if any error was reported.
)";
  // The target model's names, wrapped under the option's description.
  std::string targets, line = std::string(29, ' ');
  for (const TargetInfo *t : allTargets()) {
    std::string item = t->name() + (t == allTargets().back() ? "." : ",");
    if (line.size() + item.size() + 1 > 93) targets += line + "\n", line = std::string(29, ' ');
    line += (line.size() > 29 ? " " : "") + item;
  }
  text.replace(text.find("@TARGETS@\n"), 10, targets + line + "\n");
  return text;
}

std::optional<Options> parseCommandLine(int argc, const char *const *argv, DiagnosticEngine &diags) {
  Options opts;
  opts.diagnostics = scanDiagnosticOptions(argc, argv);
  SplitArgs split = splitArgs(argc, argv);
  std::vector<const char *> cargs;
  for (const std::string &a : split.forParser) cargs.push_back(a.c_str());

  cxxopts::Options parser("tlec", "");
  parser.allow_unrecognised_options();
  parser.add_options()
      ("o,output", "", cxxopts::value<std::string>())
      ("emit", "", cxxopts::value<std::string>())
      ("target", "", cxxopts::value<std::string>())
      ("kernel", "", cxxopts::value<std::string>())
      ("signature", "", cxxopts::value<std::string>())
      ("out-name", "", cxxopts::value<std::string>())
      ("num-warps", "", cxxopts::value<std::string>())
      ("num-stages", "", cxxopts::value<std::string>())
      ("specialize", "", cxxopts::value<std::string>())
      ("tma", "", cxxopts::value<std::string>())
      ("D,define", "", cxxopts::value<std::string>())
      ("I,include", "", cxxopts::value<std::string>())
      ("MD", "")
      ("MF", "", cxxopts::value<std::string>())
      ("MT", "", cxxopts::value<std::string>())
      ("color", "", cxxopts::value<std::string>())
      ("diagnostics-format", "", cxxopts::value<std::string>())
      ("Werror", "")
      ("w", "")
      ("v,verbose", "")
      ("version", "")
      ("h,help", "");

  bool ok = true;
  auto bad = [&](std::string message) {
    diags.report(DiagId::InvalidArgument, std::move(message));
    ok = false;
  };

  std::vector<std::string> positional;
  try {
    cxxopts::ParseResult result = parser.parse(static_cast<int>(cargs.size()), cargs.data());
    opts.help = result.count("help") > 0;
    opts.version = result.count("version") > 0;
    opts.verbosity = static_cast<int>(result.count("verbose"));
    opts.writeDepfile = result.count("MD") > 0;

    std::string emitName;
    for (const cxxopts::KeyValue &kv : result.arguments()) {
      const std::string &key = kv.key();
      const std::string &value = kv.value();
      if (key == "output") {
        opts.output = value;
      } else if (key == "emit") {
        emitName = value;
      } else if (key == "target") {
        if (const TargetInfo *target = findTarget(value)) opts.target = target;
        else bad("unknown target '" + value + "'; expected one of " + targetNameList());
      } else if (key == "kernel") {
        if (!isIdentifier(value)) bad("--kernel expects a function name, got '" + value + "'");
        opts.kernels.push_back(value);
      } else if (key == "signature") {
        opts.signatures.push_back(value);
      } else if (key == "out-name") {
        if (!isIdentifier(value)) bad("--out-name expects a C identifier, got '" + value + "'");
        opts.outNames.push_back(value);
      } else if (key == "num-warps") {
        unsigned n = 0;
        if (!parseUnsigned(value, n) || n == 0 || n > 32 || (n & (n - 1)) != 0)
          bad("--num-warps must be 1, 2, 4, 8, 16 or 32, got '" + value + "'");
        else
          opts.numWarps = n;
      } else if (key == "num-stages") {
        unsigned n = 0;
        if (!parseUnsigned(value, n) || n == 0 || n > 16)
          bad("--num-stages must be an integer from 1 to 16, got '" + value + "'");
        else
          opts.numStages = n;
      } else if (key == "tma") {
        if (value == "auto" || value == "off")
          opts.tma = value == "auto";
        else
          bad("--tma must be auto or off, got '" + value + "'");
      } else if (key == "specialize") {
        if (value == "auto" || value == "none")
          opts.specialize = value == "auto";
        else
          bad("--specialize must be auto or none, got '" + value + "'");
      } else if (key == "define") {
        size_t eq = value.find('=');
        std::string name = value.substr(0, eq);
        std::string v = eq == std::string::npos ? "True" : value.substr(eq + 1);
        if (!isIdentifier(name))
          diags.report(DiagId::InvalidDefine, "-D expects NAME=VALUE with NAME an identifier, got '" + value + "'"), ok = false;
        else if (v.empty())
          diags.report(DiagId::InvalidDefine, "-D " + name + "= has no value; write -D " + name + "=VALUE"), ok = false;
        else
          opts.defines.emplace_back(name, v);
      } else if (key == "include") {
        opts.includeDirs.push_back(value);
      } else if (key == "MF") {
        opts.depfilePath = value;
        opts.writeDepfile = true;
      } else if (key == "MT") {
        opts.depTarget = value;
      } else if (key == "color") {
        if (value != "auto" && value != "always" && value != "never")
          bad("--color must be auto, always or never, got '" + value + "'");
      } else if (key == "diagnostics-format") {
        if (value != "text" && value != "json") bad("--diagnostics-format must be text or json, got '" + value + "'");
      }
    }

    std::vector<std::string> leftovers = split.unknown;
    for (const std::string &u : result.unmatched()) leftovers.push_back(u);
    for (const std::string &u : leftovers) {
      if (u.size() > 1 && u[0] == '-') {
        std::string suggestion = suggestOption(u);
        bad("unknown option '" + u + "'" + (suggestion.empty() ? "" : "; did you mean '" + suggestion + "'?"));
      } else {
        positional.push_back(u);
      }
    }

    if (!emitName.empty()) {
      auto it = std::find_if(std::begin(kEmitNames), std::end(kEmitNames),
                             [&](const EmitName &e) { return emitName == e.name; });
      if (it == std::end(kEmitNames))
        bad("unknown --emit kind '" + emitName + "'; expected tokens, ast, mlir, cuda, header, ptx, cubin or ascendc");
      else
        opts.emit = it->kind;
    } else if (endsWith(opts.output, ".cu") || endsWith(opts.output, ".cuh")) {
      opts.emit = EmitKind::Cuda;
    } else if (endsWith(opts.output, ".h") || endsWith(opts.output, ".hpp")) {
      opts.emit = EmitKind::Header;
    } else if (endsWith(opts.output, ".ptx")) {
      opts.emit = EmitKind::Ptx;
    } else if (endsWith(opts.output, ".cubin")) {
      opts.emit = EmitKind::Cubin;
    } else if (endsWith(opts.output, ".mlir")) {
      opts.emit = EmitKind::Mlir;
    } else {
      opts.emit = opts.target->family() == TargetFamily::Ascend ? EmitKind::AscendC : EmitKind::Cuda;
    }
  } catch (const cxxopts::exceptions::exception &e) {
    bad(translateParseError(e.what()));
  }
  for (const std::string &p : split.positional) positional.push_back(p);

  if (opts.help || opts.version) return ok ? std::optional<Options>(std::move(opts)) : std::nullopt;

  if (positional.empty()) {
    if (ok) diags.report(DiagId::NoInputFile, "no input file; usage: tlec [options] FILE.tle (see tlec --help)");
    return std::nullopt;
  }
  if (positional.size() > 1) bad("only one input file may be given, got '" + positional[0] + "' and '" + positional[1] + "'");
  opts.input = positional[0];

  if (!opts.outNames.empty() && opts.outNames.size() != opts.kernels.size())
    bad("got " + std::to_string(opts.outNames.size()) + " --out-name for " + std::to_string(opts.kernels.size()) +
        " --kernel; give one --out-name per --kernel, in the same order");
  if (!opts.signatures.empty() && opts.signatures.size() != opts.kernels.size())
    bad("got " + std::to_string(opts.signatures.size()) + " --signature for " + std::to_string(opts.kernels.size()) +
        " --kernel; give one --signature per --kernel, in the same order");
  if (opts.writeDepfile && opts.depfilePath.empty() && opts.writesToStdout())
    bad("-MD needs -o FILE (the dependency file is FILE.d) or -MF DEPFILE");
  bool emitIsCuda = opts.emit == EmitKind::Cuda || opts.emit == EmitKind::Ptx ||
                    opts.emit == EmitKind::Cubin;
  if (opts.target->family() == TargetFamily::Ascend && emitIsCuda)
    bad(std::string("--emit=") + emitKindName(opts.emit) + " needs a CUDA target, but --target is " + opts.target->name());
  if (opts.target->family() == TargetFamily::Cuda && opts.emit == EmitKind::AscendC)
    bad("--emit=ascendc needs an Ascend target (--target=ascend:910b), but --target is " + opts.target->name());
  if (!ok) return std::nullopt;
  return opts;
}

}  // namespace tle
