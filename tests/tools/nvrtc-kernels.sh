#!/usr/bin/env bash
# Every kernel of tests/gpu/kernels.list compiles to PTX through NVRTC (tlec -o k.ptx): the
# device library must build under NVRTC, which has no C++ standard library headers, as it
# does under nvcc (the GPU suite only runs nvcc). Exits 77 (skipped) when tlec was built
# without NVRTC. Usage: nvrtc-kernels.sh TLEC SRC_DIR WORK_DIR
set -euo pipefail
tlec=$1
src=$2
work=$3
rm -rf "$work" && mkdir -p "$work"
probe=$("$tlec" "$src/tests/corpus/triton/01_vector_add.tle" --kernel add_kernel \
  --signature "*fp32:16, *fp32:16, *fp32:16, i32:16, 1024" -o "$work/probe.ptx" 2>&1) || {
  if grep -qi "without NVRTC\|NVRTC is not" <<< "$probe"; then echo "SKIP: tlec has no NVRTC"; exit 77; fi
  echo "$probe"; exit 1
}
# shellcheck source=../../scripts/lib/kernels-list.sh
. "$src/scripts/lib/kernels-list.sh"
# Two or more kernels at a time (NVRTC is single-threaded; under the sanitizers of the CI's
# clang stage 130 kernels one after another passed 900 s).
jobs_max=$(nproc 2>/dev/null || echo 2)
total=0
while IFS='|' read -r symbol file kernel warps signature flags; do
  total=$((total + 1))
  (
    # shellcheck disable=SC2086  # the extra options are words
    if "$tlec" "$src/tests/corpus/$file" --kernel "$kernel" --signature "$signature" --num-warps "$warps" \
         --target cuda:sm_90a $flags -o "$work/$symbol.ptx" 2> "$work/$symbol.err"; then
      touch "$work/$symbol.ok"
    else
      echo "FAILED: $symbol"; grep -m5 "error" "$work/$symbol.err" || true
    fi
  ) &
  while [ "$(jobs -rp | wc -l)" -ge "$jobs_max" ]; do wait -n || true; done
done < <(kernel_list_entries "$src/tests/gpu/kernels.list")
wait
compiled=$(find "$work" -name '*.ok' | wc -l)
failed=$((total - compiled))
echo "nvrtc-kernels: $compiled compiled, $failed failed"
[ "$failed" -eq 0 ] && [ "$compiled" -gt 0 ]
