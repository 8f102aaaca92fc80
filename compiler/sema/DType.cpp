#include "sema/DType.h"

#include <algorithm>
#include <cstring>
#include <utility>

namespace tle::sema {

namespace {

struct Info {
  DType type;
  const char *shortName;
  const char *tlName;
  unsigned bits;
};

constexpr Info kInfo[] = {
    {DType::I1, "i1", "int1", 1},          {DType::I8, "i8", "int8", 8},
    {DType::I16, "i16", "int16", 16},      {DType::I32, "i32", "int32", 32},
    {DType::I64, "i64", "int64", 64},      {DType::U8, "u8", "uint8", 8},
    {DType::U16, "u16", "uint16", 16},     {DType::U32, "u32", "uint32", 32},
    {DType::U64, "u64", "uint64", 64},     {DType::FP8E4NV, "fp8e4nv", "float8e4nv", 8},
    {DType::FP8E5, "fp8e5", "float8e5", 8}, {DType::FP8E4B15, "fp8e4b15", "float8e4b15", 8},
    {DType::FP8E4B8, "fp8e4b8", "float8e4b8", 8}, {DType::FP8E5B16, "fp8e5b16", "float8e5b16", 8},
    {DType::FP16, "fp16", "float16", 16},  {DType::BF16, "bf16", "bfloat16", 16},
    {DType::FP32, "fp32", "float32", 32},  {DType::FP64, "fp64", "float64", 64},
};

const Info &info(DType t) { return kInfo[static_cast<size_t>(t)]; }

}  // namespace

const char *dtypeName(DType t) { return info(t).shortName; }
const char *dtypeTlName(DType t) { return info(t).tlName; }
unsigned bitWidth(DType t) { return info(t).bits; }

std::optional<DType> dtypeFromName(const std::string &name) {
  if (name == "u1") return DType::I1;
  for (const Info &i : kInfo)
    if (name == i.shortName) return i.type;
  return std::nullopt;
}

std::optional<DType> dtypeFromTlName(const std::string &name) {
  for (const Info &i : kInfo)
    if (name == i.tlName) return i.type;
  // Aliases tl exports.
  if (name == "float" || name == "float32") return DType::FP32;
  if (name == "half") return DType::FP16;
  if (name == "double") return DType::FP64;
  if (name == "bool") return DType::I1;
  return std::nullopt;
}

bool isFloat(DType t) { return t >= DType::FP8E4NV; }
bool isInt(DType t) { return t <= DType::U64; }
bool isUnsigned(DType t) { return t >= DType::U8 && t <= DType::U64; }
bool isFp8(DType t) { return t >= DType::FP8E4NV && t <= DType::FP8E5B16; }

static DType signedOfWidth(unsigned bits) {
  switch (bits) {
  case 1: return DType::I1;
  case 8: return DType::I8;
  case 16: return DType::I16;
  case 32: return DType::I32;
  default: return DType::I64;
  }
}

static DType unsignedOfWidth(unsigned bits) {
  switch (bits) {
  case 8: return DType::U8;
  case 16: return DType::U16;
  case 32: return DType::U32;
  default: return DType::U64;
  }
}

DType promote(DType a, bool aWeak, DType b, bool bWeak, bool div, bool divOrMod) {
  // A Python scalar takes the other side's type when the kinds agree (int with int,
  // float with float) or when it is an int meeting a float.
  // Division and remainder of a 16-bit float tensor are computed in fp32 even then.
  auto widened = [&](DType tensor) { return divOrMod && (tensor == DType::FP16 || tensor == DType::BF16) ? DType::FP32 : tensor; };
  if (aWeak && !bWeak) {
    if (isFloat(b) || isInt(a)) return div && isInt(b) ? DType::FP32 : widened(b);
  }
  if (bWeak && !aWeak) {
    if (isFloat(a) || isInt(b)) return div && isInt(a) ? DType::FP32 : widened(a);
  }
  if (isFloat(a) || isFloat(b)) {
    if (a == DType::FP64 || b == DType::FP64) return DType::FP64;
    if (a == DType::FP32 || b == DType::FP32) return DType::FP32;
    // Triton's order: fp16 wins over anything narrower (bf16, fp8, integers); bf16 stays
    // bf16 only with bf16; division and remainder of either are computed in fp32.
    if (a == DType::FP16 || b == DType::FP16) return divOrMod ? DType::FP32 : DType::FP16;
    if (a == DType::BF16 || b == DType::BF16) return !divOrMod && a == b ? DType::BF16 : DType::FP32;
    if (isFp8(a) && isFp8(b)) return a == b ? a : DType::FP16;
    // An fp8 with an integer (Triton rejects it).
    return DType::FP32;
  }
  if (div) return DType::FP32;
  // Both integers: the wider wins; at equal width unsigned wins.
  unsigned wa = bitWidth(a), wb = bitWidth(b);
  if (a == b) return a;
  if (isUnsigned(a) == isUnsigned(b)) return wa >= wb ? a : b;
  DType u = isUnsigned(a) ? a : b, s = isUnsigned(a) ? b : a;
  if (bitWidth(u) >= bitWidth(s)) return unsignedOfWidth(bitWidth(u));
  (void)signedOfWidth;
  return s;
}

}  // namespace tle::sema
