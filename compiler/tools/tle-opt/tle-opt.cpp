// tle-opt: runs MLIR passes on `tle` dialect files, for lit tests of the IR and passes.
#include "ir/Dialect.h"
#include "transforms/cuda/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  registry.insert<tle::ir::TleDialect, mlir::arith::ArithDialect, mlir::func::FuncDialect, mlir::math::MathDialect,
                  mlir::scf::SCFDialect>();
  mlir::registerCanonicalizerPass();
  mlir::registerCSEPass();
  tle::cuda::registerCudaPasses();
  return mlir::asMainReturnCode(mlir::MlirOptMain(argc, argv, "tle optimizer driver\n", registry));
}
