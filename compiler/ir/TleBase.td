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
  let useDefaultAttributePrinterParser = 1;
  let hasConstantMaterializer = 1;  // folds produce arith.constant
}

class Tle_Op<string mnemonic, list<Trait> traits = []> : Op<Tle_Dialect, mnemonic, traits>;

#endif
