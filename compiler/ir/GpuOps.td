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

#endif
