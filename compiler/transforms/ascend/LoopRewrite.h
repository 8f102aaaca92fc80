// Changing how many values a loop carries: MLIR fixes the number of a for loop's iter args at
// creation, so a pass that drops some (tile buffers that live outside the loop) builds a new
// loop around the old body. A value's type alone changes in place (tle-ascend-scalarize-
// carried-pointers).
#pragma once

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"

namespace tle::ascend {

// A new loop before `loop`, over the same bounds and with its attributes, carrying `inits`,
// holding `loop`'s body (its yield included) and its induction variable. The caller rewires
// the old iter args and results, then erases `loop`.
inline mlir::scf::ForOp rehomeLoopBody(mlir::scf::ForOp loop, mlir::ValueRange inits) {
  mlir::OpBuilder b(loop);
  auto rebuilt = b.create<mlir::scf::ForOp>(loop.getLoc(), loop.getLowerBound(), loop.getUpperBound(), loop.getStep(), inits);
  rebuilt->setAttrs(loop->getAttrs());
  mlir::Block *body = rebuilt.getBody();
  if (!body->empty()) body->back().erase();  // the builder's yield; the old body's replaces it
  body->getOperations().splice(body->end(), loop.getBody()->getOperations());
  loop.getInductionVar().replaceAllUsesWith(rebuilt.getInductionVar());
  return rebuilt;
}

}  // namespace tle::ascend
