// The tile IR between stages, as the driver sees it: an opaque module of kernels that sema
// produces, a target's pipeline lowers and a printer prints. Plain C++; the MLIR side is in
// ir/IrModuleDetail.h.
#pragma once

#include <memory>
#include <string>

namespace tle {

struct IrModule;
struct IrModuleDeleter {
  void operator()(IrModule *module) const;
};
using IrModulePtr = std::unique_ptr<IrModule, IrModuleDeleter>;

// The module as MLIR text (--emit=mlir).
std::string printIr(const IrModule &module);

}  // namespace tle
