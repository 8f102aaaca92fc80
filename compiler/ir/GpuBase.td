// The `tle_gpu` dialect: the GPU level of a tile program. Thread layouts (as tensor
// encodings), the TLE-Struct GPU ops a kernel writes (tle.gpu.*), and the ops and attributes
// the CUDA planning passes add to make every decision visible before printing: layout
// conversions, vector widths, the shared-memory plan, asynchronous copies and barriers.
#ifndef TLE_GPU_BASE_TD
#define TLE_GPU_BASE_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"

def TleGpu_Dialect : Dialect {
  let name = "tle_gpu";
  let cppNamespace = "::tle::gpu";
  let summary = "GPU-level ops, layouts and plans of tile programs";
  let dependentDialects = ["::tle::ir::TleDialect"];
  let useDefaultAttributePrinterParser = 1;
  let useDefaultTypePrinterParser = 1;
  // What one CUDA pass hands to the next (and the printer reads); see each pass.
  let discardableAttrs = (ins
    "::mlir::IntegerAttr":$vec,              // a load/store's vector width (tle-assign-layouts)
    "::mlir::UnitAttr":$mask_per_element,    // its mask may differ inside a vector (tle-assign-layouts)
    "::mlir::IntegerAttr":$uniform_run,      // an element-wise result equal over runs of that many registers (tle-mark-uniform-runs)
    "::mlir::UnitAttr":$uniform,             // a scalar load the block reads once and shares (tle-uniform-control-loads)
    "::mlir::StringAttr":$block_vote,        // a boolean reduction the block's barrier computes: "any" or "all" (tle-block-votes)
    "::mlir::IntegerAttr":$offset,           // a buffer's byte offset (tle-plan-shared-memory)
    "::mlir::IntegerAttr":$buffer_bytes,     // the bytes all buffers take (tle-plan-shared-memory)
    "::mlir::UnitAttr":$async_copy,          // a load planned as an asynchronous copy (tle-plan-async-copies)
    "::mlir::UnitAttr":$tma_copy,            // such a load of a descriptor block, copied by TMA (tle-plan-tma-copies)
    "::mlir::UnitAttr":$no_tma,              // a kernel whose copies stay cp.async (tlec --tma=off)
    "::mlir::IntegerAttr":$async_depth,      // how many iterations ahead a loop's copies go (tle-plan-async-copies)
    "::mlir::IntegerAttr":$ring_slots,       // the slots of a loop's operand rings (tle-lower-async-copies)
    "::mlir::Attribute":$shared_memory,      // a kernel's SharedMemoryPlanAttr (tle-plan-shared-memory)
    "::mlir::DenseI64ArrayAttr":$arg_offsets, // a raw call's block arguments in the scratch, then their end (tle-plan-shared-memory)
    "::mlir::DenseI32ArrayAttr":$worker_first_warps, // where each worker partition starts (tle-isolate-partitions)
    "::mlir::DenseI32ArrayAttr":$pipe_threads, // a pipe's writer threads, then its readers' (tle-isolate-partitions)
    "::mlir::DenseI32ArrayAttr":$register_plan, // the kernel's registers per thread, then the default partition's and each worker's setmaxnreg or 0 (tle-isolate-partitions)
    "::mlir::IntegerAttr":$min_blocks_per_processor, // the resident blocks per multiprocessor ptxas must leave room for: __launch_bounds__(threads, n) (tle-bound-registers)
    "::mlir::UnitAttr":$after_async_copies,  // a pipe commit that publishes the writer's cp.async copies too (tle-async-slot-copies)
    "::mlir::UnitAttr":$operand_buffer,      // a buffer laid out as wgmma/ldmatrix read dot operands, which its dots read in place (tle-read-buffer-operands)
    "::mlir::UnitAttr":$widen_at_use         // an addptr whose 32-bit offsets widen where it is computed, not earlier (tle-carry-pointer-bases)
  );
}

class TleGpu_Op<string mnemonic, list<Trait> traits = []> : Op<TleGpu_Dialect, mnemonic, traits>;

#endif
