// The `tle_dsa` dialect: TLE-Struct DSA (Ascend) ops on UB, L1 and L0 buffers (DsaOps.td).
#pragma once

#include "ir/Dialect.h"

#include "ir/DsaDialect.h.inc"

#define GET_OP_CLASSES
#include "ir/DsaOps.h.inc"
