// tlec's CPU emulation of the subset of the AscendC kernel API that its generated AscendC code
// uses. A generated kernel compiles unchanged against this header with a host C++17 compiler
// and against CANN's kernel_operator.h for the device. Host code runs it with
// tle::ascendc::emu::launch (launch.h), which reports synchronisation hazards, misaligned or
// out-of-range accesses and misuse of the API as findings. docs/ascendc-emulation.md describes
// what is modelled and what is not.
#pragma once

#include <cstdint>

// Device qualifiers mean nothing on the host.
#ifndef __global__
#define __global__
#endif
#ifndef __aicore__
#define __aicore__
#endif
#ifndef __gm__
#define __gm__
#endif
#ifndef GM_ADDR
#define GM_ADDR __gm__ uint8_t *
#endif

#include "tle/ascendc/emu/half.h"
#include "tle/ascendc/emu/core.h"
#include "tle/ascendc/emu/memory.h"
#include "tle/ascendc/emu/sync.h"
#include "tle/ascendc/emu/copy.h"
#include "tle/ascendc/emu/vector.h"
#include "tle/ascendc/emu/cast.h"
#include "tle/ascendc/emu/reduce.h"
#include "tle/ascendc/emu/cmpsel.h"
#include "tle/ascendc/emu/cube.h"
#include "tle/ascendc/emu/launch.h"

// Which kind of AI core runs the kernel (vector unless the launch says otherwise). Used as
// `if ASCEND_IS_AIV { ... }`, hence the parentheses.
#define ASCEND_IS_AIV (::tle::ascendc::emu::currentCore().kind() == ::tle::ascendc::emu::CoreKind::vector)
#define ASCEND_IS_AIC (::tle::ascendc::emu::currentCore().kind() == ::tle::ascendc::emu::CoreKind::cube)
#define ASCEND_IS_NOT_AIV (!ASCEND_IS_AIV)
#define ASCEND_IS_NOT_AIC (!ASCEND_IS_AIC)

namespace AscendC {

// This block's index in 0..GetBlockNum()-1.
inline int64_t GetBlockIdx() { return int64_t(::tle::ascendc::emu::currentCore().blockIdx()); }
// The launch's blockDim.
inline int64_t GetBlockNum() { return int64_t(::tle::ascendc::emu::currentCore().blockDim()); }
// The vector core within an AI core pair; the emulation runs one vector core per block.
inline int64_t GetSubBlockIdx() { return 0; }

}  // namespace AscendC
