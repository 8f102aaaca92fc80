// The target model: what a target is, in one place. Sema's tier and capacity rules, the IR
// verifiers and the passes ask a TargetInfo; nothing else compares target names or knows
// hardware numbers. CUDA (sm_80 ... sm_90a) and Ascend 910B implement it (CudaTarget.cpp,
// AscendTarget.cpp). Plain C++, so that the driver can parse --target without MLIR.
#pragma once

#include "target/MemorySpace.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tle {

enum class TargetFamily { Cuda, Ascend };

// The TLE tiers a kernel may use (DESIGN.md): Lite works everywhere; Struct is per hardware
// family; Raw calls native code in the target's own language.
enum class Tier { Lite, GpuStruct, DsaStruct, Raw };

// Instruction families and hardware features that decide how (and whether) something lowers.
enum class Feature {
  MmaSync,             // warp-level tensor-core mma.sync (and ldmatrix)
  CpAsync,             // asynchronous global-to-shared copies (cp.async)
  Wgmma,               // warpgroup tensor-core wgmma (sm_90a)
  Tma,                 // the tensor memory accelerator (cp.async.bulk.tensor)
  Clusters,            // thread-block clusters and distributed shared memory
  WarpSpecialization,  // asynchronous (transaction) barriers for warp-specialized kernels
  RegisterReallocation,  // setmaxnreg: warp groups trade registers (sm_90a)
  Cube,                // Ascend's matrix unit (Mmad on L0A/L0B into L0C)
};

struct MemorySpaceInfo {
  MemorySpace space;
  int64_t capacityBytes;   // what one block (CUDA) or one AI core (Ascend) may use; 0: unbounded
  int64_t alignmentBytes;  // where allocations in it start
};

class TargetInfo {
 public:
  virtual ~TargetInfo() = default;

  virtual TargetFamily family() const = 0;
  // "sm_90a", "910b".
  virtual std::string_view arch() const = 0;
  // "cuda:sm_90a", "ascend:910b": how the command line and diagnostics name it.
  std::string name() const;

  // Threads of a warp (CUDA); 0 where the hardware has no warps (Ascend).
  virtual int threadsPerWarp() const = 0;
  // The most threads one block (program) can have; 0 where programs are not thread blocks.
  virtual int maxThreadsPerBlock() const = 0;
  // The widest access one thread makes at once (CUDA: a 16-byte vector) or the bytes one
  // vector instruction repeat processes (Ascend).
  virtual int vectorBytes() const = 0;

  // The memories kernels can name on this target.
  virtual const std::vector<MemorySpaceInfo> &memorySpaces() const = 0;
  // nullptr when the target has no such memory.
  const MemorySpaceInfo *memorySpace(MemorySpace space) const;

  // The shared memory of one multiprocessor that its resident blocks divide, and what the
  // hardware keeps of it for each block (CUDA); 0 where blocks do not share one.
  virtual int64_t sharedBytesPerProcessor() const { return 0; }
  virtual int64_t sharedBytesReservedPerBlock() const { return 0; }
  // The threads one multiprocessor keeps resident (CUDA); 0 where there is no such limit.
  virtual int maxThreadsPerProcessor() const { return 0; }
  // The registers of one multiprocessor that its resident threads divide (CUDA); 0 where
  // there is no such pool.
  virtual int64_t registersPerProcessor() const { return 0; }
  // The most registers one thread can have (CUDA); 0 where there is no such limit.
  virtual int64_t registersPerThread() const { return 0; }
  // How many registers a thread is given at a time (CUDA); 1 where they are not counted.
  virtual int64_t registerAllocationUnit() const { return 1; }
  // The multiprocessor's scheduler partitions: each holds its own share of the registers,
  // and a block's warps are spread over them (so a warp count not a multiple of it puts
  // more warps, and registers, on some). 1 where the registers are one pool.
  virtual int processorPartitions() const { return 1; }
  // How many blocks fit on one processor at once, as far as shared memory (`sharedBytes` per
  // block) and registers (`registersPerThread` for `threads` threads) decide; 0: no limit.
  int64_t blocksPerProcessor(int64_t sharedBytes, int64_t threads, int64_t registersPerThread) const;

  // Blocks in one thread-block cluster: what every GPU with clusters runs (portable), and the
  // most this target runs when the kernel opts in at launch (non-portable); 0 without
  // clusters.
  virtual int portableClusterBlocks() const { return 0; }
  virtual int maxClusterBlocks() const { return 0; }

  virtual bool has(Feature feature) const = 0;
  virtual bool accepts(Tier tier) const = 0;
  // The language of TLE-Raw functions this target runs ("cuda", "ascendc").
  virtual std::string_view rawLanguage() const = 0;
  bool acceptsRawLanguage(std::string_view language) const { return language == rawLanguage(); }
};

// The target named `name` ("cuda:sm_90a"); nullptr for an unknown name.
const TargetInfo *findTarget(std::string_view name);
// Every target, in the order --help lists them.
std::vector<const TargetInfo *> allTargets();
// "cuda:sm_80, cuda:sm_86, ..., ascend:910b".
std::string targetNameList();
const TargetInfo &defaultTarget();

// The family's implementations (CudaTarget.cpp, AscendTarget.cpp).
std::vector<const TargetInfo *> cudaTargets();
std::vector<const TargetInfo *> ascendTargets();
// What every CUDA target shares (the layouts of the GPU dialect are written against it).
int cudaThreadsPerWarp();

}  // namespace tle
