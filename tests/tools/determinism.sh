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
compared=0
differ=0
while IFS='|' read -r symbol file kernel warps signature flags; do
  for target in cuda:sm_90a ascend:910b; do
    ext=cu; [ "$target" = ascend:910b ] && ext=cpp
    # The diagnostics must not differ either (warnings, or the error of a kernel the target
    # cannot map).
    one=ok; two=ok
    (cd "$work/a/x" && "$tlec" "$src/tests/corpus/$file" --kernel "$kernel" --signature "$signature" --num-warps "$warps" \
       --target "$target" $flags -o "$work/a/$symbol.$ext" 2> "$work/a/$symbol.$ext.err") || one=failed
    (cd "$work/b" && "$tlec" "$src/tests/corpus/$file" --kernel "$kernel" --signature "$signature" --num-warps "$warps" \
       --target "$target" $flags -o "k_$symbol.$ext" 2> "$work/b/k_$symbol.$ext.err") || two=failed
    if [ "$one" != "$two" ] || ! cmp -s "$work/a/$symbol.$ext.err" "$work/b/k_$symbol.$ext.err"; then
      echo "DIFFERENT OUTCOME OR DIAGNOSTICS: $symbol for $target: $one vs $two"; differ=$((differ + 1)); continue
    fi
    [ "$one" = ok ] || continue  # a kernel the target cannot map: both runs refused it alike
    sed -i "s/k_$symbol\.h/$symbol.h/" "$work/b/k_$symbol.$ext"
    compared=$((compared + 1))
    if ! cmp -s "$work/a/$symbol.$ext" "$work/b/k_$symbol.$ext"; then
      echo "DIFFERENT: $symbol for $target"; diff "$work/a/$symbol.$ext" "$work/b/k_$symbol.$ext" | head -5
      differ=$((differ + 1))
    fi
    if ! cmp -s "$work/a/$symbol.h" "$work/b/k_$symbol.h"; then
      echo "DIFFERENT HEADER: $symbol for $target"; differ=$((differ + 1))
    fi
  done
done < <(kernel_list_entries "$src/tests/gpu/kernels.list")
echo "determinism: $compared outputs compared, $differ differ"
[ "$compared" -gt 50 ] && [ "$differ" -eq 0 ]
