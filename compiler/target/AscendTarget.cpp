// Huawei Ascend 910B: AI cores with a vector unit on the unified buffer (UB) and a cube unit
// fed from L1 through L0A/L0B into L0C.
#include "target/Target.h"

namespace tle {

namespace {

class AscendTarget : public TargetInfo {
 public:
  TargetFamily family() const override { return TargetFamily::Ascend; }
  std::string_view arch() const override { return "910b"; }
  int threadsPerWarp() const override { return 0; }
  int maxThreadsPerBlock() const override { return 0; }
  int vectorBytes() const override { return 256; }  // one repeat of a vector instruction
  const std::vector<MemorySpaceInfo> &memorySpaces() const override {
    // Per AI core. UB is 192 KiB, of which CANN keeps the last 8 KiB for its own APIs (Select
    // works there). UB and L1 take 32-byte-aligned allocations, L0A/L0B 512-byte ones, L0C
    // 1024-byte ones (where Mmad writes).
    static const std::vector<MemorySpaceInfo> spaces = {
        {MemorySpace::Global, 0, 32},          {MemorySpace::UB, 184 * 1024, 32},   {MemorySpace::L1, 512 * 1024, 32},
        {MemorySpace::L0A, 64 * 1024, 512},   {MemorySpace::L0B, 64 * 1024, 512}, {MemorySpace::L0C, 128 * 1024, 1024},
    };
    return spaces;
  }
  bool has(Feature feature) const override { return feature == Feature::Cube; }
  bool accepts(Tier tier) const override { return tier != Tier::GpuStruct; }
  std::string_view rawLanguage() const override { return "ascendc"; }
};

}  // namespace

std::vector<const TargetInfo *> ascendTargets() {
  static const AscendTarget a910b;
  return {&a910b};
}

}  // namespace tle
