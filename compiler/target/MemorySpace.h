// The memories a tile program can name: global memory, GPU shared memory (a block's own, or
// another block's of the cluster), and Ascend's on-chip buffers. One enum for pointers and
// buffers alike; which spaces a target has, and their sizes, is the target model's business
// (Target.h). Plain C++: the driver uses it without MLIR.
#pragma once

#include <optional>
#include <string_view>

namespace tle {

enum class MemorySpace : unsigned char {
  Global,        // device memory (NVPTX address space 1; Ascend GM)
  Shared,        // a block's shared memory (NVPTX 3)
  RemoteShared,  // shared memory of another block of the cluster (DSMEM, NVPTX 7)
  UB,            // Ascend unified buffer (vector unit)
  L1,            // Ascend L1 (cube operands)
  L0A,           // Ascend cube input A
  L0B,           // Ascend cube input B
  L0C,           // Ascend cube accumulator
};

// How the IR and diagnostics spell a space: "global", "smem", "dsmem", "UB", "L1", ...
std::string_view memorySpaceName(MemorySpace space);
std::optional<MemorySpace> memorySpaceNamed(std::string_view name);

// Shared memory of this block or of another block of the cluster.
inline bool isSharedMemory(MemorySpace space) { return space == MemorySpace::Shared || space == MemorySpace::RemoteShared; }
// One of Ascend's on-chip buffers.
inline bool isAscendBuffer(MemorySpace space) {
  return space == MemorySpace::UB || space == MemorySpace::L1 || space == MemorySpace::L0A || space == MemorySpace::L0B ||
         space == MemorySpace::L0C;
}

}  // namespace tle
