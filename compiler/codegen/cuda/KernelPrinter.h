// Prints one lowered kernel (func.func with layout-encoded tensors) as a CUDA __global__
// function that calls the device library (stdlib/include/tle/cuda). Thin by design: each IR
// op becomes one statement; decisions were made by the passes.
#pragma once

#include "codegen/cuda/CudaBackend.h"
#include "ir/Locations.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <optional>
#include <string>
#include <vector>

namespace tle::cuda {

struct KernelParam {
  std::string name;
  std::string deviceType;  // as the kernel declares it
  std::string hostType;    // as the launcher takes it (C types only)
  bool isPointer = false;
  int divisibility = 1;    // the --signature hint the code relies on
};

// One step of a tensor map part's computation, for tle/module.h (which has no C++ to run):
// a stack machine over 64-bit integers, 32-bit values kept sign-extended.
struct HostStep {
  enum Kind { Param = 1, Constant = 2, Add32 = 3, Sub32 = 4, Mul32 = 5, Add64 = 6, Sub64 = 7, Mul64 = 8, SignExtend32 = 9, ZeroExtend32 = 10 };
  Kind kind;
  std::string param;  // Param: the parameter's name
  int64_t value = 0;  // Constant
};

// A TMA tensor map the launcher encodes (tle::encode_tensor_map) and passes after the
// kernel's parameters (tle_gpu.tensor_map).
struct TensorMapParam {
  std::string name;      // the kernel's parameter
  std::string dataType;  // CU_TENSOR_MAP_DATA_TYPE_*
  int dataTypeCode = 0;  // its value
  int elementBytes = 2;
  // C++ expressions of the launcher's parameters: the base, the extents, the row stride in elements.
  std::string base, rows, cols, rowStride;
  // The same four as programs (tle/module.h).
  std::vector<HostStep> programs[4];
  int64_t boxRows = 0, boxCols = 0;
  int swizzleBytes = 0;
};

struct PrintedKernel {
  std::string name;
  std::vector<KernelParam> params;
  unsigned threadsPerBlock = 128;  // warps times the target's threads per warp
  std::string code;                   // the layouts namespace and the __global__ function
  std::string sharedBytesExpression;  // a constant expression, valid after `code`
  int64_t sharedCapacity = 0;         // the target's shared memory per block (0: unknown)
  bool usesAtomics = false;           // needs tle/cuda/atomic.cuh
  unsigned clusterSize = 1;           // blocks per thread-block cluster (__cluster_dims__ along x)
  bool nonPortableCluster = false;    // more blocks than the target's portable cluster: opt in at launch
  bool usesClusters = false;          // needs tle/cuda/cluster.cuh
  bool cooperative = false;           // has grid barriers: launched cooperatively (tle/cuda/grid.cuh)
  bool usesSignals = false;           // Triton-distributed signals (tle/cuda/signal.cuh)
  bool usesPipes = false;             // tle.pipe (tle/cuda/pipe.cuh)
  std::vector<TensorMapParam> tensorMaps;  // TMA copies (tle/cuda/tma.cuh): encoded by the launcher
  bool distributed = false;           // takes the tleDistContext's device view (tle/cuda/distributed.cuh)
  bool deviceBarrier = false;         // has a barrier over GPUs: one LSA barrier per block
  unsigned meshRanks = 0;             // GPUs its device mesh spans (0: not fixed by a mesh)
  unsigned meshNodes = 1;             // nodes it spans: each node's GPUs are one NVLink/PCIe team
  bool network = false;               // signals other nodes (GIN): its ranks may span nodes
  std::string dispatch;               // the launcher that picks among its variants ("": its own)
  unsigned variant = 0;               // 0: the generic kernel; 1, 2, ...: tried in this order
  // TLE-Raw CUDA functions the kernel calls: (name, source), printed once before the kernels.
  std::vector<std::pair<std::string, std::string>> rawFunctions;
};

using ir::fileLocation;

// Returns false and sets `error` for IR the printer cannot express (a compiler bug or an
// op with no CUDA lowering yet).
// `where` is the location of the op that could not be printed.
bool printKernel(mlir::func::FuncOp f, const CudaOptions &options, PrintedKernel &out, std::string &error,
                 mlir::Location &where);

}  // namespace tle::cuda
