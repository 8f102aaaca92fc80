# Build-wide options: fast linking, compiler caching, warnings, sanitizers.

option(TLE_USE_LLD "Link with lld when available (much faster than bfd for MLIR tools)" ON)
option(TLE_USE_CCACHE "Use ccache when available" ON)
option(TLE_BUILD_TESTS "Build the unit tests and configure lit" ON)
option(TLE_ENABLE_MLIR "Build the MLIR stages (semantic analysis, the tle dialect, tle-opt)" ON)
option(TLE_WERROR "Treat compiler warnings as errors" OFF)
set(TLE_SANITIZE "" CACHE STRING "Sanitizers for the whole build, e.g. address,undefined")

if(TLE_USE_LLD)
  include(CheckLinkerFlag)
  check_linker_flag(CXX "-fuse-ld=lld" TLE_HAS_LLD)
  if(TLE_HAS_LLD)
    add_link_options(-fuse-ld=lld)
  endif()
endif()

if(TLE_USE_CCACHE)
  find_program(TLE_CCACHE ccache)
  if(TLE_CCACHE)
    set(CMAKE_C_COMPILER_LAUNCHER ${TLE_CCACHE})
    set(CMAKE_CXX_COMPILER_LAUNCHER ${TLE_CCACHE})
  endif()
endif()

if(TLE_SANITIZE)
  add_compile_options(-fsanitize=${TLE_SANITIZE} -fno-omit-frame-pointer -fno-sanitize-recover=all)
  add_link_options(-fsanitize=${TLE_SANITIZE})
endif()

# libFuzzer targets (tests/fuzz): clang's coverage instrumentation on every translation unit,
# so that the sanitizer build's libraries are the fuzzers' too.
option(TLE_FUZZ "Build the libFuzzer targets (needs clang; use with TLE_SANITIZE)" OFF)
if(TLE_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "TLE_FUZZ needs clang (e.g. -DCMAKE_CXX_COMPILER=clang++-19), not ${CMAKE_CXX_COMPILER_ID}")
  endif()
  add_compile_options(-fsanitize=fuzzer-no-link)
endif()

# Warnings for our own code; generated and third-party code opts out per target.
add_library(tle_warnings INTERFACE)
target_compile_options(tle_warnings INTERFACE -Wall -Wextra -Wno-unused-parameter)
if(TLE_WERROR)
  target_compile_options(tle_warnings INTERFACE -Werror)
endif()
