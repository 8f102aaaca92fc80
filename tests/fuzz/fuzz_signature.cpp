// libFuzzer target: the --signature parser on arbitrary bytes.
#include "FuzzSupport.h"

#include "frontend/Signature.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  tle::fuzz::quietLogs();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  using namespace tle;
  SourceManager sources;
  std::ostringstream rendered;
  DiagnosticEngine diags(sources, rendered, fuzz::plainDiagnostics());
  FileId file = sources.addBuffer("<signature>", std::string(reinterpret_cast<const char *>(data), size));
  auto entries = parseSignature(sources.text(file), file, diags);
  fuzz::checkDiagnostics(diags, entries.has_value(), rendered);
  return 0;
}
