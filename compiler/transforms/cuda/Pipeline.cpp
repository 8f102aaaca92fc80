// The order of the CUDA passes, and their registration for tle-opt.
#include "transforms/cuda/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

namespace tle::cuda {

void registerCudaPasses() {
  mlir::registerPass([] { return createCloneIndexingPass(); });
  mlir::registerPass([] { return createAssignLayoutsPass(); });
}

void buildCudaPipeline(mlir::OpPassManager &pm) {
  pm.addNestedPass<mlir::func::FuncOp>(createCloneIndexingPass());
  pm.addNestedPass<mlir::func::FuncOp>(createAssignLayoutsPass());
  // Copies that ended up with the same layout are one value again.
  pm.addPass(mlir::createCSEPass());
}

}  // namespace tle::cuda
