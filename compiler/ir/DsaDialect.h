// The `tle_dsa` dialect: TLE-Struct DSA (Ascend) ops on UB, L1 and L0 buffers (DsaOps.td).
#pragma once

#include "ir/Dialect.h"

#include "ir/DsaDialect.h.inc"

#define GET_OP_CLASSES
#include "ir/DsaOps.h.inc"

namespace tle::dsa {

// The byte offset tle-ascend-plan-memory gave an on-chip buffer (tle.alloc) in its memory.
std::optional<int64_t> bufferOffset(mlir::Operation *alloc);
void setBufferOffset(mlir::Operation *alloc, int64_t offset);
// The bytes a kernel uses in `space` (0 when it uses none).
int64_t memoryBytes(mlir::Operation *kernel, MemorySpace space);
void setMemoryBytes(mlir::Operation *kernel, const std::vector<std::pair<MemorySpace, int64_t>> &bytes);

}  // namespace tle::dsa
