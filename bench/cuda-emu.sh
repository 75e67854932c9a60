#!/usr/bin/env bash
# The cuda-emu target against the cpu target on the bench/cpu kernels.
#   bench/cuda-emu.sh [build-dir]
# Builds each bench/cpu/*.mlir with gpumem-compile for both targets (kernels
# for this machine's CPU), runs each with one and with two workers, and
# prints a markdown table: best-of-N kernel time (the programs time
# themselves) and the ratio cuda-emu / cpu. Target (docs/performance.md):
# cuda-emu no slower than 10x the cpu target. Figures only: nothing here
# asserts.
set -euo pipefail
cd "$(dirname "$0")/.."
build=$(cd "${1:-build}" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

names="elementwise reduction matmul transpose"
for name in $names; do
  for target in cpu cuda-emu; do
    "$build/bin/gpumem-compile" --target=$target --cpu=host \
      "bench/cpu/$name.mlir" -o "$work/$name.$target"
  done
done

echo "| kernel | workers | cpu (s) | cuda-emu (s) | cuda-emu / cpu | check (cpu, cuda-emu) |"
echo "|---|---|---|---|---|---|"
for name in $names; do
  for workers in 1 2; do
    cpu=$(GPUMEM_CPU_THREADS=$workers "$work/$name.cpu")
    emu=$(GPUMEM_CPU_THREADS=$workers "$work/$name.cuda-emu")
    awk -v n="$name" -v w="$workers" \
        -v a="$(echo "$cpu" | sed -n 1p)" -v b="$(echo "$emu" | sed -n 1p)" \
        -v c="$(echo "$cpu" | sed -n 2p)" -v d="$(echo "$emu" | sed -n 2p)" \
      'BEGIN { printf "| %s | %d | %.4g | %.4g | %.2fx | %s, %s |\n", n, w, a, b, b / a, c, d }'
  done
done
echo
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); $(date -u +%F)"
