#include "transforms/PipelineRegistry.h"

#include "ir/IrModuleDetail.h"
#include "ir/Locations.h"
#include "transforms/Pipeline.h"
#include "transforms/common/Passes.h"
#include "transforms/cuda/Passes.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassRegistry.h"

namespace tle {

namespace {

const TargetPipeline kPipelines[] = {
    {TargetFamily::Cuda, "tle-cuda-pipeline", "the CUDA passes in tlec's order", cuda::buildCudaPipeline},
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
  for (const TargetPipeline &p : kPipelines) mlir::PassPipelineRegistration<>(p.flag, p.summary, p.build);
}

bool runTargetPipeline(IrModule &module, const TargetInfo &target, DiagnosticEngine &diags, const SourceLocator &locate) {
  const TargetPipeline *pipeline = pipelineFor(target.family());
  if (!pipeline) {
    diags.report(DiagId::NotImplemented, "there is no lowering for " + target.name() + " yet (try --emit=mlir)");
    return false;
  }
  std::string errors;
  mlir::ScopedDiagnosticHandler handler(&module.context, [&](mlir::Diagnostic &d) {
    if (d.getSeverity() == mlir::DiagnosticSeverity::Warning) {
      SourceLoc at;
      if (auto file = ir::fileLocation(d.getLocation()); file && locate)
        at = locate(file->getFilename().str(), file->getLine(), file->getColumn());
      diags.report(DiagId::IgnoredHint, SourceRange(at), d.str());
      return mlir::success();
    }
    errors += d.str() + "\n";
    return mlir::success();
  });
  mlir::PassManager pm(&module.context);
  pipeline->build(pm);
  if (mlir::failed(pm.run(*module.op)) || mlir::failed(mlir::verify(*module.op))) {
    diags.report(DiagId::InternalError, "internal error: the " + target.name() + " lowering passes failed:\n" + errors);
    return false;
  }
  return true;
}

}  // namespace tle
