// The `tle_dsa` dialect: the DSA (Ascend) level of a tile program: the TLE-Struct DSA ops a
// kernel writes (tle.dsa.*) on buffers in UB, L1 and the cube's L0A/L0B/L0C.
#ifndef TLE_DSA_OPS_TD
#define TLE_DSA_OPS_TD

include "TleTypes.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def TleDsa_Dialect : Dialect {
  let name = "tle_dsa";
  let cppNamespace = "::tle::dsa";
  let summary = "DSA-level (Ascend) ops of tile programs";
  let dependentDialects = ["::tle::ir::TleDialect"];
}

class TleDsa_Op<string mnemonic, list<Trait> traits = []> : Op<TleDsa_Dialect, mnemonic, traits>;

def TleDsa_CopyOp : TleDsa_Op<"copy", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "copy the leading `sizes` part of a block between global memory and a local buffer";
  let arguments = (ins AnyType:$src, AnyType:$dst, Variadic<I32>:$sizes);
  let assemblyFormat = "$src `,` $dst `,` `[` $sizes `]` attr-dict `:` type($src) `,` type($dst)";
  let hasVerifier = 1;
}

def TleDsa_ElementwiseOp : TleDsa_Op<"elementwise", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "out = lhs <kind> rhs on unified-buffer (UB) buffers, element-wise";
  let arguments = (ins StrAttr:$kind, Tle_Buffer:$lhs, Tle_Buffer:$rhs, Tle_Buffer:$out);
  let assemblyFormat = "$kind $lhs `,` $rhs `,` $out attr-dict `:` type($lhs) `,` type($rhs) `,` type($out)";
  let hasVerifier = 1;
}

def TleDsa_ToTensorOp : TleDsa_Op<"to_tensor", [MemoryEffects<[MemRead]>]> {
  let summary = "view a local buffer as a block";
  let arguments = (ins Tle_Buffer:$buffer, UnitAttr:$writable);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$buffer attr-dict `:` type($buffer) `->` type($result)";
  let hasVerifier = 1;
}

def TleDsa_ToBufferOp : TleDsa_Op<"to_buffer", [MemoryEffects<[MemAlloc, MemWrite]>]> {
  let summary = "a new local buffer holding a block";
  let arguments = (ins AnyRankedTensor:$src);
  let results = (outs Tle_Buffer:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

def TleDsa_MatmulOp : TleDsa_Op<"matmul", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "c (L0C) = a (L0A) @ b (L0B), plus c unless `init`: the cube unit's Mmad";
  let arguments = (ins Tle_Buffer:$a, Tle_Buffer:$b, Tle_Buffer:$c, UnitAttr:$init);
  let assemblyFormat = "$a `,` $b `,` $c attr-dict `:` type($a) `,` type($b) `,` type($c)";
  let hasVerifier = 1;
}

def TleDsa_SubviewOp : TleDsa_Op<"subview", [Pure]> {
  let summary = "a strided window of a local buffer (same memory, no copy)";
  let arguments = (ins Tle_Buffer:$src, Variadic<I32>:$offsets, DenseI64ArrayAttr:$sizes, DenseI64ArrayAttr:$strides);
  let results = (outs Tle_Buffer:$result);
  let assemblyFormat = "$src `[` $offsets `]` attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

#endif
