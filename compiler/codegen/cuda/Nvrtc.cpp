#include "codegen/cuda/Nvrtc.h"

#ifdef TLE_HAVE_NVRTC
#include <nvrtc.h>
#endif

namespace tle {

#ifdef TLE_HAVE_NVRTC

bool haveNvrtc() { return true; }

bool compileWithNvrtc(const NvrtcRequest &request, std::string &output, std::string &error) {
  std::vector<const char *> headerTexts, headerNames;
  for (const auto &[name, text] : request.headers) {
    headerNames.push_back(name.c_str());
    headerTexts.push_back(text.c_str());
  }
  nvrtcProgram program = nullptr;
  nvrtcResult r = nvrtcCreateProgram(&program, request.source.c_str(), request.name.c_str(),
                                     static_cast<int>(headerTexts.size()), headerTexts.data(), headerNames.data());
  if (r != NVRTC_SUCCESS) {
    error = nvrtcGetErrorString(r);
    return false;
  }
  // cubin needs a real architecture (sm_XX); PTX is produced for the virtual one.
  std::string arch = request.arch;
  if (!request.cubin && arch.rfind("sm_", 0) == 0) arch = "compute_" + arch.substr(3);
  // -default-device: the lambdas of the device library and of generated code carry no
  // execution-space annotation.
  std::vector<std::string> options = {"--gpu-architecture=" + arch, "-std=c++17", "-DNDEBUG", "-default-device"};
  for (const std::string &dir : request.includeDirs) options.push_back("--include-path=" + dir);
  std::vector<const char *> optionPointers;
  for (const std::string &o : options) optionPointers.push_back(o.c_str());
  r = nvrtcCompileProgram(program, static_cast<int>(optionPointers.size()), optionPointers.data());
  size_t logSize = 0;
  nvrtcGetProgramLogSize(program, &logSize);
  std::string log(logSize, '\0');
  if (logSize) nvrtcGetProgramLog(program, log.data());
  while (!log.empty() && (log.back() == '\0' || log.back() == '\n')) log.pop_back();
  if (r != NVRTC_SUCCESS) {
    error = std::string(nvrtcGetErrorString(r)) + (log.empty() ? "" : ":\n" + log);
    nvrtcDestroyProgram(&program);
    return false;
  }
  size_t size = 0;
  if (request.cubin) {
    r = nvrtcGetCUBINSize(program, &size);
    output.assign(size, '\0');
    if (r == NVRTC_SUCCESS) r = nvrtcGetCUBIN(program, output.data());
  } else {
    r = nvrtcGetPTXSize(program, &size);
    output.assign(size, '\0');
    if (r == NVRTC_SUCCESS) r = nvrtcGetPTX(program, output.data());
    while (!output.empty() && output.back() == '\0') output.pop_back();
  }
  nvrtcDestroyProgram(&program);
  if (r != NVRTC_SUCCESS) {
    error = nvrtcGetErrorString(r);
    return false;
  }
  return true;
}

#else

bool haveNvrtc() { return false; }

bool compileWithNvrtc(const NvrtcRequest &, std::string &, std::string &error) {
  error = "this tlec was built without NVRTC (the CUDA toolkit was not found at build time)";
  return false;
}

#endif

}  // namespace tle
