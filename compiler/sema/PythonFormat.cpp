#include "sema/PythonFormat.h"

#include <charconv>
#include <cmath>
#include <cstdio>

namespace tle::sema {

namespace {

// Python's repr of a float: the shortest digits that read back the same, positional for
// exponents from -4 to 15, else scientific with at least two exponent digits.
std::string floatRepr(double x) {
  if (std::isnan(x)) return "nan";
  if (std::isinf(x)) return x < 0 ? "-inf" : "inf";
  char buf[64];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, x, std::chars_format::scientific);
  if (ec != std::errc()) return std::to_string(x);
  std::string sci(buf, end);  // "-1.2345e+02"
  size_t e = sci.find('e');
  std::string mantissa = sci.substr(0, e);
  int exponent = std::stoi(sci.substr(e + 1));
  bool negative = mantissa[0] == '-';
  std::string digits;
  for (char c : mantissa)
    if (c >= '0' && c <= '9') digits += c;
  while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
  std::string out = negative ? "-" : "";
  if (exponent >= -5 + 1 && exponent < 16) {
    if (exponent < 0) {
      out += "0." + std::string(static_cast<size_t>(-exponent - 1), '0') + digits;
    } else if (static_cast<int>(digits.size()) <= exponent + 1) {
      out += digits + std::string(static_cast<size_t>(exponent + 1) - digits.size(), '0') + ".0";
    } else {
      out += digits.substr(0, static_cast<size_t>(exponent + 1)) + "." + digits.substr(static_cast<size_t>(exponent + 1));
    }
    return out;
  }
  out += digits.substr(0, 1);
  if (digits.size() > 1) out += "." + digits.substr(1);
  char exp[16];
  std::snprintf(exp, sizeof exp, "e%c%02d", exponent < 0 ? '-' : '+', exponent < 0 ? -exponent : exponent);
  return out + exp;
}

std::string strRepr(const std::string &s) {
  char quote = s.find('\'') != std::string::npos && s.find('"') == std::string::npos ? '"' : '\'';
  std::string out(1, quote);
  for (char c : s) {
    if (c == quote || c == '\\') out += '\\';
    if (c == '\n') out += "\\n";
    else if (c == '\t') out += "\\t";
    else out += c;
  }
  return out + quote;
}

// Triton's str() of a dtype: "int32", "uint8", "fp16", "bf16", "pointer<fp32>".
std::string dtypeStr(const Value &v) {
  std::string name = isFloat(v.dtype) ? dtypeName(v.dtype) : dtypeTlName(v.dtype);
  return v.dtypeIsPointer ? "pointer<" + name + ">" : name;
}

}  // namespace

std::optional<std::string> pythonStr(const Value &v, bool repr) {
  switch (v.kind) {
  case Value::Kind::None: return std::string("None");
  case Value::Kind::Bool: return std::string(v.boolValue ? "True" : "False");
  case Value::Kind::Int: return std::to_string(v.intValue);
  case Value::Kind::Float: return floatRepr(v.floatValue);
  case Value::Kind::Str: return repr ? strRepr(v.text) : v.text;
  case Value::Kind::DType: return dtypeStr(v);
  case Value::Kind::Tuple: {
    std::string out = "(";
    for (size_t i = 0; i < v.elements.size(); ++i) {
      std::optional<std::string> e = pythonStr(v.elements[i], true);
      if (!e) return std::nullopt;
      out += (i ? ", " : "") + *e;
    }
    return out + (v.elements.size() == 1 ? ",)" : ")");
  }
  default: return std::nullopt;
  }
}

std::optional<std::string> pythonFormat(const Value &v, const std::string &spec, std::string &error) {
  // [[fill]align][sign][0][width][,][.precision][type]
  size_t i = 0;
  char fill = ' ', align = 0, sign = '-', type = 0;
  auto isAlign = [](char c) { return c == '<' || c == '>' || c == '^' || c == '='; };
  if (spec.size() >= 2 && isAlign(spec[1])) fill = spec[0], align = spec[1], i = 2;
  else if (!spec.empty() && isAlign(spec[0])) align = spec[0], i = 1;
  if (i < spec.size() && (spec[i] == '+' || spec[i] == '-' || spec[i] == ' ')) sign = spec[i++];
  if (i < spec.size() && spec[i] == '0' && !align) fill = '0', align = '=', ++i;
  int width = 0, precision = -1;
  while (i < spec.size() && std::isdigit(static_cast<unsigned char>(spec[i]))) width = width * 10 + (spec[i++] - '0');
  if (i < spec.size() && spec[i] == '.') {
    ++i;
    precision = 0;
    while (i < spec.size() && std::isdigit(static_cast<unsigned char>(spec[i]))) precision = precision * 10 + (spec[i++] - '0');
  }
  if (i < spec.size()) type = spec[i++];
  if (i != spec.size() || width > 4096 || precision > 100) {
    error = "format spec '" + spec + "' is not supported in kernels (fill, align, sign, width, precision and one of "
            "d x X o b f e g s)";
    return std::nullopt;
  }
  std::string body;
  bool numeric = v.kind == Value::Kind::Int || v.kind == Value::Kind::Float || v.kind == Value::Kind::Bool;
  bool negative = false;
  if (type == 'd' || type == 'x' || type == 'X' || type == 'o' || type == 'b') {
    if (v.kind != Value::Kind::Int && v.kind != Value::Kind::Bool) {
      error = "format code '" + std::string(1, type) + "' needs an int, got " + v.describe();
      return std::nullopt;
    }
    int64_t n = v.kind == Value::Kind::Bool ? v.boolValue : v.intValue;
    negative = n < 0;
    uint64_t m = negative ? 0 - static_cast<uint64_t>(n) : static_cast<uint64_t>(n);
    int base = type == 'd' ? 10 : type == 'o' ? 8 : type == 'b' ? 2 : 16;
    char buf[80];
    auto [end, ec] = std::to_chars(buf, buf + sizeof buf, m, base);
    (void)ec;
    body.assign(buf, end);
    if (type == 'X')
      for (char &c : body) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  } else if (type == 'f' || type == 'F' || type == 'e' || type == 'E' || type == 'g' || type == 'G' || type == '%' ||
             (type == 0 && precision >= 0 && v.kind == Value::Kind::Float)) {
    if (!numeric) {
      error = "format code '" + std::string(1, type ? type : 'g') + "' needs a number, got " + v.describe();
      return std::nullopt;
    }
    double x = v.kind == Value::Kind::Float ? v.floatValue : v.kind == Value::Kind::Int ? static_cast<double>(v.intValue) : v.boolValue;
    negative = std::signbit(x) && !std::isnan(x);
    x = std::fabs(x);
    if (type == '%') x *= 100;
    char conv = type == 0 || type == '%' ? (type == '%' ? 'f' : 'g') : type;
    char fmt[16];
    std::snprintf(fmt, sizeof fmt, "%%.%d%c", precision < 0 ? 6 : precision, conv);
    char buf[512];
    std::snprintf(buf, sizeof buf, fmt, x);
    body = buf;
    if (type == '%') body += '%';
  } else if (type == 0 || type == 's') {
    std::optional<std::string> s = pythonStr(v, false);
    if (!s) {
      error = v.describe() + " has no string form in kernels";
      return std::nullopt;
    }
    if (numeric && v.kind != Value::Kind::Bool && !s->empty() && (*s)[0] == '-') negative = true, s->erase(0, 1);
    body = *s;
    if (precision >= 0 && !numeric) body = body.substr(0, static_cast<size_t>(precision));
  } else {
    error = "format code '" + std::string(1, type) + "' is not supported in kernels";
    return std::nullopt;
  }
  std::string signText = negative ? "-" : numeric && sign == '+' ? "+" : numeric && sign == ' ' ? " " : "";
  if (!align) align = numeric ? '>' : '<';
  int pad = width - static_cast<int>(signText.size() + body.size());
  if (pad <= 0) return signText + body;
  std::string padding(static_cast<size_t>(pad), fill);
  switch (align) {
  case '<': return signText + body + padding;
  case '^': return std::string(padding.substr(0, padding.size() / 2)) + signText + body + padding.substr(padding.size() / 2);
  case '=': return signText + padding + body;
  default: return padding + signText + body;
  }
}

}  // namespace tle::sema
