// Data movement between global memory and on-chip memory: DataCopy (whole 32-byte blocks) and
// DataCopyPad (any byte length; GM -> UB rows are padded to 32 bytes). GM -> on-chip copies run
// on the MTE2 pipe, UB -> GM copies on MTE3.
#pragma once

#include "tle/ascendc/emu/memory.h"

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace AscendC {

// Strided copies in units of 32-byte blocks (DataCopy).
struct DataCopyParams {
  DataCopyParams() {}
  DataCopyParams(const uint16_t count, const uint16_t len, const uint16_t srcStrideIn, const uint16_t dstStrideIn)
      : blockCount(count), blockLen(len), srcStride(srcStrideIn), dstStride(dstStrideIn) {}

  uint16_t blockCount = 1;
  uint16_t blockLen = 0;   // 32-byte blocks per row
  uint16_t srcStride = 0;  // 32-byte blocks between rows of the source
  uint16_t dstStride = 0;  // 32-byte blocks between rows of the destination
};

// Strided copies of rows of any byte length (DataCopyPad). Strides are gaps between the end of a
// row and the start of the next: in bytes on the GM side, in 32-byte blocks on the UB side.
struct DataCopyExtParams {
  DataCopyExtParams() {}
  DataCopyExtParams(const uint16_t count, const uint32_t len, const uint32_t srcStrideIn, const uint32_t dstStrideIn,
                    const uint32_t rsvIn)
      : blockCount(count), blockLen(len), srcStride(srcStrideIn), dstStride(dstStrideIn), rsv(rsvIn) {}

  uint16_t blockCount = 1;
  uint32_t blockLen = 0;  // bytes per row
  uint32_t srcStride = 0;
  uint32_t dstStride = 0;
  uint32_t rsv = 0;
};

// Padding of GM -> UB DataCopyPad rows: leftPadding and rightPadding elements around each row,
// then filler up to the next 32-byte boundary; all of it paddingValue when isPad is set.
template <typename T>
struct DataCopyPadExtParams {
  DataCopyPadExtParams() {}
  DataCopyPadExtParams(const bool isPadValue, const uint8_t leftPadValue, const uint8_t rightPadValue, T padValue)
      : isPad(isPadValue), leftPadding(leftPadValue), rightPadding(rightPadValue), paddingValue(padValue) {}

  bool isPad = false;
  uint8_t leftPadding = 0;
  uint8_t rightPadding = 0;
  T paddingValue = T();
};

namespace emu_detail {

inline constexpr uint64_t kBlock = 32;

// Reports an operand outside the memories a copy can use; returns false (skip the copy).
template <class T>
bool checkCopyMemory(Core &core, const char *op, const char *role, const LocalTensor<T> &tensor, bool allowL1) {
  const LocalRegion &r = tensor.emuRegion();
  if (!r.bound || r.memory == MemoryKind::UB || (allowL1 && r.memory == MemoryKind::L1)) return true;
  core.report(FindingKind::wrong_memory, std::string(op) + ": " + role + " is in " + memorySpec(r.memory).name +
                                             " (TPosition::" + positionName(r.position) + "); this copy works on " +
                                             (allowL1 ? "UB or L1" : "UB"));
  return false;
}

// One row of a strided copy: GM bytes and on-chip bytes.
struct CopyRow {
  uint8_t *gm;        // GM side (source or destination)
  uint64_t local;     // byte offset of the row in the on-chip memory
  uint64_t bytes;     // bytes moved
  uint64_t localSpan; // on-chip bytes the row occupies (with padding)
};

// GM -> on-chip rows: checks, hazards (MTE2), then the byte moves; `fill` writes padding.
template <class T, class Fill>
void copyIn(Core &core, const char *name, const LocalTensor<T> &dst, const GlobalTensor<T> &src,
            const std::vector<CopyRow> &rows, uint64_t gmSpan, uint64_t localSpan, Fill &&fill) {
  const bool dstOk = checkLocalExtent(core, name, "dst", dst, localSpan);
  const bool srcOk = checkGlobalExtent(core, name, "src", src, gmSpan);
  if (!dstOk || !srcOk) return;
  const MemoryKind memory = dst.emuRegion().memory;
  Operation op(core, Pipe::MTE2, name);
  for (const CopyRow &row : rows) op.readGlobal(row.gm, row.bytes);
  for (const CopyRow &row : rows) op.writeLocal(memory, row.local, row.local + row.localSpan);
  op.finish();
  uint8_t *base = core.memory(memory);
  for (const CopyRow &row : rows) fill(base, row);
}

// On-chip -> GM rows: checks, hazards (MTE3), then the byte moves.
template <class T>
void copyOut(Core &core, const char *name, const GlobalTensor<T> &dst, const LocalTensor<T> &src,
             const std::vector<CopyRow> &rows, uint64_t gmSpan, uint64_t localSpan) {
  const bool dstOk = checkGlobalExtent(core, name, "dst", dst, gmSpan);
  const bool srcOk = checkLocalExtent(core, name, "src", src, localSpan);
  if (!dstOk || !srcOk) return;
  const MemoryKind memory = src.emuRegion().memory;
  Operation op(core, Pipe::MTE3, name);
  for (const CopyRow &row : rows) op.readLocal(memory, row.local, row.local + row.bytes);
  for (const CopyRow &row : rows) op.writeGlobal(row.gm, row.bytes);
  op.finish();
  const uint8_t *base = core.memory(memory);
  for (const CopyRow &row : rows) std::memcpy(row.gm, base + row.local, row.bytes);
}

template <class T>
void fillElements(uint8_t *at, uint64_t bytes, const T &value) {
  for (uint64_t i = 0; i + sizeof(T) <= bytes; i += sizeof(T)) std::memcpy(at + i, &value, sizeof(T));
}

}  // namespace emu_detail

// GM -> UB (or L1), `count` elements. The hardware moves whole 32-byte blocks: a count that is
// not a whole number of blocks is a finding, and only the whole blocks move.
template <typename T>
void DataCopy(const LocalTensor<T> &dst, const GlobalTensor<T> &src, const uint32_t count) {
  using namespace emu_detail;
  Core &core = currentCore();
  const uint64_t bytes = uint64_t(count) * sizeof(T);
  const uint64_t moved = bytes / kBlock * kBlock;
  if (bytes != moved)
    core.report(FindingKind::copy_granularity,
                "DataCopy GM->" + std::string(memorySpec(dst.emuRegion().memory).name) + " of " + std::to_string(count) +
                    " elements (" + std::to_string(bytes) + " bytes) is not whole 32-byte blocks; only " +
                    std::to_string(moved) + " bytes move (use DataCopyPad)");
  if (!checkCopyMemory(core, "DataCopy", "dst", dst, /*allowL1=*/true)) return;
  checkAligned(core, "DataCopy", "dst", dst, uint32_t(kBlock));
  if (moved == 0) return;
  const std::vector<CopyRow> rows = {{reinterpret_cast<uint8_t *>(src.GetPhyAddr(0)), dst.emuRegion().byteOffset,
                                      moved, moved}};
  copyIn(core, "DataCopy", dst, src, rows, moved, moved,
         [](uint8_t *base, const CopyRow &row) { std::memcpy(base + row.local, row.gm, row.bytes); });
}

// UB -> GM, `count` elements, whole 32-byte blocks as above.
template <typename T>
void DataCopy(const GlobalTensor<T> &dst, const LocalTensor<T> &src, const uint32_t count) {
  using namespace emu_detail;
  Core &core = currentCore();
  const uint64_t bytes = uint64_t(count) * sizeof(T);
  const uint64_t moved = bytes / kBlock * kBlock;
  if (bytes != moved)
    core.report(FindingKind::copy_granularity,
                "DataCopy UB->GM of " + std::to_string(count) + " elements (" + std::to_string(bytes) +
                    " bytes) is not whole 32-byte blocks; only " + std::to_string(moved) +
                    " bytes move (use DataCopyPad)");
  if (!checkCopyMemory(core, "DataCopy", "src", src, /*allowL1=*/false)) return;
  checkAligned(core, "DataCopy", "src", src, uint32_t(kBlock));
  if (moved == 0) return;
  const std::vector<CopyRow> rows = {{reinterpret_cast<uint8_t *>(dst.GetPhyAddr(0)), src.emuRegion().byteOffset,
                                      moved, moved}};
  copyOut(core, "DataCopy", dst, src, rows, moved, moved);
}

namespace emu_detail {
// The rows of a DataCopyParams copy, either direction: blockCount rows of blockLen 32-byte
// blocks, `gmGap` and `localGap` blocks apart (after each row's end) on the two sides, and the
// bytes each side spans.
struct BlockRows {
  BlockRows(const DataCopyParams &params, uint8_t *gm, uint16_t gmGap, uint64_t local, uint16_t localGap) {
    const uint64_t rowBytes = uint64_t(params.blockLen) * kBlock, n = params.blockCount;
    for (uint64_t i = 0; i < n; ++i)
      rows.push_back({gm + i * (rowBytes + gmGap * kBlock), local + i * (rowBytes + localGap * kBlock), rowBytes, rowBytes});
    gmSpan = n * rowBytes + (n - 1) * gmGap * kBlock;
    localSpan = n * rowBytes + (n - 1) * localGap * kBlock;
  }
  std::vector<CopyRow> rows;
  uint64_t gmSpan = 0, localSpan = 0;
};
}  // namespace emu_detail

// GM -> UB (or L1) rows of blockLen 32-byte blocks; strides are gaps in 32-byte blocks.
template <typename T>
void DataCopy(const LocalTensor<T> &dst, const GlobalTensor<T> &src, const DataCopyParams &params) {
  using namespace emu_detail;
  Core &core = currentCore();
  if (!checkCopyMemory(core, "DataCopy", "dst", dst, /*allowL1=*/true)) return;
  checkAligned(core, "DataCopy", "dst", dst, uint32_t(kBlock));
  if (params.blockCount == 0 || params.blockLen == 0) return;
  const BlockRows r(params, reinterpret_cast<uint8_t *>(src.GetPhyAddr(0)), params.srcStride, dst.emuRegion().byteOffset,
                    params.dstStride);
  copyIn(core, "DataCopy", dst, src, r.rows, r.gmSpan, r.localSpan,
         [](uint8_t *base, const CopyRow &row) { std::memcpy(base + row.local, row.gm, row.bytes); });
}

// UB -> GM rows of blockLen 32-byte blocks; strides are gaps in 32-byte blocks.
template <typename T>
void DataCopy(const GlobalTensor<T> &dst, const LocalTensor<T> &src, const DataCopyParams &params) {
  using namespace emu_detail;
  Core &core = currentCore();
  if (!checkCopyMemory(core, "DataCopy", "src", src, /*allowL1=*/false)) return;
  checkAligned(core, "DataCopy", "src", src, uint32_t(kBlock));
  if (params.blockCount == 0 || params.blockLen == 0) return;
  const BlockRows r(params, reinterpret_cast<uint8_t *>(dst.GetPhyAddr(0)), params.dstStride, src.emuRegion().byteOffset,
                    params.srcStride);
  copyOut(core, "DataCopy", dst, src, r.rows, r.gmSpan, r.localSpan);
}

// GM -> UB (or L1): blockCount rows of blockLen bytes, srcStride bytes apart in GM (gap after a
// row's end). In UB each row starts 32-byte aligned as [leftPadding elements][the row]
// [rightPadding elements][filler to the next 32-byte boundary], and dstStride 32-byte blocks
// separate consecutive rows. Padding and filler are paddingValue when isPad is set; otherwise the
// hardware leaves them undefined, and the emulation writes poison (0xFF bytes) there.
template <typename T>
void DataCopyPad(const LocalTensor<T> &dst, const GlobalTensor<T> &src, const DataCopyExtParams &params,
                 const DataCopyPadExtParams<T> &padParams) {
  using namespace emu_detail;
  Core &core = currentCore();
  const char *name = "DataCopyPad";
  if (!checkCopyMemory(core, name, "dst", dst, /*allowL1=*/true)) return;
  checkAligned(core, name, "dst", dst, uint32_t(kBlock));
  if (params.blockCount == 0 || params.blockLen == 0) return;  // a no-op on Atlas A2
  if (params.blockLen % sizeof(T) != 0) {
    core.report(FindingKind::bad_argument, "DataCopyPad: blockLen " + std::to_string(params.blockLen) +
                                               " is not a multiple of the element size " +
                                               std::to_string(sizeof(T)) + "; skipped");
    return;
  }
  const uint64_t leftBytes = uint64_t(padParams.leftPadding) * sizeof(T);
  const uint64_t rightBytes = uint64_t(padParams.rightPadding) * sizeof(T);
  if (leftBytes > kBlock || rightBytes > kBlock) {
    core.report(FindingKind::bad_argument, "DataCopyPad: leftPadding " + std::to_string(padParams.leftPadding) +
                                               " / rightPadding " + std::to_string(padParams.rightPadding) +
                                               " elements exceed 32 bytes; skipped");
    return;
  }
  const uint64_t rowSpan = alignUp(leftBytes + params.blockLen + rightBytes, kBlock);
  uint8_t *gm = reinterpret_cast<uint8_t *>(src.GetPhyAddr(0));
  std::vector<CopyRow> rows;
  for (uint64_t i = 0; i < params.blockCount; ++i)
    rows.push_back({gm + i * (uint64_t(params.blockLen) + params.srcStride),
                    dst.emuRegion().byteOffset + i * (rowSpan + uint64_t(params.dstStride) * kBlock),
                    params.blockLen, rowSpan});
  const uint64_t n = params.blockCount;
  const DataCopyPadExtParams<T> pad = padParams;
  const MemoryKind memory = dst.emuRegion().memory;
  copyIn(core, name, dst, src, rows, n * params.blockLen + (n - 1) * uint64_t(params.srcStride),
         n * rowSpan + (n - 1) * uint64_t(params.dstStride) * kBlock,
         [&core, memory, pad, leftBytes](uint8_t *base, const CopyRow &row) {
           uint8_t *at = base + row.local;
           const uint64_t tail = row.localSpan - leftBytes - row.bytes;
           if (pad.isPad) {
             fillElements(at, leftBytes, pad.paddingValue);
             fillElements(at + leftBytes + row.bytes, tail, pad.paddingValue);
           } else {
             // Undefined on the device; in L1 the bytes are recorded as holding no defined data.
             std::memset(at, kPoisonByte, leftBytes);
             std::memset(at + leftBytes + row.bytes, kPoisonByte, tail);
             core.setDefined(memory, row.local, row.local + leftBytes, false);
             core.setDefined(memory, row.local + leftBytes + row.bytes, row.local + row.localSpan, false);
           }
           std::memcpy(at + leftBytes, row.gm, row.bytes);
         });
}

// UB -> GM: blockCount rows of blockLen bytes; in UB rows start 32-byte aligned with srcStride
// 32-byte blocks between them, in GM dstStride bytes separate the end of a row from the next.
// Exactly blockLen bytes per row are written.
template <typename T>
void DataCopyPad(const GlobalTensor<T> &dst, const LocalTensor<T> &src, const DataCopyExtParams &params) {
  using namespace emu_detail;
  Core &core = currentCore();
  const char *name = "DataCopyPad";
  if (!checkCopyMemory(core, name, "src", src, /*allowL1=*/false)) return;
  checkAligned(core, name, "src", src, uint32_t(kBlock));
  if (params.blockCount == 0 || params.blockLen == 0) return;
  if (params.blockLen % sizeof(T) != 0) {
    core.report(FindingKind::bad_argument, "DataCopyPad: blockLen " + std::to_string(params.blockLen) +
                                               " is not a multiple of the element size " +
                                               std::to_string(sizeof(T)) + "; skipped");
    return;
  }
  const uint64_t rowSpan = alignUp(params.blockLen, kBlock);
  uint8_t *gm = reinterpret_cast<uint8_t *>(dst.GetPhyAddr(0));
  std::vector<CopyRow> rows;
  for (uint64_t i = 0; i < params.blockCount; ++i)
    rows.push_back({gm + i * (uint64_t(params.blockLen) + params.dstStride),
                    src.emuRegion().byteOffset + i * (rowSpan + uint64_t(params.srcStride) * kBlock),
                    params.blockLen, rowSpan});
  const uint64_t n = params.blockCount;
  copyOut(core, name, dst, src, rows, n * params.blockLen + (n - 1) * uint64_t(params.dstStride),
          (n - 1) * (rowSpan + uint64_t(params.srcStride) * kBlock) + params.blockLen);
}

}  // namespace AscendC
