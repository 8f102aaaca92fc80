// Owns the text of every file a run reads (inputs, imports, the --signature string) and
// answers "what does line N of file F say" for diagnostics.
#pragma once

#include "support/SourceLocation.h"

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace tle {

class SourceManager {
public:
  // Adds a buffer. Line endings are normalized to '\n' (CRLF and lone CR alike) and a
  // leading UTF-8 byte-order mark is dropped, so every later stage sees one form.
  FileId addBuffer(std::string name, std::string text);

  const std::string &name(FileId id) const { return file(id).name; }
  const std::string &text(FileId id) const { return file(id).text; }
  unsigned lineCount(FileId id) const { return static_cast<unsigned>(file(id).lineStarts.size()); }
  // The text of a 1-based line without its '\n'; empty when out of range.
  std::string_view lineText(FileId id, uint32_t line) const;
  // The most recent buffer named `name`, or kNoFile.
  FileId findFile(const std::string &name) const {
    for (size_t i = files_.size(); i-- > 0;)
      if (files_[i].name == name) return static_cast<FileId>(i + 1);
    return kNoFile;
  }
  // The text of a line of the buffer named `name` (the most recent one); empty if unknown.
  std::string lineText(const std::string &name, uint32_t line) const {
    for (size_t i = files_.size(); i-- > 0;)
      if (files_[i].name == name) return std::string(lineText(static_cast<FileId>(i + 1), line));
    return {};
  }
  // Position just past the last character of the file.
  SourceLoc endOfFile(FileId id) const;
  bool isValid(FileId id) const { return id != kNoFile && id <= files_.size(); }

private:
  struct File {
    std::string name;
    std::string text;
    std::vector<size_t> lineStarts;  // byte offset of each line's first character
  };
  const File &file(FileId id) const { return files_.at(id - 1); }
  std::vector<File> files_;
};

// How later stages, which know a position only by file name (MLIR locations), point into the
// sources and quote their lines.
using SourceLocator = std::function<SourceLoc(const std::string &file, unsigned line, unsigned column)>;
using SourceLineReader = std::function<std::string(const std::string &file, unsigned line)>;

// Both over `sources`, which must outlive them.
inline SourceLocator locatorFor(const SourceManager &sources) {
  return [&sources](const std::string &file, unsigned line, unsigned column) { return SourceLoc{sources.findFile(file), line, column}; };
}
inline SourceLineReader lineReaderFor(const SourceManager &sources) {
  return [&sources](const std::string &file, unsigned line) { return sources.lineText(file, line); };
}

}  // namespace tle
