// libFuzzer target: tlec's lexer and parser (tokens, then the AST) on arbitrary bytes.
#include "FuzzSupport.h"

#include "frontend/Parser.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  tle::fuzz::quietLogs();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  using namespace tle;
  std::string text(reinterpret_cast<const char *>(data), size);
  {
    SourceManager sources;
    std::ostringstream rendered;
    DiagnosticEngine diags(sources, rendered, fuzz::plainDiagnostics());
    FileId file = sources.addBuffer("input.tle", text);
    std::vector<std::string> tokens = dumpTokens(sources, file, diags);
    fuzz::checkDiagnostics(diags, !diags.hasErrors(), rendered);
  }
  SourceManager sources;
  std::ostringstream rendered;
  DiagnosticEngine diags(sources, rendered, fuzz::plainDiagnostics());
  FileId file = sources.addBuffer("input.tle", std::move(text));
  auto module = parseFile(sources, file, diags);
  fuzz::checkDiagnostics(diags, module != nullptr, rendered);
  return 0;
}
