// Semantic analysis: specializes the requested kernels of a parsed module (constexpr
// binding from --signature, -D and defaults; helper inlining; dtype and shape
// inference) and lowers them to the `tle` MLIR dialect. Plain C++ interface: the
// driver sees no MLIR type.
#pragma once

#include "frontend/Ast.h"
#include "frontend/Signature.h"
#include "ir/IrModule.h"
#include "support/Diagnostics.h"
#include "target/Target.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tle {

class SourceManager;

struct KernelRequest {
  std::string name;
  // Absent: every parameter must be a constexpr with a default or bound by -D.
  std::optional<std::vector<SignatureEntry>> signature;
  SourceRange signatureRange;  // where the --signature text is, for diagnostics
  std::string symbol;          // --out-name; empty: derived from the name and signature
};

struct SemaOptions {
  std::vector<KernelRequest> kernels;  // empty: every @jit kernel whose parameters can be bound
  std::vector<std::pair<std::string, std::string>> defines;  // -D NAME=VALUE
  unsigned numWarps = 4;
  unsigned numStages = 0;  // 0: not given; recorded on a kernel only when given
  const TargetInfo *target = &defaultTarget();
  // Where `import NAME` looks for NAME.tle after the importing file's directory: the -I
  // directories in order, then tlec's own stdlib/tle.
  std::vector<std::string> includeDirs;
  std::string stdlibDir;
};

// Lowers the requested kernels to the tile IR (verified, canonicalized). Reports every
// problem to `diags` and returns null if there was an error. `dependencies` receives the
// path of every .tle module imported (for -MD).
IrModulePtr lowerToIr(const ast::Module &module, const SemaOptions &options, SourceManager &sources, DiagnosticEngine &diags,
                      std::vector<std::string> *dependencies = nullptr);

}  // namespace tle
