#!/usr/bin/env bash
# The cost of --sanitize on the cpu target: bench/cpu/*.mlir built with
# gpumem-compile --target=cpu, with and without --sanitize=memcheck (the
# only check there is yet), each run `repeats` times (default 3; each
# program times itself, best of its own launches), the lower time kept.
# Prints a markdown table with the ratio per kernel. Goal
# (docs/performance.md): at most 5x. Figures only: nothing here asserts.
#   bench/sanitizer.sh [build-dir] [repeats]
set -euo pipefail
cd "$(dirname "$0")/.."
build=$(cd "${1:-build}" && pwd)
repeats=${2:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

names="elementwise reduction matmul transpose"
for name in $names; do
  "$build/bin/gpumem-compile" --target=cpu "bench/cpu/$name.mlir" -o "$work/$name"
  "$build/bin/gpumem-compile" --target=cpu --sanitize=memcheck \
    "bench/cpu/$name.mlir" -o "$work/$name.memcheck"
done

# best KEY COMMAND: the lowest first line of `repeats` runs; the checksum
# (second line) of the last.
best() {
  local lowest="" out
  for ((r = 0; r < repeats; ++r)); do
    out=$("$@")
    t=$(echo "$out" | sed -n 1p)
    if [ -z "$lowest" ] || awk -v a="$t" -v b="$lowest" 'BEGIN { exit !(a < b) }'; then
      lowest=$t
    fi
  done
  echo "$lowest $(echo "$out" | sed -n 2p)"
}

echo "| kernel | plain (s) | memcheck (s) | memcheck / plain | check (plain, memcheck) |"
echo "|---|---|---|---|---|"
for name in $names; do
  read -r plain plainCheck < <(best "$work/$name")
  read -r checked checkedCheck < <(best "$work/$name.memcheck")
  awk -v n="$name" -v a="$plain" -v b="$checked" -v c="$plainCheck" -v d="$checkedCheck" \
    'BEGIN { printf "| %s | %.4g | %.4g | %.2fx | %s, %s |\n", n, a, b, b / a, c, d }'
done
echo
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); $(date -u +%F)"
