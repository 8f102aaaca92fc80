// tlec's command line: what the user asked for, validated. Parsing never exits or
// prints; problems become diagnostics without a source location.
#pragma once

#include "support/Diagnostics.h"
#include "target/Target.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tle {

enum class EmitKind { Tokens, Ast, Mlir, Cuda, Header, Ptx, Cubin, AscendC };

const char *emitKindName(EmitKind kind);

struct Options {
  std::string input;   // a path, or "-" for standard input
  std::string output;  // empty or "-": standard output
  EmitKind emit = EmitKind::Cuda;
  const TargetInfo *target = &defaultTarget();
  std::vector<std::string> kernels;
  std::vector<std::string> signatures;
  std::vector<std::string> outNames;  // --out-name, paired with kernels
  unsigned numWarps = 4;
  unsigned numStages = 0;  // 0: not given (the kernel keeps the default, ir::kDefaultNumStages)
  // --specialize: compile variants for what unhinted parameters turn out to be at launch
  // (aligned, equal to 1, multiples of 16 bytes of elements) and let the launcher pick (CUDA targets).
  bool specialize = true;
  // --tma: copy tensor-descriptor blocks that feed dots by TMA where the kernel allows it (CUDA
  // sm_90+; docs/cli.md).
  bool tma = true;
  std::vector<std::pair<std::string, std::string>> defines;  // -D NAME=VALUE, in order
  std::vector<std::string> includeDirs;
  bool writeDepfile = false;  // -MD
  std::string depfilePath;    // -MF (implies -MD)
  std::string depTarget;      // -MT
  int verbosity = 0;
  DiagnosticOptions diagnostics;
  bool help = false;
  bool version = false;

  bool writesToStdout() const { return output.empty() || output == "-"; }
};

// Reads only the options that shape diagnostics (--color, --diagnostics-format, -Werror,
// -w), so that errors in the rest of the command line are already rendered as asked.
DiagnosticOptions scanDiagnosticOptions(int argc, const char *const *argv);

// Parses and validates the whole command line; reports problems and returns nullopt.
std::optional<Options> parseCommandLine(int argc, const char *const *argv, DiagnosticEngine &diags);

std::string helpText();

}  // namespace tle
