// Running a target's pipeline from the driver, which sees no MLIR. Pipelines are registered
// by target family in PipelineRegistry.h.
#pragma once

#include "ir/IrModule.h"
#include "support/Diagnostics.h"
#include "support/SourceManager.h"
#include "target/Target.h"

#include <functional>
#include <string>

namespace tle {

// Runs `target`'s pipeline on every kernel of `module`. False, with a diagnostic, when the
// family has no pipeline yet or a pass fails (a compiler bug). A pass's warnings (a hint it
// cannot honour) become ignored-hint warnings, located with `locate` when given.
bool runTargetPipeline(IrModule &module, const TargetInfo &target, DiagnosticEngine &diags, const SourceLocator &locate = {});

// Adds the specialized variants of each kernel (tle-specialize-parameters) that the CUDA
// launchers dispatch among; run before the target's pipeline.
bool specializeParameters(IrModule &module, DiagnosticEngine &diags);

// tlec --tma=off: every kernel of `module` keeps cp.async for its descriptor blocks.
void disallowTma(IrModule &module);

}  // namespace tle
