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
  // What the Ascend passes hand to each other and to the printer.
  let discardableAttrs = (ins
    "::mlir::IntegerAttr":$offset,          // a buffer's byte offset in its memory (tle-ascend-plan-memory)
    "::mlir::DictionaryAttr":$memory_bytes  // a kernel's bytes per on-chip memory, by name (tle-ascend-plan-memory)
  );
}

class TleDsa_Op<string mnemonic, list<Trait> traits = []> : Op<TleDsa_Dialect, mnemonic, traits>;

def TleDsa_CopyOp : TleDsa_Op<"copy", [MemoryEffects<[MemRead, MemWrite]>, AttrSizedOperandSegments]> {
  let summary = "copy the leading `sizes` part of a block between global memory and a local buffer";
  let description = [{
    Into a local buffer, the elements outside `sizes` keep what the buffer held, except that
    with `pad` the rest of each copied row's last 32-byte unit gets `pad` (DataCopyPad's
    padding): a masked tl.load with `other` fills the buffer with `other` first and pads.
  }];
  let arguments = (ins AnyType:$src, AnyType:$dst, Variadic<I32>:$sizes, Optional<AnyType>:$pad);
  let assemblyFormat = "$src `,` $dst `,` `[` $sizes `]` (`pad` $pad^ `:` type($pad))? attr-dict `:` type($src) `,` type($dst)";
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

def TleDsa_MatmulOp : TleDsa_Op<"matmul", [MemoryEffects<[MemRead, MemWrite]>, AttrSizedOperandSegments]> {
  let summary = "c (L0C) = a (L0A) @ b (L0B), plus c unless `init`: the cube unit's Mmad";
  let description = [{
    With `k`, only the first k columns of a and rows of b take part (a run-time K tail); with
    `fresh`, whether c starts from zero is decided at run time (the first step of a loop).
  }];
  let arguments = (ins Tle_Buffer:$a, Tle_Buffer:$b, Tle_Buffer:$c, UnitAttr:$init, Optional<I32>:$k, Optional<I1>:$fresh);
  let assemblyFormat = [{
    $a `,` $b `,` $c (`k` $k^)? (`fresh` $fresh^)? attr-dict `:` type($a) `,` type($b) `,` type($c)
  }];
  let hasVerifier = 1;
}

def TleDsa_SubviewOp : TleDsa_Op<"subview", [Pure]> {
  let summary = "a strided window of a local buffer (same memory, no copy)";
  let arguments = (ins Tle_Buffer:$src, Variadic<I32>:$offsets, DenseI64ArrayAttr:$sizes, DenseI64ArrayAttr:$strides);
  let results = (outs Tle_Buffer:$result);
  let assemblyFormat = "$src `[` $offsets `]` attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

// ---- what the Ascend pipeline lowers tile programs to (transforms/ascend) --------------

def TleDsa_CopyInOp : TleDsa_Op<"copy_in", [MemoryEffects<[MemRead, MemWrite]>, AttrSizedOperandSegments]> {
  let summary = "global -> UB: an extents[0] x extents[1] window of a row-major tensor (pipe MTE2)";
  let description = [{
    Element (i, j) of the window is base[offset + i * row_stride + j]; it lands at (i, j) of
    `dst`, whose rows are the buffer's full width. Elements outside the extents are not
    written, except the padding of each row's last 32-byte unit, which gets `pad` when given.
    A 1-D window has one extent and no row stride. With `rows_wrap M from s`, row i of the
    window is row (s + i) % M of the tensor (Triton's `(s + tl.arange(0, B)) % M`), likewise
    for columns; the window's offset then excludes those dimensions.
  }];
  let arguments = (ins Tle_Buffer:$dst, Tle_AnyPtr:$base, AnySignlessInteger:$offset, Variadic<AnySignlessInteger>:$row_stride,
                   Variadic<I32>:$extents, Optional<AnyType>:$pad, Optional<I32>:$row_wrap, Optional<I32>:$row_start,
                   Optional<I32>:$column_wrap, Optional<I32>:$column_start);
  let assemblyFormat = [{
    $base `[` $offset (`,` `row_stride` $row_stride^ `:` type($row_stride))? `]` `->` $dst `extents` `[` $extents `]`
    (`pad` $pad^ `:` type($pad))? (`rows_wrap` $row_wrap^ `from` $row_start)? (`columns_wrap` $column_wrap^ `from` $column_start)?
    attr-dict `:` type($base) `,` type($offset) `,` type($dst)
  }];
  let hasVerifier = 1;
}

def TleDsa_CopyOutOp : TleDsa_Op<"copy_out", [MemoryEffects<[MemRead, MemWrite]>, AttrSizedOperandSegments]> {
  let summary = "UB -> global: the inverse of copy_in, writing exactly the window (pipe MTE3)";
  let arguments = (ins Tle_Buffer:$src, Tle_AnyPtr:$base, AnySignlessInteger:$offset, Variadic<AnySignlessInteger>:$row_stride,
                   Variadic<I32>:$extents);
  let assemblyFormat = [{
    $src `->` $base `[` $offset (`,` `row_stride` $row_stride^ `:` type($row_stride))? `]` `extents` `[` $extents `]`
    attr-dict `:` type($src) `,` type($base) `,` type($offset)
  }];
  let hasVerifier = 1;
}

def TleDsa_VectorOp : TleDsa_Op<"vector", [MemoryEffects<[MemRead, MemWrite]>, AttrSizedOperandSegments]> {
  let summary = "one vector-unit instruction over whole UB buffers (pipe V)";
  let description = [{
    `kind` names the AscendC call: binary (add sub mul div max min and or) on two buffers;
    with a scalar (adds muls maxs mins) on a buffer and a scalar; unary (exp ln abs sqrt rsqrt
    reciprocal relu); cast; duplicate (a scalar into every element); index (element i is the
    scalar plus i: CreateVecIndex); reduce_sum, reduce_max,
    reduce_min (the whole input into element 0 of `out`, using the buffer `scratch`);
    reduce_rows_* (element r of `out` is row r's reduction, using `scratch`) and
    reduce_columns_* (element c is column c's) of a 2-D input; compare_<mode> (two buffers)
    and compares_<mode> (a buffer and a scalar) write an i8 bit mask, one bit per element,
    with mode lt gt eq le ge ne; select (mask, a, b buffers) and selects (mask, a buffer, b
    scalar) take a where the bit is set; scan_<sum|prod|max_num|min_num|max|min> with
    `_columns` (along axis 0 of a 2-D input) and `_reverse` is an inclusive scan, run by the
    scalar unit between flags (tle/ascendc/scan.h). With
    `count`, only the first `count` elements (a run-time number) are computed.
  }];
  let arguments = (ins StrAttr:$kind, Variadic<AnyType>:$inputs, Tle_Buffer:$out, Optional<Tle_Buffer>:$scratch,
                   Optional<I32>:$count);
  let assemblyFormat = [{
    $kind `(` $inputs `)` `->` $out (`scratch` $scratch^ `:` type($scratch))? (`count` $count^)? attr-dict `:` functional-type($inputs, $out)
  }];
  let hasVerifier = 1;
}

def TleDsa_ReadScalarOp : TleDsa_Op<"read_scalar", [MemoryEffects<[MemRead]>]> {
  let summary = "element 0 of a UB buffer as a scalar (pipe S)";
  let arguments = (ins Tle_Buffer:$buffer);
  let results = (outs AnyType:$result);
  let assemblyFormat = "$buffer attr-dict `:` type($buffer) `->` type($result)";
  let hasVerifier = 1;
}

def TleDsa_RawCallOp : TleDsa_Op<"raw_call", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "call a TLE-Raw AscendC function on UB buffers, scalars and global pointers";
  let description = [{
    `code` is the function's AscendC source; `callee` its name. Tiles are passed as their UB
    buffers (LocalTensor), which the function may write: that is how it returns tiles.
  }];
  let arguments = (ins Variadic<AnyType>:$args, StrAttr:$callee, StrAttr:$code);
  let assemblyFormat = "$callee `(` $args `)` attr-dict `:` type($args)";
}

// Pipe names: S, V, M, MTE1, MTE2, MTE3, FIX (ALL for pipe_barrier).
def TleDsa_SetFlagOp : TleDsa_Op<"set_flag", [MemoryEffects<[MemWrite]>]> {
  let summary = "pipe `from` signals event `id` once its issued work is done (SetFlag<FROM_TO>)";
  let arguments = (ins StrAttr:$from, StrAttr:$to, I32Attr:$id);
  let assemblyFormat = "$from `->` $to `[` $id `]` attr-dict";
}

def TleDsa_WaitFlagOp : TleDsa_Op<"wait_flag", [MemoryEffects<[MemWrite]>]> {
  let summary = "pipe `to` waits for event `id` from pipe `from` (WaitFlag<FROM_TO>)";
  let arguments = (ins StrAttr:$from, StrAttr:$to, I32Attr:$id);
  let assemblyFormat = "$from `->` $to `[` $id `]` attr-dict";
}

def TleDsa_PipeBarrierOp : TleDsa_Op<"pipe_barrier", [MemoryEffects<[MemWrite]>]> {
  let summary = "later work of `pipe` waits for its earlier work (ALL: every pipe for every pipe)";
  let arguments = (ins StrAttr:$pipe);
  let assemblyFormat = "$pipe attr-dict";
}

#endif
