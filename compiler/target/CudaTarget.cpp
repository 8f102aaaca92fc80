// NVIDIA GPUs from Ampere (sm_80) to Hopper (sm_90a).
#include "target/Target.h"

namespace tle {

namespace {

constexpr int kThreadsPerWarp = 32;
constexpr int kWidestAccessBytes = 16;  // ld/st.v4.b32, cp.async's largest chunk
constexpr int kSharedAlignment = 16;
constexpr int64_t kReservedSharedBytesPerBlock = 1024;
constexpr int64_t kRegistersPerProcessor = 64 * 1024;  // 32-bit registers, sm_80 ... sm_90
constexpr int64_t kRegistersPerThread = 255;  // what ptxas can assign one thread
constexpr int64_t kRegisterAllocationUnit = 8;  // a thread's registers come 8 at a time
constexpr int kProcessorPartitions = 4;                 // sub-partitions of 16K registers each
// Hopper runs clusters of up to 8 blocks on every part, 16 with the non-portable opt-in
// (cudaFuncAttributeNonPortableClusterSizeAllowed; CUDA C++ Programming Guide, "Thread
// Block Clusters").
constexpr int kPortableClusterBlocks = 8;
constexpr int kNonPortableClusterBlocks = 16;

class CudaTarget : public TargetInfo {
 public:
  // `sharedKiB`: the dynamic shared memory one block may opt in to; `processorSharedKiB`: a
  // multiprocessor's, which its resident blocks divide; `processorThreads`: the threads it
  // keeps resident (CUDA C++ Programming Guide, "Technical Specifications per Compute
  // Capability").
  CudaTarget(std::string arch, int computeCapability, bool archSpecific, int64_t sharedKiB, int64_t processorSharedKiB,
             int processorThreads)
      : arch_(std::move(arch)), computeCapability_(computeCapability), archSpecific_(archSpecific),
        processorSharedBytes_(processorSharedKiB * 1024), processorThreads_(processorThreads) {
    spaces_ = {{MemorySpace::Global, 0, kSharedAlignment},
               {MemorySpace::Shared, sharedKiB * 1024, kSharedAlignment}};
    if (computeCapability_ >= 90) spaces_.push_back({MemorySpace::RemoteShared, sharedKiB * 1024, kSharedAlignment});
  }

  TargetFamily family() const override { return TargetFamily::Cuda; }
  std::string_view arch() const override { return arch_; }
  int threadsPerWarp() const override { return kThreadsPerWarp; }
  int maxThreadsPerBlock() const override { return 1024; }
  int vectorBytes() const override { return kWidestAccessBytes; }
  const std::vector<MemorySpaceInfo> &memorySpaces() const override { return spaces_; }
  int64_t sharedBytesPerProcessor() const override { return processorSharedBytes_; }
  int maxThreadsPerProcessor() const override { return processorThreads_; }
  int64_t sharedBytesReservedPerBlock() const override { return kReservedSharedBytesPerBlock; }
  int64_t registersPerProcessor() const override { return kRegistersPerProcessor; }
  int64_t registersPerThread() const override { return kRegistersPerThread; }
  int64_t registerAllocationUnit() const override { return kRegisterAllocationUnit; }
  int processorPartitions() const override { return kProcessorPartitions; }
  int portableClusterBlocks() const override { return has(Feature::Clusters) ? kPortableClusterBlocks : 0; }
  int maxClusterBlocks() const override { return has(Feature::Clusters) ? kNonPortableClusterBlocks : 0; }

  bool has(Feature feature) const override {
    switch (feature) {
    case Feature::MmaSync:
    case Feature::CpAsync: return computeCapability_ >= 80;
    case Feature::Wgmma:
    case Feature::RegisterReallocation: return computeCapability_ == 90 && archSpecific_;
    case Feature::Tma:
    case Feature::Clusters:
    case Feature::WarpSpecialization: return computeCapability_ >= 90;
    case Feature::Cube: return false;
    }
    return false;
  }
  bool accepts(Tier tier) const override { return tier != Tier::DsaStruct; }
  std::string_view rawLanguage() const override { return "cuda"; }

 private:
  std::string arch_;
  int computeCapability_;
  bool archSpecific_;  // sm_90a: wgmma and setmaxnreg, not forward compatible
  int64_t processorSharedBytes_;
  int processorThreads_;
  std::vector<MemorySpaceInfo> spaces_;
};

}  // namespace

std::vector<const TargetInfo *> cudaTargets() {
  static const CudaTarget sm80("sm_80", 80, false, 163, 164, 2048), sm86("sm_86", 86, false, 99, 100, 1536),
      sm87("sm_87", 87, false, 163, 164, 2048), sm89("sm_89", 89, false, 99, 100, 1536), sm90("sm_90", 90, false, 227, 228, 2048),
      sm90a("sm_90a", 90, true, 227, 228, 2048);
  return {&sm80, &sm86, &sm87, &sm89, &sm90, &sm90a};
}

int cudaThreadsPerWarp() { return kThreadsPerWarp; }

}  // namespace tle
