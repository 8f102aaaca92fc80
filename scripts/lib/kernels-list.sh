# shellcheck shell=bash
# Reading a kernels list (tests/gpu/kernels.list, bench/sweep.list): one kernel per line,
# fields separated by '|': symbol | .tle file under tests/corpus | kernel | num-warps |
# --signature [| more tlec options]; '#' starts a comment line. Sourced by the scripts that
# compile such a list.

# Prints each kernel's line with the spaces around its fields removed, comments and blank
# lines left out, for `while IFS='|' read -r symbol file kernel warps signature flags`.
kernel_list_entries() {
  sed -E '/^[[:space:]]*(#|$)/d; s/[[:space:]]*\|[[:space:]]*/|/g; s/^[[:space:]]+//; s/[[:space:]]+$//' "$1"
}
