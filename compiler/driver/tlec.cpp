// tlec: the command-line driver.
#include "driver/CommandLine.h"
#include "driver/Compilation.h"
#include "support/SourceManager.h"

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

#include <cstdlib>
#include <iostream>
#include <pthread.h>
#include <unistd.h>

namespace {

struct Invocation {
  int argc;
  char **argv;
  int exitCode = 1;
};

bool stderrIsColorTerminal() {
  const char *noColor = std::getenv("NO_COLOR");
  const char *term = std::getenv("TERM");
  if (noColor && *noColor) return false;
  if (term && std::string(term) == "dumb") return false;
  return ::isatty(STDERR_FILENO) != 0;
}

int run(int argc, char **argv) {
  tle::SourceManager sources;
  tle::DiagnosticEngine diags(sources, std::cerr, tle::scanDiagnosticOptions(argc, argv), stderrIsColorTerminal());
  std::optional<tle::Options> options = tle::parseCommandLine(argc, argv, diags);
  if (!options) return 1;
  if (options->help) {
    std::cout << tle::helpText();
    return 0;
  }
  if (options->version) {
    std::cout << "tlec " TLEC_VERSION "\n"
              << "  targets: " << tle::targetNameList() << "\n"
              << "  input: Triton/TLE kernels (.tle, Python 3 syntax subset)\n";
    return 0;
  }

  // Log lines follow the diagnostics' colour decision.
  bool color = options->diagnostics.format == tle::DiagnosticFormat::Text &&
               (options->diagnostics.color == tle::ColorMode::Always ||
                (options->diagnostics.color == tle::ColorMode::Auto && stderrIsColorTerminal()));
  auto logger = color ? spdlog::stderr_color_mt("tlec") : spdlog::stderr_logger_mt("tlec");
  logger->set_pattern("tlec: %^%l%$: %v");
  logger->set_level(options->verbosity >= 2 ? spdlog::level::debug
                    : options->verbosity == 1 ? spdlog::level::info
                                              : spdlog::level::warn);
  spdlog::set_default_logger(logger);

  bool ok = false;
  try {
    ok = tle::runCompilation(*options, sources, diags);
  } catch (const std::exception &e) {
    diags.report(tle::DiagId::InternalError, std::string("internal error: ") + e.what());
  }
  diags.finish();
  return ok && !diags.hasErrors() ? 0 : 1;
}

void *runThread(void *arg) {
  auto *inv = static_cast<Invocation *>(arg);
  try {
    inv->exitCode = run(inv->argc, inv->argv);
  } catch (const std::exception &e) {
    std::cerr << "tlec: error: internal error: " << e.what() << " [internal-error]\n";
    inv->exitCode = 1;
  }
  return nullptr;
}

}  // namespace

int main(int argc, char **argv) {
  // The parser and the AST are recursive; a large stack turns pathological nesting into
  // diagnostics from the nesting limits instead of a crash.
  Invocation inv{argc, argv};
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, size_t(512) << 20);
  pthread_t thread;
  if (pthread_create(&thread, &attr, runThread, &inv) != 0) {
    runThread(&inv);
  } else {
    pthread_join(thread, nullptr);
  }
  pthread_attr_destroy(&attr);
  return inv.exitCode;
}
