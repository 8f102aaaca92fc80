#include "target/MemorySpace.h"

namespace tle {

namespace {

struct Named {
  MemorySpace space;
  std::string_view name;
};

constexpr Named kNames[] = {
    {MemorySpace::Global, "global"}, {MemorySpace::Shared, "smem"}, {MemorySpace::RemoteShared, "dsmem"},
    {MemorySpace::UB, "UB"},         {MemorySpace::L1, "L1"},       {MemorySpace::L0A, "L0A"},
    {MemorySpace::L0B, "L0B"},       {MemorySpace::L0C, "L0C"},
};

}  // namespace

std::string_view memorySpaceName(MemorySpace space) {
  for (const Named &n : kNames)
    if (n.space == space) return n.name;
  return "?";
}

std::optional<MemorySpace> memorySpaceNamed(std::string_view name) {
  for (const Named &n : kNames)
    if (n.name == name) return n.space;
  return std::nullopt;
}

}  // namespace tle
