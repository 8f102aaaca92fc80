#include "frontend/Signature.h"

#include "support/Spelling.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>

namespace tle {

const std::vector<std::string> &signatureDtypes() {
  static const std::vector<std::string> names = {
      "i1",      "i8",      "i16",      "i32",    "i64",      "u1",   "u8",   "u16",  "u32",  "u64",
      "fp8e4nv", "fp8e5",   "fp8e4b15", "fp8e4b8", "fp8e5b16", "fp16", "bf16", "fp32", "fp64",
  };
  return names;
}

namespace {


class SignatureParser {
public:
  SignatureParser(const std::string &text, FileId file, DiagnosticEngine &diags)
      : text_(text), file_(file), diags_(diags) {}

  std::optional<std::vector<SignatureEntry>> run() {
    std::vector<SignatureEntry> entries;
    skipSpace();
    if (pos_ == text_.size()) return entries;  // a kernel without parameters
    for (;;) {
      skipSpace();
      if (!entry(entries)) return std::nullopt;
      skipSpace();
      if (pos_ == text_.size()) break;
      if (text_[pos_] != ',') {
        error(pos_, pos_ + 1, std::string("expected ',' between signature entries, found '") + text_[pos_] + "'");
        return std::nullopt;
      }
      ++pos_;
      skipSpace();
      if (pos_ == text_.size()) {
        error(pos_, pos_, "expected a signature entry after ','");
        return std::nullopt;
      }
    }
    return entries;
  }

private:
  SourceLoc loc(size_t offset) const { return {file_, 1, static_cast<uint32_t>(offset + 1)}; }
  void error(size_t b, size_t e, std::string message) {
    diags_.report(DiagId::InvalidSignature, SourceRange(loc(b), loc(std::max(e, b))), std::move(message));
  }
  void skipSpace() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  bool atWordChar() const {
    return pos_ < text_.size() &&
           (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_' || text_[pos_] == '.' ||
            ((text_[pos_] == '+' || text_[pos_] == '-') && pos_ > 0 && (text_[pos_ - 1] | 0x20) == 'e'));
  }

  bool entry(std::vector<SignatureEntry> &out) {
    size_t begin = pos_;
    SignatureEntry e;
    char c = text_[pos_];
    if (c == '"' || c == '\'') {
      if (!stringValue(e)) return false;
    } else if (c == '*') {
      ++pos_;
      skipSpace();
      size_t nameBegin = pos_;
      while (atWordChar()) ++pos_;
      e.kind = SignatureEntry::Kind::Pointer;
      e.dtype = text_.substr(nameBegin, pos_ - nameBegin);
      // Triton spells a pointer to const as `*k<dtype>`.
      const auto &known = signatureDtypes();
      if (e.dtype.size() > 1 && e.dtype[0] == 'k' &&
          std::find(known.begin(), known.end(), e.dtype.substr(1)) != known.end()) {
        e.isConst = true;
        e.dtype = e.dtype.substr(1);
        ++nameBegin;
      }
      if (!checkDtype(e.dtype, nameBegin)) return false;
      if (!hint(e)) return false;
    } else if (std::isdigit(static_cast<unsigned char>(c)) || c == '-' || c == '+' || c == '.') {
      if (!number(e)) return false;
    } else if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      size_t nameBegin = pos_;
      while (atWordChar()) ++pos_;
      std::string word = text_.substr(nameBegin, pos_ - nameBegin);
      if (word == "_") {
        e.kind = SignatureEntry::Kind::Bound;
      } else if (word == "tensordesc") {
        if (!tensorDesc(e)) return false;
      } else if (word == "true" || word == "True" || word == "false" || word == "False") {
        e.kind = SignatureEntry::Kind::Constexpr;
        e.valueKind = SignatureEntry::ValueKind::Bool;
        e.value = (word[0] | 0x20) == 't' ? "True" : "False";
      } else if (word == "None" || word == "none") {
        e.kind = SignatureEntry::Kind::Constexpr;
        e.valueKind = SignatureEntry::ValueKind::None;
        e.value = "None";
      } else {
        e.kind = SignatureEntry::Kind::Scalar;
        e.dtype = word;
        if (!checkDtype(word, nameBegin)) return false;
        if (!hint(e)) return false;
      }
    } else {
      error(pos_, pos_ + 1,
            std::string("unexpected '") + c + "' in signature; expected a type (e.g. '*fp32:16', 'i32'), a number, "
            "'true'/'false' or a quoted string");
      return false;
    }
    e.range = SourceRange(loc(begin), loc(pos_));
    out.push_back(std::move(e));
    return true;
  }

  // `tensordesc<DTYPE[B0, B1, ...]>` after the word: a host tensor descriptor (Triton's
  // spelling), its element type and block shape.
  bool tensorDesc(SignatureEntry &e) {
    auto expect = [&](char c, const char *what) {
      skipSpace();
      if (pos_ < text_.size() && text_[pos_] == c) return ++pos_, true;
      error(pos_, pos_ + 1, std::string("expected '") + c + "' " + what + " in 'tensordesc<DTYPE[BLOCK, ...]>'");
      return false;
    };
    e.kind = SignatureEntry::Kind::TensorDesc;
    if (!expect('<', "after 'tensordesc'")) return false;
    skipSpace();
    size_t nameBegin = pos_;
    while (pos_ < text_.size() && std::isalnum(static_cast<unsigned char>(text_[pos_]))) ++pos_;
    e.dtype = text_.substr(nameBegin, pos_ - nameBegin);
    if (!checkDtype(e.dtype, nameBegin)) return false;
    if (!expect('[', "before the block shape")) return false;
    for (;;) {
      skipSpace();
      size_t b = pos_;
      while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) ++pos_;
      if (b == pos_ || pos_ - b > 9) {
        error(b, pos_ + 1, "expected a block dimension (a positive integer) in 'tensordesc<DTYPE[BLOCK, ...]>'");
        return false;
      }
      e.blockShape.push_back(std::stoll(text_.substr(b, pos_ - b)));
      skipSpace();
      if (pos_ < text_.size() && text_[pos_] == ',') {
        ++pos_;
        continue;
      }
      break;
    }
    return expect(']', "after the block shape") && expect('>', "to close the descriptor");
  }

  bool checkDtype(const std::string &name, size_t at) {
    const auto &known = signatureDtypes();
    if (std::find(known.begin(), known.end(), name) != known.end()) return true;
    if (name.empty()) {
      error(at, at + 1, "expected a type name after '*'");
      return false;
    }
    std::string best = closestSpelling(name, known);
    std::string msg = "unknown type '" + name + "' in signature";
    if (!best.empty()) msg += "; did you mean '" + best + "'?";
    else msg += " (known: i1, i8-i64, u8-u64, fp8e4nv, fp8e5, fp16, bf16, fp32, fp64, ...)";
    error(at, at + name.size(), msg);
    return false;
  }

  bool hint(SignatureEntry &e) {
    skipSpace();
    if (pos_ >= text_.size() || text_[pos_] != ':') return true;
    size_t colon = pos_++;
    skipSpace();
    size_t begin = pos_;
    while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) ++pos_;
    std::string digits = text_.substr(begin, pos_ - begin);
    if (digits == "16" || digits == "1") {
      e.hint = digits == "16" ? 16 : 1;
      if (e.hint == 1 && e.kind == SignatureEntry::Kind::Pointer) {
        error(colon, pos_, "a pointer cannot be specialized as equal to 1; use ':16' for 16-byte alignment");
        return false;
      }
      return true;
    }
    while (atWordChar()) ++pos_;
    error(colon, std::max(pos_, colon + 1),
          "unsupported specialization hint '" + text_.substr(colon, pos_ - colon) +
              "'; use ':16' (divisible by 16) or ':1' (equal to 1)");
    return false;
  }

  bool number(SignatureEntry &e) {
    size_t begin = pos_;
    if (text_[pos_] == '-' || text_[pos_] == '+') ++pos_;
    while (atWordChar()) ++pos_;
    std::string t = text_.substr(begin, pos_ - begin);
    std::string body = t[0] == '-' || t[0] == '+' ? t.substr(1) : t;
    e.kind = SignatureEntry::Kind::Constexpr;
    auto all = [&](const std::string &s, const char *set) {
      return !s.empty() && s.find_first_not_of(set) == std::string::npos;
    };
    bool isHex = body.size() > 2 && body[0] == '0' && (body[1] | 0x20) == 'x' && all(body.substr(2), "0123456789abcdefABCDEF");
    if (all(body, "0123456789") || isHex) {
      e.valueKind = SignatureEntry::ValueKind::Int;
      std::string sign = t[0] == '-' ? "-" : "";
      // Kernels take 64-bit integers: anything from -2**63 to 2**64-1 is accepted.
      std::string digits = isHex ? body.substr(2) : body;
      size_t nz = digits.find_first_not_of('0');
      digits = nz == std::string::npos ? "0" : digits.substr(nz);
      unsigned long long v = 0;
      bool fits = digits.size() <= (isHex ? 16u : 20u);
      if (fits) {
        errno = 0;
        v = std::strtoull(digits.c_str(), nullptr, isHex ? 16 : 10);
        fits = errno != ERANGE && (t[0] != '-' || v <= (1ull << 63));
      }
      if (!fits) {
        error(begin, pos_, "integer '" + t + "' in signature does not fit in 64 bits");
        return false;
      }
      e.value = (t[0] == '-' && v != 0 ? "-" : "") + std::to_string(v);
      return true;
    }
    size_t used = 0;
    try {
      (void)std::stod(body, &used);
    } catch (...) {
      used = 0;
    }
    if (used == body.size() && body.find_first_of("0123456789") != std::string::npos &&
        body.find_first_not_of("0123456789.eE+-") == std::string::npos) {
      e.valueKind = SignatureEntry::ValueKind::Float;
      e.value = t;
      return true;
    }
    error(begin, pos_, "invalid number '" + t + "' in signature");
    return false;
  }

  bool stringValue(SignatureEntry &e) {
    char quote = text_[pos_];
    size_t begin = pos_++;
    std::string value;
    while (pos_ < text_.size() && text_[pos_] != quote) {
      if (text_[pos_] == '\\' && pos_ + 1 < text_.size()) ++pos_;
      value.push_back(text_[pos_++]);
    }
    if (pos_ >= text_.size()) {
      error(begin, text_.size(), "unterminated string in signature");
      return false;
    }
    ++pos_;
    e.kind = SignatureEntry::Kind::Constexpr;
    e.valueKind = SignatureEntry::ValueKind::String;
    e.value = std::move(value);
    return true;
  }

  const std::string &text_;
  FileId file_;
  DiagnosticEngine &diags_;
  size_t pos_ = 0;
};

}  // namespace

std::optional<std::vector<SignatureEntry>> parseSignature(const std::string &text, FileId file, DiagnosticEngine &diags) {
  return SignatureParser(text, file, diags).run();
}

std::string toString(const SignatureEntry &e) {
  switch (e.kind) {
  case SignatureEntry::Kind::Pointer:
    return std::string("*") + (e.isConst ? "k" : "") + e.dtype + (e.hint ? ":" + std::to_string(e.hint) : "");
  case SignatureEntry::Kind::Scalar: return e.dtype + (e.hint ? ":" + std::to_string(e.hint) : "");
  case SignatureEntry::Kind::Constexpr:
    if (e.valueKind == SignatureEntry::ValueKind::String) return "\"" + e.value + "\"";
    return e.value;
  case SignatureEntry::Kind::Bound: return "_";
  case SignatureEntry::Kind::TensorDesc: {
    std::string s = "tensordesc<" + e.dtype + "[";
    for (size_t i = 0; i < e.blockShape.size(); ++i) s += (i ? ", " : "") + std::to_string(e.blockShape[i]);
    return s + "]>";
  }
  }
  return "";
}

}  // namespace tle
