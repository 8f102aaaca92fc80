// The target-neutral passes (Passes.td), in the order pipelines run them.
#pragma once

#include "ir/Dialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Pass/Pass.h"

namespace tle::common {

#define GEN_PASS_DECL
#include "transforms/common/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "transforms/common/Passes.h.inc"

}  // namespace tle::common
