#ifndef TLE_GPU_OPS_TD
#define TLE_GPU_OPS_TD

include "GpuAttrs.td"
include "TleTypes.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

// ---- layouts (tle-assign-layouts) -------------------------------------------------------
def TleGpu_ConvertLayoutOp : TleGpu_Op<"convert_layout", [Pure]> {
  let summary = "redistribute a tensor over the threads (through shared memory)";
  let arguments = (ins AnyRankedTensor:$src);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

// ---- addresses (tle-range-offsets-at-use) --------------------------------------------------
def TleGpu_AddPtrAlongOp : TleGpu_Op<"addptr_along", [Pure, AllTypesMatch<["ptr", "result"]>]> {
  let summary = "pointers plus (start + each element's index along `dim`) * stride plus offsets";
  let description = [{
    result[i] = ptr[i] + ((start + i[dim]) * stride + rest[i]), the sum in brackets in
    wrapping 32-bit arithmetic and widened where it is added to the pointer: what
    tle.addptr(ptr, broadcast(range) * stride + rest) computes, with the range's part taken
    from each element's coordinate where the address is needed instead of kept in a
    register per element across a loop.
  }];
  let arguments = (ins RankedTensorOf<[Tle_AnyPtr]>:$ptr, I32:$stride, RankedTensorOf<[I32]>:$rest, I32Attr:$dim,
                       I32Attr:$start);
  let results = (outs RankedTensorOf<[Tle_AnyPtr]>:$result);
  let assemblyFormat = "$ptr `,` $stride `,` $rest attr-dict `:` type($ptr) `,` type($rest)";
  let hasVerifier = 1;
}

// ---- TLE-Struct GPU buffers (tle.gpu.*) ---------------------------------------------------
def TleGpu_LocalPtrOp : TleGpu_Op<"local_ptr", [Pure]> {
  let summary = "pointers into a shared-memory buffer at the given indices";
  let description = [{
    One index operand per buffer dimension, all of one shape; the result has that shape.
    Without indices the result points at every element (the buffer's shape).
  }];
  let arguments = (ins Tle_Buffer:$buffer, Variadic<AnyType>:$indices);
  let results = (outs AnyType:$result);
  let assemblyFormat = "$buffer (`[` $indices^ `]`)? attr-dict `:` type($buffer) (`,` type($indices)^)? `->` type($result)";
  let hasVerifier = 1;
}

def TleGpu_CopyOp : TleGpu_Op<"copy", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "copy a block between global memory (a block of pointers) and a buffer, either way";
  let arguments = (ins AnyType:$src, AnyType:$dst);
  let assemblyFormat = "$src `,` $dst attr-dict `:` type($src) `,` type($dst)";
  let hasVerifier = 1;
}

def TleGpu_LocalLoadOp : TleGpu_Op<"local_load", [MemoryEffects<[MemRead]>]> {
  let summary = "read a whole buffer into a block";
  let arguments = (ins Tle_Buffer:$buffer);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$buffer attr-dict `:` type($buffer) `->` type($result)";
  let hasVerifier = 1;
}

// ---- asynchronous loads (tle.load(is_async=True)) ----------------------------------------------
def TleGpu_AsyncLoadOp : TleGpu_Op<"async_load", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "start copying a tile of global memory into this thread's staging in shared memory (cp.async)";
  let description = [{
    Each thread copies the elements it holds, `vec` at a time, into its own part of a
    staging region (so no other thread reads them and no barrier is needed); masked-off
    vectors are zero-filled. `offset` is the region's byte offset in the kernel's dynamic
    shared memory (tle-plan-shared-memory). The token names the copy for its wait.
  }];
  let arguments = (ins RankedTensorOf<[Tle_AnyPtr]>:$ptrs, Optional<RankedTensorOf<[I1]>>:$mask, I32Attr:$vec,
                       OptionalAttr<I64Attr>:$offset);
  let results = (outs I32:$token);
  let assemblyFormat = "$ptrs (`mask` $mask^)? attr-dict `:` type($ptrs) (`,` type($mask)^)?";
}

def TleGpu_AsyncLoadWaitOp : TleGpu_Op<"async_load_wait", [AttrSizedOperandSegments, MemoryEffects<[MemRead]>]> {
  let summary = "wait for an async_load and read its tile; masked-off elements take `other`";
  let description = [{
    `pending`: how many later copy groups of this thread may still be in flight
    (cp.async.wait_group pending).
  }];
  let arguments = (ins I32:$token, Optional<RankedTensorOf<[I1]>>:$mask, Optional<AnyRankedTensor>:$other, I32Attr:$pending);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$token (`mask` $mask^ `:` type($mask))? (`other` $other^ `:` type($other))? attr-dict `->` type($result)";
}

// ---- thread-block clusters ----------------------------------------------------------------
def TleGpu_ClusterRankOp : TleGpu_Op<"cluster_rank", [Pure]> {
  let summary = "this block's rank in its thread-block cluster (0 .. cluster size - 1)";
  let results = (outs I32:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
}

// ---- TLE-Struct GPU warp specialization --------------------------------------------------
def TleGpu_WarpSpecializeOp : TleGpu_Op<"warp_specialize", [RecursiveMemoryEffects]> {
  let summary = "run partitions of the program concurrently on separate warp groups";
  let description = [{
    The default region runs on the program's warps and yields the op's results; worker
    region i runs on workerNumWarps[i] warps with at most workerNumRegs[i] registers per
    thread and yields nothing. Every region ends with tle.partition.yield.
  }];
  let arguments = (ins DenseI32ArrayAttr:$workerNumWarps, DenseI32ArrayAttr:$workerNumRegs);
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region SizedRegion<1>:$defaultRegion, VariadicRegion<SizedRegion<1>>:$workerRegions);
  let assemblyFormat = "(`->` type($results)^)? `default` $defaultRegion `workers` $workerRegions attr-dict";
  let hasVerifier = 1;
}

def TleGpu_PartitionYieldOp : TleGpu_Op<"partition.yield", [Pure, Terminator, HasParent<"WarpSpecializeOp">]> {
  let summary = "the end of a warp_specialize partition (the default partition's results)";
  let arguments = (ins Variadic<AnyType>:$values);
  let assemblyFormat = "($values^ `:` type($values))? attr-dict";
}

// ---- asynchronous operand copies (tle-lower-async-copies) -------------------------------
// A dot operand whose tiles a loop requests `depth` iterations ahead (tle-prefetch-loads)
// goes from global memory straight to shared memory with cp.async, into a ring of depth + 1
// slots; the loop marked tle_gpu.ring_slots rotates through them, one slot per iteration.
def TleGpu_OperandRingType : TypeDef<TleGpu_Dialect, "OperandRing"> {
  let mnemonic = "operand_ring";
  let summary = "a ring of shared-memory slots holding one dot operand's tiles";
  let description = [{
    `slots` tiles of `staged` (the layout the copies read global memory in, which fixes the
    swizzled arrangement in the slot), read back as `operand` (a #tle_gpu.dot_op layout).
    A ring of one slot is resident: a loop-invariant operand copied once before the ring
    loops that read it, every iteration reading that slot.
  }];
  let parameters = (ins "unsigned":$slots, "::mlir::RankedTensorType":$staged, "::mlir::RankedTensorType":$operand);
  let assemblyFormat = "`<` $slots `,` $staged `,` $operand `>`";
}

def TleGpu_OperandRingOp : TleGpu_Op<"operand_ring", [MemoryEffects<[MemAlloc]>]> {
  let summary = "the slots of one asynchronously copied operand";
  let description = [{
    `offset` is the ring's byte offset in the kernel's operand-slot region, set by
    tle-plan-shared-memory (absent before it).
  }];
  let arguments = (ins OptionalAttr<I64Attr>:$offset);
  let results = (outs TleGpu_OperandRingType:$ring);
  let assemblyFormat = "attr-dict `:` type($ring)";
}

def TleGpu_RingViewOp : TleGpu_Op<"ring_view", [Pure]> {
  let summary = "the same slots read as another dot operand: another dot's layout, or the transposed tile";
  let description = [{
    A tile copied into a slot once and read by several dots (Sparse MLA's KV tile: the B of
    q k^T, and transposed the B of p v). `staged` is the ring's, or its transpose with the
    permuted blocked layout; each staged tile must sit in the slot with its rows along the
    same dimension of the copied tile (gpu::slotHoldsOperand), so the bytes are the same.
  }];
  let arguments = (ins TleGpu_OperandRingType:$ring);
  let results = (outs TleGpu_OperandRingType:$view);
  let assemblyFormat = "$ring attr-dict `:` type($ring) `->` type($view)";
  let hasVerifier = 1;
}

def TleGpu_BufferOperandOp : TleGpu_Op<"buffer_operand", [Pure]> {
  let summary = "a 2-D shared-memory buffer (or pipe slot) read in place as a dot operand: a one-slot ring over its bytes";
  let description = [{
    The buffer's alloc is a tle_gpu.operand_buffer (tle-read-buffer-operands): its rows,
    along its first dimension, hold 16-byte chunks in the swizzled arrangement the dots
    read, and every access through tle_gpu.local_ptr or tle_gpu.local_load goes there.
    `staged` is the buffer's tile (rows along dimension 0) or its transpose, with a blocked
    layout of 16-byte chunks along the buffer's rows, so the arrangement is
    gpu::slotHoldsOperand's. Reading happens at the tle_gpu.ring_dot that takes the view.
  }];
  let arguments = (ins Tle_Buffer:$buffer);
  let results = (outs TleGpu_OperandRingType:$view);
  let assemblyFormat = "$buffer attr-dict `:` type($buffer) `->` type($view)";
  let hasVerifier = 1;
}

def TleGpu_AsyncCopyOp : TleGpu_Op<"async_copy", [MemoryEffects<[MemRead, MemWrite]>, AttrSizedOperandSegments]> {
  let summary = "copy a tile from global memory into a slot of an operand ring (cp.async, one commit group)";
  let description = [{
    Into slot `slot` when it is given (the copies before the loop), else into the slot that
    the enclosing ring loop's iteration `slots_behind` back (default 1: the previous one)
    read; 0: this iteration's own slot (a copy the iteration waits for itself, the ring
    rotating so that a dot still reading the previous slot may stay in flight). Masked-off chunks are zero-filled; tle_gpu.mask_per_element marks a mask that may
    differ inside a 16-byte chunk. A scalar mask covers the whole tile (a splat's).
    `strides` (tle-affine-copy-addresses), one per dimension: the pointers are affine in the
    element's indices, ptr[i, j] = ptr[0, 0] + i * strides[0] + j * strides[1] elements, so
    each chunk's address is the thread's first pointer plus a uniform offset.
  }];
  let arguments = (ins TleGpu_OperandRingType:$ring, RankedTensorOf<[Tle_AnyPtr]>:$ptr,
                       Optional<AnyTypeOf<[RankedTensorOf<[I1]>, I1]>>:$mask, Variadic<I64>:$strides,
                       OptionalAttr<I32Attr>:$slot, OptionalAttr<I32Attr>:$slots_behind);
  let assemblyFormat = "$ptr (`mask` $mask^)? (`strides` `(` $strides^ `)`)? `into` $ring attr-dict `:` type($ptr) `,` type($ring) (`,` type($mask)^)?";
  let hasVerifier = 1;
}

def TleGpu_CopyAsyncToSharedOp : TleGpu_Op<"copy_async_to_shared", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "copy a tile from global to shared memory (pointers of the same layout on both sides) by cp.async";
  let description = [{
    What `tle.store %dst, tle.load(%src, mask, other)` does, `vec` elements a copy
    (tle-async-slot-copies), without the tile passing through registers: where the mask is
    off, `zero_fill` writes zeros (an unmasked store of a load whose `other` is zero), else
    nothing is written (the store's own mask). The mask is uniform over each copy. The copies
    land asynchronously: the pipe commit after them (tle_gpu.after_async_copies) publishes
    them to the pipe's readers.
  }];
  let arguments = (ins RankedTensorOf<[Tle_AnyPtr]>:$src, RankedTensorOf<[Tle_AnyPtr]>:$dst, Optional<RankedTensorOf<[I1]>>:$mask,
                       UnitAttr:$zero_fill);
  let assemblyFormat = "$src `into` $dst (`mask` $mask^)? attr-dict `:` type($src) `,` type($dst) (`,` type($mask)^)?";
  let hasVerifier = 1;
}

def TleGpu_AsyncWaitOp : TleGpu_Op<"async_wait", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "wait until all but the `pending` youngest copies have landed, then a block barrier";
  let arguments = (ins I32Attr:$pending);
  let assemblyFormat = "attr-dict";
}

def TleGpu_AsyncDrainOp : TleGpu_Op<"async_drain", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "wait until every copy this thread issued has landed (after a ring loop)";
  let assemblyFormat = "attr-dict";
}

def TleGpu_RingReadOp : TleGpu_Op<"ring_read", [MemoryEffects<[MemRead]>]> {
  let summary = "this iteration's tile of an operand ring, in registers";
  let arguments = (ins TleGpu_OperandRingType:$ring);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$ring attr-dict `:` type($ring) `->` type($result)";
  let hasVerifier = 1;
}

def TleGpu_RingDotOp : TleGpu_Op<"ring_dot", [MemoryEffects<[MemRead]>]> {
  let summary = "c + a @ b with b (and a, when it is a ring) read from this iteration's slot, k step by k step";
  let description = [{
    `in_flight` (tle-keep-dots-in-flight): the dot runs on wgmma and its group stays in
    flight when the op returns; the op first waits for all but the group it issued, so
    the previous iteration's dot has finished. The result is ready only after a
    tle_gpu.dots_wait, and an `a` in registers is read until then.
  }];
  let arguments = (ins AnyType:$a, TleGpu_OperandRingType:$b, AnyRankedTensor:$c, UnitAttr:$in_flight);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$a `,` $b `,` $c attr-dict `:` type($a) `,` type($b) `,` type($c) `->` type($result)";
  let hasVerifier = 1;
}

def TleGpu_DotsWaitOp : TleGpu_Op<"dots_wait", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "wait until the dots left in flight have finished; the results are the accumulators, ready";
  let arguments = (ins Variadic<AnyRankedTensor>:$inputs);
  let results = (outs Variadic<AnyRankedTensor>:$results);
  let assemblyFormat = "$inputs attr-dict `:` type($inputs) `->` type($results)";
  let hasVerifier = 1;
}

// ---- ring copies by the tensor memory accelerator (tle-lower-tma-copies) ------------------
// A ring loop whose every copy reads a block of a tensor descriptor (sm_90+) copies it with
// TMA instead of cp.async: thread 0 issues each block as boxes into the slot's swizzled
// arrangement (the one the cp.async copies write), and the slot's mbarrier completes a phase
// when the bytes have landed.
def TleGpu_TensorMapType : TypeDef<TleGpu_Dialect, "TensorMap"> {
  let mnemonic = "tensor_map";
  let summary = "a TMA tensor map (CUtensorMap), encoded by the launcher and passed as a kernel parameter";
}

def TleGpu_TmaBarriersType : TypeDef<TleGpu_Dialect, "TmaBarriers"> {
  let mnemonic = "tma_barriers";
  let summary = "one mbarrier per slot of a ring loop's operand rings, completing a phase after `arrivals` copies";
  let description = [{
    `arrivals`: the copies into each slot an iteration waits for (one per ring: a slot holds
    one tile of each operand). Each copy arrives once and expects its own bytes, so a
    phase completes when every operand of the iteration has landed.
  }];
  let parameters = (ins "unsigned":$slots, "unsigned":$arrivals);
  let assemblyFormat = "`<` $slots `,` $arrivals `>`";
  let genVerifyDecl = 1;
}

def TleGpu_TensorMapOp : TleGpu_Op<"tensor_map", [Pure, AttrSizedOperandSegments]> {
  let summary = "the tensor map of the 2-D tensor at `base`, read in boxes of `box` elements (rows, then columns)";
  let description = [{
    `shape` and `strides` in elements, outermost dimension first; the last stride is 1. Every
    operand is a kernel argument, a constant or integer arithmetic of them
    (tle-plan-tma-copies checks it): the launcher computes them and encodes the map before
    the launch, and the kernel receives it as a __grid_constant__ parameter. Out-of-bounds
    elements of a box read zero. `swizzle_bytes` (128, 64, 32 or 0) is the 16-byte-chunk
    swizzle of the box's rows in shared memory, the one the operand slots use.
  }];
  let arguments = (ins Tle_AnyPtr:$base, Variadic<I64>:$shape, Variadic<I64>:$strides, DenseI64ArrayAttr:$box,
                       I32Attr:$swizzle_bytes);
  let results = (outs TleGpu_TensorMapType:$map);
  let assemblyFormat = "$base `[` $shape `]` `strides` `[` $strides `]` attr-dict `:` type($base)";
  let hasVerifier = 1;
}

def TleGpu_TmaBarriersOp : TleGpu_Op<"tma_barriers", [MemoryEffects<[MemAlloc]>]> {
  let summary = "the mbarriers of a ring loop's TMA copies, one per slot, initialized here";
  let description = [{
    At the kernel's entry, so that every run of the loop continues each slot's phases: a
    slot's phase completes once for every copy into it, and every copy is waited for once.
    `offset` in the operand-slot region, after the rings (tle-plan-shared-memory).
  }];
  let arguments = (ins OptionalAttr<I64Attr>:$offset);
  let results = (outs TleGpu_TmaBarriersType:$barriers);
  let assemblyFormat = "attr-dict `:` type($barriers)";
}

def TleGpu_TmaCopyOp : TleGpu_Op<"tma_copy", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "copy the block at `coords` of `map`'s tensor into a slot of an operand ring by TMA, if `pred`";
  let description = [{
    The slot is chosen as tle_gpu.async_copy's (`slot`, or `slots_behind` in the ring loop).
    `coords`: the block's first element, outermost dimension first. The block is the ring's
    staged tile, or its transpose when `transposed` (the dot reads tl.trans of the loaded
    block). Thread 0 issues the boxes and the slot's barrier expects their bytes; a copy
    not issued (`pred` false: an iteration past the loop's end) arrives nowhere.
  }];
  let arguments = (ins TleGpu_TensorMapType:$map, Variadic<I32>:$coords, TleGpu_OperandRingType:$ring,
                       TleGpu_TmaBarriersType:$barriers, I1:$pred, OptionalAttr<I32Attr>:$slot,
                       OptionalAttr<I32Attr>:$slots_behind, UnitAttr:$transposed);
  let assemblyFormat = "$map `[` $coords `]` `into` $ring `,` $barriers `if` $pred attr-dict `:` type($ring) `,` type($barriers)";
  let hasVerifier = 1;
}

def TleGpu_TmaWaitOp : TleGpu_Op<"tma_wait", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "wait until this iteration's slot has landed, then a block barrier (no thread reads the slots refilled after it)";
  let arguments = (ins TleGpu_TmaBarriersType:$barriers);
  let assemblyFormat = "$barriers attr-dict `:` type($barriers)";
}

// ---- dot operands through shared memory (tle-stage-dot-operands) ------------------------
def TleGpu_StageOperandOp : TleGpu_Op<"stage_operand", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "convert a tile to a dot-operand layout through the staging region";
  let description = [{
    `alternate`: the conversion takes the next half of the double-buffered staging region (one
    barrier, none after: the other half's next user waits at its own); otherwise (a conversion
    outside every loop) it takes the whole region between two barriers.
  }];
  let arguments = (ins AnyRankedTensor:$src, UnitAttr:$alternate);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

def TleGpu_StageOperandsOp : TleGpu_Op<"stage_operands", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "convert a dot's A and B operands together through one half of the staging region (one barrier)";
  let arguments = (ins AnyRankedTensor:$a, AnyRankedTensor:$b);
  let results = (outs AnyRankedTensor:$resultA, AnyRankedTensor:$resultB);
  let assemblyFormat = "$a `,` $b attr-dict `:` type($a) `,` type($b) `->` type($resultA) `,` type($resultB)";
  let hasVerifier = 1;
}

#endif
