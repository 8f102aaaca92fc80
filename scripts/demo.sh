#!/usr/bin/env bash
# The main demo: install what is missing, build tlec, and run it on the sample kernel.
# At this stage tlec parses and checks .tle files; it prints the kernel's syntax tree.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
echo
echo "== build/bin/tlec --emit=ast samples/vector_add/vector_add.tle"
build/bin/tlec --emit=ast samples/vector_add/vector_add.tle
echo
echo "== a kernel with a mistake gets a located diagnostic:"
printf 'import triton\n\n@triton.jit\ndef kernel(x_ptr, n)\n    pid = tl.program_id(0)\n' > build/demo-bad.tle
build/bin/tlec --emit=ast build/demo-bad.tle || echo "(exit status $?)"
