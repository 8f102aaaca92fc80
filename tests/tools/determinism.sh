#!/usr/bin/env bash
# Determinism: every kernel of tests/gpu/kernels.list, compiled for CUDA and for Ascend, gives
# byte-identical output across two runs that differ in working directory and in where the
# output goes (the generated header's name, which follows the output's, is normalised).
# Paths in the output are the input's as given on the command line (device_assert messages),
# so both runs spell it the same way.
# Usage: determinism.sh TLEC SRC_DIR WORK_DIR
set -euo pipefail
tlec=$1
src=$2
work=$3
rm -rf "$work" && mkdir -p "$work/a/x" "$work/b"
# shellcheck source=../../scripts/lib/kernels-list.sh
. "$src/scripts/lib/kernels-list.sh"
# Two or more kernels at a time, each kernel's outcome in marker files (.same / .differ):
# under the sanitizers of the CI's clang stage the 520 runs take minutes.
jobs_max=$(nproc 2>/dev/null || echo 2)
compare_kernel() {
  local symbol=$1 file=$2 kernel=$3 warps=$4 signature=$5 flags=$6 target ext one two
  for target in cuda:sm_90a ascend:910b; do
    ext=cu; [ "$target" = ascend:910b ] && ext=cpp
    # The diagnostics must not differ either (warnings, or the error of a kernel the target
    # cannot map).
    one=ok; two=ok
    # shellcheck disable=SC2086  # the extra options are words
    (cd "$work/a/x" && "$tlec" "$src/tests/corpus/$file" --kernel "$kernel" --signature "$signature" --num-warps "$warps" \
       --target "$target" $flags -o "$work/a/$symbol.$ext" 2> "$work/a/$symbol.$ext.err") || one=failed
    # shellcheck disable=SC2086
    (cd "$work/b" && "$tlec" "$src/tests/corpus/$file" --kernel "$kernel" --signature "$signature" --num-warps "$warps" \
       --target "$target" $flags -o "k_$symbol.$ext" 2> "$work/b/k_$symbol.$ext.err") || two=failed
    if [ "$one" != "$two" ] || ! cmp -s "$work/a/$symbol.$ext.err" "$work/b/k_$symbol.$ext.err"; then
      echo "DIFFERENT OUTCOME OR DIAGNOSTICS: $symbol for $target: $one vs $two"; touch "$work/$symbol.$ext.differ"; continue
    fi
    [ "$one" = ok ] || continue  # a kernel the target cannot map: both runs refused it alike
    sed -i "s/k_$symbol\.h/$symbol.h/" "$work/b/k_$symbol.$ext"
    touch "$work/$symbol.$ext.same"
    if ! cmp -s "$work/a/$symbol.$ext" "$work/b/k_$symbol.$ext"; then
      echo "DIFFERENT: $symbol for $target"; diff "$work/a/$symbol.$ext" "$work/b/k_$symbol.$ext" | head -5
      touch "$work/$symbol.$ext.differ"
    fi
    if ! cmp -s "$work/a/$symbol.h" "$work/b/k_$symbol.h"; then
      echo "DIFFERENT HEADER: $symbol for $target"; touch "$work/$symbol.$ext.header.differ"
    fi
  done
}
while IFS='|' read -r symbol file kernel warps signature flags; do
  compare_kernel "$symbol" "$file" "$kernel" "$warps" "$signature" "$flags" &
  while [ "$(jobs -rp | wc -l)" -ge "$jobs_max" ]; do wait -n || true; done
done < <(kernel_list_entries "$src/tests/gpu/kernels.list")
wait
compared=$(find "$work" -maxdepth 1 -name '*.same' | wc -l)
differ=$(find "$work" -maxdepth 1 -name '*.differ' | wc -l)
echo "determinism: $compared outputs compared, $differ differ"
[ "$compared" -gt 50 ] && [ "$differ" -eq 0 ]
