#include "ir/IrModuleDetail.h"

#include "ir/Dialect.h"
#include "ir/DsaDialect.h"
#include "ir/GpuDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/Support/raw_ostream.h"

namespace tle {

void registerTileDialects(mlir::DialectRegistry &registry) {
  registry.insert<ir::TleDialect, gpu::TleGpuDialect, dsa::TleDsaDialect, mlir::arith::ArithDialect, mlir::func::FuncDialect,
                  mlir::math::MathDialect, mlir::scf::SCFDialect>();
}

IrModule::IrModule() {
  mlir::DialectRegistry registry;
  registerTileDialects(registry);
  context.appendDialectRegistry(registry);
  context.loadAllAvailableDialects();
}

void IrModuleDeleter::operator()(IrModule *module) const { delete module; }

std::string printIr(const IrModule &module) {
  std::string out;
  llvm::raw_string_ostream os(out);
  mlir::ModuleOp op = module.op.get();
  op.print(os);
  return out;
}

}  // namespace tle
