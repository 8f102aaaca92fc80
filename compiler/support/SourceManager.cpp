#include "support/SourceManager.h"

#include "support/Utf8.h"

namespace tle {

static std::string normalizeLineEndings(std::string text) {
  std::string out;
  out.reserve(text.size());
  size_t i = 0;
  if (text.compare(0, 3, "\xEF\xBB\xBF") == 0) i = 3;
  for (; i < text.size(); ++i) {
    char c = text[i];
    if (c == '\r') {
      out.push_back('\n');
      if (i + 1 < text.size() && text[i + 1] == '\n') ++i;
    } else {
      out.push_back(c);
    }
  }
  return out;
}

FileId SourceManager::addBuffer(std::string name, std::string text) {
  File f;
  f.name = std::move(name);
  f.text = normalizeLineEndings(std::move(text));
  f.lineStarts.push_back(0);
  for (size_t i = 0; i < f.text.size(); ++i)
    if (f.text[i] == '\n' && i + 1 < f.text.size()) f.lineStarts.push_back(i + 1);
  files_.push_back(std::move(f));
  return static_cast<FileId>(files_.size());
}

std::string_view SourceManager::lineText(FileId id, uint32_t line) const {
  if (!isValid(id)) return {};
  const File &f = file(id);
  if (line == 0 || line > f.lineStarts.size()) return {};
  size_t begin = f.lineStarts[line - 1];
  size_t end = f.text.find('\n', begin);
  if (end == std::string::npos) end = f.text.size();
  return std::string_view(f.text).substr(begin, end - begin);
}

SourceLoc SourceManager::endOfFile(FileId id) const {
  const File &f = file(id);
  if (f.text.empty()) return {id, 1, 1};
  if (f.text.back() == '\n')
    return {id, static_cast<uint32_t>(f.lineStarts.size() + 1), 1};
  std::string_view last = lineText(id, static_cast<uint32_t>(f.lineStarts.size()));
  return {id, static_cast<uint32_t>(f.lineStarts.size()),
          static_cast<uint32_t>(utf8::codePointCount(last) + 1)};
}

}  // namespace tle
