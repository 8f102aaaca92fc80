#include "target/Target.h"

namespace tle {

std::string TargetInfo::name() const {
  return std::string(family() == TargetFamily::Cuda ? "cuda:" : "ascend:") + std::string(arch());
}

const MemorySpaceInfo *TargetInfo::memorySpace(MemorySpace space) const {
  for (const MemorySpaceInfo &info : memorySpaces())
    if (info.space == space) return &info;
  return nullptr;
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
