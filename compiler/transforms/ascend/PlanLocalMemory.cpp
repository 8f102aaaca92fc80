#include "transforms/ascend/Passes.h"
#include "transforms/PassDiagnostics.h"

#include "ir/Dialect.h"
#include "ir/DsaDialect.h"
#include "ir/KernelSettings.h"
#include "target/Target.h"

namespace tle::ascend {

#define GEN_PASS_DEF_PLANLOCALMEMORY
#include "transforms/ascend/Passes.h.inc"

using namespace mlir;

namespace {

struct PlanLocalMemoryPass : impl::PlanLocalMemoryBase<PlanLocalMemoryPass> {
  void runOnOperation() override {
    func::FuncOp kernel = getOperation();
    const TargetInfo *target = &ir::targetOf(kernel);
    // Program order, one region each: simple to check by eye, and every buffer may be
    // touched by a pipe at any time (reuse would add hazards for the sync pass to order).
    std::map<MemorySpace, int64_t> used;
    bool failedAny = false;
    kernel.walk([&](ir::AllocOp alloc) {
      ir::BufferType type = alloc.getType();
      const MemorySpaceInfo *space = target->memorySpace(type.getSpace());
      if (!space) {
        emitUnsupported(alloc) << target->name() << " has no " << memorySpaceName(type.getSpace()) << " memory";
        failedAny = true;
        return;
      }
      int64_t offset = ir::alignTo(used[type.getSpace()], space->alignmentBytes);
      int64_t bytes = ir::alignTo(ir::tileBytes(type.getBlockType()), space->alignmentBytes);
      used[type.getSpace()] = offset + bytes;
      if (space->capacityBytes && offset + bytes > space->capacityBytes && !failedAny) {
        emitUnsupported(alloc) << "this buffer ends at byte " << offset + bytes << " of " << memorySpaceName(type.getSpace())
                               << ", which holds " << space->capacityBytes
                               << " bytes per AI core: use smaller tiles (the kernel's tiles and temporaries do not fit)";
        failedAny = true;
      }
      dsa::setBufferOffset(alloc, offset);
    });
    if (failedAny) return signalPassFailure();
    std::vector<std::pair<MemorySpace, int64_t>> totals(used.begin(), used.end());
    dsa::setMemoryBytes(kernel, totals);
  }
};

}  // namespace

}  // namespace tle::ascend
