// The --signature language: Triton AOT's `compile.py` syntax, one entry per kernel
// parameter, comma separated:
//   *fp32:16      pointer to fp32, address divisible by 16
//   *kfp16        pointer to const fp16 (read-only)
//   i32           scalar runtime argument;  i32:16 divisible by 16;  i32:1 equal to 1
//   1024  -3  0x10  0.5  1e-3            a constexpr number
//   true  false                           a constexpr bool
//   "leaky_relu"  'x'                     a constexpr string (extension)
//   None                                  a constexpr None (extension)
//   _                                     a constexpr bound elsewhere: by -D or its default
//                                         (extension: a mesh before runtime parameters)
#pragma once

#include "support/Diagnostics.h"

#include <optional>
#include <string>
#include <vector>

namespace tle {

struct SignatureEntry {
  enum class Kind { Pointer, Scalar, Constexpr, Bound, TensorDesc } kind = Kind::Scalar;
  // Pointer/Scalar/TensorDesc: the Triton dtype name ("fp32", "i32", "bf16", ...).
  std::string dtype;
  // 16: divisible by 16; 1: equal to 1; 0: no hint.
  unsigned hint = 0;
  bool isConst = false;  // `*k...`: the kernel only reads through this pointer
  // Constexpr: the value, with its Python type.
  enum class ValueKind { Int, Float, Bool, String, None } valueKind = ValueKind::Int;
  std::string value;  // decimal digits / float spelling / "True"|"False" / the string / "None"
  // TensorDesc (`tensordesc<bf16[64, 256]>`, Triton's spelling): the block shape.
  std::vector<int64_t> blockShape;
  SourceRange range;
};

// The dtype names a signature (and `tl.<name>` constructors) accept.
const std::vector<std::string> &signatureDtypes();

// Parses the buffer `file` (the signature text registered with the SourceManager).
// Reports every error to `diags` and returns nullopt if there was one.
std::optional<std::vector<SignatureEntry>> parseSignature(const std::string &text, FileId file, DiagnosticEngine &diags);

std::string toString(const SignatureEntry &entry);

}  // namespace tle
