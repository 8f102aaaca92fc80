// Turns ANTLR's parse failures into diagnostics in words a Python user knows
// ("expected ':' after function signature", "unexpected indent", "perhaps you forgot a
// comma?") instead of "mismatched input ... expecting {...}". Internal to the frontend.
#pragma once

#include "support/Diagnostics.h"

#include <antlr4-runtime.h>

#include <vector>

namespace tle {

// Thrown after the first error of a chunk is reported: the rest of the chunk is skipped
// so that one mistake yields one diagnostic, not a cascade.
struct ChunkAbandoned {};

class SyntaxErrorStrategy : public antlr4::DefaultErrorStrategy {
public:
  // `bracketDepth[i]` is the bracket depth after token `i` of the chunk's stream.
  SyntaxErrorStrategy(FileId file, DiagnosticEngine &diags, const std::vector<uint16_t> &bracketDepth)
      : file_(file), diags_(diags), bracketDepth_(bracketDepth) {}

  void reportError(antlr4::Parser *parser, const antlr4::RecognitionException &e) override;
  antlr4::Token *recoverInline(antlr4::Parser *parser) override;
  // The id of the diagnostic that abandoned the chunk.
  DiagId reportedId() const { return reportedId_; }
  void recover(antlr4::Parser *parser, std::exception_ptr e) override;

protected:
  void reportUnwantedToken(antlr4::Parser *parser) override;
  void reportMissingToken(antlr4::Parser *parser) override;

private:
  [[noreturn]] void fail(antlr4::Parser *parser, antlr4::Token *offending);

  FileId file_;
  DiagnosticEngine &diags_;
  const std::vector<uint16_t> &bracketDepth_;
  DiagId reportedId_ = DiagId::SyntaxError;
};

}  // namespace tle
