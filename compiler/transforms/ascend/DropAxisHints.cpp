// tle-ascend-drop-axis-hints (Passes.td): the programmer's run facts have no use on an AI
// core; the later passes see the values themselves.
#include "transforms/ascend/Passes.h"

namespace tle::ascend {

#define GEN_PASS_DEF_DROPAXISHINTS
#include "transforms/ascend/Passes.h.inc"

namespace {

struct DropAxisHintsPass : impl::DropAxisHintsBase<DropAxisHintsPass> {
  void runOnOperation() override {
    getOperation().walk([](ir::AxisHintOp hint) {
      hint.getResult().replaceAllUsesWith(hint.getSrc());
      hint.erase();
    });
  }
};

}  // namespace

}  // namespace tle::ascend
