// Triton's scalar element types and its promotion rules, independent of MLIR.
#pragma once

#include <optional>
#include <string>

namespace tle::sema {

enum class DType {
  I1, I8, I16, I32, I64, U8, U16, U32, U64,
  FP8E4NV, FP8E5, FP8E4B15, FP8E4B8, FP8E5B16, FP16, BF16, FP32, FP64,
};

const char *dtypeName(DType t);      // Triton's short name: "i32", "fp16", ...
const char *dtypeTlName(DType t);    // the tl attribute: "int32", "float16", ...
std::optional<DType> dtypeFromName(const std::string &name);    // "i32", "fp16", ...
std::optional<DType> dtypeFromTlName(const std::string &name);  // "int32", "float16", "bfloat16", ...

bool isFloat(DType t);
bool isInt(DType t);  // signed, unsigned or i1
bool isUnsigned(DType t);
bool isFp8(DType t);
unsigned bitWidth(DType t);

// The type both operands of an arithmetic operator are converted to (Triton's
// computation_type_impl). A "weak" operand is a Python scalar: it adapts to the other
// operand's kind instead of widening it. `div` is true division (`/`), which yields a
// float even for integers; `divOrMod` (`/`, `//`, `%`) computes 16-bit floats in fp32, as
// PTX has no 16-bit division.
DType promote(DType a, bool aWeak, DType b, bool bWeak, bool div, bool divOrMod = false);

}  // namespace tle::sema
