// Small UTF-8 helpers: validation of input files, code-point counting for columns, and
// terminal display width for placing carets under wide (CJK) characters.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace tle::utf8 {

// Byte offset of the first invalid sequence, or npos when `text` is valid UTF-8.
size_t findInvalid(std::string_view text);

// Decodes the code point starting at `pos` (which must be valid UTF-8) and advances `pos`.
char32_t decode(std::string_view text, size_t &pos);

size_t codePointCount(std::string_view text);

// Decodes text that may not be valid UTF-8, each invalid byte becoming U+FFFD.
std::u32string decodeLossy(std::string_view text);

// Byte offset of the `n`-th code point (0-based); text.size() when past the end.
size_t byteOffsetOfCodePoint(std::string_view text, size_t n);

// Columns a terminal uses for `c`: 2 for East Asian wide characters, 0 for combining
// marks, 1 otherwise.
unsigned displayWidth(char32_t c);

std::string encode(char32_t c);

}  // namespace tle::utf8
