// The `tle` dialect: a target-independent tile program. Values are scalars, pointers
// and statically shaped tensors (builtin `tensor<...>`) of them; no thread, warp or
// layout decision is made at this level.
#ifndef TLE_BASE_TD
#define TLE_BASE_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"

def Tle_Dialect : Dialect {
  let name = "tle";
  let cppNamespace = "::tle::ir";
  let summary = "Tile programs compiled from .tle kernels";
  let useDefaultTypePrinterParser = 1;
  let hasConstantMaterializer = 1;  // folds produce arith.constant
  // What sema records on a kernel and its parameters; passes read these through
  // ir/KernelSettings.h, which owns their defaults.
  let discardableAttrs = (ins
    "::mlir::UnitAttr":$kernel,            // a __global__ function (not a helper)
    "::mlir::IntegerAttr":$num_warps,      // warps per program (--num-warps)
    "::mlir::IntegerAttr":$num_stages,     // software-pipelining depth (--num-stages, tl.range)
    "::mlir::StringAttr":$target,          // "cuda:sm_90a" (--target)
    "::mlir::IntegerAttr":$cluster_size,   // blocks per thread-block cluster (a block_cluster mesh level)
    "::mlir::IntegerAttr":$mesh_ranks,     // GPUs of the launch mesh (its node and device levels)
    "::mlir::IntegerAttr":$mesh_nodes,     // nodes of the launch mesh (its node levels; absent: 1)
    "::mlir::StringAttr":$dispatch,        // the launcher that picks among this kernel's variants
    "::mlir::IntegerAttr":$variant,        // its place among them: 0 generic, 1.. tried first
    "::mlir::StringAttr":$name,            // a parameter's name in the source
    "::mlir::IntegerAttr":$divisibility,   // a parameter's --signature hint (16)
    "::mlir::UnitAttr":$readonly,          // a pointer parameter declared const (*k...)
    "::mlir::UnitAttr":$unsigned,          // an unsigned integer parameter
    "::mlir::IntegerAttr":$unroll_factor      // tl.range(loop_unroll_factor=)
  );
}

class Tle_Op<string mnemonic, list<Trait> traits = []> : Op<Tle_Dialect, mnemonic, traits>;

#endif
