#!/usr/bin/env bash
# Configures, builds and runs samples/vector_add_ascend as an outside project would, against
# the package in the tlec build tree (AscendC under the CPU emulation: no NPU, no CANN).
# Usage: sample-build-ascend.sh BUILD_DIR SRC_DIR
set -euo pipefail
build=$1
src=$2
out="$build/tests/sample-vector-add-ascend"
rm -rf "$out"
cmake -S "$src/samples/vector_add_ascend" -B "$out" -G Ninja -DTLE_DIR="$build" -DCMAKE_BUILD_TYPE=Release > "$out.log" 2>&1 ||
  { cat "$out.log"; exit 1; }
cmake --build "$out" || exit 1
test -f "$out/tle/vector_add_kernels/vector_add_kernels.cpp"
"$out/vector_add_ascend"
