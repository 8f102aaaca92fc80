// Compare and select (pipe V) in their count ("first n elements") forms: Compare, Compares /
// CompareScalar (bit masks), Select (modes 0, 1, 2), and CreateVecIndex. Shaped after CANN's
// Atlas A2 (dav_c220) implementation: Compare counts must cover whole 256-byte repeats, Select
// issues internal PipeBarrier<PIPE_V>s and writes a scratch block in the UB area CANN reserves,
// CreateVecIndex writes its first 32-byte block with scalar stores and the rest with Adds.
#pragma once

#include "tle/ascendc/emu/half.h"
#include "tle/ascendc/emu/reduce.h"  // kRepeatBytes
#include "tle/ascendc/emu/vector.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

namespace AscendC {

enum class CMPMODE : uint8_t {
  LT = 0,
  GT,
  EQ,
  LE,
  GE,
  NE,
};

enum class SELMODE : uint8_t {
  VSEL_CMPMASK_SPR = 0,     // mode 0: the first 256/sizeof(T) mask bits, reused by every repeat
  VSEL_TENSOR_SCALAR_MODE,  // mode 1: src1 is a scalar; the mask is consumed bit by bit
  VSEL_TENSOR_TENSOR_MODE,  // mode 2: src1 is a tensor; the mask is consumed bit by bit
};

namespace emu_detail {

// CANN reserves the last 8 KiB of the Atlas A2 UB (TMP_UB_OFFSET = 184 KiB) for API scratch data;
// Select modes 1 and 2 write a Duplicate there.
inline constexpr uint64_t kTmpUbOffset = 184 * 1024;

inline const char *cmpModeName(CMPMODE mode) {
  switch (mode) {
  case CMPMODE::LT: return "LT";
  case CMPMODE::GT: return "GT";
  case CMPMODE::EQ: return "EQ";
  case CMPMODE::LE: return "LE";
  case CMPMODE::GE: return "GE";
  case CMPMODE::NE: return "NE";
  }
  return nullptr;
}

// IEEE comparisons: any NaN operand makes every mode false except NE.
template <class T>
bool compareValues(T a, T b, CMPMODE mode) {
  const MathType<T> x = MathType<T>(a), y = MathType<T>(b);
  switch (mode) {
  case CMPMODE::LT: return x < y;
  case CMPMODE::GT: return x > y;
  case CMPMODE::EQ: return x == y;
  case CMPMODE::LE: return x <= y;
  case CMPMODE::GE: return x >= y;
  case CMPMODE::NE: return x != y;
  }
  return false;
}

// Checks the mode and the count of a Compare/Compares; returns the number of elements the
// hardware compares (whole 256-byte repeats), 0 to skip. `mode` may be changed to the mode the
// hardware applies (int32_t compares EQ whatever the mode says).
template <class T>
uint64_t compareCount(Core &core, const char *name, CMPMODE &mode, uint32_t count) {
  if (!cmpModeName(mode)) {
    core.report(FindingKind::bad_argument,
                std::string(name) + ": cmpMode " + std::to_string(int(mode)) + " is not a CMPMODE");
    return 0;
  }
  if constexpr (std::is_same_v<T, int32_t>) {
    if (mode != CMPMODE::EQ) {
      core.report(FindingKind::bad_argument, std::string(name) + ": int32_t supports only CMPMODE::EQ on Atlas A2, not " +
                                                 cmpModeName(mode) + " (the hardware compares EQ)");
      mode = CMPMODE::EQ;
    }
  }
  if (count == 0) return 0;  // a NOP on Atlas A2
  const uint64_t bytes = uint64_t(count) * sizeof(T);
  if (bytes % kRepeatBytes != 0)
    core.report(FindingKind::bad_argument,
                std::string(name) + ": count " + std::to_string(count) + " x " + std::to_string(sizeof(T)) +
                    " bytes = " + std::to_string(bytes) + " is not a multiple of 256 bytes; only the first " +
                    std::to_string(bytes / kRepeatBytes * kRepeatBytes / sizeof(T)) +
                    " elements (whole repeats) are compared");
  return bytes / kRepeatBytes * kRepeatBytes / sizeof(T);
}

// dst bit i (LSB first within each byte) = pred(i), for i < n (a multiple of 8 here).
template <class U, class F>
void storeMask(Core &core, const LocalTensor<U> &dst, uint64_t n, F &&pred) {
  std::vector<uint8_t> bits(size_t((n + 7) / 8), 0);
  for (uint64_t i = 0; i < n; ++i)
    if (pred(i)) bits[size_t(i / 8)] |= uint8_t(1u << (i % 8));
  std::memcpy(core.memory(MemoryKind::UB) + byteOffsetOf(dst), bits.data(), bits.size());
}

template <class T, class U>
void compareImpl(const char *name, const LocalTensor<U> &dst, const LocalTensor<T> &src0, const LocalTensor<T> *src1,
                 T scalar, CMPMODE mode, uint32_t count) {
  Core &core = currentCore();
  const uint64_t n = compareCount<T>(core, name, mode, count);
  if (n == 0) return;
  const uint64_t maskBytes = n / 8;
  bool ok = vectorOperand(core, name, "dst", dst, maskBytes);
  ok = vectorOperand(core, name, "src0", src0, n) && ok;
  if (src1) ok = vectorOperand(core, name, "src1", *src1, n) && ok;
  if (!ok) return;
  {
    Operation op(core, Pipe::V, name);
    op.readLocal(MemoryKind::UB, byteOffsetOf(src0), byteOffsetOf(src0) + n * sizeof(T));
    if (src1) op.readLocal(MemoryKind::UB, byteOffsetOf(*src1), byteOffsetOf(*src1) + n * sizeof(T));
    op.writeLocal(MemoryKind::UB, byteOffsetOf(dst), byteOffsetOf(dst) + maskBytes);
  }
  const std::vector<T> a = loadLocal(core, src0, n);
  const std::vector<T> b = src1 ? loadLocal(core, *src1, n) : std::vector<T>();
  storeMask(core, dst, n, [&](uint64_t i) { return compareValues(a[size_t(i)], src1 ? b[size_t(i)] : scalar, mode); });
}

template <class T>
inline constexpr bool kCompareType = std::is_same_v<T, half> || std::is_same_v<T, float> || std::is_same_v<T, int32_t>;
template <class T>
inline constexpr bool kSelectType = std::is_same_v<T, half> || std::is_same_v<T, float>;
template <class U>
inline constexpr bool kSelMaskType = std::is_same_v<U, uint8_t> || std::is_same_v<U, uint16_t> ||
                                     std::is_same_v<U, uint32_t> || std::is_same_v<U, uint64_t>;

inline const char *selModeName(SELMODE mode) {
  switch (mode) {
  case SELMODE::VSEL_CMPMASK_SPR: return "VSEL_CMPMASK_SPR";
  case SELMODE::VSEL_TENSOR_SCALAR_MODE: return "VSEL_TENSOR_SCALAR_MODE";
  case SELMODE::VSEL_TENSOR_TENSOR_MODE: return "VSEL_TENSOR_TENSOR_MODE";
  }
  return "an invalid SELMODE";
}

// CANN's internal Duplicate of one scratch block at TMP_UB_OFFSET (modes 1 and 2), followed by
// PipeBarrier<PIPE_V>, set_cmpmask reading it, and another PipeBarrier<PIPE_V>.
template <class E>
void selectScratch(Core &core, E value) {
  constexpr uint64_t kElements = 32;  // CANN duplicates ONE_BLK_SIZE (32) elements
  const uint64_t lo = kTmpUbOffset, hi = lo + kElements * sizeof(E);
  {
    Operation op(core, Pipe::V, "Select (scratch Duplicate)");
    op.writeLocal(MemoryKind::UB, lo, hi);
  }
  for (uint64_t i = 0; i < kElements; ++i) std::memcpy(core.memory(MemoryKind::UB) + lo + i * sizeof(E), &value, sizeof(E));
  core.clocks().barrier(Pipe::V);
  {
    Operation op(core, Pipe::V, "Select (set_cmpmask)");
    op.readLocal(MemoryKind::UB, lo, hi);
  }
  core.clocks().barrier(Pipe::V);
}

template <class U>
bool maskBit(const std::vector<U> &mask, uint64_t bit) {
  const uint8_t *bytes = reinterpret_cast<const uint8_t *>(mask.data());
  return (bytes[size_t(bit / 8)] >> (bit % 8)) & 1u;
}

template <class T, class U>
void selectImpl(const LocalTensor<T> &dst, const LocalTensor<U> &selMask, const LocalTensor<T> &src0,
                const LocalTensor<T> *src1, T scalar, SELMODE mode, uint32_t count) {
  Core &core = currentCore();
  const char *name = "Select";
  if (src1 && mode == SELMODE::VSEL_TENSOR_SCALAR_MODE) {
    core.report(FindingKind::bad_argument, "Select: VSEL_TENSOR_SCALAR_MODE with a tensor src1 (CANN's count form "
                                           "does nothing; pass src1 as a scalar)");
    return;
  }
  if (!src1 && mode != SELMODE::VSEL_TENSOR_SCALAR_MODE) {
    core.report(FindingKind::bad_argument, std::string("Select: a scalar src1 needs VSEL_TENSOR_SCALAR_MODE, not ") +
                                               selModeName(mode));
    return;
  }
  if (src1 && mode != SELMODE::VSEL_CMPMASK_SPR && mode != SELMODE::VSEL_TENSOR_TENSOR_MODE) {
    core.report(FindingKind::bad_argument, std::string("Select: selMode ") + std::to_string(int(mode)) +
                                               " is not a SELMODE (CANN's count form does nothing)");
    return;
  }
  if (count == 0) return;  // a NOP on Atlas A2
  const uint64_t n = count;
  constexpr uint64_t kBitsPerRepeat = kRepeatBytes / sizeof(T);
  // Mode 0 loads the first 256/sizeof(T) bits once; modes 1 and 2 consume one bit per element.
  const uint64_t maskBits = mode == SELMODE::VSEL_CMPMASK_SPR ? kBitsPerRepeat : n;
  const uint64_t maskBytes = (maskBits + 7) / 8;
  bool ok = vectorOperand(core, name, "dst", dst, n);
  ok = vectorOperand(core, name, "selMask", selMask, (maskBytes + sizeof(U) - 1) / sizeof(U)) && ok;
  ok = vectorOperand(core, name, "src0", src0, n) && ok;
  if (src1) ok = vectorOperand(core, name, "src1", *src1, n) && ok;
  if (!ok) return;
  const uint64_t maskLo = byteOffsetOf(selMask);
  if (mode == SELMODE::VSEL_CMPMASK_SPR) {
    // set_cmpmask(selMask); PipeBarrier<PIPE_V>
    {
      Operation op(core, Pipe::V, "Select (set_cmpmask)");
      op.readLocal(MemoryKind::UB, maskLo, maskLo + maskBytes);
    }
    core.clocks().barrier(Pipe::V);
  } else if (mode == SELMODE::VSEL_TENSOR_TENSOR_MODE) {
    selectScratch(core, uint32_t(maskLo));  // the mask's address goes through the scratch block
  } else {
    selectScratch(core, scalar);
  }
  {
    Operation op(core, Pipe::V, name);
    if (mode != SELMODE::VSEL_CMPMASK_SPR) op.readLocal(MemoryKind::UB, maskLo, maskLo + maskBytes);
    op.readLocal(MemoryKind::UB, byteOffsetOf(src0), byteOffsetOf(src0) + n * sizeof(T));
    if (src1) op.readLocal(MemoryKind::UB, byteOffsetOf(*src1), byteOffsetOf(*src1) + n * sizeof(T));
    op.writeLocal(MemoryKind::UB, byteOffsetOf(dst), byteOffsetOf(dst) + n * sizeof(T));
  }
  // CANN ends modes 0 and 2 with PipeBarrier<PIPE_V>; mode 1 does not.
  if (mode != SELMODE::VSEL_TENSOR_SCALAR_MODE) core.clocks().barrier(Pipe::V);
  const std::vector<U> mask = loadLocal(core, selMask, (maskBytes + sizeof(U) - 1) / sizeof(U));
  const std::vector<T> a = loadLocal(core, src0, n);
  const std::vector<T> b = src1 ? loadLocal(core, *src1, n) : std::vector<T>();
  std::vector<T> out{};
  out.resize(size_t(n));
  for (uint64_t i = 0; i < n; ++i) {
    const uint64_t bit = mode == SELMODE::VSEL_CMPMASK_SPR ? i % kBitsPerRepeat : i;
    out[size_t(i)] = maskBit(mask, bit) ? a[size_t(i)] : (src1 ? b[size_t(i)] : scalar);
  }
  storeLocal(core, dst, out);
}

}  // namespace emu_detail

// dst bit i = (src0[i] cmpMode src1[i]), LSB first within each byte. Atlas A2: T is half or float
// (every mode) or int32_t (EQ only), U is int8_t or uint8_t; count * sizeof(T) must be a multiple
// of 256 bytes (elements past the last whole repeat are not compared).
template <typename T, typename U>
void Compare(const LocalTensor<U> &dst, const LocalTensor<T> &src0, const LocalTensor<T> &src1, CMPMODE cmpMode,
             uint32_t count) {
  static_assert(emu_detail::kCompareType<T>, "Compare takes half, float or int32_t sources on Atlas A2");
  static_assert(std::is_same_v<U, uint8_t> || std::is_same_v<U, int8_t>, "Compare writes an int8_t/uint8_t mask");
  emu_detail::compareImpl("Compare", dst, src0, &src1, T{}, cmpMode, count);
}

// dst bit i = (src0[i] cmpMode src1Scalar); the same rules as Compare, U is uint8_t.
template <typename T, typename U>
void Compares(const LocalTensor<U> &dst, const LocalTensor<T> &src0, const T src1Scalar, CMPMODE cmpMode,
              uint32_t count) {
  static_assert(emu_detail::kCompareType<T>, "Compares takes half, float or int32_t sources on Atlas A2");
  static_assert(std::is_same_v<U, uint8_t>, "Compares writes a uint8_t mask");
  emu_detail::compareImpl<T, U>("Compares", dst, src0, nullptr, src1Scalar, cmpMode, count);
}

// The former name of Compares (CANN keeps it, deprecated).
template <typename T, typename U>
void CompareScalar(const LocalTensor<U> &dst, const LocalTensor<T> &src0, const T src1Scalar, CMPMODE cmpMode,
                   uint32_t count) {
  static_assert(emu_detail::kCompareType<T>, "CompareScalar takes half, float or int32_t sources on Atlas A2");
  static_assert(std::is_same_v<U, uint8_t>, "CompareScalar writes a uint8_t mask");
  emu_detail::compareImpl<T, U>("CompareScalar", dst, src0, nullptr, src1Scalar, cmpMode, count);
}

// Modes 0 and 2: dst[i] = mask bit ? src0[i] : src1[i] (mode 0 reuses the first 256/sizeof(T)
// bits for every repeat). T is half or float; U is uint8_t/uint16_t/uint32_t/uint64_t.
template <typename T, typename U>
void Select(const LocalTensor<T> &dst, const LocalTensor<U> &selMask, const LocalTensor<T> &src0,
            const LocalTensor<T> &src1, SELMODE selMode, uint32_t count) {
  static_assert(emu_detail::kSelectType<T>, "Select takes half or float tensors on Atlas A2");
  static_assert(emu_detail::kSelMaskType<U>, "Select's selMask is uint8_t, uint16_t, uint32_t or uint64_t");
  emu_detail::selectImpl(dst, selMask, src0, &src1, T{}, selMode, count);
}

// Mode 1 (VSEL_TENSOR_SCALAR_MODE): dst[i] = mask bit i ? src0[i] : src1.
template <typename T, typename U>
void Select(const LocalTensor<T> &dst, const LocalTensor<U> &selMask, const LocalTensor<T> &src0, T src1,
            SELMODE selMode, uint32_t count) {
  static_assert(emu_detail::kSelectType<T>, "Select takes half or float tensors on Atlas A2");
  static_assert(emu_detail::kSelMaskType<U>, "Select's selMask is uint8_t, uint16_t, uint32_t or uint64_t");
  emu_detail::selectImpl<T, U>(dst, selMask, src0, nullptr, src1, selMode, count);
}

// dst[i] = firstValue + i for i < count; T is int16_t, int32_t, half or float. As CANN does on
// Atlas A2: the first 32-byte block by scalar stores (pipe S, then an internal S_V flag), the
// rest by Adds on pipe V, block by block then repeat by repeat (half rounds at each step).
template <typename T>
void CreateVecIndex(LocalTensor<T> dst, const T &firstValue, uint32_t count) {
  using namespace emu_detail;
  static_assert(std::is_same_v<T, int16_t> || std::is_same_v<T, int32_t> || std::is_same_v<T, half> ||
                    std::is_same_v<T, float>,
                "CreateVecIndex takes int16_t, int32_t, half or float on Atlas A2");
  Core &core = currentCore();
  const char *name = "CreateVecIndex";
  if (count == 0 || !vectorOperand(core, name, "dst", dst, count)) return;
  constexpr uint64_t kBlock = 32 / sizeof(T), kRepeat = kRepeatBytes / sizeof(T);
  const uint64_t n = count, first = std::min<uint64_t>(n, kBlock);
  const uint64_t lo = byteOffsetOf(dst);
  {
    Operation op(core, Pipe::S, name);
    op.writeLocal(MemoryKind::UB, lo, lo + first * sizeof(T));
  }
  core.clocks().learn(Pipe::V, core.clocks().token(Pipe::S));  // CANN's SetFlag/WaitFlag<S_V>
  if (n > kBlock) {
    Operation op(core, Pipe::V, name);
    op.readLocal(MemoryKind::UB, lo, lo + kBlock * sizeof(T));
    op.writeLocal(MemoryKind::UB, lo + kBlock * sizeof(T), lo + n * sizeof(T));
  }
  std::vector<T> out{};
  out.resize(size_t(n));
  for (uint64_t i = 0; i < n; ++i) {
    if (i < kBlock) {
      if constexpr (std::is_integral_v<T>) out[size_t(i)] = T(int64_t(firstValue) + int64_t(i));
      else out[size_t(i)] = T(float(firstValue) + float(i));
    } else if (i < kRepeat) {
      out[size_t(i)] = addValues(out[size_t(i - kBlock)], T(kBlock));
    } else {
      out[size_t(i)] = addValues(out[size_t(i - kRepeat)], T(kRepeat));
    }
  }
  storeLocal(core, dst, out);
}

}  // namespace AscendC
