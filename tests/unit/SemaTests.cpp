// The constexpr evaluator (Python semantics) and Triton's type-promotion table.
#include "sema/DType.h"
#include "sema/Lowering.h"

#include <doctest/doctest.h>

#include <cmath>

using namespace tle;
using namespace tle::sema;
using ast::BinaryOp;
using ast::CmpOp;

namespace {

Value fold(BinaryOp op, Value a, Value b, std::string *error = nullptr) {
  Value out;
  std::string e;
  REQUIRE(foldBinary(op, a, b, out, e));
  if (error) *error = e;
  else REQUIRE_MESSAGE(e.empty(), e);
  return out;
}

bool cmp(CmpOp op, Value a, Value b) {
  Value out;
  std::string e;
  REQUIRE(foldCompare(op, a, b, out, e));
  REQUIRE(out.kind == Value::Kind::Bool);
  return out.boolValue;
}

}  // namespace

TEST_CASE("integer floor division and modulo round toward negative infinity, as in Python") {
  CHECK(fold(BinaryOp::FloorDiv, Value::ofInt(7), Value::ofInt(2)).intValue == 3);
  CHECK(fold(BinaryOp::FloorDiv, Value::ofInt(-7), Value::ofInt(2)).intValue == -4);
  CHECK(fold(BinaryOp::FloorDiv, Value::ofInt(7), Value::ofInt(-2)).intValue == -4);
  CHECK(fold(BinaryOp::Mod, Value::ofInt(-7), Value::ofInt(3)).intValue == 2);
  CHECK(fold(BinaryOp::Mod, Value::ofInt(7), Value::ofInt(-3)).intValue == -2);
  CHECK(fold(BinaryOp::Mod, Value::ofFloat(-7.5), Value::ofFloat(2)).floatValue == doctest::Approx(0.5));
  CHECK(fold(BinaryOp::FloorDiv, Value::ofFloat(-7.5), Value::ofFloat(2)).floatValue == doctest::Approx(-4));
}

TEST_CASE("true division yields a float; powers and shifts") {
  Value q = fold(BinaryOp::Div, Value::ofInt(7), Value::ofInt(2));
  CHECK(q.kind == Value::Kind::Float);
  CHECK(q.floatValue == doctest::Approx(3.5));
  CHECK(fold(BinaryOp::Pow, Value::ofInt(2), Value::ofInt(10)).intValue == 1024);
  CHECK(fold(BinaryOp::Pow, Value::ofInt(2), Value::ofInt(-1)).floatValue == doctest::Approx(0.5));
  CHECK(fold(BinaryOp::LShift, Value::ofInt(1), Value::ofInt(40)).intValue == (int64_t(1) << 40));
  CHECK(fold(BinaryOp::RShift, Value::ofInt(-16), Value::ofInt(2)).intValue == -4);
}

TEST_CASE("errors: division by zero, overflow, negative shifts") {
  std::string e;
  fold(BinaryOp::FloorDiv, Value::ofInt(1), Value::ofInt(0), &e);
  CHECK(e == "integer division by zero");
  fold(BinaryOp::Div, Value::ofFloat(1), Value::ofInt(0), &e);
  CHECK(e == "division by zero");
  fold(BinaryOp::Mul, Value::ofInt(INT64_MAX), Value::ofInt(2), &e);
  CHECK(e.find("integer overflow") != std::string::npos);
  fold(BinaryOp::Pow, Value::ofInt(10), Value::ofInt(30), &e);
  CHECK(e.find("integer overflow") != std::string::npos);
  fold(BinaryOp::LShift, Value::ofInt(1), Value::ofInt(-1), &e);
  CHECK(e == "negative shift count");
}

TEST_CASE("bools act as ints; bitwise ops on two bools stay bools") {
  CHECK(fold(BinaryOp::Add, Value::ofBool(true), Value::ofInt(2)).intValue == 3);
  Value b = fold(BinaryOp::BitAnd, Value::ofBool(true), Value::ofBool(false));
  CHECK(b.kind == Value::Kind::Bool);
  CHECK(b.boolValue == false);
}

TEST_CASE("strings and tuples") {
  CHECK(fold(BinaryOp::Add, Value::ofStr("leaky"), Value::ofStr("_relu")).text == "leaky_relu");
  CHECK(fold(BinaryOp::Mul, Value::ofStr("ab"), Value::ofInt(3)).text == "ababab");
  Value t = fold(BinaryOp::Add, Value::ofTuple({Value::ofInt(1)}), Value::ofTuple({Value::ofInt(2), Value::ofInt(3)}));
  CHECK(t.elements.size() == 3);
  CHECK(cmp(CmpOp::In, Value::ofInt(2), t));
  CHECK(cmp(CmpOp::NotIn, Value::ofInt(4), t));
  CHECK(cmp(CmpOp::Eq, Value::ofStr("a"), Value::ofStr("a")));
  CHECK(cmp(CmpOp::Lt, Value::ofStr("a"), Value::ofStr("b")));
}

TEST_CASE("comparisons across numeric kinds, None and dtypes") {
  CHECK(cmp(CmpOp::Eq, Value::ofInt(1), Value::ofFloat(1.0)));
  CHECK(cmp(CmpOp::Eq, Value::ofBool(true), Value::ofInt(1)));
  CHECK(cmp(CmpOp::Lt, Value::ofInt(-1), Value::ofFloat(0.5)));
  CHECK(cmp(CmpOp::Is, Value::none(), Value::none()));
  CHECK(cmp(CmpOp::IsNot, Value::ofInt(0), Value::none()));
  CHECK(cmp(CmpOp::Eq, Value::ofDType(DType::FP16), Value::ofDType(DType::FP16)));
  CHECK_FALSE(cmp(CmpOp::Eq, Value::ofDType(DType::FP16), Value::ofDType(DType::BF16)));
}

TEST_CASE("unary operators and truthiness") {
  Value out;
  std::string e;
  REQUIRE(foldUnary(ast::UnaryOp::USub, Value::ofInt(5), out, e));
  CHECK(out.intValue == -5);
  REQUIRE(foldUnary(ast::UnaryOp::Invert, Value::ofInt(0), out, e));
  CHECK(out.intValue == -1);
  REQUIRE(foldUnary(ast::UnaryOp::Not, Value::ofStr(""), out, e));
  CHECK(out.boolValue == true);
  REQUIRE(foldUnary(ast::UnaryOp::Not, Value::ofTuple({Value::ofInt(0)}), out, e));
  CHECK(out.boolValue == false);
}

// Triton's computation_type_impl, checked against Triton 3.6's compiled kernels by
// tests/differential/run_results.py (fp16 with bf16 is fp16; bf16 stays bf16 only with bf16).
TEST_CASE("promotion: floats win over ints, wider over narrower") {
  CHECK(promote(DType::FP16, false, DType::FP32, false, false) == DType::FP32);
  CHECK(promote(DType::FP16, false, DType::FP16, false, false) == DType::FP16);
  CHECK(promote(DType::FP16, false, DType::BF16, false, false) == DType::FP16);
  CHECK(promote(DType::FP16, false, DType::I8, false, false) == DType::FP16);
  CHECK(promote(DType::BF16, false, DType::BF16, false, false) == DType::BF16);
  CHECK(promote(DType::BF16, false, DType::I32, false, false) == DType::FP32);
  CHECK(promote(DType::I32, false, DType::FP64, false, false) == DType::FP64);
  CHECK(promote(DType::FP8E4NV, false, DType::FP8E5, false, false) == DType::FP16);
}

TEST_CASE("promotion: / // and % of 16-bit floats are computed in fp32") {
  CHECK(promote(DType::FP16, false, DType::FP16, false, true, true) == DType::FP32);
  CHECK(promote(DType::BF16, false, DType::BF16, false, false, true) == DType::FP32);
  CHECK(promote(DType::FP16, false, DType::FP32, true, true, true) == DType::FP32);  // x_fp16 / 2.0
  CHECK(promote(DType::FP32, false, DType::FP32, false, true, true) == DType::FP32);
  CHECK(promote(DType::I32, false, DType::I32, false, false, true) == DType::I32);  // x_i32 % y_i32
}

TEST_CASE("promotion: integers by width, unsigned wins at equal or greater width") {
  CHECK(promote(DType::I8, false, DType::I32, false, false) == DType::I32);
  CHECK(promote(DType::I32, false, DType::U32, false, false) == DType::U32);
  CHECK(promote(DType::U16, false, DType::I32, false, false) == DType::I32);
  CHECK(promote(DType::U64, false, DType::I32, false, false) == DType::U64);
  CHECK(promote(DType::I1, false, DType::I8, false, false) == DType::I8);
  CHECK(promote(DType::I32, false, DType::I32, false, true) == DType::FP32);  // true division
}

TEST_CASE("promotion: Python scalars adapt to the tensor") {
  CHECK(promote(DType::FP16, false, DType::FP32, true, false) == DType::FP16);  // x_fp16 * 0.5
  CHECK(promote(DType::I32, true, DType::FP16, false, false) == DType::FP16);   // 2 * x_fp16
  CHECK(promote(DType::I8, false, DType::I32, true, false) == DType::I8);       // x_i8 + 1
  CHECK(promote(DType::I32, false, DType::FP32, true, false) == DType::FP32);   // x_i32 * 0.5
  CHECK(promote(DType::I32, false, DType::I32, true, true) == DType::FP32);     // x_i32 / 2
}

TEST_CASE("dtype names") {
  CHECK(dtypeFromName("fp8e4nv") == DType::FP8E4NV);
  CHECK(dtypeFromTlName("bfloat16") == DType::BF16);
  CHECK(dtypeFromTlName("float8e5") == DType::FP8E5);
  CHECK(std::string(dtypeName(DType::U16)) == "u16");
  CHECK(!dtypeFromName("fp33"));
}
