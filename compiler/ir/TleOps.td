#ifndef TLE_OPS_TD
#define TLE_OPS_TD

include "TleTypes.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

// ---- program geometry ------------------------------------------------------------------
def Tle_ProgramIdOp : Tle_Op<"program_id", [Pure]> {
  let summary = "index of this program instance along a grid axis";
  let arguments = (ins ConfinedAttr<I32Attr, [IntMinValue<0>, IntMaxValue<2>]>:$axis);
  let results = (outs I32:$result);
  let assemblyFormat = "$axis attr-dict `:` type($result)";
}

def Tle_NumProgramsOp : Tle_Op<"num_programs", [Pure]> {
  let summary = "number of program instances along a grid axis";
  let arguments = (ins ConfinedAttr<I32Attr, [IntMinValue<0>, IntMaxValue<2>]>:$axis);
  let results = (outs I32:$result);
  let assemblyFormat = "$axis attr-dict `:` type($result)";
}

// ---- tensor construction and shape -----------------------------------------------------
def Tle_MakeRangeOp : Tle_Op<"make_range", [Pure]> {
  let summary = "the tensor [start, start+1, ..., end-1]";
  let arguments = (ins I32Attr:$start, I32Attr:$end);
  let results = (outs RankedTensorOf<[I32]>:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def Tle_SplatOp : Tle_Op<"splat", [Pure]> {
  let summary = "a tensor whose every element is the scalar operand";
  let arguments = (ins AnyType:$src);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;  // the splat of a constant is a dense constant
}

def Tle_BroadcastOp : Tle_Op<"broadcast", [Pure]> {
  let summary = "repeat a tensor along its size-1 dimensions";
  let arguments = (ins AnyRankedTensor:$src);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

def Tle_ExpandDimsOp : Tle_Op<"expand_dims", [Pure]> {
  let summary = "insert a size-1 dimension at `axis`";
  let arguments = (ins AnyRankedTensor:$src, I32Attr:$axis);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

def Tle_AxisHintOp : Tle_Op<"axis_hint", [Pure, AllTypesMatch<["src", "result"]>]> {
  let summary = "the programmer's facts about a value's runs (tl.multiple_of, max_contiguous, max_constancy)";
  let description = [{
    One entry per dimension (one for a scalar): `divisibility`, each run's first value is a
    multiple of it; `contiguity` and `constancy`, runs of consecutive or equal values are at
    least this long. An absent array states nothing. The value passes unchanged; the axis
    analysis takes the facts.
  }];
  let arguments = (ins AnyType:$src, OptionalAttr<DenseI64ArrayAttr>:$divisibility, OptionalAttr<DenseI64ArrayAttr>:$contiguity,
                       OptionalAttr<DenseI64ArrayAttr>:$constancy);
  let results = (outs AnyType:$result);
  let assemblyFormat = "$src attr-dict `:` type($result)";
  let hasVerifier = 1;
}

// ---- pointers and memory ---------------------------------------------------------------
def Tle_AddPtrOp : Tle_Op<"addptr", [Pure, AllTypesMatch<["ptr", "result"]>]> {
  let summary = "advance pointers by a number of elements";
  let arguments = (ins Tle_PtrLike:$ptr, Tle_IntLike:$offset);
  let results = (outs Tle_PtrLike:$result);
  let assemblyFormat = "$ptr `,` $offset attr-dict `:` type($ptr) `,` type($offset)";
  let hasVerifier = 1;
}

def Tle_LoadOp : Tle_Op<"load", [AttrSizedOperandSegments, MemoryEffects<[MemRead]>]> {
  let summary = "load through pointers; masked-off lanes take `other` (or are undefined)";
  let arguments = (ins Tle_PtrLike:$ptr, Optional<Tle_BoolLike>:$mask, Optional<AnyType>:$other,
                       OptionalAttr<StrAttr>:$cache, OptionalAttr<StrAttr>:$eviction,
                       UnitAttr:$isVolatile, UnitAttr:$isAsync);
  let results = (outs AnyType:$result);
  let assemblyFormat = [{
    $ptr (`mask` $mask^)? (`other` $other^)? attr-dict `:` type($ptr) (`,` type($mask)^)? (`,` type($other)^)? `->` type($result)
  }];
  let hasVerifier = 1;
}

def Tle_StoreOp : Tle_Op<"store", [MemoryEffects<[MemWrite]>]> {
  let summary = "store through pointers; masked-off lanes are not written";
  let arguments = (ins Tle_PtrLike:$ptr, AnyType:$value, Optional<Tle_BoolLike>:$mask,
                       OptionalAttr<StrAttr>:$cache, OptionalAttr<StrAttr>:$eviction);
  let assemblyFormat = [{
    $ptr `,` $value (`mask` $mask^)? attr-dict `:` type($ptr) `,` type($value) (`,` type($mask)^)?
  }];
  let hasVerifier = 1;
}

// ---- block pointers --------------------------------------------------------------------
def Tle_MakeBlockPtrOp : Tle_Op<"make_block_ptr", [Pure, AttrSizedOperandSegments]> {
  let summary = "a block pointer into the tensor at `base` with the given shape and strides";
  let arguments = (ins Tle_AnyPtr:$base, Variadic<I64>:$shape, Variadic<I64>:$strides, Variadic<I32>:$offsets,
                       DenseI32ArrayAttr:$order);
  let results = (outs Tle_BlockPtr:$result);
  let assemblyFormat = [{
    $base `,` `[` $shape `]` `,` `[` $strides `]` `,` `[` $offsets `]` attr-dict `:` type($base) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Tle_AdvanceOp : Tle_Op<"advance", [Pure, AllTypesMatch<["ptr", "result"]>]> {
  let summary = "move a block pointer by a number of elements per dimension";
  let arguments = (ins Tle_BlockPtr:$ptr, Variadic<I32>:$offsets);
  let results = (outs Tle_BlockPtr:$result);
  let assemblyFormat = "$ptr `,` `[` $offsets `]` attr-dict `:` type($ptr)";
  let hasVerifier = 1;
}

def Tle_LoadBlockOp : Tle_Op<"load_block", [MemoryEffects<[MemRead]>]> {
  let summary = "load the block a block pointer designates; checked dimensions read `padding` out of bounds";
  let arguments = (ins Tle_BlockPtr:$ptr, DenseI32ArrayAttr:$boundaryCheck, OptionalAttr<StrAttr>:$padding,
                       OptionalAttr<StrAttr>:$cache, OptionalAttr<StrAttr>:$eviction, UnitAttr:$isVolatile);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$ptr attr-dict `:` type($ptr) `->` type($result)";
  let hasVerifier = 1;
}

def Tle_StoreBlockOp : Tle_Op<"store_block", [MemoryEffects<[MemWrite]>]> {
  let summary = "store a block through a block pointer; checked dimensions skip out-of-bounds elements";
  let arguments = (ins Tle_BlockPtr:$ptr, AnyRankedTensor:$value, DenseI32ArrayAttr:$boundaryCheck,
                       OptionalAttr<StrAttr>:$cache, OptionalAttr<StrAttr>:$eviction);
  let assemblyFormat = "$ptr `,` $value attr-dict `:` type($ptr) `,` type($value)";
  let hasVerifier = 1;
}

// ---- shape manipulation ---------------------------------------------------------------
def Tle_ReshapeOp : Tle_Op<"reshape", [Pure]> {
  let summary = "the same elements, row-major, in another shape";
  let arguments = (ins AnyRankedTensor:$src);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

def Tle_TransOp : Tle_Op<"trans", [Pure]> {
  let summary = "permute the dimensions: result dim i is operand dim order[i]";
  let arguments = (ins AnyRankedTensor:$src, DenseI32ArrayAttr:$order);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

// ---- on-chip buffers (TLE-Struct on either target; their ops are in tle_gpu and tle_dsa) --
def Tle_AllocOp : Tle_Op<"alloc", [MemoryEffects<[MemAlloc]>]> {
  let summary = "allocate an on-chip buffer for the program's lifetime";
  let results = (outs Tle_Buffer:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
  let hasVerifier = 1;
}








// ---- Triton-distributed signals and symmetric memory ----------------------------------
def Tle_RankOp : Tle_Op<"rank", [Pure]> {
  let summary = "this process's rank among the communicating GPUs";
  let results = (outs I32:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
}

def Tle_NumRanksOp : Tle_Op<"num_ranks", [Pure]> {
  let summary = "the number of communicating ranks";
  let results = (outs I32:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
}

def Tle_WaitOp : Tle_Op<"wait", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "wait until each of the `count` signals from `ptr` equals `value`; returns a token";
  let arguments = (ins Tle_PtrLike:$ptr, I32:$count, AnySignlessInteger:$value, StrAttr:$scope, StrAttr:$semantic);
  let results = (outs I32:$token);
  let assemblyFormat = "$ptr `,` $count `,` $value attr-dict `:` type($ptr) `,` type($value)";
  let hasVerifier = 1;
}

def Tle_NotifyOp : Tle_Op<"notify", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "set or add `signal` at `ptr` on rank `rank`";
  let description = [{
    `scope` "gpu": the signal at `ptr` on this GPU (`rank` is not used, as in
    Triton-distributed); "intra_node": at `ptr`'s symmetric counterpart on rank `rank`,
    through NVLink/PCIe peer memory; "inter_node": the same, over the network when `rank`
    is on another node (a written value: "set" only).
  }];
  let arguments = (ins Tle_PtrLike:$ptr, I32:$rank, AnySignlessInteger:$signal, StrAttr:$sigOp, StrAttr:$scope);
  let assemblyFormat = "$ptr `,` $rank `,` $signal attr-dict `:` type($ptr) `,` type($signal)";
  let hasVerifier = 1;
}

def Tle_ConsumeTokenOp : Tle_Op<"consume_token", [AllTypesMatch<["value", "result"]>, MemoryEffects<[MemRead]>]> {
  let summary = "`value`, ordered after the wait that produced `token`";
  let arguments = (ins AnyType:$value, I32:$token);
  let results = (outs AnyType:$result);
  let assemblyFormat = "$value `,` $token attr-dict `:` type($value)";
}

def Tle_SymmAtOp : Tle_Op<"symm_at", [Pure, AllTypesMatch<["ptr", "result"]>]> {
  let summary = "the address of the same symmetric allocation on rank `rank`";
  let arguments = (ins Tle_PtrLike:$ptr, I32:$rank);
  let results = (outs Tle_PtrLike:$result);
  let assemblyFormat = "$ptr `,` $rank attr-dict `:` type($ptr)";
}

// ---- TLE-Lite tiles and scans ----------------------------------------------------------
def Tle_ExtractTileOp : Tle_Op<"extract_tile", [Pure]> {
  let summary = "the sub-tile of `src` starting at `offsets` (multiples of the result shape)";
  let description = [{
    With `dynamicOffsets` (one i32 element offset per dimension, known at run time), those
    are the offsets and `offsets` is all zeros.
  }];
  let arguments = (ins AnyRankedTensor:$src, Variadic<I32>:$dynamicOffsets, DenseI64ArrayAttr:$offsets);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$src (`[` $dynamicOffsets^ `]`)? attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

def Tle_InsertTileOp : Tle_Op<"insert_tile", [Pure, AllTypesMatch<["src", "result"]>]> {
  let summary = "`src` with the sub-tile at `offsets` replaced by `tile`";
  let description = [{ `dynamicOffsets` as for tle.extract_tile. }];
  let arguments = (ins AnyRankedTensor:$src, AnyRankedTensor:$tile, Variadic<I32>:$dynamicOffsets, DenseI64ArrayAttr:$offsets);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$src `,` $tile (`[` $dynamicOffsets^ `]`)? attr-dict `:` type($src) `,` type($tile)";
  let hasVerifier = 1;
}

def Tle_ExclusiveCumsumOp : Tle_Op<"exclusive_cumsum", [Pure]> {
  let summary = "exclusive prefix sum along `axis` (from the end when `reverse`), and the total";
  let arguments = (ins AnyRankedTensor:$src, I32Attr:$axis, BoolAttr:$reverse);
  let results = (outs AnyRankedTensor:$exclusive, AnyType:$total);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($exclusive) `,` type($total)";
  let hasVerifier = 1;
}

// ---- reductions ------------------------------------------------------------------------
def Tle_ReduceOp : Tle_Op<"reduce", [Pure, SingleBlock]> {
  let summary = "reduce tensors along one axis with a combine region";
  let description = [{
    The region takes 2N scalars (N accumulated values, then N new values) and yields N
    with tle.reduce.return. The results drop `axis` from the operands' shape (a scalar
    for one-dimensional operands).
  }];
  let arguments = (ins Variadic<AnyRankedTensor>:$srcs, I32Attr:$axis);
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region SizedRegion<1>:$combineOp);
  let assemblyFormat = "`(` $srcs `)` attr-dict `:` functional-type($srcs, results) $combineOp";
  let hasVerifier = 1;
}

def Tle_ReduceReturnOp : Tle_Op<"reduce.return", [Pure, Terminator, HasParent<"ReduceOp">]> {
  let summary = "the combined values of a tle.reduce step";
  let arguments = (ins Variadic<AnyType>:$result);
  let assemblyFormat = "$result attr-dict `:` type($result)";
}

// ---- matrix multiply -------------------------------------------------------------------
def Tle_DotOp : Tle_Op<"dot", [Pure, AllTypesMatch<["c", "result"]>]> {
  let summary = "c + a @ b on 2-D (or batched 3-D) tiles";
  let arguments = (ins AnyRankedTensor:$a, AnyRankedTensor:$b, AnyRankedTensor:$c,
                       DefaultValuedStrAttr<StrAttr, "ieee">:$inputPrecision);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$a `,` $b `,` $c attr-dict `:` type($a) `*` type($b) `->` type($result)";
  let hasVerifier = 1;
}

// ---- atomics and synchronization -------------------------------------------------------
def Tle_AtomicRMWOp : Tle_Op<"atomic_rmw", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "atomic read-modify-write; returns the old values";
  let arguments = (ins StrAttr:$kind, Tle_PtrLike:$ptr, AnyType:$val, Optional<Tle_BoolLike>:$mask,
                       StrAttr:$sem, StrAttr:$scope);
  let results = (outs AnyType:$result);
  let assemblyFormat = [{
    $kind $ptr `,` $val (`mask` $mask^)? attr-dict `:` type($ptr) `,` type($val) (`,` type($mask)^)? `->` type($result)
  }];
  let hasVerifier = 1;
}

def Tle_AtomicCASOp : Tle_Op<"atomic_cas", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "atomic compare-and-swap; returns the old values";
  let arguments = (ins Tle_PtrLike:$ptr, AnyType:$cmp, AnyType:$val, StrAttr:$sem, StrAttr:$scope);
  let results = (outs AnyType:$result);
  let assemblyFormat = "$ptr `,` $cmp `,` $val attr-dict `:` type($ptr) `,` type($cmp) `,` type($val) `->` type($result)";
  let hasVerifier = 1;
}


def Tle_BarrierOp : Tle_Op<"barrier", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "synchronize all threads of the program (tl.debug_barrier, or placed by a pass)";
  let description = [{
    A pass that places a barrier says why in `reason`; the printed code carries it as a
    comment.
  }];
  let arguments = (ins OptionalAttr<StrAttr>:$reason);
  let assemblyFormat = "attr-dict";
  let builders = [
    OpBuilder<(ins), [{ build($_builder, $_state, ::mlir::StringAttr()); }]>,
    OpBuilder<(ins "::llvm::StringRef":$why), [{ build($_builder, $_state, $_builder.getStringAttr(why)); }]>,
  ];
}

// ---- scans -------------------------------------------------------------------------------
def Tle_ScanOp : Tle_Op<"scan", [Pure, SingleBlock]> {
  let summary = "inclusive scan of tensors along one axis with a combine region";
  let description = [{
    Like tle.reduce, the region takes 2N scalars (N accumulated values, then N new values)
    and yields N with tle.scan.return. Each result has its operand's type: element i holds
    the combination of elements 0..i along `axis` (i..end when `reverse`).
  }];
  let arguments = (ins Variadic<AnyRankedTensor>:$srcs, I32Attr:$axis, BoolAttr:$reverse);
  let results = (outs Variadic<AnyRankedTensor>:$results);
  let regions = (region SizedRegion<1>:$combineOp);
  let assemblyFormat = "`(` $srcs `)` attr-dict `:` functional-type($srcs, results) $combineOp";
  let hasVerifier = 1;
}

def Tle_ScanReturnOp : Tle_Op<"scan.return", [Pure, Terminator, HasParent<"ScanOp">]> {
  let summary = "the combined values of a tle.scan step";
  let arguments = (ins Variadic<AnyType>:$result);
  let assemblyFormat = "$result attr-dict `:` type($result)";
}

// ---- joining, splitting and gathering ------------------------------------------------------
def Tle_JoinOp : Tle_Op<"join", [Pure, AllTypesMatch<["lhs", "rhs"]>]> {
  let summary = "stack two same-typed tensors along a new minor dimension of size 2";
  let arguments = (ins AnyRankedTensor:$lhs, AnyRankedTensor:$rhs);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($lhs) `->` type($result)";
  let hasVerifier = 1;
}

def Tle_SplitOp : Tle_Op<"split", [Pure, AllTypesMatch<["lhs", "rhs"]>]> {
  let summary = "the two halves of a tensor whose minor dimension has size 2 (the inverse of join)";
  let arguments = (ins AnyRankedTensor:$src);
  let results = (outs AnyType:$lhs, AnyType:$rhs);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($lhs)";
  let hasVerifier = 1;
}

def Tle_GatherOp : Tle_Op<"gather", [Pure]> {
  let summary = "result[i...] = src[i... with index[i...] along `axis`]";
  let arguments = (ins AnyRankedTensor:$src, RankedTensorOf<[AnySignlessInteger]>:$indices, I32Attr:$axis);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$src `[` $indices `]` attr-dict `:` type($src) `,` type($indices) `->` type($result)";
  let hasVerifier = 1;
}

def Tle_SortOp : Tle_Op<"sort", [Pure, AllTypesMatch<["src", "result"]>]> {
  let summary = "`src` sorted along its last dimension (tl.sort; tl.topk sorts descending)";
  let description = [{ `isUnsigned` compares integers as unsigned (integer types are signless). }];
  let arguments = (ins RankedTensorOf<[AnyInteger, AnyFloat]>:$src, BoolAttr:$descending, BoolAttr:$isUnsigned);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src)";
}

def Tle_HistogramOp : Tle_Op<"histogram", [Pure]> {
  let summary = "counts of the values 0 .. bins-1 in a 1-D integer tensor (tl.histogram)";
  let description = [{
    The result has one i32 count per bin (its length is the number of bins). Values outside
    [0, bins) and elements where `mask` is false are not counted.
  }];
  let arguments = (ins RankedTensorOf<[AnySignlessInteger]>:$src, Optional<RankedTensorOf<[I1]>>:$mask);
  let results = (outs RankedTensorOf<[I32]>:$result);
  let assemblyFormat = "$src (`mask` $mask^)? attr-dict `:` type($src) (`,` type($mask)^)? `->` type($result)";
  let hasVerifier = 1;
}

// ---- debugging ------------------------------------------------------------------------------
def Tle_PrintOp : Tle_Op<"print", [MemoryEffects<[MemWrite]>]> {
  let summary = "print `prefix` and the operands from the device (tl.device_print)";
  let description = [{
    `isSigned` has one entry per operand (1 for signed integers), since integer types are
    signless; `hex` prints integers in hexadecimal.
  }];
  let arguments = (ins StrAttr:$prefix, UnitAttr:$hex, Variadic<AnyType>:$args, DenseI32ArrayAttr:$isSigned);
  let assemblyFormat = "$prefix (`(` $args^ `:` type($args) `)`)? attr-dict";
  let hasVerifier = 1;
}

def Tle_AssertOp : Tle_Op<"assert", [MemoryEffects<[MemWrite]>]> {
  let summary = "abort the kernel with `message` where `condition` is false (tl.device_assert)";
  let arguments = (ins Tle_BoolLike:$condition, StrAttr:$message);
  let assemblyFormat = "$condition `,` $message attr-dict `:` type($condition)";
}

// ---- tensor descriptors ---------------------------------------------------------------------
def Tle_MakeTensorDescOp : Tle_Op<"make_tensor_desc", [Pure, AttrSizedOperandSegments]> {
  let summary = "a descriptor of the tensor at `base` with the given shape and strides";
  let arguments = (ins Tle_AnyPtr:$base, Variadic<I32>:$shape, Variadic<I64>:$strides,
                       DefaultValuedStrAttr<StrAttr, "zero">:$padding);
  let results = (outs Tle_TensorDesc:$result);
  let assemblyFormat = "$base `,` `[` $shape `]` `,` `[` $strides `]` attr-dict `:` type($base) `->` type($result)";
  let hasVerifier = 1;
}

def Tle_DescLoadOp : Tle_Op<"desc_load", [MemoryEffects<[MemRead]>]> {
  let summary = "load the block at element `offsets` through a descriptor (out of bounds reads zero)";
  let arguments = (ins Tle_TensorDesc:$desc, Variadic<I32>:$offsets);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$desc `[` $offsets `]` attr-dict `:` type($desc) `->` type($result)";
  let hasVerifier = 1;
}

def Tle_DescStoreOp : Tle_Op<"desc_store", [MemoryEffects<[MemWrite]>]> {
  let summary = "store a block at element `offsets` through a descriptor (out of bounds is skipped)";
  let arguments = (ins Tle_TensorDesc:$desc, Variadic<I32>:$offsets, AnyRankedTensor:$value);
  let assemblyFormat = "$desc `[` $offsets `]` `,` $value attr-dict `:` type($desc) `,` type($value)";
  let hasVerifier = 1;
}

def Tle_DescriptorBlockOp : Tle_Op<"descriptor_block", [Pure, AttrSizedOperandSegments, AllTypesMatch<["ptrs", "result"]>]> {
  let summary = "`ptrs`, known to address the block at `offsets` of the tensor (base, shape, strides)";
  let description = [{
    What tle-lower-block-pointers leaves for a descriptor load when asked to
    (mark-descriptor-blocks): the load's pointers stay as computed, and this op tells a
    target that can copy a whole block of a tensor (CUDA's TMA) which block they are. The
    value is `ptrs` itself; a target that has no use for it drops the op. `shape` and
    `strides` are in elements, one per dimension (the last stride is 1).
  }];
  let arguments = (ins RankedTensorOf<[Tle_AnyPtr]>:$ptrs, Tle_AnyPtr:$base, Variadic<I64>:$shape, Variadic<I64>:$strides,
                       Variadic<I32>:$offsets);
  let results = (outs RankedTensorOf<[Tle_AnyPtr]>:$result);
  let assemblyFormat = "$ptrs `of` $base `[` $shape `]` `strides` `[` $strides `]` `at` `[` $offsets `]` attr-dict `:` type($ptrs) `,` type($base)";
  let hasVerifier = 1;
}

// ---- TLE distributed: remote access and barriers ----------------------------------------
def Tle_RemoteOp : Tle_Op<"remote", [Pure]> {
  let summary = "the same buffer or pointers on another shard (tle.remote)";
  let description = [{
    space "cluster": a shared-memory buffer becomes a dsmem buffer (tle_gpu.local_ptr gives
    dsmem pointers into it), and smem pointers become the dsmem pointers of block `shard` of
    the cluster.
    space "device": global pointers of a symmetric allocation become the same allocation on
    rank `shard`.
  }];
  let arguments = (ins AnyType:$src, I32:$shard, StrAttr:$space);
  let results = (outs AnyType:$result);
  let assemblyFormat = "$src `,` $shard attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

def Tle_DistributedBarrierOp : Tle_Op<"distributed_barrier", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "synchronize the shards of a (sub-)mesh";
  let description = [{
    `kind` is "cluster" (the blocks of a thread-block cluster), "submesh" (blocks of the
    cluster: `shape` is the cluster's axes, and the blocks whose coordinates differ only
    along `axes` synchronize with each other), "grid" (every block of the launch: a
    cooperative launch; `shape` is the launch mesh), "device" (every block on every GPU of
    the mesh), "node" (every block on the GPUs of each node, among themselves), "rail" (every
    block on the GPUs with the same device coordinates, one per node) or "node_group" (`shape`
    is a node's device axes; the GPUs of a node that differ only along the adjacent `axes`).
    `axes` index `shape`.
    `reason` says why a compiler-placed barrier is there.
  }];
  let arguments = (ins StrAttr:$kind, DenseI64ArrayAttr:$shape, DenseI64ArrayAttr:$axes, OptionalAttr<StrAttr>:$reason);
  let builders = [
    OpBuilder<(ins "::llvm::StringRef":$kind, "::llvm::ArrayRef<int64_t>":$shape, "::llvm::ArrayRef<int64_t>":$axes), [{
      build($_builder, $_state, $_builder.getStringAttr(kind), $_builder.getDenseI64ArrayAttr(shape),
            $_builder.getDenseI64ArrayAttr(axes), ::mlir::StringAttr());
    }]>,
  ];
  let assemblyFormat = "$kind attr-dict";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    // Synchronizes GPUs (through the distributed context), not only blocks of one GPU.
    bool acrossGpus() { return llvm::is_contained({"device", "node", "rail", "node_group"}, getKind()); }
  }];
}

// ---- TLE-Raw ---------------------------------------------------------------------------------
def Tle_RawCallOp : Tle_Op<"raw_call", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "call a native (CUDA or AscendC) function with the program's threads";
  let description = [{
    `code` is the function's source in `language`; `callee` its name. It runs on `threads`
    threads (one entry per thread dimension) and synchronizes at most within `syncScope`
    ("thread", "warp", "block" or "cluster"). `spaces` says where each argument is passed
    ("register", "shared", "global"; "" for the default). The results are the block
    arguments after the call, in order: the native code may write them.
  }];
  let arguments = (ins Variadic<AnyType>:$args, StrAttr:$callee, StrAttr:$language, StrAttr:$code,
                       DenseI64ArrayAttr:$threads, StrAttr:$syncScope, StrArrayAttr:$spaces);
  let results = (outs Variadic<AnyRankedTensor>:$results);
  let assemblyFormat = "$callee `(` $args `)` attr-dict `:` functional-type($args, results)";
  let hasVerifier = 1;
}





// ---- TLE-Lite pipes ---------------------------------------------------------------------------
def Tle_BufferSlotOp : Tle_Op<"buffer_slot", [Pure]> {
  let summary = "slot `stage` of a shared-memory buffer: a view dropping its leading dimension";
  let arguments = (ins Tle_Buffer:$buffer, I32:$stage);
  let results = (outs Tle_Buffer:$result);
  let assemblyFormat = "$buffer `[` $stage `]` attr-dict `:` type($buffer) `->` type($result)";
  let hasVerifier = 1;
}

def Tle_PipeCreateOp : Tle_Op<"pipe_create", [MemoryEffects<[MemAlloc]>]> {
  let summary = "a pipe of `capacity` slots over the payload buffers (leading dimension = capacity)";
  let arguments = (ins Variadic<Tle_Buffer>:$fields, I32Attr:$capacity, StrArrayAttr:$fieldNames, StrArrayAttr:$readers,
                       StrAttr:$scope, OptionalAttr<StrAttr>:$name, UnitAttr:$oneShot);
  let results = (outs Tle_PipeType:$result);
  let assemblyFormat = "`(` $fields `)` attr-dict `:` type($fields)";
  let hasVerifier = 1;
}

class Tle_PipeStepOp<string mnemonic, string what> : Tle_Op<mnemonic, [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = what # " (slot = iteration % capacity, phase = iteration / capacity % 2)";
  let arguments = (ins Tle_PipeType:$pipe, I32:$iteration, StrAttr:$reader);
  let assemblyFormat = "$pipe `,` $iteration attr-dict";
}

def Tle_PipeAcquireOp : Tle_PipeStepOp<"pipe_acquire", "the writer waits until a slot is free">;
def Tle_PipeCommitOp : Tle_PipeStepOp<"pipe_commit", "the writer publishes a filled slot">;
def Tle_PipeCloseOp : Tle_PipeStepOp<"pipe_close", "the writer marks the pipe closed at this iteration">;
def Tle_PipeReleaseOp : Tle_PipeStepOp<"pipe_release", "a reader gives a slot back">;

def Tle_PipeWaitOp : Tle_Op<"pipe_wait", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "a reader waits for a filled slot; true when the pipe was closed instead";
  let arguments = (ins Tle_PipeType:$pipe, I32:$iteration, StrAttr:$reader);
  let results = (outs I1:$closed);
  let assemblyFormat = "$pipe `,` $iteration attr-dict";
}

#endif
