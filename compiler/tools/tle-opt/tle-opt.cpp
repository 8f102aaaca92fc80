// tle-opt: runs tlec's passes and pipelines on tile-IR files, for lit tests of the IR and
// of each pass alone.
#include "ir/IrModuleDetail.h"
#include "transforms/PipelineRegistry.h"

#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  tle::registerTileDialects(registry);
  mlir::registerCanonicalizerPass();
  mlir::registerCSEPass();
  tle::registerPassesAndPipelines();
  return mlir::asMainReturnCode(mlir::MlirOptMain(argc, argv, "tle optimizer driver\n", registry));
}
