// Compiles generated CUDA C++ in-process with NVRTC (--emit=ptx, --emit=cubin).
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace tle {

struct NvrtcRequest {
  std::string source;
  std::string name;                                         // for NVRTC's messages
  std::vector<std::pair<std::string, std::string>> headers;  // in-memory headers: name, text
  std::vector<std::string> includeDirs;
  std::string arch = "sm_90a";
  bool cubin = false;  // false: PTX
};

// Returns true and sets `output` (PTX text or cubin bytes); otherwise false with NVRTC's log
// in `error`.
bool compileWithNvrtc(const NvrtcRequest &request, std::string &output, std::string &error);

// Whether this tlec was built with NVRTC.
bool haveNvrtc();

}  // namespace tle
