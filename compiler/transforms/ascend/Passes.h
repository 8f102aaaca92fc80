// The Ascend passes (Passes.td); buildAscendPipeline runs them in order.
#pragma once

#include "ir/Dialect.h"
#include "ir/DsaDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"

namespace tle::ascend {

#define GEN_PASS_DECL
#include "transforms/ascend/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "transforms/ascend/Passes.h.inc"

// The whole Ascend pipeline, as `tlec --emit=ascendc` runs it (registered as tle-ascend-pipeline).
void buildAscendPipeline(mlir::OpPassManager &pm);

}  // namespace tle::ascend
