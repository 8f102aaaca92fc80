// The order of the CUDA passes, and their registration for tle-opt.
#include "transforms/cuda/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

namespace tle::cuda {

void registerCudaPasses() {
  mlir::registerPass([] { return createLowerBlockPointersPass(); });
  mlir::registerPass([] { return createPrefetchLoadsPass(); });
  mlir::registerPass([] { return createCloneIndexingPass(); });
  mlir::registerPass([] { return createAssignLayoutsPass(); });
  mlir::registerPass([] { return createPlanSharedMemoryPass(); });
}

void buildCudaPipeline(mlir::OpPassManager &pm) {
  pm.addNestedPass<mlir::func::FuncOp>(createLowerBlockPointersPass());
  // Fold what the rewrite exposed (offset arithmetic on constants) before analysis.
  pm.addPass(mlir::createCanonicalizerPass());
  pm.addNestedPass<mlir::func::FuncOp>(createPrefetchLoadsPass());
  pm.addNestedPass<mlir::func::FuncOp>(createCloneIndexingPass());
  pm.addNestedPass<mlir::func::FuncOp>(createAssignLayoutsPass());
  // Copies that ended up with the same layout are one value again.
  pm.addPass(mlir::createCSEPass());
  pm.addNestedPass<mlir::func::FuncOp>(createPlanSharedMemoryPass());
}

}  // namespace tle::cuda
