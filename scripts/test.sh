#!/usr/bin/env bash
# Runs every test: installs what is missing, builds, runs CTest (doctest unit tests,
# lit/FileCheck tests, the CPython-differential corpus), then rebuilds everything under
# AddressSanitizer + UndefinedBehaviorSanitizer and runs the tests again.
# This is what CI runs (.ci/run).
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc 2>/dev/null || echo 2)

scripts/install-deps.sh
scripts/build.sh
(cd build && ctest --output-on-failure -j "$jobs")

echo "== sanitizer build (address, undefined)"
# LLVM/MLIR's libraries are not instrumented, while their inline allocator code in our
# translation units is: allow_user_poisoning=0 ignores those manual poisonings (false
# positives) and keeps every other AddressSanitizer check.
cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTLE_SANITIZE=address,undefined
cmake --build build-asan
(cd build-asan && TLE_LIT_NVCC=0 ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:allow_user_poisoning=0 UBSAN_OPTIONS=print_stacktrace=1 \
  ctest --output-on-failure -j "$jobs")
