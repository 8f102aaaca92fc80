#!/usr/bin/env bash
# Runs every test: installs what is missing, builds, runs CTest (doctest unit tests,
# lit/FileCheck tests, the CPython-differential corpus), then rebuilds the frontend and
# its tests under AddressSanitizer + UndefinedBehaviorSanitizer and runs them again.
# This is what CI runs (.ci/run).
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc 2>/dev/null || echo 2)

scripts/install-deps.sh
scripts/build.sh
(cd build && ctest --output-on-failure -j "$jobs")

echo "== sanitizer build of the frontend (address, undefined)"
cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTLE_SANITIZE=address,undefined -DTLE_ENABLE_MLIR=OFF
cmake --build build-asan
(cd build-asan && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
  ctest --output-on-failure -j "$jobs")
