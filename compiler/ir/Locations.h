// Where in a .tle file an op came from: sema records names (NameLoc) and inlined calls
// (CallSiteLoc) around file positions; this finds the position.
#pragma once

#include "mlir/IR/Location.h"

#include <optional>

namespace tle::ir {

// The file position `loc` ends in (through names, call sites and fusions).
std::optional<mlir::FileLineColLoc> fileLocation(mlir::Location loc);

}  // namespace tle::ir
