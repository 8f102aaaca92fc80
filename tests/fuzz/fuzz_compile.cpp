// libFuzzer target: a whole compilation of arbitrary source text, in-process: parse, sema
// to the tile IR, the target's pipeline and its printer. Built once per target
// (TLE_FUZZ_TARGET "cuda:sm_90a" or "ascend:910b"); TLE_FUZZ_SEMA_ONLY stops after sema.
//
// Every @...jit function is requested, with a signature made from its parameters:
// annotated ones (tl.constexpr) get 16, names with "ptr" or "Ptr" fp32 pointers (aligned to
// 16 bytes for inputs of even length; unhinted for odd ones, so that the CUDA target's
// automatic specialization has parameters to work on), the rest i32 scalars.
#include "FuzzSupport.h"

#include "frontend/Ast.h"
#include "frontend/Parser.h"
#include "frontend/Signature.h"
#include "sema/Sema.h"
#include "target/Target.h"
#include "transforms/Pipeline.h"
#ifndef TLE_FUZZ_SEMA_ONLY
#include "codegen/ascendc/AscendcBackend.h"
#include "codegen/cuda/CudaBackend.h"
#endif

#include <cstddef>
#include <cstdint>

namespace {

using namespace tle;

// The decorator's text, when it is on one line (columns are 1-based, bytes).
std::string decoratorText(const SourceManager &sources, const ast::Expr &e) {
  SourceRange r = e.range;
  if (!r.isValid() || r.begin.line != r.end.line || r.end.column < r.begin.column) return "";
  std::string line(sources.lineText(r.begin.file, r.begin.line));
  if (r.begin.column == 0 || r.begin.column - 1 > line.size()) return "";
  return line.substr(r.begin.column - 1, r.end.column - r.begin.column);
}

// Every @...jit function (at most 4), with a signature made as the driver makes one: from
// text in its own buffer, so that signature errors point into it.
std::vector<KernelRequest> requestsFor(const ast::Module &module, SourceManager &sources, DiagnosticEngine &diags,
                                       bool alignedPointers) {
  std::vector<KernelRequest> requests;
  for (const ast::StmtPtr &s : module.body) {
    const auto *f = ast::dyn_cast<ast::FunctionDef>(s.get());
    if (!f) continue;
    bool jit = false;
    for (const ast::ExprPtr &d : f->decorators) jit |= decoratorText(sources, *d).find("jit") != std::string::npos;
    if (!jit) continue;
    std::string text;
    for (const ast::Param &p : f->params) {
      bool pointer = p.name.find("ptr") != std::string::npos || p.name.find("Ptr") != std::string::npos;
      std::string entry = p.annotation ? "16" : !pointer ? "i32" : alignedPointers ? "*fp32:16" : "*fp32";
      text += (text.empty() ? "" : ", ") + entry;
    }
    FileId sig = sources.addBuffer("<signature " + f->name + ">", text);
    KernelRequest r;
    r.name = f->name;
    if (auto entries = parseSignature(sources.text(sig), sig, diags)) r.signature = std::move(*entries);
    else fuzz::finding("a derived signature does not parse: " + text, "");
    r.signatureRange = SourceRange({sig, 1, 1}, sources.endOfFile(sig));
    requests.push_back(std::move(r));
    if (requests.size() == 4) break;  // bounded work per input
  }
  return requests;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  tle::fuzz::quietLogs();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  SourceManager sources;
  std::ostringstream rendered;
  DiagnosticEngine diags(sources, rendered, fuzz::plainDiagnostics());
  FileId file = sources.addBuffer("input.tle", std::string(reinterpret_cast<const char *>(data), size));
  auto module = parseFile(sources, file, diags);
  if (!module) return fuzz::checkDiagnostics(diags, false, rendered), 0;
  std::vector<KernelRequest> requests = requestsFor(*module, sources, diags, size % 2 == 0);
  if (requests.empty()) return 0;
  const TargetInfo *target = findTarget(TLE_FUZZ_TARGET);
  if (!target) fuzz::finding("unknown fuzz target " TLE_FUZZ_TARGET, "");
  SemaOptions options;
  options.kernels = std::move(requests);
  options.target = target;
  options.stdlibDir = TLE_STDLIB_DIR;
  IrModulePtr ir = lowerToIr(*module, options, sources, diags);
  if (!ir) return fuzz::checkDiagnostics(diags, false, rendered), 0;
#ifndef TLE_FUZZ_SEMA_ONLY
  SourceLocator locate = locatorFor(sources);
  // As the driver does under --specialize=auto (its default) for CUDA.
  if (target->family() == TargetFamily::Cuda && !specializeParameters(*ir, diags))
    return fuzz::checkDiagnostics(diags, false, rendered), 0;
  if (!runTargetPipeline(*ir, *target, diags, locate)) return fuzz::checkDiagnostics(diags, false, rendered), 0;
  bool printed = false;
  if (target->family() == TargetFamily::Cuda) {
    CudaOptions cuda;
    cuda.inputName = "input.tle";
    cuda.headerName = "input.h";
    cuda.locate = locate;
    cuda.sourceLine = lineReaderFor(sources);
    CudaOutput out;
    printed = printCuda(*ir, cuda, diags, out);
  } else {
    AscendcOptions ascendc;
    ascendc.inputName = "input.tle";
    ascendc.headerName = "input.h";
    ascendc.targetName = TLE_FUZZ_TARGET;
    ascendc.locate = locate;
    ascendc.sourceLine = lineReaderFor(sources);
    AscendcOutput out;
    printed = printAscendc(*ir, ascendc, diags, out);
  }
  fuzz::checkDiagnostics(diags, printed, rendered);
#else
  fuzz::checkDiagnostics(diags, true, rendered);
#endif
  return 0;
}
