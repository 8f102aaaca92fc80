// The CUDA passes: each makes one decision and records it in the IR (tle_gpu attributes
// and ops) for the next pass and, at the end, the printer. Each runs alone under tle-opt.
// Options left at 0 or "" take the kernel's own setting (ir/KernelSettings.h).
#ifndef TLE_CUDA_PASSES_TD
#define TLE_CUDA_PASSES_TD

include "mlir/Pass/PassBase.td"

class KernelOptions {
  list<Option> kernelOptions = [
    Option<"numWarps", "num-warps", "unsigned", /*default=*/"0", "warps per program (0: the kernel's tle.num_warps)">,
    Option<"numStages", "num-stages", "unsigned", /*default=*/"0", "pipelining depth (0: the kernel's tle.num_stages)">,
    Option<"target", "target", "std::string", /*default=*/"\"\"", "target, e.g. cuda:sm_90a (empty: the kernel's tle.target)">,
  ];
}

def IsolatePartitions : Pass<"tle-isolate-partitions", "::mlir::func::FuncOp"> {
  let summary = "close each warp_specialize worker over what it uses, place the partitions' warps, count pipe arrivals";
  let description = [{
    Moves tle.alloc and tle.pipe_create to the kernel's top; clones into each worker region
    the pure ops it uses from outside; sets tle_gpu.worker_first_warps (each worker at a
    multiple of its warp count after the default partition) and each pipe's
    tle_gpu.pipe_threads (the writer's threads, then all readers'). A warp_specialize in a
    loop or branch, a second one, or a worker using a loaded value is not implemented.
  }];
  let dependentDialects = ["::tle::gpu::TleGpuDialect"];
}

def TransposeLoads : Pass<"tle-transpose-loads", "::mlir::func::FuncOp"> {
  let summary = "load a tile that is only transposed into a dot operand through transposed pointers instead";
  let description = [{
    tl.trans(tl.load(p, mask, other)), the load used by nothing else and the transpose only
    by tl.dot operands, becomes tl.load(tl.trans(p), tl.trans(mask), tl.trans(other)) (a
    uniform mask or `other` made in the new shape): the load then feeds the dot directly
    and can be copied asynchronously into its slots, and tle-assign-layouts lays the
    pointers out as the transpose of theirs, which costs nothing. A transposed tile that is
    stored keeps its load (coalesced on both sides of the transpose).
  }];
  let dependentDialects = ["::tle::ir::TleDialect"];
}

def PlanAsyncCopies : Pass<"tle-plan-async-copies", "::mlir::func::FuncOp">, KernelOptions {
  let summary = "choose the loads that go to shared memory asynchronously, and how many iterations ahead";
  let description = [{
    Marks tle_gpu.async_copy each load of a loop body that only feeds a tl.dot operand and
    that cp.async can copy straight into the slots ldmatrix / wgmma read (16-bit elements in
    16-byte chunks per thread, zero or no `other`, a tile of whole mma fragments; fp8 only
    where wgmma reads both operands, an N-contiguous B through its transpose in a slot twice
    the tile's size); sets the
    loop's tle_gpu.async_depth to num_stages - 1 (1..7; more stages get a warning). Also marks a loop-invariant A
    operand of such loops' wgmma dots whose register fragment would not fit beside the
    dots' results, or (on a block of one warpgroup, one 64-row block of rows) takes 32
    registers a thread or more: it stays resident in shared memory, and P V can stay in
    flight.
  }];
  let options = kernelOptions;
  let dependentDialects = ["::tle::gpu::TleGpuDialect"];
}

def PlanTmaCopies : Pass<"tle-plan-tma-copies", "::mlir::func::FuncOp"> {
  let summary = "choose the planned copies that go by TMA: blocks of tensor descriptors";
  let description = [{
    Marks tle_gpu.tma_copy each load of a loop planned as an asynchronous copy whose
    pointers are a tle.descriptor_block (or its tl.trans) when the target has TMA, the
    kernel is not warp-specialized, the block is a 2-D tile of 1- or 2-byte elements TMA can
    write in the slots' swizzled arrangement (rows a multiple of 8, at most 256; rows of
    whole 16-byte chunks), the descriptor's base, shape and strides are kernel arguments,
    constants or integer arithmetic of them, its last stride is 1, the variant knows the
    base 16-byte aligned and the row stride a multiple of 16 bytes, and every other planned
    copy of the loop qualifies too. Drops the tle.descriptor_block of every other load.
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"\"", "target, e.g. cuda:sm_90a (empty: the kernel's tle.target)">,
  ];
  let dependentDialects = ["::tle::gpu::TleGpuDialect"];
}

def CarryCopyAddresses : Pass<"tle-carry-copy-addresses", "::mlir::func::FuncOp"> {
  let summary = "carry the pointers of a loop's asynchronous copies that it computes from its induction variable";
  let description = [{
    A load marked tle_gpu.async_copy (tle-plan-async-copies) whose pointers the loop body
    computes from the induction variable, affine in it with the same slope in every lane
    (tutorial 09's `offs_k = ki * BLOCK_K + arange`, times uniform strides), gets them as a
    carried tile instead: the address computation at the lower bound before the loop, and
    `addptr(p, splat(step * slope))` yielded each iteration, as tutorial 03 writes it. ptxas
    had chained the rebuilt 64-bit chunk addresses through one another: persistent
    128x256x64 on 8 warps on an H200, 585-589 -> 600-614 TFLOP/s (Triton 635-666). Exact
    wherever the source's 32-bit offsets do not overflow. Register loads keep their rebuilt
    addresses (a carried tile holds a 64-bit address per element across the loop).
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def PrefetchLoads : Pass<"tle-prefetch-loads", "::mlir::func::FuncOp">, KernelOptions {
  let summary = "issue the loads that feed tl.dot num_stages - 1 loop iterations ahead";
  let description = [{
    Software pipelining: each load that feeds a dot operand in a loop is issued `depth`
    iterations ahead, predicated on its iteration existing; the loop carries the tiles in
    flight. The depth is the loop's tle_gpu.async_depth (tle-plan-async-copies) when every
    such load is planned as an asynchronous copy, else 1: a tile waiting in registers holds
    them for every iteration it waits. A register tile read in accesses narrower than the
    target's widest vector (strides or alignment unknown) is loaded in its own iteration: it
    holds an address and a predicate per element, twice when ahead. A loop without dot-feeding loads whose own
    num_stages (tl.range) is at least 2 gets its tile loads one iteration ahead, up to 256
    bytes a thread, even past its stores (Triton's pipelining of such loops).
    Where num_stages was asked for (--num-stages, tl.range(num_stages=), or this pass's
    option; not the default) and a load falls short of it, an ignored-hint warning at the
    load says why (registers: one ahead; read element by element or over the register
    budget: in its own iteration), or at the loop where it is not pipelined at all.
  }];
  let options = kernelOptions;
  let dependentDialects = ["::tle::ir::TleDialect", "::mlir::arith::ArithDialect"];
}

def AssignLayouts : Pass<"tle-assign-layouts", "::mlir::func::FuncOp">, KernelOptions {
  let summary = "give every tensor a thread layout, and every load and store a vector width";
  let description = [{
    Sets a layout encoding (#tle_gpu.blocked, slice, mma, dot_op) on every tensor type and
    inserts tle_gpu.convert_layout where two uses disagree; records each access's vector
    width (tle_gpu.vec) and marks tle_gpu.mask_per_element where its mask may differ inside
    a vector. A store of an mma accumulator to global memory may get a width beyond a
    thread's column pair (up to 16 bytes): the lanes of a quad trade registers first.
    The first dot of a chain (attention's Q K^T) with too few rows for every warpgroup
    repeats its rows on the extra warpgroups; the chain's second dot splits N between them.
  }];
  let options = kernelOptions;
  let dependentDialects = ["::tle::gpu::TleGpuDialect"];
}

def LowerAsyncCopies : Pass<"tle-lower-async-copies", "::mlir::func::FuncOp"> {
  let summary = "turn the planned, prefetched operand loads into copies into rings of shared-memory slots";
  let description = [{
    Each chain of loads that tle-prefetch-loads made from loads marked tle_gpu.async_copy
    becomes a tle_gpu.operand_ring with tle_gpu.async_copy ops before the loop and in its
    body, a tle_gpu.async_wait at the top of the iteration, tle_gpu.ring_dot or
    tle_gpu.ring_read where the operand is read, and a tle_gpu.async_drain after the loop.
    A marked loop-invariant A operand becomes a resident ring of one slot, copied once
    after the first reading loop's barrier.
  }];
  let dependentDialects = ["::tle::gpu::TleGpuDialect"];
}

def CopyDotOperands : Pass<"tle-copy-dot-operands", "::mlir::func::FuncOp">, KernelOptions {
  let summary = "copy the loaded dot operands that no ring holds straight into shared-memory slots, in the iteration that reads them";
  let description = [{
    A 16-bit tile loaded from global memory in 16-byte chunks and read only as dot operands
    (through conversions, or a transpose that relabels registers) outside the ring loops of
    tle-lower-async-copies gets a resident tle_gpu.operand_ring of its own: a
    tle_gpu.async_copy where the load was (in a loop after a barrier: the slots are free),
    a tle_gpu.async_wait before the first dot that reads it, and tle_gpu.ring_dot ops that
    read it (through a tle_gpu.ring_view where a dot reads it transposed or in another
    layout). On wgmma targets a loaded A operand of such dots goes the same way.
  }];
  let options = kernelOptions;
  let dependentDialects = ["::tle::gpu::TleGpuDialect"];
}

def ReadBufferOperands : Pass<"tle-read-buffer-operands", "::mlir::func::FuncOp">, KernelOptions {
  let summary = "lay out the buffers whose tiles a warp-specialized kernel's dots read as operands, and read them in place";
  let description = [{
    In a warp-specialized kernel, a 2-D tile of 16-bit elements (a tle.gpu buffer or one
    slot of it) loaded whole through tle_gpu.local_ptr and read only as dot operands
    (perhaps transposed; A not transposed) is read by the dots where it is: the buffer's
    alloc becomes a tle_gpu.operand_buffer (each tile in the swizzled arrangement wgmma and
    ldmatrix read, rows along dimension 0), the dots become tle_gpu.ring_dot ops over
    tle_gpu.buffer_operand views, and the loads go. Buffers reached otherwise than through
    buffer slots, pipe fields, index-free local_ptr (loaded from and stored to) and
    local_load stay as they are, as do buffers a partition writes before reading them in
    place. Loads and stores through an operand buffer's pointers move 16-byte chunks where
    their layout allows.
  }];
  let options = kernelOptions;
  let dependentDialects = ["::tle::gpu::TleGpuDialect"];
}

def AsyncSlotCopies : Pass<"tle-async-slot-copies", "::mlir::func::FuncOp">, KernelOptions {
  let summary = "fill pipe slots from global memory by cp.async instead of through registers";
  let description = [{
    In a warp-specialized kernel, a tile loaded from global memory only to be stored whole
    into a pipe field's buffer (through an index-free tle_gpu.local_ptr, with the same
    vector width, pointer layout and a chunk-uniform mask) becomes a
    tle_gpu.copy_async_to_shared where the store was, when a commit of that pipe follows in
    the block with nothing in between that reads shared memory or synchronizes; that commit
    gets tle_gpu.after_async_copies (its arrival waits for the copies). Masked-off chunks are
    not written when the store has the load's mask, and zeroed when the store has none and
    the load's `other` is zero or absent.
  }];
  let options = kernelOptions;
  let dependentDialects = ["::tle::gpu::TleGpuDialect"];
}

def CarryPointerBases : Pass<"tle-carry-pointer-bases", "::mlir::func::FuncOp">, KernelOptions {
  let summary = "carry the scalar base of a pointer tile that a loop advances uniformly and reads element by element";
  let description = [{
    In a kernel whose accumulators and element-by-element dot operands (each with a 64-bit
    address per element: tle-bound-registers' estimates) need more registers than a thread
    has, a loop-carried tile of pointers that starts as `addptr(splat(p), offsets...)`, is
    advanced by one scalar in every lane each iteration, and is read or written only in
    accesses narrower than the target's widest vector, becomes a loop-carried scalar pointer:
    the loop advances `p` by the scalar and the body rebuilds the tile from it and the start's
    offsets, each addptr marked tle_gpu.widen_at_use (the printer's tle::addptr_widening widens
    each 32-bit offset where it is added, so that nvcc keeps the 32-bit offsets across the
    loop). A thread keeps a 32-bit offset per element instead of a 64-bit address: tutorial
    03 at 4095^3 on an H200, 128x128x32 on 4 warps 52 -> 95 TFLOP/s, 128x256x64 on 8 warps
    52 -> 80, 64x256x32 44 -> 78. Where registers suffice the carried tile stays (the configs
    with fewer accumulators lost 15-26% rebuilt: more registers, fewer resident blocks).
    The sums are the same, reordered: the rewrite is exact.
  }];
  let options = kernelOptions;
  let dependentDialects = ["::mlir::arith::ArithDialect", "::tle::gpu::TleGpuDialect"];
}

def RangeOffsetsAtUse : Pass<"tle-range-offsets-at-use", "::mlir::func::FuncOp"> {
  let summary = "compute the part of a rebuilt address that is a range times a stride from each element's coordinate";
  let description = [{
    An addptr marked tle_gpu.widen_at_use (tle-carry-pointer-bases rebuilds a loop's tile of
    pointers with it) whose i32 offsets are `range * stride + rest`, the range a make_range
    expanded and broadcast along one dimension and the stride uniform (a splat or a
    constant; a bare range has stride 1), becomes tle_gpu.addptr_along(ptr, stride, rest):
    the library computes (start + index) * stride + rest where the address is needed, the
    index's per-register part an immediate. A thread keeps `rest` across the loop instead of
    an offset per element: tutorial 03's generic kernel, B read one column a thread, keeps
    one offset instead of 32 or 64. At 4095^3 on an H200: 128x256x64 on 8 warps 80 -> 137
    TFLOP/s, 128x128x32 on 4 warps 95 -> 123, 64x256x32 78 -> 90. Left alone: a dimension
    with one element a thread (its range part is one register already: A, whose lanes span
    K), and a loop that also copies by cp.async (ptxas hoisted the products out of the loop
    as 64-bit offsets, two registers an element, and spilled them: free-size 128x128x32
    158 -> 135, 64x256x32 105 -> 75). The 32-bit sums are the same: the rewrite is exact.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::tle::gpu::TleGpuDialect"];
}

def AffineCopyAddresses : Pass<"tle-affine-copy-addresses", "::mlir::func::FuncOp"> {
  let summary = "give the operand copies whose pointers are affine in the indices their strides";
  let description = [{
    A tle_gpu.async_copy of a blocked 2-D tile, with a whole-tile mask or none, whose
    pointers are ptr[0, 0] + i * s0 + j * s1 with uniform s0, s1 (built from splats, ranges,
    expand_dims, broadcast, i64 sums and products by uniform values: what block pointers
    lower to) gets `strides(s0, s1)`: the library then computes each chunk's address from
    the thread's first pointer and a uniform offset instead of from the chunk's own pointer.
  }];
  let dependentDialects = ["::tle::gpu::TleGpuDialect", "::mlir::arith::ArithDialect"];
}

def KeepDotsInFlight : Pass<"tle-keep-dots-in-flight", "::mlir::func::FuncOp">, KernelOptions {
  let summary = "leave a wgmma group in flight: a loop's accumulating dot across iterations, a dot accumulating into the next";
  let description = [{
    A tle_gpu.ring_dot that runs on wgmma and whose accumulator the loop carries gets
    `in_flight` (one whose A is in registers only where no other dot of the loop reads A
    from registers); the loop's rings get one more slot, its body copies `slots_behind = 2`,
    a tle_gpu.dots_wait goes before the next iteration's first read of an accumulator that
    other ops read too (attention's rescaling), and one after the loop gives the
    accumulators back.
    Where the extra slots would not fit in shared memory, or would leave room for fewer
    resident blocks per multiprocessor, no slot is added: the dots still get `in_flight`,
    and the loop's copies move after the last of them, into the slot the previous iteration
    read (`slots_behind` 1), behind a tle.barrier when more than one warpgroup reads the
    slots (each dot returns once every group but its own has finished; the barrier waits
    for the other warpgroups'), as Triton orders its Hopper loops. Tutorial 03's 128 x 256 x
    64 tiles with 4 stages (no room for a fifth 48 KiB slot pair) went from 0.79-0.83x to
    0.96-0.99x Triton.
    A loop without a ring whose dot reads one-slot rings that its block fills and waits for
    in the same iteration (num_stages of 0 or 1; the seed's Sparse MLA) gets the same where
    the dot's accumulator reaches the loop's yield directly or through a branch whose other
    arm passes it on: those rings get a second slot, the loop `tle_gpu.ring_slots = 2`, their
    copies `slots_behind = 0` (this iteration's slot), and the other arm a
    tle_gpu.dots_wait (the next copying iteration may refill the slot the group reads). Only
    where the kernel's tiles and an A operand in registers, kept live while the group runs,
    fit 1.3 times over in the registers tle-bound-registers will leave a thread.
    Within a block, a ring dot on wgmma with A from a ring whose only use is the accumulator
    of the next ring dot on wgmma, with nothing touching memory between them, gets
    `in_flight` as well: the next dot's wait covers it (the warp-specialized Sparse MLA's
    Q K^T over three pairs); not in a loop whose carried dot stays in flight (ptxas then
    serialized every wgmma).
  }];
  let options = kernelOptions;
  let dependentDialects = ["::tle::gpu::TleGpuDialect"];
}

def LowerTmaCopies : Pass<"tle-lower-tma-copies", "::mlir::func::FuncOp"> {
  let summary = "copy the rings of loops whose copies are all marked tle_gpu.tma_copy by TMA";
  let description = [{
    In such a ring loop every tle_gpu.async_copy becomes a tle_gpu.tma_copy of its
    descriptor block (same slot, or slots_behind), issued only for an iteration that exists
    (`lb + slot * step < ub` before the loop, `iv + (slots - slots_behind) * step < ub` in
    it), from a tle_gpu.tensor_map made at the kernel's entry; the loop's tle_gpu.async_wait
    becomes a tle_gpu.tma_wait on a tle_gpu.tma_barriers of one barrier per slot (also at
    the entry), and the tle_gpu.async_drain after it goes. A resident ring the loop's dots
    read (still copied by cp.async) is waited for before the loop. A loop whose rings are
    read or filled otherwise (a copy that is not a descriptor block, or cp.async copies
    besides) keeps cp.async. The tle.descriptor_block ops left are dropped.
  }];
  let dependentDialects = ["::tle::gpu::TleGpuDialect", "::mlir::arith::ArithDialect"];
}

def LowerAsyncLoads : Pass<"tle-lower-async-loads", "::mlir::func::FuncOp"> {
  let summary = "turn tle.load(is_async=True) into cp.async copies waited for at the first use";
  let description = [{
    An asynchronous load whose pointers are global, whose layout gives every element to
    exactly one thread (a blocked layout tiling the shape) and whose vector width makes 4,
    8 or 16 bytes becomes a tle_gpu.async_load where it was and a tle_gpu.async_load_wait
    before the first op of its block that uses it, so that the ops in between overlap the
    copy. Other asynchronous loads stay ordinary loads, with a warning that says why.
  }];
  let dependentDialects = ["::tle::gpu::TleGpuDialect"];
}

def StageDotOperands : Pass<"tle-stage-dot-operands", "::mlir::func::FuncOp"> {
  let summary = "route the remaining conversions to dot operands through the staging region";
  let dependentDialects = ["::tle::gpu::TleGpuDialect"];
}

def PlanSharedMemory : Pass<"tle-plan-shared-memory", "::mlir::func::FuncOp"> {
  let summary = "plan the kernel's dynamic shared memory: buffers (sharing bytes where lifetimes allow), scratch, staging, operand slots";
  let dependentDialects = ["::tle::gpu::TleGpuDialect"];
}

def InsertBarriers : Pass<"tle-insert-barriers", "::mlir::func::FuncOp"> {
  let summary = "place block barriers between accesses of tle.gpu buffers by different threads";
  let description = [{
    A tle.barrier (with its reason) before a read of what other threads wrote, and before a
    write over what they may still read or write; atomics do not race with each other, and
    accesses through one pointer tile whose layout has no replicas stay within a thread. A
    barrier needed only because of accesses before a loop goes before the loop.
  }];
}

def InsertClusterBarriers : Pass<"tle-insert-cluster-barriers", "::mlir::func::FuncOp"> {
  let summary = "place the cluster barriers a cluster kernel needs at its start and end";
  let description = [{
    In a kernel whose blocks reach each other's shared memory (tle.remote on shared memory)
    or synchronize sub-meshes of the cluster: a cluster barrier before the kernel returns, so
    that no block's shared memory goes away while another block may still access it; and,
    with sub-mesh barriers, one at the start, after which every block's barrier counters
    are initialized before any other block counts on them.
  }];
}

def BoundRegisters : Pass<"tle-bound-registers", "::mlir::func::FuncOp">, KernelOptions {
  let summary = "choose how many resident blocks per multiprocessor a kernel asks ptxas to leave registers for";
  let description = [{
    The estimate is a thread's share of the dot accumulators of one block of ops and of the
    loop-invariant A operands held in registers, plus, for dot operands loaded element by
    element into registers (a variant that knows nothing of the strides or sizes), each
    operand tile and a 64-bit address per element. A kernel whose estimate exceeds the
    target's registers per thread gets tle_gpu.min_blocks_per_processor = 1, printed as
    __launch_bounds__(threads, 1): the bound changes no limit, but without it ptxas (CUDA
    13) compiles such a kernel with 32 registers and spills nearly everything.

    Otherwise the kernel asks for the most blocks that the threads and its shared memory
    (tle-plan-shared-memory's buffers and operand rings, a lower bound) let a
    multiprocessor hold, where each thread's share of the register file stays at least 1.3
    times the estimate and 80 registers, and is below what ptxas may take anyway. Left alone, ptxas takes registers
    past the next resident block (attention at 128 x 64, d = 64, causal, on 8 warps: 152
    registers, one block; Triton's 118, two); asked for two, 128 registers and 0.65x ->
    0.83x Triton. Closer to the estimate it spilled (96-200 bytes, 15-35% slower), and a
    bound that constrains nothing is not printed: with (threads, 1) everywhere ptxas traded
    resident blocks for registers where the tiles fit (attention at 64 x 64 on 4 warps:
    128 -> 170 registers, 9% slower).

    A kernel without dots is estimated by its largest loop: the tiles it carries and the
    tiles its body loads. It asks for blocks by the same rule, but only where that estimate
    is at least 80 registers and every such load is a full-width vector with one mask per
    vector (element-wise accesses take address and predicate registers the estimate does
    not count: bounded, ptxas spilled 532-552 bytes). Left alone, ptxas gave the layer
    norm's 16384-column rows on 8 warps 110 registers and split a chunk's eight 16-byte
    loads in two; asked for two blocks, 118 registers and 0.84x -> 1.03x Triton (and the
    layer-norm backward's dw/db 1.05x -> 1.5x).
  }];
  let options = kernelOptions;
  let dependentDialects = ["::tle::gpu::TleGpuDialect"];
}

def BlockVotes : Pass<"tle-block-votes", "::mlir::func::FuncOp"> {
  let summary = "compute whole-tile boolean or/and reductions with the block barrier's vote";
  let description = [{
    Marks tle_gpu.block_vote = "any" (or "all") on a tle.reduce of one boolean tile to a
    scalar whose combine is a single arith.ori (arith.andi), outside warp-specialized
    partitions (the vote takes the whole block). The printer then calls tle::block_any
    (block_all): each thread folds its registers and __syncthreads_or (_and) combines the
    threads in one barrier, where the general reduction shuffles across lanes and goes
    through shared memory between two barriers. The TopK selector's threshold search ends
    every round with such a tl.reduce_or.
  }];
  let dependentDialects = ["::tle::gpu::TleGpuDialect"];
}

def MarkUniformRuns : Pass<"tle-mark-uniform-runs", "::mlir::func::FuncOp"> {
  let summary = "compute an element-wise result once per run of equal registers";
  let description = [{
    Marks tle_gpu.uniform_run = R on an arith or math op with a tile result when the axis
    analysis proves the result equal over aligned runs of R consecutive elements along the
    dimension a thread holds in consecutive registers (R a power of two dividing the thread's
    elements there), and some operand is not: `cols < N` with N divisible by 16. The printer
    keeps each run's first register, so the work for the others is dead code. Triton's
    element-wise lowering deduplicates the same way.
  }];
  let dependentDialects = ["::tle::gpu::TleGpuDialect"];
}

def UniformControlLoads : Pass<"tle-uniform-control-loads", "::mlir::func::FuncOp"> {
  let summary = "read scalars that steer control flow once per block";
  let description = [{
    A scalar load is made by every thread; if other blocks write that memory meanwhile (a
    lock's counter), threads can read different values and take different branches, and a
    barrier inside a branch (a scalar atomic, a reduction) is then reached by part of the
    block: undefined behaviour. A scalar global load whose value decides a branch, a while
    loop's condition or a for loop's bounds is marked tle_gpu.uniform: thread 0 reads it and
    the block shares the value through the scratch. Only in kernels that can see other
    blocks' writes while they run (atomics outside the block's shared memory, volatile or
    `.cv` loads, the distributed primitives, raw calls): elsewhere every thread reads the
    same value, and each shared read would cost two barriers and a trip to memory of its own.
  }];
}

#endif
