// The cube path of an Atlas A2 (Ascend 910B, "dav-c220") AI core: the matrix unit and the
// memories around it.
//
//   GM --DataCopy(Nd2NzParams), MTE2--> L1 (A1/B1) --LoadData(LoadData2DParams), MTE1--> L0A (A2)
//                                                                                        L0B (B2)
//   L0A x L0B --Mmad(MmadParams), M--> L0C (CO1) --Fixpipe(FixpipeParamsV220), FIX--> GM
//
// Matrices live in fractals: blocks of 32-byte rows, 512 bytes each for the inputs (16 x C0
// elements, C0 = 32 / sizeof(T): 16 for half/bfloat16_t, 8 for float, 32 for int8_t) and
// 16 x 16 elements (1024 bytes for float) for the result. The layouts, with element offsets from
// the tensor's start (M, K, N the matrix sizes, Mp = ceil(M/16)*16 and so on):
//
//   ND  (GM):       row-major, (r, c) at r * rowStride + c.
//   NZ  (L1):       "N" order of fractals (down a column of fractals first), "z" inside (rows of
//                   C0 elements): ND2NZ puts (r, c) at
//                     (c / C0) * dstNzC0Stride * C0 + r * dstNzNStride * C0 + c % C0,
//                   i.e. with dstNzC0Stride = Mp and dstNzNStride = 1 column block j of C0 columns
//                   is a contiguous Mp x C0 row-major slab.
//   Zz  (L0A, A):   "Z" order of fractals (along a row of fractals first), "z" inside: A(i, k) at
//                     (i / 16) * Kb * 16 * C0 + (k / C0) * 16 * C0 + (i % 16) * C0 + k % C0,
//                   Kb = ceil(K / C0) fractal columns (for float K is first aligned to 8, or to
//                   16 with kDirectionAlign).
//   Zn  (L0B, B):   "Z" order of fractals, "n" inside (each fractal stored column by column:
//                   16 columns of C0 contiguous k values): B(k, j) at
//                     (k / C0) * Nb * 16 * C0 + (j / 16) * 16 * C0 + (j % 16) * C0 + k % C0,
//                   Nb = ceil(N / 16).
//   Nz  (L0C, C):   "N" order of 16 x 16 fractals, "z" inside: C(i, j) at
//                     (j / 16) * Mp * 16 + i * 16 + j % 16.
//   GEMV (Mmad with m = 1): A is read as K contiguous elements (ND) instead of Zz.
//
// LoadData moves 512-byte fractals and can transpose each (b16 only): Nz in L1 -> Zz in L0A is a
// plain fractal gather, Nz in L1 -> Zn in L0B (B kept K x N in L1) a gather with transposition.
// Mmad computes C = A B (cmatrixInitVal) or C += A B, with float (int32_t for int8_t) results.
// Fixpipe converts Nz to ND (CFG_ROW_MAJOR) or keeps Nz (CFG_NZ), and casts float results to
// half or bfloat16_t with round-to-nearest-even on the way to GM.
//
// CANN runs these instructions only on a cube core (ASCEND_IS_AIC); on a vector core they do
// nothing, which the emulation reports as wrong_core. The cube memories record per byte whether
// they hold defined data (core.h, tracksDefinedBytes): copies carry it along, Mmad and Fixpipe
// report reads of undefined bytes among the elements they actually use.
#pragma once

#include "tle/ascendc/emu/half.h"
#include "tle/ascendc/emu/memory.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

// The device compiler's quantisation modes of the cube output path (global, like CANN's).
// Atlas A2 has these; the emulation converts with NoQuant, F322F16 and F322BF16 only.
enum QuantMode_t {
  NoQuant,       // no conversion (float -> float, int32_t -> int32_t)
  F322F16,       // float -> half, round to nearest even
  F322BF16,      // float -> bfloat16_t, round to nearest even
  DEQF16,        // int32_t -> half, scalar scale
  VDEQF16,       // int32_t -> half, per-channel scales
  QF322B8_PRE,   // float -> int8_t/uint8_t, scalar scale
  VQF322B8_PRE,  // float -> int8_t/uint8_t, per-channel scales
  REQ8,          // int32_t -> int8_t/uint8_t, scalar scale
  VREQ8,         // int32_t -> int8_t/uint8_t, per-channel scales
};

namespace AscendC {

// GM (ND) -> L1 (NZ) copies (DataCopy with Nd2NzParams). Strides in elements or in 32-byte
// units (C0_SIZE) as noted; see the NZ formula at the top of this file.
struct Nd2NzParams {
  Nd2NzParams() {}
  Nd2NzParams(const uint16_t ndNumIn, const uint16_t nValueIn, const uint16_t dValueIn,
              const uint16_t srcNdMatrixStrideIn, const uint16_t srcDValueIn, const uint16_t dstNzC0StrideIn,
              const uint16_t dstNzNStrideIn, const uint16_t dstNzMatrixStrideIn)
      : ndNum(ndNumIn), nValue(nValueIn), dValue(dValueIn), srcNdMatrixStride(srcNdMatrixStrideIn),
        srcDValue(srcDValueIn), dstNzC0Stride(dstNzC0StrideIn), dstNzNStride(dstNzNStrideIn),
        dstNzMatrixStride(dstNzMatrixStrideIn) {}

  uint16_t ndNum = 0;              // ND matrices copied, [0, 4095]; 0: no-op
  uint16_t nValue = 0;             // rows of each, [0, 16384]; 0: no-op
  uint16_t dValue = 0;             // columns of each; 0: no-op
  uint16_t srcNdMatrixStride = 0;  // elements between the starts of consecutive ND matrices in GM
  uint16_t srcDValue = 0;          // elements between the starts of consecutive GM rows, >= 1
  uint16_t dstNzC0Stride = 0;      // 32-byte units between the C0-column blocks of one row, [1, 16384]
  uint16_t dstNzNStride = 0;       // 32-byte units between consecutive rows, [1, 16384]
  uint16_t dstNzMatrixStride = 0;  // elements between the starts of consecutive NZ matrices in L1
};

// L1 (or GM) -> L0A/L0B copies of 512-byte fractals (LoadData). CANN's member order.
struct LoadData2DParams {
  LoadData2DParams() {}
  LoadData2DParams(const uint16_t startIndexIn, const uint8_t repeatTimesIn, const uint16_t srcStrideIn,
                   const uint8_t sidIn, const uint16_t dstGapIn, const bool ifTransposeIn, const uint8_t addrModeIn)
      : startIndex(startIndexIn), dstGap(dstGapIn), srcStride(srcStrideIn), ifTranspose(ifTransposeIn),
        repeatTimes(repeatTimesIn), sid(sidIn), addrMode(addrModeIn) {}

  uint16_t startIndex = 0;   // first source fractal (512-byte units from src)
  uint16_t dstGap = 0;       // fractals left free between consecutive destination fractals
  uint16_t srcStride = 0;    // fractals between the starts of consecutive source fractals (0: the same one)
  bool ifTranspose = false;  // transpose each 16 x 16 fractal (b16, L1 -> L0A/L0B only)
  uint8_t repeatTimes = 0;   // fractals moved, [0, 255]; 0: no-op
  uint8_t sid = 0;           // reserved, 0
  uint8_t addrMode = 0;      // GM -> L1 only: 0 source index increments, 1 decrements
};
using LoadData2dParams = LoadData2DParams;

// Mmad's parameters, CANN's member order. The effective "C starts at zero" flag is
// cmatrixInitVal && !isBias (isBias is deprecated).
struct MmadParams {
  MmadParams() {}
  MmadParams(const uint16_t mIn, const uint16_t nIn, const uint16_t kIn, const bool isBiasIn, const int32_t fmOffsetIn,
             const bool enSsparseIn, const bool enWinogradAIn, const bool enWinogradBIn)
      : m(mIn), n(nIn), k(kIn), isBias(isBiasIn), fmOffset(fmOffsetIn), enSsparse(enSsparseIn),
        enWinogradA(enWinogradAIn), enWinogradB(enWinogradBIn) {}
  MmadParams(const uint16_t mIn, const uint16_t nIn, const uint16_t kIn, const uint8_t unitFlagIn,
             const bool cmatrixSourceIn, const bool cmatrixInitValIn)
      : m(mIn), n(nIn), k(kIn), unitFlag(unitFlagIn), cmatrixSource(cmatrixSourceIn),
        cmatrixInitVal(cmatrixInitValIn) {}

  uint16_t m = 0;                // rows of A and C, [0, 4095]; 0: no-op; 1: GEMV
  uint16_t n = 0;                // columns of B and C, [0, 4095]; 0: no-op
  uint16_t k = 0;                // columns of A, rows of B, [0, 4095]; 0: no-op
  bool isBias = false;           // deprecated: true accumulates (C += A B)
  int32_t fmOffset = 0;          // unused on Atlas A2
  bool enSsparse = false;        // unused on Atlas A2
  bool enWinogradA = false;      // unused on Atlas A2
  bool enWinogradB = false;      // unused on Atlas A2
  uint8_t unitFlag = 0;          // 0, 2 or 3 (Mmad/Fixpipe fine-grained L0C handshake)
  bool kDirectionAlign = false;  // float inputs: K aligned to 16 (true) or 8 (false) in L0A/L0B
  bool cmatrixSource = false;    // with cmatrixInitVal false: C starts from the BiasTable (C2)
  bool cmatrixInitVal = true;    // true: C = A B; false: C += A B (C from L0C)
};

// Fixpipe's output layout.
enum class CO2Layout : uint8_t {
  NZ = 0,        // keep NZ (NZ2NZ)
  ROW_MAJOR,     // convert to ND (NZ2ND)
  COLUMN_MAJOR,  // convert to DN (Ascend 950 only)
};

struct FixpipeConfig {
  constexpr FixpipeConfig(CO2Layout formatIn) : format(formatIn) {}
  constexpr FixpipeConfig(CO2Layout formatIn, bool /*isToUB: Ascend 950*/) : format(formatIn) {}
  CO2Layout format;
};

inline constexpr FixpipeConfig CFG_NZ = {CO2Layout::NZ};
inline constexpr FixpipeConfig CFG_ROW_MAJOR = {CO2Layout::ROW_MAJOR};
inline constexpr FixpipeConfig CFG_COLUMN_MAJOR = {CO2Layout::COLUMN_MAJOR};

// L0C -> GM (Fixpipe) on Atlas A2, CANN's member order (the constructors take reluEn before
// quantPre).
struct FixpipeParamsV220 {
  FixpipeParamsV220() {}
  FixpipeParamsV220(const uint16_t nSizeIn, const uint16_t mSizeIn, const uint16_t srcStrideIn,
                    const uint32_t dstStrideIn, const bool reluEnIn)
      : nSize(nSizeIn), mSize(mSizeIn), srcStride(srcStrideIn), dstStride(dstStrideIn), reluEn(reluEnIn) {}
  FixpipeParamsV220(const uint16_t nSizeIn, const uint16_t mSizeIn, const uint16_t srcStrideIn,
                    const uint32_t dstStrideIn, const bool reluEnIn, const QuantMode_t quantPreIn,
                    const int64_t deqScalarIn, const uint16_t ndNumIn, const uint16_t srcNdStrideIn,
                    const uint16_t dstNdStrideIn, const uint8_t unitFlagIn)
      : nSize(nSizeIn), mSize(mSizeIn), srcStride(srcStrideIn), dstStride(dstStrideIn), quantPre(quantPreIn),
        deqScalar(uint64_t(deqScalarIn)), ndNum(ndNumIn), srcNdStride(srcNdStrideIn), dstNdStride(dstNdStrideIn),
        reluEn(reluEnIn), unitFlag(unitFlagIn) {}
  FixpipeParamsV220(const uint16_t nSizeIn, const uint16_t mSizeIn, const uint16_t srcStrideIn,
                    const uint32_t dstStrideIn, const bool reluEnIn, const QuantMode_t quantPreIn,
                    const int64_t deqScalarIn, const uint16_t ndNumIn, const uint16_t srcNdStrideIn,
                    const uint16_t dstNdStrideIn, const uint8_t unitFlagIn, const bool isChannelSplitIn)
      : nSize(nSizeIn), mSize(mSizeIn), srcStride(srcStrideIn), dstStride(dstStrideIn), quantPre(quantPreIn),
        deqScalar(uint64_t(deqScalarIn)), ndNum(ndNumIn), srcNdStride(srcNdStrideIn), dstNdStride(dstNdStrideIn),
        reluEn(reluEnIn), unitFlag(unitFlagIn), isChannelSplit(isChannelSplitIn) {}

  uint16_t nSize = 0;      // columns moved, [0, 4095] (a multiple of 16 with CFG_NZ); 0: no-op
  uint16_t mSize = 0;      // rows moved, [0, 8192] with CFG_ROW_MAJOR; 0: no-op
  uint16_t srcStride = 0;  // L0C: 16-element units between consecutive 16-column blocks (ceil(M/16)*16)
  uint32_t dstStride = 0;  // CFG_ROW_MAJOR: elements between GM rows; CFG_NZ: 32-byte units between
                           // 16-column blocks
  QuantMode_t quantPre = QuantMode_t::NoQuant;
  uint64_t deqScalar = 0;     // scale of the scalar quantisation modes (not modelled)
  uint16_t ndNum = 1;         // CFG_ROW_MAJOR: matrices converted; 0: no-op
  uint16_t srcNdStride = 0;   // 1024-byte units (16 x C0_SIZE) between source matrices, [1, 512]
  uint16_t dstNdStride = 0;   // elements between destination matrices
  bool reluEn = false;        // y = max(0, x) before the conversion
  uint8_t unitFlag = 0;       // 0, 2 or 3
  bool isChannelSplit = false;  // float NZ output only (not modelled)
};

namespace emu_detail {

inline constexpr uint64_t kFractalBytes = 512;
inline constexpr uint64_t kC0Bytes = 32;

// CANN skips cube instructions on a vector core; so does the emulation, with a finding.
inline bool requireCubeCore(Core &core, const char *call) {
  if (core.kind() == CoreKind::cube) return true;
  core.report(FindingKind::wrong_core,
              std::string(call) + " is a cube instruction: CANN executes it on a cube core only (ASCEND_IS_AIC) and " +
                  "does nothing on this vector core; the emulation skips it too (launch with LaunchOptions::coreKind " +
                  "= CoreKind::cube)");
  return false;
}

// Reports an operand outside the memories `allowed` (or unbound); false: skip the instruction.
template <class T>
bool requireMemory(Core &core, const char *call, const char *role, const LocalTensor<T> &tensor,
                   std::initializer_list<MemoryKind> allowed, const char *allowedText) {
  const LocalRegion &r = tensor.emuRegion();
  if (!r.bound) {
    core.report(FindingKind::bad_argument,
                std::string(call) + ": " + role + " is a LocalTensor that no TBuf handed out (default-constructed)");
    return false;
  }
  for (MemoryKind kind : allowed)
    if (r.memory == kind) return true;
  core.report(FindingKind::wrong_memory, std::string(call) + ": " + role + " is in " + memorySpec(r.memory).name +
                                             " (TPosition::" + positionName(r.position) + "); it must be in " +
                                             allowedText);
  return false;
}

// Reports a parameter outside [lo, hi]; false if it is.
inline bool checkRange(Core &core, const char *call, const char *field, uint64_t value, uint64_t lo, uint64_t hi) {
  if (value >= lo && value <= hi) return true;
  core.report(FindingKind::bad_argument, std::string(call) + ": " + field + " = " + std::to_string(value) +
                                             " is outside [" + std::to_string(lo) + ", " + std::to_string(hi) +
                                             "]; skipped");
  return false;
}

inline bool checkUnitFlag(Core &core, const char *call, uint8_t unitFlag) {
  if (unitFlag == 0 || unitFlag == 2 || unitFlag == 3) return true;
  core.report(FindingKind::bad_argument,
              std::string(call) + ": unitFlag = " + std::to_string(unitFlag) + "; the values are 0, 2 and 3; skipped");
  return false;
}

// Reports byte intervals [start, start + length) of one instruction's destination that overlap
// (the hardware does not order overlapping writes of one instruction). `what` names them.
inline void reportOverlaps(Core &core, const char *call, const char *memory, std::vector<std::pair<uint64_t, uint64_t>> spans,
                           const char *what) {
  std::sort(spans.begin(), spans.end());
  for (size_t i = 1; i < spans.size(); ++i) {
    if (spans[i].first < spans[i - 1].second) {
      core.report(FindingKind::bad_argument,
                  std::string(call) + " writes overlapping " + what + " (" +
                      byteRange(memory, spans[i].first, std::min(spans[i].second, spans[i - 1].second)) +
                      " twice); the hardware does not order overlapping writes of one instruction");
      return;
    }
  }
}

template <class T>
inline constexpr bool kIsB16 = sizeof(T) == 2;

// Moves 512-byte fractals between on-chip memories (or from GM) with their definedness,
// transposing each 16 x 16 b16 fractal if asked: destination element (r, c) = source (c, r).
inline void copyFractal(uint8_t *dst, uint8_t *dstDefined, const uint8_t *src, const uint8_t *srcDefined,
                        bool transpose) {
  if (!transpose) {
    std::memcpy(dst, src, kFractalBytes);
    if (dstDefined) {
      if (srcDefined) std::memcpy(dstDefined, srcDefined, kFractalBytes);
      else std::memset(dstDefined, 1, kFractalBytes);
    }
    return;
  }
  for (uint64_t r = 0; r < 16; ++r)
    for (uint64_t c = 0; c < 16; ++c) {
      const uint64_t to = (r * 16 + c) * 2, from = (c * 16 + r) * 2;
      dst[to] = src[from];
      dst[to + 1] = src[from + 1];
      if (dstDefined) {
        dstDefined[to] = srcDefined ? srcDefined[from] : 1;
        dstDefined[to + 1] = srcDefined ? srcDefined[from + 1] : 1;
      }
    }
}

// Where Mmad finds A (L0A), B (L0B) and C (L0C), as element offsets from each tensor's start.
struct MmadLayout {
  uint64_t m, n, k;
  uint64_t c0;       // input elements per 32 bytes
  uint64_t mBlocks;  // 16-row fractal rows of A and C
  uint64_t nBlocks;  // 16-column fractal columns of B and C
  uint64_t kBlocks;  // C0-wide fractal columns of A, C0-high fractal rows of B
  bool gemv;         // m == 1: A is K contiguous elements

  uint64_t a(uint64_t i, uint64_t kk) const {
    if (gemv) return kk;
    return (i / 16) * kBlocks * 16 * c0 + (kk / c0) * 16 * c0 + (i % 16) * c0 + kk % c0;
  }
  uint64_t b(uint64_t kk, uint64_t j) const {
    return (kk / c0) * nBlocks * 16 * c0 + (j / 16) * 16 * c0 + (j % 16) * c0 + kk % c0;
  }
  uint64_t c(uint64_t i, uint64_t j) const { return (j / 16) * mBlocks * 256 + i * 16 + j % 16; }
  uint64_t aElements() const { return gemv ? k : mBlocks * kBlocks * 16 * c0; }
  uint64_t bElements() const { return kBlocks * nBlocks * 16 * c0; }
  uint64_t cElements() const { return mBlocks * nBlocks * 256; }
};

template <class U>
MmadLayout mmadLayout(const MmadParams &p) {
  MmadLayout l;
  l.m = p.m;
  l.n = p.n;
  l.k = p.k;
  l.c0 = kC0Bytes / sizeof(U);
  l.mBlocks = (p.m + 15) / 16;
  l.nBlocks = (p.n + 15) / 16;
  uint64_t kAligned = alignUp(p.k, l.c0);
  if (std::is_same_v<U, float>) kAligned = alignUp(p.k, p.kDirectionAlign ? 16 : 8);
  l.kBlocks = kAligned / l.c0;
  l.gemv = p.m == 1;
  return l;
}

template <class T>
T loadAt(const uint8_t *base, uint64_t element) {
  T value;
  std::memcpy(&value, base + element * sizeof(T), sizeof(T));
  return value;
}

template <class T>
void storeAt(uint8_t *base, uint64_t element, const T &value) {
  std::memcpy(base + element * sizeof(T), &value, sizeof(T));
}

template <class T>
bool isNaNValue(const T &value) {
  if constexpr (std::is_same_v<T, float>) return std::isnan(value);
  else if constexpr (IsSmallFloat<T>::value) return std::isnan(float(value));
  else return false;
}

inline const char *quantModeName(QuantMode_t mode) {
  switch (mode) {
  case NoQuant: return "NoQuant";
  case F322F16: return "F322F16";
  case F322BF16: return "F322BF16";
  case DEQF16: return "DEQF16";
  case VDEQF16: return "VDEQF16";
  case QF322B8_PRE: return "QF322B8_PRE";
  case VQF322B8_PRE: return "VQF322B8_PRE";
  case REQ8: return "REQ8";
  case VREQ8: return "VREQ8";
  }
  return "?";
}

template <class T>
inline const char *cubeTypeName() {
  if constexpr (std::is_same_v<T, float>) return "float";
  else if constexpr (std::is_same_v<T, half>) return "half";
  else if constexpr (std::is_same_v<T, bfloat16_t>) return "bfloat16_t";
  else if constexpr (std::is_same_v<T, int32_t>) return "int32_t";
  else if constexpr (std::is_same_v<T, int8_t>) return "int8_t";
  else if constexpr (std::is_same_v<T, uint8_t>) return "uint8_t";
  else return "?";
}

}  // namespace emu_detail

// GM (ND) -> L1 (NZ), pipe MTE2: ndNum matrices of nValue x dValue elements. Element (r, c) of
// matrix i, read from GM element i * srcNdMatrixStride + r * srcDValue + c, lands at L1 element
//   i * dstNzMatrixStride + (c / C0) * dstNzC0Stride * C0 + r * dstNzNStride * C0 + c % C0
// of dst (C0 = 32 / sizeof(T)); with dstNzMatrixStride 0 every matrix lands on the first (the
// emulation writes them in order, the last one wins). Each row's last C0 block is completed with
// zeros, as CANN
// documents (so a K tail of A reads zeros); the rows of a fractal beyond nValue are left
// untouched, as the hardware only writes the nValue rows: the emulation leaves whatever they
// held (their bytes stay undefined if nothing wrote them).
template <typename T>
void DataCopy(const LocalTensor<T> &dst, const GlobalTensor<T> &src, const Nd2NzParams &intriParams) {
  static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4, "DataCopy with Nd2NzParams moves b8, b16 or b32");
  using namespace emu_detail;
  Core &core = currentCore();
  const char *call = "DataCopy with Nd2NzParams";
  const Nd2NzParams &p = intriParams;
  if (!requireCubeCore(core, call)) return;
  if (!requireMemory(core, call, "dst", dst, {MemoryKind::L1}, "L1 (TPosition::A1/B1)")) return;
  checkAligned(core, call, "dst", dst, uint32_t(kC0Bytes));
  bool ok = checkRange(core, call, "ndNum", p.ndNum, 0, 4095);
  ok = checkRange(core, call, "nValue", p.nValue, 0, 16384) && ok;
  if (!ok || p.ndNum == 0 || p.nValue == 0 || p.dValue == 0) return;  // zeros: a no-op
  ok = checkRange(core, call, "srcDValue", p.srcDValue, 1, 65535);
  ok = checkRange(core, call, "dstNzC0Stride", p.dstNzC0Stride, 1, 16384) && ok;
  ok = checkRange(core, call, "dstNzNStride", p.dstNzNStride, 1, 16384) && ok;
  ok = checkRange(core, call, "dstNzMatrixStride", p.dstNzMatrixStride, 0, 16384) && ok;
  if (!ok) return;
  if (p.ndNum > 1 && (uint64_t(p.dstNzMatrixStride) * sizeof(T)) % kC0Bytes != 0)
    core.report(FindingKind::alignment, std::string(call) + ": dstNzMatrixStride " +
                                            std::to_string(p.dstNzMatrixStride) +
                                            " elements puts NZ matrices at L1 addresses that are not 32-byte aligned");

  const uint64_t c0 = kC0Bytes / sizeof(T);
  const uint64_t blocksPerRow = (p.dValue + c0 - 1) / c0;
  struct Block {
    uint64_t gmElement;  // first source element
    uint64_t local;      // byte offset from dst's start
    uint64_t elements;   // source elements in the block (the rest is zero padding)
  };
  std::vector<Block> blocks;
  blocks.reserve(size_t(p.ndNum) * p.nValue * blocksPerRow);
  std::vector<std::pair<uint64_t, uint64_t>> spans;
  uint64_t localSpan = 0, gmSpan = 0;
  for (uint64_t nd = 0; nd < p.ndNum; ++nd)
    for (uint64_t r = 0; r < p.nValue; ++r) {
      const uint64_t rowStart = nd * p.srcNdMatrixStride + r * p.srcDValue;
      gmSpan = std::max(gmSpan, (rowStart + p.dValue) * sizeof(T));
      for (uint64_t b = 0; b < blocksPerRow; ++b) {
        const uint64_t local = nd * p.dstNzMatrixStride * sizeof(T) + b * p.dstNzC0Stride * kC0Bytes +
                               r * p.dstNzNStride * kC0Bytes;
        blocks.push_back({rowStart + b * c0, local, std::min<uint64_t>(c0, p.dValue - b * c0)});
        // dstNzMatrixStride 0 with several matrices: documented as each overwriting the first.
        if (nd == 0 || p.dstNzMatrixStride != 0) spans.push_back({local, local + kC0Bytes});
        localSpan = std::max(localSpan, local + kC0Bytes);
      }
    }
  const uint64_t base = dst.emuRegion().byteOffset;
  reportOverlaps(core, call, "L1", [&] {
    std::vector<std::pair<uint64_t, uint64_t>> absolute = spans;
    for (auto &s : absolute) s = {s.first + base, s.second + base};
    return absolute;
  }(), "32-byte blocks");
  const bool dstOk = checkLocalExtent(core, call, "dst", dst, localSpan);
  const bool srcOk = checkGlobalExtent(core, call, "src", src, gmSpan);
  if (!dstOk || !srcOk) return;

  const uint8_t *gm = reinterpret_cast<const uint8_t *>(src.GetPhyAddr(0));
  {
    Operation op(core, Pipe::MTE2, "DataCopy");
    for (uint64_t nd = 0; nd < p.ndNum; ++nd)
      for (uint64_t r = 0; r < p.nValue; ++r)
        op.readGlobal(gm + (nd * p.srcNdMatrixStride + r * p.srcDValue) * sizeof(T), uint64_t(p.dValue) * sizeof(T));
    for (const Block &block : blocks) op.writeLocal(MemoryKind::L1, base + block.local, base + block.local + kC0Bytes);
  }
  uint8_t *l1 = core.memory(MemoryKind::L1) + base;
  for (const Block &block : blocks) {
    const uint64_t bytes = block.elements * sizeof(T);
    std::memcpy(l1 + block.local, gm + block.gmElement * sizeof(T), bytes);
    std::memset(l1 + block.local + bytes, 0, kC0Bytes - bytes);
  }
}

// L1 -> L0A/L0B, pipe MTE1: repeatTimes 512-byte fractals. Repeat r reads source fractal
// startIndex + r * srcStride (from src's start) and writes destination fractal r * (1 + dstGap);
// with ifTranspose (b16 types) each 16 x 16 fractal is transposed on the way. addrMode is ignored
// on this path (CANN always increments; a nonzero value is reported).
template <typename T>
void LoadData(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LoadData2DParams &loadDataParams) {
  using namespace emu_detail;
  Core &core = currentCore();
  const char *call = "LoadData with LoadData2DParams";
  const LoadData2DParams &p = loadDataParams;
  if (!requireCubeCore(core, call)) return;
  bool ok = requireMemory(core, call, "dst", dst, {MemoryKind::L0A, MemoryKind::L0B}, "L0A or L0B (TPosition::A2/B2)");
  ok = requireMemory(core, call, "src", src, {MemoryKind::L1}, "L1 (TPosition::A1/B1)") && ok;
  if (!ok) return;
  checkAligned(core, call, "src", src, uint32_t(kC0Bytes));
  checkAligned(core, call, "dst", dst, uint32_t(kFractalBytes));
  if (p.repeatTimes == 0) return;  // a no-op
  if (p.ifTranspose && !kIsB16<T>) {
    core.report(FindingKind::bad_argument, std::string(call) + ": ifTranspose needs a 16-bit element type, not " +
                                               std::to_string(sizeof(T)) + "-byte elements; skipped");
    return;
  }
  if (p.addrMode != 0)
    core.report(FindingKind::bad_argument, std::string(call) + ": addrMode = " + std::to_string(p.addrMode) +
                                               " has no effect from L1 (CANN always increments the source index; "
                                               "only GM -> L1 honours it)");
  std::vector<uint64_t> srcOffsets, dstOffsets;
  uint64_t srcSpan = 0, dstSpan = 0;
  for (uint64_t r = 0; r < p.repeatTimes; ++r) {
    srcOffsets.push_back((p.startIndex + r * p.srcStride) * kFractalBytes);
    dstOffsets.push_back(r * (1 + uint64_t(p.dstGap)) * kFractalBytes);
    srcSpan = std::max(srcSpan, srcOffsets.back() + kFractalBytes);
    dstSpan = std::max(dstSpan, dstOffsets.back() + kFractalBytes);
  }
  const bool dstOk = checkLocalExtent(core, call, "dst", dst, dstSpan);
  const bool srcOk = checkLocalExtent(core, call, "src", src, srcSpan);
  if (!dstOk || !srcOk) return;
  const MemoryKind dstMemory = dst.emuRegion().memory;
  const uint64_t srcBase = src.emuRegion().byteOffset, dstBase = dst.emuRegion().byteOffset;
  {
    Operation op(core, Pipe::MTE1, "LoadData");
    for (uint64_t offset : srcOffsets) op.readLocalHazardsOnly(MemoryKind::L1, srcBase + offset, srcBase + offset + kFractalBytes);
    for (uint64_t offset : dstOffsets) op.writeLocal(dstMemory, dstBase + offset, dstBase + offset + kFractalBytes);
  }
  uint8_t *from = core.memory(MemoryKind::L1) + srcBase, *fromDefined = core.definedBytes(MemoryKind::L1) + srcBase;
  uint8_t *to = core.memory(dstMemory) + dstBase, *toDefined = core.definedBytes(dstMemory) + dstBase;
  for (size_t r = 0; r < srcOffsets.size(); ++r)
    copyFractal(to + dstOffsets[r], toDefined + dstOffsets[r], from + srcOffsets[r], fromDefined + srcOffsets[r],
                p.ifTranspose);
}

// GM -> L0A/L0B/L1, pipe MTE2: as above with the source fractals in GM. No transposition on
// this path; addrMode 1 (source index decrements) only towards L1.
template <typename T>
void LoadData(const LocalTensor<T> &dst, const GlobalTensor<T> &src, const LoadData2DParams &loadDataParams) {
  using namespace emu_detail;
  Core &core = currentCore();
  const char *call = "LoadData with LoadData2DParams";
  const LoadData2DParams &p = loadDataParams;
  if (!requireCubeCore(core, call)) return;
  if (!requireMemory(core, call, "dst", dst, {MemoryKind::L0A, MemoryKind::L0B, MemoryKind::L1},
                     "L0A, L0B or L1 (TPosition::A2/B2/A1/B1)"))
    return;
  const MemoryKind dstMemory = dst.emuRegion().memory;
  checkAligned(core, call, "dst", dst, uint32_t(dstMemory == MemoryKind::L1 ? kC0Bytes : kFractalBytes));
  if (p.repeatTimes == 0) return;
  if (p.ifTranspose)
    core.report(FindingKind::bad_argument,
                std::string(call) + ": ifTranspose has no effect from GM (only L1 -> L0A/L0B transposes)");
  const bool decrement = dstMemory == MemoryKind::L1 && p.addrMode != 0;
  if (dstMemory != MemoryKind::L1 && p.addrMode != 0)
    core.report(FindingKind::bad_argument, std::string(call) + ": addrMode = " + std::to_string(p.addrMode) +
                                               " has no effect towards L0A/L0B (only GM -> L1 honours it)");
  std::vector<uint64_t> srcOffsets, dstOffsets;
  uint64_t srcSpan = 0, dstSpan = 0;
  for (uint64_t r = 0; r < p.repeatTimes; ++r) {
    const int64_t index = decrement ? int64_t(p.startIndex) - int64_t(r * p.srcStride)
                                    : int64_t(p.startIndex) + int64_t(r * p.srcStride);
    if (index < 0) {
      core.report(FindingKind::bounds, std::string(call) + ": with addrMode 1 repeat " + std::to_string(r) +
                                           " would read fractal " + std::to_string(index) +
                                           ", before src; skipped");
      return;
    }
    srcOffsets.push_back(uint64_t(index) * kFractalBytes);
    dstOffsets.push_back(r * (1 + uint64_t(p.dstGap)) * kFractalBytes);
    srcSpan = std::max(srcSpan, srcOffsets.back() + kFractalBytes);
    dstSpan = std::max(dstSpan, dstOffsets.back() + kFractalBytes);
  }
  const bool dstOk = checkLocalExtent(core, call, "dst", dst, dstSpan);
  const bool srcOk = checkGlobalExtent(core, call, "src", src, srcSpan);
  if (!dstOk || !srcOk) return;
  const uint8_t *gm = reinterpret_cast<const uint8_t *>(src.GetPhyAddr(0));
  const uint64_t dstBase = dst.emuRegion().byteOffset;
  {
    Operation op(core, Pipe::MTE2, "LoadData");
    for (uint64_t offset : srcOffsets) op.readGlobal(gm + offset, kFractalBytes);
    for (uint64_t offset : dstOffsets) op.writeLocal(dstMemory, dstBase + offset, dstBase + offset + kFractalBytes);
  }
  uint8_t *to = core.memory(dstMemory) + dstBase;
  for (size_t r = 0; r < srcOffsets.size(); ++r) std::memcpy(to + dstOffsets[r], gm + srcOffsets[r], kFractalBytes);
}

// C (L0C, Nz) = A (L0A, Zz) x B (L0B, Zn), or C += A x B, pipe M; layouts at the top of this
// file. Supported types (Atlas A2): half x half, bfloat16_t x bfloat16_t and float x float into
// float; int8_t x int8_t into int32_t. Each product of 16-bit inputs is exact in float; the
// emulation adds the products of each result element one after another in k order, rounding
// every addition to float (int32_t wraps). The cube's own summation order and internal
// precision are not documented, so sums of many inexact terms may differ from the device's in
// the last bits. Only the m x k, k x n and m x n elements take part; the padding rows and
// columns of the result's fractals are written as poison and recorded as undefined.
//
// When Mmad accumulates onto an L0C result that an earlier Mmad wrote, CANN requires
// PipeBarrier<PIPE_M> in between if (m / 16) * (n / 16) < 10; for larger tiles the hardware
// orders the two itself. The emulation applies that rule.
template <typename T, typename U, typename S>
void Mmad(const LocalTensor<T> &dst, const LocalTensor<U> &fm, const LocalTensor<S> &filter,
          const MmadParams &mmadParams) {
  static_assert(std::is_same_v<U, S>, "Mmad: fm and filter have the same element type on Atlas A2");
  static_assert((std::is_same_v<T, float> &&
                 (std::is_same_v<U, half> || std::is_same_v<U, bfloat16_t> || std::is_same_v<U, float>)) ||
                    (std::is_same_v<T, int32_t> && std::is_same_v<U, int8_t>),
                "Mmad supports dst/fm/filter float/half/half, float/bfloat16_t/bfloat16_t, float/float/float and "
                "int32_t/int8_t/int8_t (int4b_t is not emulated)");
  using namespace emu_detail;
  Core &core = currentCore();
  const char *call = "Mmad";
  const MmadParams &p = mmadParams;
  if (!requireCubeCore(core, call)) return;
  bool ok = requireMemory(core, call, "dst", dst, {MemoryKind::L0C}, "L0C (TPosition::CO1)");
  ok = requireMemory(core, call, "fm", fm, {MemoryKind::L0A}, "L0A (TPosition::A2)") && ok;
  ok = requireMemory(core, call, "filter", filter, {MemoryKind::L0B}, "L0B (TPosition::B2)") && ok;
  if (!ok) return;
  checkAligned(core, call, "dst", dst, 1024);
  checkAligned(core, call, "fm", fm, uint32_t(kFractalBytes));
  checkAligned(core, call, "filter", filter, uint32_t(kFractalBytes));
  ok = checkRange(core, call, "m", p.m, 0, 4095);
  ok = checkRange(core, call, "n", p.n, 0, 4095) && ok;
  ok = checkRange(core, call, "k", p.k, 0, 4095) && ok;
  ok = checkUnitFlag(core, call, p.unitFlag) && ok;
  if (!ok || p.m == 0 || p.n == 0 || p.k == 0) return;  // zeros: a no-op
  const bool init = p.cmatrixInitVal && !p.isBias;
  if (!init && p.cmatrixSource) {
    core.report(FindingKind::bad_argument,
                std::string(call) + ": cmatrixSource = true with cmatrixInitVal = false starts C from the BiasTable "
                                    "buffer (TPosition::C2), which the emulation does not model; skipped");
    return;
  }
  const MmadLayout l = mmadLayout<U>(p);
  const uint64_t aBytes = l.aElements() * sizeof(U), bBytes = l.bElements() * sizeof(S),
                 cBytes = l.cElements() * sizeof(T);
  bool inside = checkLocalExtent(core, call, "dst", dst, cBytes);
  inside = checkLocalExtent(core, call, "fm", fm, aBytes) && inside;
  inside = checkLocalExtent(core, call, "filter", filter, bBytes) && inside;
  if (!inside) return;

  const uint64_t aBase = fm.emuRegion().byteOffset, bBase = filter.emuRegion().byteOffset,
                 cBase = dst.emuRegion().byteOffset;
  const uint8_t *aMem = core.memory(MemoryKind::L0A) + aBase, *aDefined = core.definedBytes(MemoryKind::L0A) + aBase;
  const uint8_t *bMem = core.memory(MemoryKind::L0B) + bBase, *bDefined = core.definedBytes(MemoryKind::L0B) + bBase;
  uint8_t *cMem = core.memory(MemoryKind::L0C) + cBase, *cDefined = core.definedBytes(MemoryKind::L0C) + cBase;
  std::string nanOperand;
  {
    Operation op(core, Pipe::M, "Mmad");
    op.readLocalHazardsOnly(MemoryKind::L0A, aBase, aBase + aBytes);
    op.readLocalHazardsOnly(MemoryKind::L0B, bBase, bBase + bBytes);
    for (uint64_t i = 0; i < l.m; ++i)
      for (uint64_t kk = 0; kk < l.k; ++kk) {
        const uint64_t at = l.a(i, kk) * sizeof(U);
        op.checkDefined(MemoryKind::L0A, aBase + at, aBase + at + sizeof(U));
        if (nanOperand.empty() && aDefined[at] && isNaNValue(loadAt<U>(aMem, l.a(i, kk))))
          nanOperand = "fm element (" + std::to_string(i) + ", " + std::to_string(kk) + ")";
      }
    for (uint64_t kk = 0; kk < l.k; ++kk)
      for (uint64_t j = 0; j < l.n; ++j) {
        const uint64_t at = l.b(kk, j) * sizeof(S);
        op.checkDefined(MemoryKind::L0B, bBase + at, bBase + at + sizeof(S));
        if (nanOperand.empty() && bDefined[at] && isNaNValue(loadAt<S>(bMem, l.b(kk, j))))
          nanOperand = "filter element (" + std::to_string(kk) + ", " + std::to_string(j) + ")";
      }
    if (!init) {
      // Large tiles: the hardware orders the read of C after the earlier Mmad's write itself.
      if ((uint64_t(p.m) / 16) * (uint64_t(p.n) / 16) >= 10) core.clocks().barrier(Pipe::M);
      op.readLocalHazardsOnly(MemoryKind::L0C, cBase, cBase + cBytes);
      for (uint64_t i = 0; i < l.m; ++i)
        for (uint64_t j = 0; j < l.n; ++j) {
          const uint64_t at = l.c(i, j) * sizeof(T);
          op.checkDefined(MemoryKind::L0C, cBase + at, cBase + at + sizeof(T));
        }
    }
    op.writeLocal(MemoryKind::L0C, cBase, cBase + cBytes);
  }
  if (!nanOperand.empty())
    core.report(FindingKind::bad_argument, std::string(call) + ": " + nanOperand +
                                               " is NaN; CANN: Mmad inputs must not be NaN (the device may raise an "
                                               "execution error)");

  // Everything in the result's fractals outside m x n is padding: poison, undefined.
  std::vector<uint8_t> validElement(size_t(l.cElements()), 0);
  std::vector<T> result(size_t(l.m * l.n));
  for (uint64_t i = 0; i < l.m; ++i)
    for (uint64_t j = 0; j < l.n; ++j) {
      T acc = init ? T(0) : loadAt<T>(cMem, l.c(i, j));
      for (uint64_t kk = 0; kk < l.k; ++kk) {
        const U a = loadAt<U>(aMem, l.a(i, kk));
        const S b = loadAt<S>(bMem, l.b(kk, j));
        if constexpr (std::is_same_v<T, int32_t>) {
          acc = int32_t(uint32_t(acc) + uint32_t(int32_t(a) * int32_t(b)));
        } else {
          const float product = float(a) * float(b);  // exact for 16-bit inputs
          acc = acc + product;
        }
      }
      result[size_t(i * l.n + j)] = acc;
      validElement[size_t(l.c(i, j))] = 1;
    }
  for (uint64_t e = 0; e < l.cElements(); ++e)
    if (!validElement[size_t(e)]) {
      std::memset(cMem + e * sizeof(T), kPoisonByte, sizeof(T));
      std::memset(cDefined + e * sizeof(T), 0, sizeof(T));
    }
  for (uint64_t i = 0; i < l.m; ++i)
    for (uint64_t j = 0; j < l.n; ++j) storeAt(cMem, l.c(i, j), result[size_t(i * l.n + j)]);
}

// L0C -> GM, pipe FIX (after an implicit PipeBarrier<PIPE_FIX>, as CANN issues one).
//   config CFG_ROW_MAJOR (NZ2ND): for each of ndNum matrices d, rows i < mSize, columns
//     j < nSize: L0C element d * srcNdStride * 256 + (j / 16) * srcStride * 16 + i * 16 + j % 16
//     goes to GM element d * dstNdStride + i * dstStride + j. Exactly mSize x nSize elements
//     per matrix are written; nSize need not be a multiple of 16.
//   config CFG_NZ (NZ2NZ): nSize a multiple of 16; the 16-column block b of row i goes to GM byte
//     b * dstStride * 32 + i * 16 * sizeof(T); ndNum is not used.
// On the way: reluEn (max(0, x); NaN stays NaN), then the conversion quantPre names: NoQuant
// (float -> float, int32_t -> int32_t), F322F16 / F322BF16 (float -> half / bfloat16_t, round to
// nearest even, overflow to infinity). Other quantisation modes and channel split are not
// modelled (reported, skipped).
template <typename T, typename U, const FixpipeConfig &config = CFG_ROW_MAJOR>
void Fixpipe(const GlobalTensor<T> &dst, const LocalTensor<U> &src, const FixpipeParamsV220 &intriParams) {
  static_assert(
      (std::is_same_v<U, float> && (std::is_same_v<T, float> || std::is_same_v<T, half> ||
                                    std::is_same_v<T, bfloat16_t> || std::is_same_v<T, int8_t> ||
                                    std::is_same_v<T, uint8_t>)) ||
          (std::is_same_v<U, int32_t> && (std::is_same_v<T, int32_t> || std::is_same_v<T, half> ||
                                          std::is_same_v<T, int8_t> || std::is_same_v<T, uint8_t>)),
      "Fixpipe L0C -> GM on Atlas A2 supports src float with dst float/half/bfloat16_t/int8_t/uint8_t and src "
      "int32_t with dst int32_t/half/int8_t/uint8_t");
  using namespace emu_detail;
  Core &core = currentCore();
  const char *call = "Fixpipe";
  const FixpipeParamsV220 &p = intriParams;
  if (!requireCubeCore(core, call)) return;
  if (!requireMemory(core, call, "src", src, {MemoryKind::L0C}, "L0C (TPosition::CO1)")) return;
  checkAligned(core, call, "src", src, 64);
  if (config.format == CO2Layout::COLUMN_MAJOR) {
    core.report(FindingKind::bad_argument,
                std::string(call) + ": CFG_COLUMN_MAJOR (NZ2DN) exists on Ascend 950 only; skipped");
    return;
  }
  const bool toNd = config.format == CO2Layout::ROW_MAJOR;
  bool ok = checkRange(core, call, "nSize", p.nSize, 0, 4095);
  ok = checkRange(core, call, "mSize", p.mSize, 0, toNd ? 8192 : 65535) && ok;
  ok = checkUnitFlag(core, call, p.unitFlag) && ok;
  if (!toNd && p.nSize % 16 != 0) {
    core.report(FindingKind::bad_argument, std::string(call) + ": nSize = " + std::to_string(p.nSize) +
                                               " must be a multiple of 16 with CFG_NZ; skipped");
    ok = false;
  }
  if (p.dstStride == 0) {
    core.report(FindingKind::bad_argument, std::string(call) + ": dstStride must not be 0; skipped");
    ok = false;
  }
  if (toNd && p.ndNum > 1) {
    ok = checkRange(core, call, "srcNdStride", p.srcNdStride, 1, 512) && ok;
    ok = checkRange(core, call, "dstNdStride", p.dstNdStride, 1, 65535) && ok;
  }
  if (!ok) return;
  if (p.isChannelSplit) {
    core.report(FindingKind::bad_argument,
                std::string(call) + ": isChannelSplit (F32 channel split) is not modelled by the emulation; skipped");
    return;
  }
  QuantMode_t expected = NoQuant;
  bool modelled = true;
  if constexpr (std::is_same_v<T, half>) {
    expected = std::is_same_v<U, float> ? F322F16 : DEQF16;
    modelled = std::is_same_v<U, float>;
  } else if constexpr (std::is_same_v<T, bfloat16_t>) {
    expected = F322BF16;
  } else if constexpr (std::is_same_v<T, int8_t> || std::is_same_v<T, uint8_t>) {
    expected = std::is_same_v<U, float> ? QF322B8_PRE : REQ8;
    modelled = false;
  }
  if (!modelled) {
    core.report(FindingKind::bad_argument, std::string(call) + ": " + cubeTypeName<U>() + " -> " +
                                               cubeTypeName<T>() + " needs a quantisation mode (quantPre " +
                                               quantModeName(p.quantPre) +
                                               "), which the emulation does not model; skipped");
    return;
  }
  if (p.quantPre != expected) {
    core.report(FindingKind::bad_argument, std::string(call) + ": src " + cubeTypeName<U>() + " and dst " +
                                               cubeTypeName<T>() + " need quantPre " + quantModeName(expected) +
                                               ", not " + quantModeName(p.quantPre) + "; skipped");
    return;
  }
  const uint64_t matrices = toNd ? p.ndNum : 1;
  if (p.nSize == 0 || p.mSize == 0 || matrices == 0) return;  // a no-op
  uint8_t *gm = reinterpret_cast<uint8_t *>(dst.GetPhyAddr(0));
  if (!toNd && reinterpret_cast<uintptr_t>(gm) % kC0Bytes != 0)
    core.report(FindingKind::alignment, std::string(call) + ": an NZ destination must start 32-byte aligned in GM");

  const uint64_t blocks = (p.nSize + 15) / 16;
  auto srcElement = [&](uint64_t d, uint64_t i, uint64_t j) {
    return d * p.srcNdStride * 256 + (j / 16) * uint64_t(p.srcStride) * 16 + i * 16 + j % 16;
  };
  auto dstByte = [&](uint64_t d, uint64_t i, uint64_t j) {
    if (toNd) return (d * p.dstNdStride + i * uint64_t(p.dstStride) + j) * sizeof(T);
    return (j / 16) * uint64_t(p.dstStride) * kC0Bytes + (i * 16 + j % 16) * sizeof(T);
  };
  // Source column blocks (whole 16-element rows) and destination runs of contiguous elements.
  std::vector<std::pair<uint64_t, uint64_t>> srcRuns, dstRuns;
  uint64_t srcSpan = 0, gmSpan = 0;
  for (uint64_t d = 0; d < matrices; ++d) {
    for (uint64_t b = 0; b < blocks; ++b) {
      const uint64_t lo = srcElement(d, 0, b * 16) * sizeof(U);
      srcRuns.push_back({lo, lo + uint64_t(p.mSize) * 16 * sizeof(U)});
      srcSpan = std::max(srcSpan, srcRuns.back().second);
    }
    for (uint64_t i = 0; i < p.mSize; ++i) {
      if (toNd) {
        dstRuns.push_back({dstByte(d, i, 0), dstByte(d, i, 0) + uint64_t(p.nSize) * sizeof(T)});
      } else {
        for (uint64_t b = 0; b < blocks; ++b) dstRuns.push_back({dstByte(d, i, b * 16), dstByte(d, i, b * 16) + 16 * sizeof(T)});
      }
    }
  }
  for (const auto &run : dstRuns) gmSpan = std::max(gmSpan, run.second);
  reportOverlaps(core, call, "GM", [&] {
    std::vector<std::pair<uint64_t, uint64_t>> absolute = dstRuns;
    for (auto &run : absolute) run = {run.first + uint64_t(reinterpret_cast<uintptr_t>(gm)), run.second + uint64_t(reinterpret_cast<uintptr_t>(gm))};
    return absolute;
  }(), "destination elements");
  const bool srcOk = checkLocalExtent(core, call, "src", src, srcSpan);
  const bool dstOk = checkGlobalExtent(core, call, "dst", dst, gmSpan);
  if (!srcOk || !dstOk) return;

  const uint64_t cBase = src.emuRegion().byteOffset;
  const uint8_t *cMem = core.memory(MemoryKind::L0C) + cBase;
  core.clocks().barrier(Pipe::FIX);  // CANN's Fixpipe issues PipeBarrier<PIPE_FIX> first
  {
    Operation op(core, Pipe::FIX, "Fixpipe");
    for (const auto &run : srcRuns) op.readLocalHazardsOnly(MemoryKind::L0C, cBase + run.first, cBase + run.second);
    for (uint64_t d = 0; d < matrices; ++d)
      for (uint64_t i = 0; i < p.mSize; ++i)
        for (uint64_t j = 0; j < p.nSize; ++j) {
          const uint64_t at = cBase + srcElement(d, i, j) * sizeof(U);
          op.checkDefined(MemoryKind::L0C, at, at + sizeof(U));
        }
    for (const auto &run : dstRuns) op.writeGlobal(gm + run.first, run.second - run.first);
  }
  for (uint64_t d = 0; d < matrices; ++d)
    for (uint64_t i = 0; i < p.mSize; ++i)
      for (uint64_t j = 0; j < p.nSize; ++j) {
        U value = loadAt<U>(cMem, srcElement(d, i, j));
        if (p.reluEn) {
          if constexpr (std::is_same_v<U, float>) value = (value > 0.0f || std::isnan(value)) ? value : 0.0f;
          else value = value > 0 ? value : 0;
        }
        T out;
        if constexpr (IsSmallFloat<T>::value) out = T::rounded(double(value), ::tle::ascendc::emu::Rounding::nearestEven);
        else out = T(value);
        std::memcpy(gm + dstByte(d, i, j), &out, sizeof(T));
      }
}

}  // namespace AscendC
