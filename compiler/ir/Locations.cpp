#include "ir/Locations.h"

#include "mlir/IR/BuiltinAttributes.h"

namespace tle::ir {

std::optional<mlir::FileLineColLoc> fileLocation(mlir::Location loc) {
  if (auto f = mlir::dyn_cast<mlir::FileLineColLoc>(loc)) return f;
  if (auto n = mlir::dyn_cast<mlir::NameLoc>(loc)) return fileLocation(n.getChildLoc());
  if (auto c = mlir::dyn_cast<mlir::CallSiteLoc>(loc)) return fileLocation(c.getCallee());
  if (auto fused = mlir::dyn_cast<mlir::FusedLoc>(loc))
    for (mlir::Location l : fused.getLocations())
      if (auto f = fileLocation(l)) return f;
  return std::nullopt;
}

}  // namespace tle::ir
