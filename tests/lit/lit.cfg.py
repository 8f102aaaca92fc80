# lit configuration for tlec: FileCheck tests on --emit outputs and diagnostics.
import os

import lit.formats

config.name = "tlec"
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".tle", ".test", ".mlir"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = config.tle_obj_root
config.excludes = ["Inputs", "lit.cfg.py", "lit.site.cfg.py.in", "CMakeLists.txt", "expect-exit"]

here = os.path.dirname(__file__)
config.substitutions.append(("%tlec", os.path.join(config.tle_tools_dir, "tlec")))
# tle-opt is only built with MLIR; without it the IR tests are unsupported.
tle_opt = os.path.join(config.tle_tools_dir, "tle-opt")
if os.path.exists(tle_opt):
    config.available_features.add("mlir")
    # The CUDA pipeline up to (and including) layout assignment, and up to the shared-memory
    # plan: the input of the passes after them, each tested alone.
    config.substitutions.append(("%cuda-layouts", "tle-opt --tle-lower-block-pointers --canonicalize --tle-transpose-loads --tle-plan-async-copies"
                                 " --tle-prefetch-loads --tle-clone-indexing --tle-assign-layouts --cse"))
    config.substitutions.append(("%cuda-planned", "tle-opt --tle-lower-block-pointers --canonicalize --tle-transpose-loads --tle-plan-async-copies"
                                 " --tle-prefetch-loads --tle-clone-indexing --tle-assign-layouts --cse --tle-lower-async-copies"
                                 " --tle-stage-dot-operands --tle-plan-shared-memory"))
    config.substitutions.append(("tle-opt", tle_opt))
# nvcc compiles the generated CUDA C++ (no GPU needed). TLE_LIT_NVCC=0 skips it (the
# sanitizer pass of scripts/test.sh: the compiler under test is the same).
nvcc = os.environ.get("NVCC", "/usr/local/cuda/bin/nvcc")
if os.path.exists(nvcc) and os.environ.get("TLE_LIT_NVCC", "1") != "0":
    config.available_features.add("nvcc")
    config.available_features.add("nvrtc")  # tlec links NVRTC when the toolkit is found
    config.substitutions.append(("%nvcc", nvcc + " -std=c++17 -O3 -Werror all-warnings -I" +
                                 os.path.join(config.tle_src_root, "stdlib", "include") + " -I" +
                                 os.path.join(config.tle_src_root, "runtime", "include")))
config.substitutions.append(("%exit1", os.path.join(here, "expect-exit") + " 1"))
config.substitutions.append(("%exit0", os.path.join(here, "expect-exit") + " 0"))
config.substitutions.append(("%python", config.python_executable))
config.substitutions.append(("%corpus", os.path.join(config.tle_src_root, "tests", "corpus")))
config.substitutions.append(("%tools", os.path.join(config.tle_src_root, "tests", "tools")))

config.environment["PATH"] = os.pathsep.join([config.llvm_tools_dir, config.environment.get("PATH", "")])
# Diagnostics must not depend on the terminal the tests run in.
config.environment["TERM"] = "dumb"
config.environment.pop("NO_COLOR", None)
