// The order of the CUDA passes.
#include "transforms/common/Passes.h"
#include "transforms/cuda/Passes.h"

#include "mlir/Transforms/Passes.h"

namespace tle::cuda {

void buildCudaPipeline(mlir::OpPassManager &pm) {
  // Descriptor loads keep the block they read, for tle-plan-tma-copies.
  pm.addNestedPass<mlir::func::FuncOp>(common::createLowerBlockPointers({/*markDescriptorBlocks=*/true}));
  // Fold what the rewrite exposed (offset arithmetic on constants) before analysis.
  pm.addPass(mlir::createCanonicalizerPass());
  pm.addNestedPass<mlir::func::FuncOp>(common::createSplitHalvesAsTiles());
  pm.addNestedPass<mlir::func::FuncOp>(createIsolatePartitions());
  pm.addNestedPass<mlir::func::FuncOp>(createTransposeLoads());
  pm.addNestedPass<mlir::func::FuncOp>(createPlanAsyncCopies());
  pm.addNestedPass<mlir::func::FuncOp>(createPlanTmaCopies());
  pm.addNestedPass<mlir::func::FuncOp>(createCarryCopyAddresses());
  pm.addNestedPass<mlir::func::FuncOp>(createPrefetchLoads());
  pm.addNestedPass<mlir::func::FuncOp>(common::createCloneIndexing());
  pm.addNestedPass<mlir::func::FuncOp>(createAssignLayouts());
  // Copies that ended up with the same layout are one value again.
  pm.addPass(mlir::createCSEPass());
  pm.addNestedPass<mlir::func::FuncOp>(createCarryPointerBases());
  pm.addNestedPass<mlir::func::FuncOp>(createRangeOffsetsAtUse());
  // CSE may have merged a worker's clone with its original outside.
  pm.addNestedPass<mlir::func::FuncOp>(createIsolatePartitions());
  pm.addNestedPass<mlir::func::FuncOp>(createLowerAsyncCopies());
  pm.addNestedPass<mlir::func::FuncOp>(createCopyDotOperands());
  pm.addNestedPass<mlir::func::FuncOp>(createReadBufferOperands());
  pm.addNestedPass<mlir::func::FuncOp>(createAsyncSlotCopies());
  pm.addNestedPass<mlir::func::FuncOp>(createAffineCopyAddresses());
  pm.addNestedPass<mlir::func::FuncOp>(createKeepDotsInFlight());
  pm.addNestedPass<mlir::func::FuncOp>(createLowerTmaCopies());
  pm.addNestedPass<mlir::func::FuncOp>(createLowerAsyncLoads());
  pm.addNestedPass<mlir::func::FuncOp>(createStageDotOperands());
  pm.addNestedPass<mlir::func::FuncOp>(createUniformControlLoads());
  pm.addNestedPass<mlir::func::FuncOp>(createBlockVotes());
  // Last of the passes that set layouts, so that each run fits the layout printed.
  pm.addNestedPass<mlir::func::FuncOp>(createMarkUniformRuns());
  pm.addNestedPass<mlir::func::FuncOp>(createPlanSharedMemory());
  pm.addNestedPass<mlir::func::FuncOp>(createBoundRegisters());
  pm.addNestedPass<mlir::func::FuncOp>(createInsertBarriers());
  pm.addNestedPass<mlir::func::FuncOp>(createInsertClusterBarriers());
  // Once the code is final: a variant that compiled to its successor's code goes.
  pm.addPass(common::createDropEqualVariants());
}

}  // namespace tle::cuda
