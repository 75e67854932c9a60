#!/usr/bin/env bash
# The cost of --sanitize on the cpu target (or on cuda-emu): bench/cpu/*.mlir
# built with gpumem-compile --target=TARGET without --sanitize, with each
# check alone (memcheck, racecheck, initcheck) and with all (--sanitize), each
# run `repeats` times (default 3; each program times itself, best of its
# own launches), the lower time kept. Prints a markdown table with the
# ratio to the plain build per check. Goal (docs/performance.md): at most
# 5x. Figures only: nothing here asserts.
#   bench/sanitizer.sh [build-dir] [repeats] [cpu|cuda-emu]
set -euo pipefail
cd "$(dirname "$0")/.."
build=$(cd "${1:-build}" && pwd)
repeats=${2:-3}
target=${3:-cpu}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

names="elementwise reduction matmul transpose"
for name in $names; do
  "$build/bin/gpumem-compile" --target="$target" "bench/cpu/$name.mlir" -o "$work/$name"
  for check in memcheck racecheck initcheck; do
    "$build/bin/gpumem-compile" --target="$target" --sanitize=$check \
      "bench/cpu/$name.mlir" -o "$work/$name.$check"
  done
  "$build/bin/gpumem-compile" --target="$target" --sanitize \
    "bench/cpu/$name.mlir" -o "$work/$name.all"
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

echo "| kernel | plain (s) | memcheck | racecheck | initcheck | all three | checks agree |"
echo "|---|---|---|---|---|---|---|"
for name in $names; do
  read -r plain plainCheck < <(best "$work/$name")
  row="| $name | $plain"
  agree=yes
  for variant in memcheck racecheck initcheck all; do
    read -r checked checkedCheck < <(best "$work/$name.$variant")
    [ "$checkedCheck" = "$plainCheck" ] || agree="no ($variant: $checkedCheck)"
    row="$row | $(awk -v a="$plain" -v b="$checked" 'BEGIN { printf "%.4g s, %.2fx", b, b / a }')"
  done
  echo "$row | $agree ($plainCheck) |"
done
echo
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); $(date -u +%F)"
