#include "target/Target.h"

#include <algorithm>

namespace tle {

std::string TargetInfo::name() const {
  return std::string(family() == TargetFamily::Cuda ? "cuda:" : "ascend:") + std::string(arch());
}

const MemorySpaceInfo *TargetInfo::memorySpace(MemorySpace space) const {
  for (const MemorySpaceInfo &info : memorySpaces())
    if (info.space == space) return &info;
  return nullptr;
}

int64_t TargetInfo::blocksPerProcessor(int64_t sharedBytes, int64_t threads, int64_t registersPerThread) const {
  int64_t blocks = 0;
  auto limit = [&](int64_t n) { blocks = blocks == 0 ? n : std::min(blocks, n); };
  if (int64_t pool = sharedBytesPerProcessor()) limit(pool / (sharedBytes + sharedBytesReservedPerBlock()));
  if (int64_t pool = registersPerProcessor(); pool && threads > 0 && registersPerThread > 0) limit(pool / (threads * registersPerThread));
  return blocks;
}

std::vector<const TargetInfo *> allTargets() {
  std::vector<const TargetInfo *> all = cudaTargets();
  for (const TargetInfo *t : ascendTargets()) all.push_back(t);
  return all;
}

const TargetInfo *findTarget(std::string_view name) {
  for (const TargetInfo *t : allTargets())
    if (t->name() == name) return t;
  return nullptr;
}

std::string targetNameList() {
  std::string out;
  for (const TargetInfo *t : allTargets()) out += (out.empty() ? "" : ", ") + t->name();
  return out;
}

const TargetInfo &defaultTarget() { return *findTarget("cuda:sm_90a"); }

}  // namespace tle
