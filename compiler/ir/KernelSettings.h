// A kernel's settings, as sema records them on its function (tle.num_warps, tle.num_stages,
// tle.target), read in one place with one default each. Passes take an override from their
// options (Passes.td): 0 or "" means "the kernel's own".
#pragma once

#include "target/Target.h"

#include "mlir/IR/Operation.h"

#include <optional>
#include <string>

namespace tle::ir {

constexpr unsigned kDefaultNumWarps = 4;
constexpr unsigned kDefaultNumStages = 3;

// The kernel that holds `op` (or `op` itself): its warps, its pipelining depth, its target.
unsigned numWarps(mlir::Operation *op, unsigned override = 0);
unsigned numStages(mlir::Operation *op, unsigned override = 0);
const TargetInfo &targetOf(mlir::Operation *op, const std::string &override = "");
// Blocks per thread-block cluster (1: the kernel is not launched on clusters).
unsigned clusterSize(mlir::Operation *op);
void setClusterSize(mlir::Operation *kernel, unsigned blocks);
// The number of GPUs (ranks) the kernel's device mesh spans (0: no node or device level).
unsigned meshRanks(mlir::Operation *op);
// Nodes of the launch mesh: the product of its "node" levels (1 without them).
unsigned meshNodes(mlir::Operation *op);
void setMeshNodes(mlir::Operation *kernel, unsigned nodes);
void setMeshRanks(mlir::Operation *kernel, unsigned ranks);
// Automatic specialization (tle-specialize-parameters): the launcher symbol that dispatches
// among a kernel's variants ("" for a kernel launched on its own) and the kernel's place
// among them (0: the generic kernel, tried last; 1, 2, ...: specialized, tried in order).
std::string dispatchSymbol(mlir::Operation *kernel);
unsigned variantIndex(mlir::Operation *kernel);
void setDispatch(mlir::Operation *kernel, const std::string &symbol, unsigned variant);
// Variant `variant` (1, 2, ...)'s function name: SYMBOL__sN, the name tle/module.h looks up.
std::string variantSymbol(const std::string &dispatch, unsigned variant);
// A loop's own depth (tl.range(num_stages=)), else the kernel's.
unsigned loopNumStages(mlir::Operation *loop, unsigned kernelStages);
std::optional<unsigned> ownNumStages(mlir::Operation *loop);
// tl.range's keywords on a loop.
void setLoopNumStages(mlir::Operation *loop, unsigned numStages);
void setLoopUnrollFactor(mlir::Operation *loop, unsigned factor);
std::optional<unsigned> loopUnrollFactor(mlir::Operation *loop);

// Whether `loop`'s depth was asked for: by tl.range(num_stages=), by the kernel's num_stages
// (--num-stages; a kernel without one runs at kDefaultNumStages), or by a pass's override.
bool numStagesAsked(mlir::Operation *loop, unsigned override = 0);

// numStages 0: not given (nothing recorded; numStages() answers kDefaultNumStages).
void setKernelSettings(mlir::Operation *kernel, unsigned numWarps, unsigned numStages, const TargetInfo &target);

}  // namespace tle::ir

namespace tle::ir {

// A kernel parameter's facts from its --signature: its name in the source ("" when it has
// none), its divisibility hint (1 when unhinted), const-ness of a pointer, unsignedness.
std::string parameterName(mlir::Operation *kernel, unsigned index);
unsigned parameterDivisibility(mlir::Operation *kernel, unsigned index);
bool parameterReadonly(mlir::Operation *kernel, unsigned index);
void setParameterDivisibility(mlir::Operation *kernel, unsigned index, unsigned divisibility);
// The attributes sema puts on parameter `index`.
mlir::DictionaryAttr parameterAttributes(mlir::MLIRContext *ctx, const std::string &name, unsigned divisibility, bool readonly,
                                         bool isUnsigned);

}  // namespace tle::ir
