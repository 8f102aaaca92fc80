# Third-party packages, all from Debian (see scripts/install-deps.sh). Each is found
# here once, with a message that says which package provides it when it is missing.

macro(tle_require_package name package)
  find_package(${name} ${ARGN} QUIET)
  if(NOT ${name}_FOUND)
    message(FATAL_ERROR "tlec needs ${name}: install the Debian package '${package}' "
                        "(scripts/install-deps.sh installs everything)")
  endif()
endmacro()

# ANTLR: the 4.7.2 tool (Java) generates the parser, the 4.9 C++ runtime runs it.
tle_require_package(antlr4-runtime libantlr4-runtime-dev CONFIG)
find_package(Java COMPONENTS Runtime QUIET)
if(NOT Java_JAVA_EXECUTABLE)
  message(FATAL_ERROR "tlec needs a Java runtime for the ANTLR tool: install 'default-jre-headless'")
endif()
set(TLE_ANTLR_JAR /usr/share/java/antlr4.jar)
if(NOT EXISTS ${TLE_ANTLR_JAR})
  message(FATAL_ERROR "tlec needs the ANTLR 4 tool (${TLE_ANTLR_JAR}): install the Debian package 'antlr4'")
endif()
# Debian's antlr4.jar is not a fat jar: the tool runs with an explicit class path.
set(TLE_ANTLR_CLASSPATH
    "/usr/share/java/antlr4.jar:/usr/share/java/antlr4-runtime.jar:/usr/share/java/antlr3-runtime.jar:/usr/share/java/stringtemplate4.jar:/usr/share/java/treelayout.jar")

tle_require_package(spdlog libspdlog-dev CONFIG)
tle_require_package(cxxopts libcxxopts-dev 3 CONFIG)

if(TLE_BUILD_TESTS)
  tle_require_package(doctest doctest-dev CONFIG)
  find_package(Python3 COMPONENTS Interpreter REQUIRED)
  # lit and FileCheck come with llvm-19-tools.
  find_program(TLE_FILECHECK NAMES FileCheck PATHS /usr/lib/llvm-19/bin NO_DEFAULT_PATH)
  find_file(TLE_LIT_PY lit.py PATHS /usr/lib/llvm-19/build/utils/lit NO_DEFAULT_PATH)
  if(NOT TLE_FILECHECK OR NOT TLE_LIT_PY)
    message(FATAL_ERROR "tlec's tests need lit and FileCheck: install the Debian package 'llvm-19-tools'")
  endif()
  get_filename_component(TLE_LLVM_TOOLS_DIR ${TLE_FILECHECK} DIRECTORY)
endif()

# The CUDA toolkit is optional at this stage: it is reported, not required.
find_package(CUDAToolkit QUIET)
if(CUDAToolkit_FOUND)
  message(STATUS "CUDA toolkit ${CUDAToolkit_VERSION} at ${CUDAToolkit_BIN_DIR}")
else()
  message(STATUS "CUDA toolkit not found (expected under /usr/local/cuda): GPU code paths are disabled")
endif()

# LLVM/MLIR 19 for the IR stages. Their libraries are linked statically; LLVM's own
# add_mlir_library is not used because it forces -fno-exceptions on every target.
if(TLE_ENABLE_MLIR)
  find_package(MLIR 19.1 CONFIG QUIET HINTS /usr/lib/llvm-19/lib/cmake/mlir)  # "19" alone is rejected
  if(NOT MLIR_FOUND)
    message(FATAL_ERROR "tlec needs MLIR 19: install the Debian packages 'libmlir-19-dev' and 'mlir-19-tools' "
                        "(or configure with -DTLE_ENABLE_MLIR=OFF for a frontend-only build)")
  endif()
  list(APPEND CMAKE_MODULE_PATH "${MLIR_CMAKE_DIR}" "${LLVM_CMAKE_DIR}")
  include(TableGen)
  include(AddLLVM)
  include(AddMLIR)
  add_library(tle_mlir_flags INTERFACE)
  target_include_directories(tle_mlir_flags SYSTEM INTERFACE ${LLVM_INCLUDE_DIRS} ${MLIR_INCLUDE_DIRS})
  separate_arguments(_tle_llvm_defs UNIX_COMMAND "${LLVM_DEFINITIONS}")
  target_compile_definitions(tle_mlir_flags INTERFACE ${_tle_llvm_defs})
  message(STATUS "MLIR ${MLIR_VERSION} from ${MLIR_CMAKE_DIR}")
endif()
