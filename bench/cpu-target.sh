#!/usr/bin/env bash
# CPU-target throughput against serial C++ (-O2), with 1 and 2 workers.
#   [RUNS=n] bench/cpu-target.sh [build-dir]
# Builds bench/cpu/*.mlir with gpumem-compile (kernels for this machine's
# CPU) and bench/cpu/serial.cpp with g++ -O2, runs each program $RUNS times
# (default 11, bench/median.sh), and prints a markdown table of the medians:
# best-of-N kernel time, the ratio to the serial loop with one worker
# (per-core cost), and the speed-up of 2 workers over 1. Then the
# elementwise kernel as an OpenMP loop (bench/cpu/saxpy-openmp.cpp), whose
# speed-up from 1 to 2 threads is what the memory system allows. Targets
# (docs/performance.md): barrier-free <= 3x, with barriers <= 20x, 2 workers
# >= 1.8x. Figures only: nothing here asserts.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/median.sh
build=$(cd "${1:-build}" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

g++ -O2 -o "$work/serial" bench/cpu/serial.cpp
g++ -O3 -march=native -fopenmp -o "$work/openmp" bench/cpu/saxpy-openmp.cpp
names="elementwise reduction matmul transpose"
for name in $names; do
  "$build/bin/gpumem-compile" --target=cpu --cpu=host "bench/cpu/$name.mlir" \
    -o "$work/$name"
done

# Runs interleave the programs, so that a slow spell of the machine hits
# them alike; every line is "kernel seconds checksum".
for run in $(seq "$runs"); do
  "$work/serial" >> "$work/serial.txt"
  OMP_NUM_THREADS=1 "$work/openmp" >> "$work/openmp1.txt"
  OMP_NUM_THREADS=2 "$work/openmp" >> "$work/openmp2.txt"
  run_gpumem "$work" $names
done

echo "| kernel | serial -O2 (s) | 1 worker (s) | ratio to serial | 2 workers (s) | speed-up 2/1 | check |"
echo "|---|---|---|---|---|---|---|"
for name in $names; do
  serial=$(median_field "$name" 2 "$work/serial.txt")
  t1=$(median_field "$name" 2 "$work/gpumem1.txt")
  t2=$(median_field "$name" 2 "$work/gpumem2.txt")
  check=$(same_field "$name" 3 "$work/gpumem1.txt")
  awk -v n="$name" -v s="$serial" -v a="$t1" -v b="$t2" -v c="$check" \
    'BEGIN { printf "| %s | %.4g | %.4g | %.2fx | %.4g | %.2fx | %s |\n", n, s, a, a / s, b, a / b, c }'
done
echo
echo "medians of $runs runs (RUNS=$runs), each the best of its launches"
# The memory system's own limit on the elementwise kernel.
awk -v a="$(median_field elementwise 2 "$work/openmp1.txt")" \
    -v b="$(median_field elementwise 2 "$work/openmp2.txt")" 'BEGIN {
  printf "elementwise as an OpenMP loop (-O3 -march=native): 1 thread %.4g s, 2 threads %.4g s, speed-up %.2fx\n", a, b, a / b }'
echo
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); $(date -u +%F)"
