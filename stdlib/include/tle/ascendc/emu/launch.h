// Running a kernel on emulated AI cores: launch() calls the kernel once per block index, each
// block on a fresh core (poisoned memories, no hazard history, no flags), several blocks at a
// time on a small pool of threads, and returns everything the cores found.
#pragma once

#include "tle/ascendc/emu/core.h"
#include "tle/ascendc/emu/findings.h"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <exception>
#include <functional>
#include <iostream>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace tle::ascendc::emu {

struct LaunchOptions {
  CoreKind coreKind = CoreKind::vector;  // what ASCEND_IS_AIV / ASCEND_IS_AIC report
  uint32_t maxThreads = 0;               // 0: min(blockDim, hardware threads, 8)
  bool printFindings = false;            // print them to stderr (so does TLE_ASCENDC_EMU_REPORT=1)
};

inline void printFindings(const Findings &findings, std::ostream &out = std::cerr) {
  if (findings.empty()) return;
  out << "AscendC emulation: " << findings.size() << (findings.size() == 1 ? " finding\n" : " findings\n");
  for (const Finding &finding : findings) out << "  " << describe(finding) << "\n";
}

// Whether TLE_ASCENDC_EMU_REPORT asks every launch to print its findings.
inline bool reportFromEnvironment() {
  const char *value = std::getenv("TLE_ASCENDC_EMU_REPORT");
  return value && *value && std::string(value) != "0";
}

// Runs `kernel` for block indices 0..blockDim-1 and returns the findings, ordered by block. An
// exception from the kernel stops the launch (remaining blocks do not start) and is rethrown.
inline Findings launch(uint32_t blockDim, const std::function<void()> &kernel, const LaunchOptions &options = {}) {
  if (blockDim == 0) return {{0, FindingKind::bad_argument, "launch with blockDim 0 runs no block"}};

  std::vector<Findings> perBlock(blockDim);
  std::atomic<uint32_t> nextBlock{0};
  std::atomic<bool> failed{false};
  std::mutex errorMutex;
  std::exception_ptr error;

  auto runBlocks = [&] {
    for (uint32_t block = nextBlock++; block < blockDim && !failed; block = nextBlock++) {
      Core core(block, blockDim, options.coreKind);
      CurrentCoreScope scope(core);
      try {
        kernel();
        core.finishKernel();
      } catch (...) {
        std::lock_guard<std::mutex> lock(errorMutex);
        if (!error) error = std::current_exception();
        failed = true;
      }
      perBlock[block] = core.takeFindings();
    }
  };

  uint32_t threads = options.maxThreads ? options.maxThreads : std::max(1u, std::min(8u, std::thread::hardware_concurrency()));
  threads = std::min(threads, blockDim);
  if (threads <= 1) {
    runBlocks();
  } else {
    std::vector<std::thread> pool;
    for (uint32_t t = 0; t < threads; ++t) pool.emplace_back(runBlocks);
    for (std::thread &thread : pool) thread.join();
  }
  if (error) std::rethrow_exception(error);

  Findings all;
  for (Findings &findings : perBlock)
    all.insert(all.end(), std::make_move_iterator(findings.begin()), std::make_move_iterator(findings.end()));
  if (options.printFindings || reportFromEnvironment()) printFindings(all);
  return all;
}

}  // namespace tle::ascendc::emu
