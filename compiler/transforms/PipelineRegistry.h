// The pass pipelines, by target family: what takes the tile IR to what that family's
// printer prints. Each is also a tle-opt pipeline (--tle-cuda-pipeline).
#pragma once

#include "target/Target.h"

#include "mlir/Pass/PassManager.h"

namespace tle {

struct TargetPipeline {
  TargetFamily family;
  const char *flag;  // the tle-opt option that runs it
  const char *summary;
  void (*build)(mlir::OpPassManager &pm);
};

// nullptr when `family` has no pipeline yet.
const TargetPipeline *pipelineFor(TargetFamily family);

// Every tlec pass and pipeline, for tle-opt.
void registerPassesAndPipelines();

}  // namespace tle
