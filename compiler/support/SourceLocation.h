// Positions in source text. Lines and columns are 1-based; columns count Unicode code
// points, so a caret lands on the right character whatever the encoding width.
#pragma once

#include <cstdint>

namespace tle {

using FileId = uint32_t;
constexpr FileId kNoFile = 0;

struct SourceLoc {
  FileId file = kNoFile;
  uint32_t line = 0;
  uint32_t column = 0;

  bool isValid() const { return file != kNoFile && line != 0; }
  friend bool operator==(const SourceLoc &a, const SourceLoc &b) {
    return a.file == b.file && a.line == b.line && a.column == b.column;
  }
  friend bool operator<(const SourceLoc &a, const SourceLoc &b) {
    if (a.file != b.file) return a.file < b.file;
    if (a.line != b.line) return a.line < b.line;
    return a.column < b.column;
  }
};

// Half-open: `end` is the position just past the last character.
struct SourceRange {
  SourceLoc begin;
  SourceLoc end;

  SourceRange() = default;
  SourceRange(SourceLoc b, SourceLoc e) : begin(b), end(e) {}
  explicit SourceRange(SourceLoc at) : begin(at), end(at) {}

  bool isValid() const { return begin.isValid(); }
};

}  // namespace tle
