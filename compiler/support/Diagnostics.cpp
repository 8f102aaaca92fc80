#include "support/Diagnostics.h"

#include "support/SourceManager.h"
#include "support/Utf8.h"

#include <algorithm>
#include <cstdio>
#include <string_view>

namespace tle {

namespace {

struct DiagInfo {
  const char *name;
  Severity severity;
};

constexpr DiagInfo kDiagInfo[] = {
#define TLE_DIAG(ID, NAME, SEVERITY) {NAME, Severity::SEVERITY},
#include "support/DiagnosticIds.def"
};

const char *severityWord(Severity s) {
  switch (s) {
  case Severity::Note: return "note";
  case Severity::Warning: return "warning";
  case Severity::Error: return "error";
  }
  return "error";
}

// ANSI colours in the style of clang: bold location, coloured severity, green caret.
constexpr const char *kBold = "\033[1m";
constexpr const char *kReset = "\033[0m";
constexpr const char *kRed = "\033[1;31m";
constexpr const char *kMagenta = "\033[1;35m";
constexpr const char *kCyan = "\033[1;36m";
constexpr const char *kGreen = "\033[1;32m";

const char *severityColor(Severity s) {
  switch (s) {
  case Severity::Note: return kCyan;
  case Severity::Warning: return kMagenta;
  case Severity::Error: return kRed;
  }
  return kRed;
}

void writeJsonString(std::ostream &out, std::string_view s) {
  out << '"';
  for (char ch : s) {
    unsigned char c = static_cast<unsigned char>(ch);
    switch (c) {
    case '"': out << "\\\""; break;
    case '\\': out << "\\\\"; break;
    case '\n': out << "\\n"; break;
    case '\t': out << "\\t"; break;
    case '\r': out << "\\r"; break;
    default:
      if (c < 0x20) {
        char buf[8];
        std::snprintf(buf, sizeof buf, "\\u%04x", c);
        out << buf;
      } else {
        out << ch;
      }
    }
  }
  out << '"';
}

}  // namespace

const char *diagIdName(DiagId id) { return kDiagInfo[static_cast<size_t>(id)].name; }
Severity diagDefaultSeverity(DiagId id) { return kDiagInfo[static_cast<size_t>(id)].severity; }

DiagnosticEngine::DiagnosticEngine(const SourceManager &sources, std::ostream &out,
                                   DiagnosticOptions options, bool isTerminal)
    : sources_(sources), out_(out), options_(std::move(options)) {
  useColor_ = options_.format == DiagnosticFormat::Text &&
              (options_.color == ColorMode::Always || (options_.color == ColorMode::Auto && isTerminal));
}

DiagnosticEngine::~DiagnosticEngine() { finish(); }

DiagnosticEngine::Builder::~Builder() {
  if (engine_) engine_->emit(std::move(diag_));
}

DiagnosticEngine::Builder DiagnosticEngine::report(DiagId id, SourceRange range, std::string message) {
  Diagnostic d;
  d.id = id;
  d.severity = diagDefaultSeverity(id);
  d.range = range;
  d.message = std::move(message);
  return Builder(*this, std::move(d));
}

void DiagnosticEngine::emit(Diagnostic diag) {
  if (limitReached_) return;
  if (diag.severity == Severity::Warning) {
    if (options_.ignoreWarnings) return;
    if (options_.warningsAsErrors) diag.severity = Severity::Error;
  }
  if (diag.severity == Severity::Error) {
    ++errors_;
  } else if (diag.severity == Severity::Warning) {
    ++warnings_;
  }
  if (options_.format == DiagnosticFormat::Text) renderText(diag);
  emitted_.push_back(std::move(diag));
  if (options_.errorLimit != 0 && errors_ >= options_.errorLimit) {
    limitReached_ = true;
    Diagnostic stop;
    stop.id = DiagId::TooManyErrors;
    stop.message = "too many errors emitted, stopping now";
    if (options_.format == DiagnosticFormat::Text) renderText(stop);
    emitted_.push_back(std::move(stop));
  }
}

void DiagnosticEngine::renderLocation(SourceRange range, Severity severity, const std::string &message,
                                      const char *id) {
  out_ << color(kBold);
  if (range.isValid() && sources_.isValid(range.begin.file))
    out_ << sources_.name(range.begin.file) << ':' << range.begin.line << ':' << range.begin.column << ": ";
  else
    out_ << options_.programName << ": ";
  out_ << color(kReset) << color(severityColor(severity)) << severityWord(severity) << ':'
       << color(kReset) << ' ' << color(kBold) << message << color(kReset);
  if (id) out_ << " [" << id << ']';
  out_ << '\n';
}

// Prints the line with a gutter and underlines the range on it:
//     3 | def f(x)
//       |         ^
// Tabs are expanded to 8-column stops and wide characters take two columns, so the
// caret lines up on a terminal. Bytes that are not UTF-8 show as U+FFFD, and a very long
// line is cut to a window around the caret.
void DiagnosticEngine::renderSnippet(SourceRange range) {
  if (!range.isValid() || !sources_.isValid(range.begin.file)) return;
  FileId file = range.begin.file;
  uint32_t line = range.begin.line;
  if (line > sources_.lineCount(file)) return;  // the end-of-file position
  std::u32string text = utf8::decodeLossy(sources_.lineText(file, line));

  size_t first = range.begin.column - 1;  // 0-based code-point index
  size_t last = first + 1;                 // exclusive
  if (range.end.isValid() && range.end.file == file) {
    if (range.end.line == line && range.end.column > range.begin.column)
      last = range.end.column - 1;
    else if (range.end.line > line)
      last = std::max(text.size(), first + 1);
  }

  constexpr size_t kWindow = 160;
  size_t from = 0, to = text.size();
  if (text.size() > kWindow) {
    from = first > kWindow / 3 ? first - kWindow / 3 : 0;
    to = std::min(text.size(), from + kWindow);
  }
  std::string shown = from > 0 ? "..." : "";
  std::string marks(shown.size(), ' ');
  unsigned display = 0;
  for (size_t i = from; i < to; ++i) {
    char32_t c = text[i];
    unsigned width = c == '\t' ? 8 - display % 8 : utf8::displayWidth(c);
    shown += c == '\t' ? std::string(width, ' ') : utf8::encode(c);
    if (i == first) {
      marks.push_back('^');
      if (width > 1) marks.append(width - 1, i + 1 < last ? '~' : ' ');
    } else {
      marks.append(width, i > first && i < last ? '~' : ' ');
    }
    display += width;
  }
  if (to < text.size()) shown += "...";
  if (first >= to && to == text.size()) {  // the position is at or past the end of the line
    marks.append(first - to, ' ');
    marks.push_back('^');
  }
  while (!marks.empty() && marks.back() == ' ') marks.pop_back();

  std::string number = std::to_string(line);
  std::string gutter(std::max<size_t>(number.size(), 4), ' ');
  out_ << gutter.substr(number.size()) << number << " | " << shown << '\n';
  out_ << gutter << " | " << color(kGreen) << marks << color(kReset) << '\n';
}

void DiagnosticEngine::renderText(const Diagnostic &diag) {
  renderLocation(diag.range, diag.severity, diag.message, diagIdName(diag.id));
  renderSnippet(diag.range);
  for (const DiagnosticNote &note : diag.notes) {
    renderLocation(note.range, Severity::Note, note.message, nullptr);
    renderSnippet(note.range);
  }
  out_.flush();
}

// One JSON array for the whole run; each element is
//   {"severity", "id", "message", "file", "line", "column", "end_line", "end_column", "notes": [...]}
// with the location members omitted for diagnostics about the run itself.
void DiagnosticEngine::renderJson() {
  auto writeLocation = [&](SourceRange r) {
    if (!r.isValid() || !sources_.isValid(r.begin.file)) return;
    out_ << ",\"file\":";
    writeJsonString(out_, sources_.name(r.begin.file));
    out_ << ",\"line\":" << r.begin.line << ",\"column\":" << r.begin.column;
    SourceLoc end = r.end.isValid() ? r.end : r.begin;
    out_ << ",\"end_line\":" << end.line << ",\"end_column\":" << end.column;
  };
  out_ << '[';
  bool first = true;
  for (const Diagnostic &d : emitted_) {
    out_ << (first ? "\n  " : ",\n  ");
    first = false;
    out_ << "{\"severity\":\"" << severityWord(d.severity) << "\",\"id\":\"" << diagIdName(d.id)
         << "\",\"message\":";
    writeJsonString(out_, d.message);
    writeLocation(d.range);
    out_ << ",\"notes\":[";
    for (size_t i = 0; i < d.notes.size(); ++i) {
      out_ << (i ? "," : "") << "{\"message\":";
      writeJsonString(out_, d.notes[i].message);
      writeLocation(d.notes[i].range);
      out_ << '}';
    }
    out_ << "]}";
  }
  out_ << (first ? "]\n" : "\n]\n");
  out_.flush();
}

void DiagnosticEngine::finish() {
  if (finished_) return;
  finished_ = true;
  if (options_.format == DiagnosticFormat::Json) renderJson();
}

}  // namespace tle
