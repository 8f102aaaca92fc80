// What tlec's AscendC output includes first: CANN's kernel_operator.h when CANN's compiler
// builds it for an NPU, otherwise tlec's CPU emulation of the same API (tle/ascendc/emu), so
// that one generated file serves both. Define TLE_ASCENDC_CANN to force the former.
#pragma once

#if defined(TLE_ASCENDC_CANN) || defined(__CCE__) || defined(__CCE_AICORE__)
#include "kernel_operator.h"
#else
#define TLE_ASCENDC_EMULATION 1
#include "tle/ascendc/emu/kernel_operator.h"
#ifndef KERNEL_TASK_TYPE_DEFAULT  // which cores a kernel runs on: the launcher tells the emulation
#define KERNEL_TASK_TYPE_DEFAULT(type)
#endif
#endif

#include "tle/runtime.h"

#include <stdint.h>

// The most programs one launch may have (blockDim is 16 bits wide in AscendC launches).
#define TLE_ASCENDC_MAX_BLOCKS 65535u

#include "tle/ascendc/copy.h"
#include "tle/ascendc/matmul.h"
#include "tle/ascendc/reduce.h"
#include "tle/ascendc/scan.h"

#ifdef TLE_ASCENDC_EMULATION
#include <cstdlib>
#include <functional>

namespace tle::ascendc::emu {

// Runs a launch under the emulation: TLE_SUCCESS, or TLE_ERROR_ASCENDC_EMULATION when the
// emulation found something that would be wrong on an NPU; those findings go to stderr
// unless TLE_ASCENDC_QUIET is set. Reads of UB that nothing wrote are not errors here: the
// masked-off elements of a loaded tile are undefined (as in Triton), and vector instructions
// work on whole tiles; TLE_ASCENDC_EMU_REPORT=1 lists them too.
// `cube`: the kernel runs on the cube cores (AIC), else on the vector cores (AIV).
inline tleStatus run(uint32_t blocks, const std::function<void()> &kernel, bool cube = false) {
  LaunchOptions options;
  options.coreKind = cube ? CoreKind::cube : CoreKind::vector;
  Findings findings = launch(blocks, kernel, options);
  Findings errors;
  for (const Finding &f : findings)
    if (f.kind != FindingKind::uninitialised_read) errors.push_back(f);
  if (errors.empty()) return TLE_SUCCESS;
  if (!std::getenv("TLE_ASCENDC_QUIET") && !reportFromEnvironment()) printFindings(errors);
  return TLE_ERROR_ASCENDC_EMULATION;
}

}  // namespace tle::ascendc::emu
#endif
