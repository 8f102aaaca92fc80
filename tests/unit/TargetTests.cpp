// The target model's answers that passes turn into decisions.
#include "target/Target.h"

#include <doctest/doctest.h>

using namespace tle;

TEST_CASE("blocks per multiprocessor: shared memory and registers, whichever binds first") {
  const TargetInfo *hopper = findTarget("cuda:sm_90a");
  REQUIRE(hopper != nullptr);
  // 228 KiB per multiprocessor, 1 KiB kept per block.
  CHECK(hopper->blocksPerProcessor(96 * 1024, 256, 128) == 2);
  CHECK(hopper->blocksPerProcessor(128 * 1024, 256, 128) == 1);
  CHECK(hopper->blocksPerProcessor(113 * 1024, 256, 64) == 2);
  CHECK(hopper->blocksPerProcessor(114 * 1024, 256, 64) == 1);
  // 64 Ki registers: 128 threads at 238 registers fit twice, whatever shared memory allows.
  CHECK(hopper->blocksPerProcessor(16 * 1024, 128, 238) == 2);
  // sm_86 has 100 KiB per multiprocessor.
  const TargetInfo *ampere = findTarget("cuda:sm_86");
  REQUIRE(ampere != nullptr);
  CHECK(ampere->blocksPerProcessor(48 * 1024, 128, 32) == 2);
  // Ascend has no such pools: no limit (0).
  const TargetInfo *ascend = findTarget("ascend:910b");
  REQUIRE(ascend != nullptr);
  CHECK(ascend->blocksPerProcessor(64 * 1024, 1, 1) == 0);
}
