#!/usr/bin/env bash
# One bounded fuzz run: TARGET SCRATCH_DIR [libFuzzer options and seed directories].
# The scratch directory (emptied first) receives the inputs the run finds interesting.
set -euo pipefail
target=$1 scratch=$2
shift 2
rm -rf "$scratch" && mkdir -p "$scratch"
exec "$target" -print_final_stats=1 -artifact_prefix="$scratch/" "$scratch" "$@"
