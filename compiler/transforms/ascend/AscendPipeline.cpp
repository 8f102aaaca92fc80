// The order of the Ascend passes.
#include "transforms/ascend/Passes.h"
#include "transforms/common/Passes.h"

#include "mlir/Transforms/Passes.h"

namespace tle::ascend {

void buildAscendPipeline(mlir::OpPassManager &pm) {
  pm.addNestedPass<mlir::func::FuncOp>(createDropAxisHints());
  pm.addNestedPass<mlir::func::FuncOp>(common::createLowerBlockPointers());
  pm.addPass(mlir::createCanonicalizerPass());
  pm.addNestedPass<mlir::func::FuncOp>(createScalarizeCarriedPointers());
  pm.addNestedPass<mlir::func::FuncOp>(createSplitTiles());
  pm.addNestedPass<mlir::func::FuncOp>(createBufferizeTiles());
  pm.addNestedPass<mlir::func::FuncOp>(createResolveGlobalAccess());
  // The index arithmetic the windows replaced is dead now; fold the scalars they computed.
  pm.addPass(mlir::createCanonicalizerPass());
  pm.addPass(mlir::createCSEPass());
  pm.addNestedPass<mlir::func::FuncOp>(createPlanLocalMemory());
  pm.addNestedPass<mlir::func::FuncOp>(createInsertPipeSync());
}

}  // namespace tle::ascend
