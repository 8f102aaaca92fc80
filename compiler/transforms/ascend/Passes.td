// The Ascend passes: each makes one decision about how a tile program runs on an AI core and
// records it in the IR, so that the AscendC printer only prints. Each runs alone under tle-opt.
#ifndef TLE_ASCEND_PASSES_TD
#define TLE_ASCEND_PASSES_TD

include "mlir/Pass/PassBase.td"

def DropAxisHints : Pass<"tle-ascend-drop-axis-hints", "::mlir::func::FuncOp"> {
  let summary = "replace tle.axis_hint by its value: an AI core moves whole tiles, so run facts decide nothing";
  let description = [{
    `tl.multiple_of` and friends tell the CUDA path which accesses may be vectors; on Ascend
    every access is a DMA of a whole tile window, whose alignment the backend handles itself.
  }];
}

def ScalarizeCarriedPointers : Pass<"tle-ascend-scalarize-carried-pointers", "::mlir::func::FuncOp"> {
  let summary = "carry a scalar offset instead of a tile of pointers or offsets that a loop advances, or a branch moves, uniformly";
  let description = [{
    `ptrs += step` in a loop (Triton's matmul: `a_ptrs += BLOCK_K * stride_ak`) carries a
    whole tile of pointers. When every iteration adds the same value to every pointer, the
    loop carries that running offset as a scalar instead, and the tile is its start plus the
    offset wherever it is used: tle-ascend-resolve-global-access then sees a strided window.
    The same holds for a tile of offsets that reaches an address (`offs += BLOCK`), and for
    while loops whose body moves a tile that the condition passes on unchanged (the scalar
    replaces it in place in both regions and the loop's result). Likewise a branch whose arms yield one tile of pointers (or of offsets that reach an
    address) moved by different scalars, or left as it is (`offs = offs + shift` in one arm):
    the branch yields the scalars and the tile is moved once after it.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::scf::SCFDialect"];
}

def SplitTiles : Pass<"tle-ascend-split-tiles", "::mlir::func::FuncOp"> {
  let summary = "run an element-wise kernel whose tiles do not fit in UB in chunks";
  let description = [{
    A kernel whose tiles are all 1-D of one size N and whose work is element by element
    (loads, stores, arithmetic, casts, selects; no reductions, dots, loops or scalar side
    effects) is split when its data tiles would need more than the target's UB: its body runs
    k times (k a power of two, the smallest whose chunks fit) on N/k elements, chunk c taking
    elements [c N/k, (c+1) N/k) of every tile. Other kernels are left alone; if they do not
    fit, tle-ascend-plan-memory says so at the buffer that overflows.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::scf::SCFDialect"];
}

def BufferizeTiles : Pass<"tle-ascend-bufferize", "::mlir::func::FuncOp"> {
  let summary = "give every data tile a UB buffer and every tile operation a vector instruction";
  let description = [{
    An AI core computes on tiles in its unified buffer (UB) with vector instructions that
    take whole buffers. Each tile value that holds data (loaded, computed, a to_tensor view)
    gets a UB buffer; element-wise arithmetic becomes tle_dsa.vector (a splat operand makes
    the scalar form: adds, muls, ...); 1-D reductions to a scalar reduce into element 0 and
    read it back (tle_dsa.read_scalar); tl.load and tl.store become tle_dsa.copy whose sizes
    come from the mask (a mask must be `index < bound` per dimension: a rectangle), with
    `other` filled in first. Tiles a loop carries or a branch yields live in a buffer of
    their own, written at the end of each iteration or branch (and, in a while loop, by
    its condition). Index and pointer tiles
    stay: tle-ascend-resolve-global-access consumes them. What has no vector form is a
    located error.
  }];
  let dependentDialects = ["::tle::dsa::TleDsaDialect", "::mlir::arith::ArithDialect"];
}

def ResolveGlobalAccess : Pass<"tle-ascend-resolve-global-access", "::mlir::func::FuncOp"> {
  let summary = "turn copies through blocks of pointers into strided windows (copy_in / copy_out)";
  let description = [{
    The memory engines move rows: a block of pointers must be base + offset + i * row_stride
    + j (contiguous rows). Each tle_dsa.copy between a pointer block and UB becomes
    tle_dsa.copy_in or tle_dsa.copy_out with that base, offset and row stride computed as
    scalars; the index arithmetic that built the pointers is then dead. A gather (any other
    pointer block) is a located error.
  }];
  let dependentDialects = ["::tle::dsa::TleDsaDialect", "::mlir::arith::ArithDialect"];
}

def PlanLocalMemory : Pass<"tle-ascend-plan-memory", "::mlir::func::FuncOp"> {
  let summary = "place every on-chip buffer at a byte offset of its memory";
  let description = [{
    A buffer lives from its allocation to its last use (to the end of the loop or branch that
    holds a use below its allocation). Buffers are placed first fit in program order at the
    target's alignment for their memory (32 bytes in UB and L1, 512 in L0A/L0B/L0C): buffers
    alive at the same time never share bytes, others may (tle_dsa.offset; the sync pass
    orders the reuse). The kernel records its bytes per memory (tle_dsa.memory_bytes). A kernel
    that does not fit gets a located error at the buffer that overflows.
  }];
}

def InsertPipeSync : Pass<"tle-ascend-insert-sync", "::mlir::func::FuncOp"> {
  let summary = "order the pipes: SetFlag/WaitFlag between pipes, PipeBarrier within one";
  let description = [{
    The pipes of an AI core (S, MTE2, V, MTE3, ...) run independently. For each access to
    on-chip memory (by byte range, from the memory plan) or to global memory, an earlier
    conflicting access on another pipe that the accessing pipe is not yet known to have seen
    gets a set_flag/wait_flag pair just before it; a read of what its own pipe wrote gets a
    pipe_barrier (the vector unit does not forward results). Loop bodies and branches start
    and end with pipe_barrier ALL where they touch memory, so no ordering crosses a region
    boundary.
  }];
  let dependentDialects = ["::tle::dsa::TleDsaDialect"];
}

#endif
