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

def PrefetchLoads : Pass<"tle-prefetch-loads", "::mlir::func::FuncOp">, KernelOptions {
  let summary = "issue the loads that feed tl.dot num_stages - 1 loop iterations ahead";
  let description = [{
    Software pipelining: each load that feeds a dot operand in a loop is issued `depth`
    iterations ahead (depth = num_stages - 1, at most 3, when every such tile goes to shared
    memory asynchronously; 1 for tiles that wait in registers), predicated on its iteration
    existing; the loop carries the tiles in flight.
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
    a vector.
  }];
  let options = kernelOptions;
  let dependentDialects = ["::tle::gpu::TleGpuDialect"];
}

def PlanSharedMemory : Pass<"tle-plan-shared-memory", "::mlir::func::FuncOp"> {
  let summary = "give each shared-memory buffer an offset, sharing bytes between buffers whose lifetimes do not overlap";
  let dependentDialects = ["::tle::gpu::TleGpuDialect"];
}

#endif
