// The CUDA passes (Passes.td); buildCudaPipeline runs them in order.
#pragma once

#include "ir/Dialect.h"
#include "ir/GpuDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"

namespace tle::cuda {

#define GEN_PASS_DECL
#include "transforms/cuda/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "transforms/cuda/Passes.h.inc"

// The whole CUDA pipeline, as `tlec --emit=cuda` runs it (registered as tle-cuda-pipeline).
void buildCudaPipeline(mlir::OpPassManager &pm);

}  // namespace tle::cuda
