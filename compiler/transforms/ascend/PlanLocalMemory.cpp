#include "transforms/ascend/Passes.h"
#include "transforms/PassDiagnostics.h"

#include "ir/Dialect.h"
#include "ir/DsaDialect.h"
#include "ir/KernelSettings.h"
#include "target/Target.h"

#include <map>

namespace tle::ascend {

#define GEN_PASS_DEF_PLANLOCALMEMORY
#include "transforms/ascend/Passes.h.inc"

using namespace mlir;

namespace {

struct Placement {
  ir::AllocOp alloc;
  int64_t first, last;  // program points (pre-order positions) of its allocation and last use
  int64_t bytes, offset = 0;
};

struct PlanLocalMemoryPass : impl::PlanLocalMemoryBase<PlanLocalMemoryPass> {
  void runOnOperation() override {
    func::FuncOp kernel = getOperation();
    const TargetInfo &target = ir::targetOf(kernel);
    // Program points: each op's pre-order position, and the last position inside it.
    DenseMap<Operation *, int64_t> position, lastInside;
    int64_t next = 0;
    kernel.walk<WalkOrder::PreOrder>([&](Operation *op) { position[op] = next++; });
    kernel.walk<WalkOrder::PostOrder>([&](Operation *op) {
      int64_t last = position[op];
      for (Region &r : op->getRegions())
        for (Block &b : r)
          for (Operation &inner : b) last = std::max(last, lastInside[&inner]);
      lastInside[op] = last;
    });

    // A buffer lives from its allocation to its last use; a use inside a loop (or branch)
    // nested below the allocation keeps it alive to the end of that loop, which may run the
    // use again.
    std::map<MemorySpace, std::vector<Placement>> bySpace;
    kernel.walk([&](ir::AllocOp alloc) {
      Placement p{alloc, position[alloc], position[alloc], ir::tileBytes(alloc.getType().getBlockType())};
      Block *home = alloc->getBlock();
      SmallVector<Value> values = {alloc.getResult()};
      for (size_t i = 0; i < values.size(); ++i)
        for (Operation *user : values[i].getUsers()) {
          if (auto view = dyn_cast<dsa::SubviewOp>(user)) values.push_back(view.getResult());  // same memory
          Operation *outer = home->findAncestorOpInBlock(*user);
          p.last = std::max(p.last, outer ? lastInside[outer] : position[user]);
        }
      bySpace[alloc.getType().getSpace()].push_back(p);
    });

    std::vector<std::pair<MemorySpace, int64_t>> totals;
    for (auto &[space, placements] : bySpace) {
      const MemorySpaceInfo *info = target.memorySpace(space);
      if (!info) {
        emitUnsupported(placements.front().alloc) << target.name() << " has no " << memorySpaceName(space) << " memory";
        return signalPassFailure();
      }
      // First fit in program order: the lowest aligned offset that no buffer alive at the
      // same time occupies.
      int64_t total = 0;
      for (size_t i = 0; i < placements.size(); ++i) {
        Placement &p = placements[i];
        int64_t offset = 0;
        for (bool moved = true; moved;) {
          moved = false;
          for (size_t j = 0; j < i; ++j) {
            const Placement &q = placements[j];
            bool overlapInTime = q.first <= p.last && p.first <= q.last;
            bool overlapInSpace = offset < q.offset + q.bytes && q.offset < offset + p.bytes;
            if (overlapInTime && overlapInSpace) {
              offset = ir::alignTo(q.offset + q.bytes, info->alignmentBytes);
              moved = true;
            }
          }
        }
        p.offset = offset;
        total = std::max(total, offset + ir::alignTo(p.bytes, info->alignmentBytes));
        if (info->capacityBytes && total > info->capacityBytes) {
          emitUnsupported(p.alloc) << "this buffer ends at byte " << offset + p.bytes << " of " << memorySpaceName(space) << ", which holds "
                                   << info->capacityBytes
                                   << " bytes per AI core: use smaller tiles (the kernel's tiles and temporaries do not fit)";
          return signalPassFailure();
        }
        dsa::setBufferOffset(p.alloc, offset);
      }
      totals.push_back({space, total});
    }
    dsa::setMemoryBytes(kernel, totals);
  }
};

}  // namespace

}  // namespace tle::ascend
