#!/usr/bin/env bash
# Runs every test: installs what is missing, builds, runs CTest (doctest unit tests,
# lit/FileCheck tests, the CPython-differential corpus), then rebuilds everything with clang
# under AddressSanitizer + UndefinedBehaviorSanitizer and runs the tests again, with short
# runs of the libFuzzer targets.
# This is what CI runs (.ci/run).
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc 2>/dev/null || echo 2)

scripts/install-deps.sh
scripts/build.sh
(cd build && ctest --output-on-failure -j "$jobs")

echo "== sanitizer build (address, undefined; clang with libFuzzer targets)"
# The same tests under AddressSanitizer + UndefinedBehaviorSanitizer, built by clang with
# coverage instrumentation so that the fuzz targets (tests/fuzz) link the same libraries;
# their smoke runs are part of this ctest. LLVM/MLIR's libraries are not instrumented, while
# their inline allocator code in our translation units is: allow_user_poisoning=0 ignores
# those manual poisonings (false positives) and keeps every other AddressSanitizer check.
cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_COMPILER=clang-19 -DCMAKE_CXX_COMPILER=clang++-19 \
  -DTLE_SANITIZE=address,undefined -DTLE_FUZZ=ON
cmake --build build-fuzz
(cd build-fuzz && TLE_LIT_NVCC=0 ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:allow_user_poisoning=0 UBSAN_OPTIONS=print_stacktrace=1 \
  ctest --output-on-failure -j "$jobs")
