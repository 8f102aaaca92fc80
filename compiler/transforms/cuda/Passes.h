// The CUDA lowering passes, in pipeline order. Each lives in its own file and can be run
// alone by tle-opt (see registerCudaPasses).
#pragma once

#include "mlir/Pass/Pass.h"

#include <memory>

namespace tle::cuda {

// Rewrites block pointers (make_block_ptr/advance/load_block/store_block) into tensors of
// pointers with boundary masks; loops carry the offsets.
std::unique_ptr<mlir::Pass> createLowerBlockPointersPass();

// Software pipelining in registers: loads that feed tl.dot inside a loop are issued one
// iteration ahead, predicated on the next iteration existing.
std::unique_ptr<mlir::Pass> createPrefetchLoadsPass();

// Gives each use of a cheap index computation (make_range, splat, constants and integer
// arithmetic on them) its own copy, so that each copy can take the layout its use needs
// instead of being converted through shared memory.
std::unique_ptr<mlir::Pass> createCloneIndexingPass();

// Sets a layout encoding on every tensor type and inserts tle.convert_layout where two
// uses disagree; records each load/store's vector width as `tle.vec`, and marks
// `tle.mask_per_element` the ones whose mask may differ inside a vector.
std::unique_ptr<mlir::Pass> createAssignLayoutsPass();

// Gives each shared-memory tle.alloc an offset (`tle.offset`) and the function the bytes
// all buffers take (`tle.buffer_bytes`); buffers whose lifetimes do not overlap share bytes.
std::unique_ptr<mlir::Pass> createPlanSharedMemoryPass();

void registerCudaPasses();

// The whole CUDA pipeline, as run by `tlec --emit=cuda`.
void buildCudaPipeline(mlir::OpPassManager &pm);

}  // namespace tle::cuda
