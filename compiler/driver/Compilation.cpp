#include "driver/Compilation.h"

#include "driver/OutputFile.h"
#include "frontend/AstPrinter.h"
#include "frontend/Parser.h"
#include "frontend/Signature.h"
#include "sema/Sema.h"
#ifdef TLE_HAVE_MLIR
#include "codegen/ascendc/AscendcBackend.h"
#include "codegen/cuda/CudaBackend.h"
#include "codegen/cuda/Nvrtc.h"
#include "transforms/Pipeline.h"
#endif

#include <spdlog/spdlog.h>

#include <chrono>
#include <optional>
#include <sstream>

namespace tle {

namespace {

std::string escapeForMake(const std::string &path) {
  std::string out;
  for (char c : path) {
    if (c == ' ' || c == '#') out += '\\';
    if (c == '$') out += '$';
    out += c;
  }
  return out;
}

double millisecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

std::string baseName(const std::string &path) {
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

#ifdef TLE_HAVE_MLIR
SemaOptions semaOptions(const Options &options, std::vector<KernelRequest> kernels) {
  SemaOptions sema;
  sema.kernels = std::move(kernels);
  sema.defines = options.defines;
  sema.numWarps = options.numWarps;
  sema.numStages = options.numStages;
  sema.target = options.target;
  sema.includeDirs = options.includeDirs;
  sema.stdlibDir = TLE_STDLIB_DIR;
  return sema;
}
#endif

}  // namespace

std::string headerPathFor(const Options &options) {
  const std::string &out = options.output;
  size_t slash = out.rfind('/');
  size_t dot = out.rfind('.');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return out + ".h";
  return out.substr(0, dot) + ".h";
}

std::string formatDepfile(const std::string &target, const std::vector<std::string> &deps) {
  std::string out = escapeForMake(target) + ":";
  for (const std::string &d : deps) out += " \\\n  " + escapeForMake(d);
  return out + "\n";
}

bool runCompilation(const Options &options, SourceManager &sources, DiagnosticEngine &diags) {
  // Signatures are checked first: they are cheap and their errors point into the option.
  std::vector<KernelRequest> kernels;
  for (size_t i = 0; i < options.kernels.size(); ++i)
    kernels.push_back({options.kernels[i], std::nullopt, {}, i < options.outNames.size() ? options.outNames[i] : ""});
  for (size_t i = 0; i < options.signatures.size(); ++i) {
    std::string name = options.signatures.size() == 1 ? "<signature>" : "<signature " + std::to_string(i + 1) + ">";
    FileId sig = sources.addBuffer(name, options.signatures[i]);
    if (auto entries = parseSignature(sources.text(sig), sig, diags)) {
      spdlog::debug("signature for {}: {} entries", options.kernels[i], entries->size());
      kernels[i].signature = std::move(*entries);
      kernels[i].signatureRange = SourceRange({sig, 1, 1}, sources.endOfFile(sig));
    }
  }
  if (diags.hasErrors()) return false;

  std::string text;
  if (!readInputFile(options.input, text, diags)) return false;
  FileId file = sources.addBuffer(options.input == "-" ? "<stdin>" : options.input, std::move(text));
  std::vector<std::string> deps;
  if (options.input != "-") deps.push_back(options.input);

#ifdef TLE_HAVE_MLIR
  // Sema: the tile IR of the requested kernels, and the modules they import for -MD.
  auto lower = [&](const ast::Module &module, std::vector<KernelRequest> requests) {
    auto semaStart = std::chrono::steady_clock::now();
    std::vector<std::string> imported;
    IrModulePtr ir = lowerToIr(module, semaOptions(options, std::move(requests)), sources, diags, &imported);
    deps.insert(deps.end(), imported.begin(), imported.end());
    spdlog::info("lowered to MLIR in {:.2f} ms", millisecondsSince(semaStart));
    return ir;
  };
#endif

  std::string output;
  std::optional<std::string> header;  // --emit=cuda to a file also writes the launchers' header
  auto start = std::chrono::steady_clock::now();
  if (options.emit == EmitKind::Tokens) {
    for (const std::string &t : dumpTokens(sources, file, diags)) output += t + "\n";
    if (diags.hasErrors()) return false;
  } else {
    std::unique_ptr<ast::Module> module = parseFile(sources, file, diags);
    spdlog::info("parsed '{}' ({} top-level statements) in {:.2f} ms", sources.name(file),
                 module ? module->body.size() : 0, millisecondsSince(start));
    if (!module) return false;
    if (options.emit == EmitKind::Ast) {
      std::ostringstream os;
      ast::print(*module, os);
      output = os.str();
#ifdef TLE_HAVE_MLIR
    } else if (options.emit == EmitKind::Mlir) {
      IrModulePtr ir = lower(*module, std::move(kernels));
      if (!ir) return false;
      output = printIr(*ir);
    } else if ((options.emit == EmitKind::Cuda || options.emit == EmitKind::Header ||
                ((options.emit == EmitKind::Ptx || options.emit == EmitKind::Cubin) && haveNvrtc())) &&
               options.target->family() == TargetFamily::Cuda) {
      // The stages in order: sema, the target's pipeline, the printer (then NVRTC).
      IrModulePtr ir = lower(*module, std::move(kernels));
      if (!ir) return false;
      auto pipelineStart = std::chrono::steady_clock::now();
      SourceLocator locate = locatorFor(sources);
      if (options.specialize && !specializeParameters(*ir, diags)) return false;
      if (!options.tma) disallowTma(*ir);
      if (!runTargetPipeline(*ir, *options.target, diags, locate)) return false;
      spdlog::info("ran the {} pipeline in {:.2f} ms", options.target->name(), millisecondsSince(pipelineStart));
      CudaOptions cuda;
      cuda.inputName = options.input == "-" ? "<stdin>" : baseName(options.input);
      cuda.headerName = options.writesToStdout() ? "kernel.h" : baseName(headerPathFor(options));
      cuda.sourceLine = lineReaderFor(sources);
      cuda.locate = locate;
      auto printStart = std::chrono::steady_clock::now();
      CudaOutput result;
      if (!printCuda(*ir, cuda, diags, result)) return false;
      spdlog::info("printed CUDA C++ in {:.2f} ms", millisecondsSince(printStart));
      if (options.emit == EmitKind::Header) {
        output = std::move(result.header);
      } else if (options.emit == EmitKind::Ptx || options.emit == EmitKind::Cubin) {
        if (result.distributed) {
          diags.report(DiagId::NotImplemented, std::string("a multi-GPU kernel takes its tleDistContext through the generated launcher: emit CUDA "
                                                           "C++ (--emit=cuda) and compile it with nvcc; --emit=") +
                                                   emitKindName(options.emit) + " has no launcher");
          return false;
        }
        NvrtcRequest request;
        request.source = std::move(result.source);
        request.name = cuda.inputName + ".cu";
        request.headers = {{cuda.headerName, result.header}};
        request.includeDirs = {TLE_DEVICE_INCLUDE_DIR};
#ifdef TLE_CUDA_INCLUDE_DIR
        request.includeDirs.push_back(std::string(TLE_CUDA_INCLUDE_DIR) + "/cccl");
        request.includeDirs.push_back(TLE_CUDA_INCLUDE_DIR);
#endif
        request.arch = std::string(options.target->arch());
        request.cubin = options.emit == EmitKind::Cubin;
        auto nvrtcStart = std::chrono::steady_clock::now();
        std::string error;
        if (!compileWithNvrtc(request, output, error)) {
          diags.report(DiagId::InternalError, "NVRTC could not compile the generated CUDA C++: " + error);
          return false;
        }
        spdlog::info("NVRTC compiled {} in {:.2f} ms", emitKindName(options.emit), millisecondsSince(nvrtcStart));
      } else {
        output = std::move(result.source);
        if (!options.writesToStdout()) header = std::move(result.header);
      }
    } else if ((options.emit == EmitKind::AscendC || options.emit == EmitKind::Header) &&
               options.target->family() == TargetFamily::Ascend) {
      // The same stages for Ascend: sema, the Ascend pipeline, the AscendC printer.
      IrModulePtr ir = lower(*module, std::move(kernels));
      if (!ir) return false;
      SourceLocator locate = locatorFor(sources);
      auto pipelineStart = std::chrono::steady_clock::now();
      if (!runTargetPipeline(*ir, *options.target, diags, locate)) return false;
      spdlog::info("ran the {} pipeline in {:.2f} ms", options.target->name(), millisecondsSince(pipelineStart));
      AscendcOptions ascendc;
      ascendc.inputName = options.input == "-" ? "<stdin>" : baseName(options.input);
      ascendc.headerName = options.writesToStdout() ? "kernel.h" : baseName(headerPathFor(options));
      ascendc.targetName = options.target->name();
      ascendc.sourceLine = lineReaderFor(sources);
      ascendc.locate = locate;
      AscendcOutput result;
      if (!printAscendc(*ir, ascendc, diags, result)) return false;
      if (options.emit == EmitKind::Header) {
        output = std::move(result.header);
      } else {
        output = std::move(result.source);
        if (!options.writesToStdout()) header = std::move(result.header);
      }
#endif
    } else {
#ifdef TLE_HAVE_MLIR
      const char *reach = "this tlec stops at the tile IR (try --emit=mlir or --emit=ast)";
#else
      const char *reach = "this tlec was built without MLIR and stops after parsing (try --emit=ast)";
#endif
      diags.report(DiagId::NotImplemented,
                   std::string("--emit=") + emitKindName(options.emit) + " is not implemented yet: " + reach);
      return false;
    }
  }
  if (diags.hasErrors()) return false;

  OutputSet outputs;
  if (!outputs.add(options.output, std::move(output), diags)) return false;
  if (header && !outputs.add(headerPathFor(options), std::move(*header), diags)) return false;
  if (options.writeDepfile) {
    std::string depPath = options.depfilePath.empty() ? options.output + ".d" : options.depfilePath;
    std::string target = !options.depTarget.empty() ? options.depTarget : options.writesToStdout() ? depPath : options.output;
    if (!outputs.add(depPath, formatDepfile(target, deps), diags)) return false;
  }
  return outputs.commit(diags);
}

}  // namespace tle
