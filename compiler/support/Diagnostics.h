// The diagnostics engine shared by every stage.
//
// A stage reports through DiagnosticEngine; the engine renders either as text
// (`file:line:col: error: message [id]`, the source line, a caret/underline, notes) or,
// with --diagnostics-format=json, as one JSON array written when the run finishes.
// Stages never print to stderr themselves and never exit: they report and return.
#pragma once

#include "support/SourceLocation.h"

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

namespace tle {

class SourceManager;

enum class Severity : uint8_t { Note, Warning, Error };

enum class DiagId : uint16_t {
#define TLE_DIAG(ID, NAME, SEVERITY) ID,
#include "support/DiagnosticIds.def"
};

const char *diagIdName(DiagId id);
Severity diagDefaultSeverity(DiagId id);

struct DiagnosticNote {
  SourceRange range;
  std::string message;
};

struct Diagnostic {
  DiagId id = DiagId::SyntaxError;
  Severity severity = Severity::Error;
  SourceRange range;  // invalid for diagnostics about the run itself (options, files)
  std::string message;
  std::vector<DiagnosticNote> notes;
};

enum class ColorMode : uint8_t { Auto, Always, Never };
enum class DiagnosticFormat : uint8_t { Text, Json };

struct DiagnosticOptions {
  ColorMode color = ColorMode::Auto;
  DiagnosticFormat format = DiagnosticFormat::Text;
  bool warningsAsErrors = false;  // -Werror
  bool ignoreWarnings = false;    // -w
  unsigned errorLimit = 50;       // 0: no limit
  std::string programName = "tlec";
};

class DiagnosticEngine {
public:
  // `isTerminal` decides colours under ColorMode::Auto; the driver passes isatty(2).
  DiagnosticEngine(const SourceManager &sources, std::ostream &out, DiagnosticOptions options,
                   bool isTerminal = false);
  ~DiagnosticEngine();
  DiagnosticEngine(const DiagnosticEngine &) = delete;
  DiagnosticEngine &operator=(const DiagnosticEngine &) = delete;

  // Collects notes, then emits the diagnostic when it goes out of scope.
  class Builder {
  public:
    Builder(DiagnosticEngine &engine, Diagnostic diag) : engine_(&engine), diag_(std::move(diag)) {}
    Builder(Builder &&other) noexcept : engine_(other.engine_), diag_(std::move(other.diag_)) {
      other.engine_ = nullptr;
    }
    Builder(const Builder &) = delete;
    ~Builder();
    Builder &note(SourceRange range, std::string message) {
      diag_.notes.push_back({range, std::move(message)});
      return *this;
    }

  private:
    DiagnosticEngine *engine_;
    Diagnostic diag_;
  };

  Builder report(DiagId id, SourceRange range, std::string message);
  Builder report(DiagId id, SourceLoc loc, std::string message) {
    return report(id, SourceRange(loc), std::move(message));
  }
  // A diagnostic about the run rather than a place in a file.
  Builder report(DiagId id, std::string message) { return report(id, SourceRange(), std::move(message)); }

  void emit(Diagnostic diag);
  // Writes what is buffered (the JSON array). Call once, at the end of the run.
  void finish();

  unsigned errorCount() const { return errors_; }
  unsigned warningCount() const { return warnings_; }
  bool hasErrors() const { return errors_ != 0; }
  // True once the error limit was reached: stages may stop early.
  bool shouldStop() const { return limitReached_; }
  const SourceManager &sources() const { return sources_; }
  const std::vector<Diagnostic> &emitted() const { return emitted_; }

private:
  void renderText(const Diagnostic &diag);
  void renderLocation(SourceRange range, Severity severity, const std::string &message, const char *id);
  void renderSnippet(SourceRange range);
  void renderJson();
  const char *color(const char *code) const { return useColor_ ? code : ""; }

  const SourceManager &sources_;
  std::ostream &out_;
  DiagnosticOptions options_;
  bool useColor_;
  unsigned errors_ = 0;
  unsigned warnings_ = 0;
  bool limitReached_ = false;
  bool finished_ = false;
  std::vector<Diagnostic> emitted_;
};

}  // namespace tle
