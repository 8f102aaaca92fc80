// The `tle_gpu` dialect: layouts, TLE-Struct GPU ops and the CUDA planning passes' ops and
// attributes (GpuBase.td, GpuAttrs.td, GpuOps.td).
#pragma once

#include "ir/Dialect.h"

#include "ir/GpuDialect.h.inc"

#define GET_ATTRDEF_CLASSES
#include "ir/GpuAttrs.h.inc"

#define GET_OP_CLASSES
#include "ir/GpuOps.h.inc"

namespace tle::gpu {

// The attributes CUDA passes hand to each other and to the printer (GpuBase.td), each with
// its meaning when absent.
TleGpuDialect &dialectOf(mlir::Operation *op);
// A load or store's vector width (tle-assign-layouts); 1 when unset.
int vectorWidth(mlir::Operation *op);
void setVectorWidth(mlir::Operation *op, int width);
// The access's mask may differ inside one vector (tle-assign-layouts).
bool maskPerElement(mlir::Operation *op);
void setMaskPerElement(mlir::Operation *op);
// A shared-memory buffer's byte offset (tle-plan-shared-memory); nullopt before planning.
std::optional<int64_t> bufferOffset(mlir::Operation *alloc);
void setBufferOffset(mlir::Operation *alloc, int64_t offset);
// The bytes a kernel's buffers take together (tle-plan-shared-memory); 0 when unset.
int64_t bufferBytes(mlir::Operation *kernel);
void setBufferBytes(mlir::Operation *kernel, int64_t bytes);

}  // namespace tle::gpu
