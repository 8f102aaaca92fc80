// Whole-tensor reductions (pipe V) over the first `count` elements: ReduceSum, ReduceMax and
// ReduceMin, result in dst[0] (and with calIndex the position of the extreme in dst[1], stored as
// the bits of an unsigned integer of the element's size). The hardware works in repeats of 256
// bytes and keeps first-round results in sharedTmpBuffer; the emulation requires the buffer size
// the CANN documentation gives, writes the first-round results there, and sums each repeat as a
// pairwise tree (rounding every addition to the element type), then the repeat sums the same way.
// That order approximates the hardware's: sums may differ in the last bits.
#pragma once

#include "tle/ascendc/emu/vector.h"

#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

namespace AscendC {
namespace emu_detail {

inline constexpr uint64_t kRepeatBytes = 256;

inline uint64_t divCeil(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

// Elements of sharedTmpBuffer ReduceSum needs: the first round's results (one per repeat),
// rounded up to whole 32-byte blocks.
inline uint64_t reduceSumTmpElements(uint64_t count, uint64_t elementSize) {
  const uint64_t perRepeat = kRepeatBytes / elementSize, perBlock = 32 / elementSize;
  return alignUp(divCeil(count, perRepeat), perBlock);
}

// Elements of sharedTmpBuffer ReduceMax/ReduceMin need (value and index per repeat; with
// calIndex the later rounds keep their own space, since the first round's indices are reused).
inline uint64_t reduceMaxMinTmpElements(uint64_t count, uint64_t elementSize, bool calIndex) {
  const uint64_t perRepeat = kRepeatBytes / elementSize, perBlock = 32 / elementSize;
  const uint64_t round1 = divCeil(count, perRepeat) * 2;
  if (!calIndex) return alignUp(round1, perBlock);
  const uint64_t round2Start = alignUp(round1, perBlock);
  const uint64_t round2 = divCeil(round1, perRepeat) * 2;
  uint64_t need = round2Start + alignUp(round2, perBlock);
  if (round2 > 2) need += alignUp(divCeil(round2, perRepeat) * 2, perBlock);
  return need;
}

template <class T>
T treeSum(std::vector<T> values) {
  while (values.size() > 1) {
    std::vector<T> next((values.size() + 1) / 2);
    for (size_t i = 0; i < next.size(); ++i)
      next[i] = 2 * i + 1 < values.size() ? addValues(values[2 * i], values[2 * i + 1]) : values[2 * i];
    values = std::move(next);
  }
  return values.empty() ? T(0) : values[0];
}

// Sums of each repeat of `values`.
template <class T>
std::vector<T> repeatSums(const std::vector<T> &values) {
  const size_t perRepeat = size_t(kRepeatBytes / sizeof(T));
  std::vector<T> sums;
  for (size_t at = 0; at < values.size(); at += perRepeat)
    sums.push_back(treeSum(std::vector<T>(values.begin() + at, values.begin() + std::min(values.size(), at + perRepeat))));
  return sums;
}

// Unsigned integer of the element's size, in which an index is stored.
template <class T>
using IndexBits = std::conditional_t<sizeof(T) == 2, uint16_t, std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>>;

template <class T>
T indexAsElement(uint64_t index) {
  const IndexBits<T> bits = IndexBits<T>(index);
  T value;
  std::memcpy(&value, &bits, sizeof(T));
  return value;
}

// Checks the operands of a reduction and records its accesses; false: skip it.
template <class T>
bool reductionOperands(Core &core, const char *name, const LocalTensor<T> &dst, const LocalTensor<T> &src,
                       const LocalTensor<T> &tmp, uint64_t count, uint64_t tmpElements, uint64_t dstElements) {
  bool ok = vectorOperand(core, name, "dst", dst, dstElements, /*needsAlignment=*/false);
  ok = vectorOperand(core, name, "src", src, count) && ok;
  ok = vectorOperand(core, name, "sharedTmpBuffer", tmp, tmpElements) && ok;
  if (!ok) return false;
  Operation op(core, Pipe::V, name);
  op.readLocal(MemoryKind::UB, byteOffsetOf(src), byteOffsetOf(src) + count * sizeof(T));
  op.writeLocal(MemoryKind::UB, byteOffsetOf(tmp), byteOffsetOf(tmp) + tmpElements * sizeof(T));
  op.writeLocal(MemoryKind::UB, byteOffsetOf(dst), byteOffsetOf(dst) + dstElements * sizeof(T));
  return true;
}

template <class T>
void reduceExtreme(const char *name, bool wantMax, const LocalTensor<T> &dst, const LocalTensor<T> &src,
                   const LocalTensor<T> &tmp, int32_t count, bool calIndex) {
  Core &core = currentCore();
  if (!vectorCount(core, name, count)) return;
  if (calIndex && sizeof(T) == 2 && count > 65536)
    core.report(FindingKind::bad_argument, std::string(name) + ": with calIndex on 16-bit elements the index must fit "
                                                               "uint16_t, but count is " + std::to_string(count));
  const uint64_t n = uint64_t(count);
  const uint64_t tmpElements = reduceMaxMinTmpElements(n, sizeof(T), calIndex);
  if (!reductionOperands(core, name, dst, src, tmp, n, tmpElements, calIndex ? 2 : 1)) return;

  const std::vector<T> values = loadLocal(core, src, n);
  auto better = [wantMax](T a, T b) { return wantMax ? MathType<T>(b) < MathType<T>(a) : MathType<T>(a) < MathType<T>(b); };
  // The index of the extreme of values[lo, hi): the first NaN wins, so poisoned input shows in
  // the result; ties keep the lowest index.
  auto extremeIn = [&](uint64_t lo, uint64_t hi) {
    uint64_t best = lo;
    for (uint64_t i = lo + 1; i < hi && !isNaN(values[size_t(best)]); ++i)
      if (isNaN(values[size_t(i)]) || better(values[size_t(i)], values[size_t(best)])) best = i;
    return best;
  };
  // First round, as the hardware keeps it in sharedTmpBuffer: value and index in the repeat.
  const uint64_t perRepeat = kRepeatBytes / sizeof(T);
  std::vector<T> firstRound;
  for (uint64_t start = 0; start < n; start += perRepeat) {
    const uint64_t best = extremeIn(start, std::min(n, start + perRepeat));
    firstRound.push_back(values[size_t(best)]);
    firstRound.push_back(indexAsElement<T>(best - start));
  }
  const uint64_t bestIndex = extremeIn(0, n);
  std::memcpy(core.memory(MemoryKind::UB) + byteOffsetOf(tmp), firstRound.data(), firstRound.size() * sizeof(T));
  std::vector<T> result = {values[size_t(bestIndex)]};
  if (calIndex) result.push_back(indexAsElement<T>(bestIndex));
  storeLocal(core, dst, result);
}

}  // namespace emu_detail

// dst[0] = the sum of src[0..count).
template <typename T, bool isSetMask = true>
void ReduceSum(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LocalTensor<T> &sharedTmpBuffer,
               const int32_t count) {
  using namespace emu_detail;
  Core &core = currentCore();
  const char *name = "ReduceSum";
  if (!vectorCount(core, name, count)) return;
  const uint64_t n = uint64_t(count);
  if (!reductionOperands(core, name, dst, src, sharedTmpBuffer, n, reduceSumTmpElements(n, sizeof(T)), 1)) return;
  std::vector<T> sums = repeatSums(loadLocal(core, src, n));
  std::memcpy(core.memory(MemoryKind::UB) + byteOffsetOf(sharedTmpBuffer), sums.data(), sums.size() * sizeof(T));
  while (sums.size() > 1) sums = repeatSums(sums);
  storeLocal(core, dst, sums);
}

// dst[0] = the largest of src[0..count); with calIndex dst[1] holds its (first) index.
template <typename T>
void ReduceMax(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LocalTensor<T> &sharedTmpBuffer,
               const int32_t count, bool calIndex = false) {
  emu_detail::reduceExtreme("ReduceMax", /*wantMax=*/true, dst, src, sharedTmpBuffer, count, calIndex);
}

// dst[0] = the smallest of src[0..count); with calIndex dst[1] holds its (first) index.
template <typename T>
void ReduceMin(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LocalTensor<T> &sharedTmpBuffer,
               const int32_t count, bool calIndex = false) {
  emu_detail::reduceExtreme("ReduceMin", /*wantMax=*/false, dst, src, sharedTmpBuffer, count, calIndex);
}

}  // namespace AscendC
