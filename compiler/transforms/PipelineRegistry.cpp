#include "transforms/PipelineRegistry.h"

#include "ir/IrModuleDetail.h"
#include "ir/Locations.h"
#include "transforms/PassDiagnostics.h"
#include "transforms/Pipeline.h"
#include "transforms/ascend/Passes.h"
#include "transforms/common/Passes.h"
#include "transforms/cuda/Passes.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassRegistry.h"

#include <set>

namespace tle {

namespace {

const TargetPipeline kPipelines[] = {
    {TargetFamily::Cuda, "tle-cuda-pipeline", "the CUDA passes in tlec's order", cuda::buildCudaPipeline},
    {TargetFamily::Ascend, "tle-ascend-pipeline", "the Ascend passes in tlec's order", ascend::buildAscendPipeline},
};

}  // namespace

const TargetPipeline *pipelineFor(TargetFamily family) {
  for (const TargetPipeline &p : kPipelines)
    if (p.family == family) return &p;
  return nullptr;
}

void registerPassesAndPipelines() {
  common::registerCommonPasses();
  cuda::registerCudaPasses();
  ascend::registerAscendPasses();
  for (const TargetPipeline &p : kPipelines) mlir::PassPipelineRegistration<>(p.flag, p.summary, p.build);
}

bool specializeParameters(IrModule &module, DiagnosticEngine &diags) {
  mlir::PassManager pm(&module.context);
  pm.addPass(common::createSpecializeParameters());
  if (mlir::failed(pm.run(*module.op)) || mlir::failed(mlir::verify(*module.op))) {
    diags.report(DiagId::InternalError, "internal error: specializing the kernels' parameters failed");
    return false;
  }
  return true;
}

void disallowTma(IrModule &module) {
  module.op->walk([](mlir::func::FuncOp f) { gpu::disallowTma(f); });
}

bool runTargetPipeline(IrModule &module, const TargetInfo &target, DiagnosticEngine &diags, const SourceLocator &locate) {
  const TargetPipeline *pipeline = pipelineFor(target.family());
  if (!pipeline) {
    diags.report(DiagId::NotImplemented, "there is no lowering for " + target.name() + " yet (try --emit=mlir)");
    return false;
  }
  std::string errors;
  bool unsupported = false;
  // The variants of a kernel (--specialize=auto) run the same passes over the same code: say
  // each warning and refusal once.
  std::set<std::string> said;
  mlir::ScopedDiagnosticHandler handler(&module.context, [&](mlir::Diagnostic &d) {
    std::string key;
    llvm::raw_string_ostream(key) << d.getLocation() << ": " << d.str();
    if (d.getSeverity() != mlir::DiagnosticSeverity::Error || llvm::StringRef(d.str()).starts_with(kUnsupportedOnTarget) ||
        llvm::StringRef(d.str()).starts_with(kNotImplemented))
      if (!said.insert(key).second) return mlir::success();
    auto at = [&] {
      SourceLoc loc;
      if (auto file = ir::fileLocation(d.getLocation()); file && locate)
        loc = locate(file->getFilename().str(), file->getLine(), file->getColumn());
      return SourceRange(loc);
    };
    std::string message = d.str();
    if (d.getSeverity() == mlir::DiagnosticSeverity::Warning) {
      diags.report(DiagId::IgnoredHint, at(), message);
      return mlir::success();
    }
    if (llvm::StringRef(message).starts_with(kUnsupportedOnTarget)) {
      diags.report(DiagId::UnsupportedOnTarget, at(), message.substr(kUnsupportedOnTarget.size()) + " (" + target.name() + ")");
      unsupported = true;
      return mlir::success();
    }
    if (llvm::StringRef(message).starts_with(kNotImplemented)) {
      diags.report(DiagId::NotImplemented, at(), message.substr(kNotImplemented.size()));
      unsupported = true;
      return mlir::success();
    }
    errors += message + "\n";
    return mlir::success();
  });
  mlir::PassManager pm(&module.context);
  pipeline->build(pm);
  bool failed = mlir::failed(pm.run(*module.op)) || mlir::failed(mlir::verify(*module.op));
  if (failed && unsupported && errors.empty()) return false;
  if (failed) {
    diags.report(DiagId::InternalError, "internal error: the " + target.name() + " lowering passes failed:\n" + errors);
    return false;
  }
  return true;
}

}  // namespace tle
