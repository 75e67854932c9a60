#!/usr/bin/env bash
# CPU-target throughput against serial C++ (-O2), with 1 and 2 workers.
#   bench/cpu-target.sh [build-dir]
# Builds bench/cpu/*.mlir with gpumem-compile (kernels for this machine's
# CPU) and bench/cpu/serial.cpp with g++ -O2, runs each program, and prints a
# markdown table: best-of-N kernel time, the ratio to the serial loop with
# one worker (per-core cost), and the speed-up of 2 workers over 1. Targets
# (docs/performance.md): barrier-free <= 3x, with barriers <= 20x, 2 workers
# >= 1.8x. Figures only: nothing here asserts.
set -euo pipefail
cd "$(dirname "$0")/.."
build=$(cd "${1:-build}" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

g++ -O2 -o "$work/serial" bench/cpu/serial.cpp
"$work/serial" > "$work/serial.txt"
for name in elementwise reduction matmul transpose; do
  "$build/bin/gpumem-compile" --target=cpu --cpu=host "bench/cpu/$name.mlir" \
    -o "$work/$name"
done

echo "| kernel | serial -O2 (s) | 1 worker (s) | ratio to serial | 2 workers (s) | speed-up 2/1 | check |"
echo "|---|---|---|---|---|---|---|"
for name in elementwise reduction matmul transpose; do
  serial=$(awk -v n="$name" '$1 == n {print $2}' "$work/serial.txt")
  one=$(GPUMEM_CPU_THREADS=1 "$work/$name")
  two=$(GPUMEM_CPU_THREADS=2 "$work/$name")
  t1=$(echo "$one" | sed -n 1p); t2=$(echo "$two" | sed -n 1p)
  check=$(echo "$one" | sed -n 2p)
  awk -v n="$name" -v s="$serial" -v a="$t1" -v b="$t2" -v c="$check" \
    'BEGIN { printf "| %s | %.4g | %.4g | %.2fx | %.4g | %.2fx | %s |\n", n, s, a, a / s, b, a / b, c }'
done
echo
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); $(date -u +%F)"
