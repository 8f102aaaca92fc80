// Running a target's pipeline from the driver, which sees no MLIR. Pipelines are registered
// by target family in PipelineRegistry.h.
#pragma once

#include "ir/IrModule.h"
#include "support/Diagnostics.h"
#include "target/Target.h"

namespace tle {

// Runs `target`'s pipeline on every kernel of `module`. False, with a diagnostic, when the
// family has no pipeline yet or a pass fails (a compiler bug).
bool runTargetPipeline(IrModule &module, const TargetInfo &target, DiagnosticEngine &diags);

}  // namespace tle
