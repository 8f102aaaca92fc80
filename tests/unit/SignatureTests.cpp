// The --signature language (Triton AOT syntax plus string/bool/None constexprs).
#include "TestSupport.h"

#include "frontend/Signature.h"

#include <doctest/doctest.h>

using namespace tle;

namespace {

std::string parse(const std::string &sig, std::string *errors = nullptr) {
  test::Harness h;
  FileId f = h.add(sig, "<signature>");
  auto entries = parseSignature(h.sources.text(f), f, h.diags);
  if (errors) *errors = h.out.str();
  if (!entries) return "ERROR";
  std::string out;
  for (const SignatureEntry &e : *entries) out += (out.empty() ? "" : "|") + toString(e);
  return out;
}

std::string errorOf(const std::string &sig) {
  std::string errors;
  CHECK(parse(sig, &errors) == "ERROR");
  return errors.substr(0, errors.find('\n'));
}

}  // namespace

TEST_CASE("Triton AOT signatures") {
  CHECK(parse("*fp32:16, i32, 1024") == "*fp32:16|i32|1024");
  CHECK(parse("*fp16:16,*fp16:16,*bf16,i32:16,i64:1,u8") == "*fp16:16|*fp16:16|*bf16|i32:16|i64:1|u8");
  CHECK(parse("  *fp8e4nv , fp64  ") == "*fp8e4nv|fp64");
  CHECK(parse("*kfp16:16, *ki8") == "*kfp16:16|*ki8");
  CHECK(parse("") == "");
}

TEST_CASE("constexpr values: ints, floats, bools, None and strings") {
  CHECK(parse("-3, 0x10, 007, 1.5, 1e-3, .5") == "-3|16|7|1.5|1e-3|.5");
  CHECK(parse("true, False, None") == "True|False|None");
  CHECK(parse("\"leaky_relu\", 'x', \"a,b\"") == "\"leaky_relu\"|\"x\"|\"a,b\"");
  CHECK(parse("18446744073709551615, -9223372036854775808") == "18446744073709551615|-9223372036854775808");
}

TEST_CASE("entry kinds and hints") {
  test::Harness h;
  FileId f = h.add("*fp32:16, i32:1, 128", "<signature>");
  auto entries = parseSignature(h.sources.text(f), f, h.diags);
  REQUIRE(entries);
  REQUIRE(entries->size() == 3);
  CHECK((*entries)[0].kind == SignatureEntry::Kind::Pointer);
  CHECK((*entries)[0].hint == 16);
  CHECK((*entries)[1].kind == SignatureEntry::Kind::Scalar);
  CHECK((*entries)[1].hint == 1);
  CHECK((*entries)[2].kind == SignatureEntry::Kind::Constexpr);
  CHECK((*entries)[2].valueKind == SignatureEntry::ValueKind::Int);
  CHECK((*entries)[2].range.begin.column == 18);
}

TEST_CASE("errors point into the signature") {
  CHECK(errorOf("*fp33:16, i32") == "<signature>:1:2: error: unknown type 'fp33' in signature; did you mean 'fp32'? [invalid-signature]");
  CHECK(errorOf("*fp32:8") == "<signature>:1:6: error: unsupported specialization hint ':8'; use ':16' (divisible by 16) or ':1' (equal to 1) [invalid-signature]");
  CHECK(errorOf("*fp32:1") == "<signature>:1:6: error: a pointer cannot be specialized as equal to 1; use ':16' for 16-byte alignment [invalid-signature]");
  CHECK(errorOf("i32,") == "<signature>:1:5: error: expected a signature entry after ',' [invalid-signature]");
  CHECK(errorOf("i32 i64") == "<signature>:1:5: error: expected ',' between signature entries, found 'i' [invalid-signature]");
  CHECK(errorOf("\"abc") == "<signature>:1:1: error: unterminated string in signature [invalid-signature]");
  CHECK(errorOf("18446744073709551616") == "<signature>:1:1: error: integer '18446744073709551616' in signature does not fit in 64 bits [invalid-signature]");
  CHECK(errorOf("1.2.3") == "<signature>:1:1: error: invalid number '1.2.3' in signature [invalid-signature]");
  CHECK(errorOf("*") == "<signature>:1:2: error: expected a type name after '*' [invalid-signature]");
  CHECK(errorOf("i32, ?") == "<signature>:1:6: error: unexpected '?' in signature; expected a type (e.g. '*fp32:16', 'i32'), a number, 'true'/'false' or a quoted string [invalid-signature]");
}
