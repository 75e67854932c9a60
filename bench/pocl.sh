#!/usr/bin/env bash
# The cpu target against PoCL, the OpenCL implementation that runs GPU
# kernels on CPU cores: bench/cpu/*.mlir (gpumem, 1 and 2 workers),
# bench/pocl/kernels.cl (the same kernels in OpenCL C, PoCL with 1 and 2
# threads) and bench/cpu/serial.cpp (serial -O2), in one run. Each program
# prints its best launch time and a checksum; the checksums must be equal
# (a MISMATCH says otherwise). Every program runs $RUNS times (default 11,
# bench/median.sh); prints a markdown table of the medians with the ratios
# gpumem / PoCL per thread count (below 1: gpumem faster), then the same
# for the fastest run of each program. Targets
# (docs/performance.md): at most 0.8x with 2 threads on every kernel.
# Figures only: nothing here asserts. Needs pocl-opencl-icd and
# ocl-icd-opencl-dev (make bench-pocl installs them).
#   [RUNS=n] bench/pocl.sh [build-dir]
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/median.sh
build=$(cd "${1:-build}" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

g++ -O2 -o "$work/serial" bench/cpu/serial.cpp
g++ -O2 -o "$work/pocl" bench/pocl/pocl.cpp -lOpenCL
names="elementwise reduction matmul transpose"
for name in $names; do
  "$build/bin/gpumem-compile" --target=cpu --cpu=host "bench/cpu/$name.mlir" \
    -o "$work/$name"
done

# Runs interleave the programs, so that a slow spell of the machine hits
# them alike; every line is "kernel seconds checksum".
for run in $(seq "$runs"); do
  "$work/serial" >> "$work/serial.txt"
  POCL_MAX_PTHREAD_COUNT=1 "$work/pocl" bench/pocl/kernels.cl >> "$work/pocl1.txt"
  POCL_MAX_PTHREAD_COUNT=2 "$work/pocl" bench/pocl/kernels.cl >> "$work/pocl2.txt"
  run_gpumem "$work" $names
done

echo "| kernel | serial -O2 (ms) | gpumem 1 (ms) | PoCL 1 (ms) | gpumem/PoCL 1 | gpumem 2 (ms) | PoCL 2 (ms) | gpumem/PoCL 2 | checksums |"
echo "|---|---|---|---|---|---|---|---|---|"
for name in $names; do
  s=$(median_field "$name" 2 "$work/serial.txt")
  g1=$(median_field "$name" 2 "$work/gpumem1.txt")
  g2=$(median_field "$name" 2 "$work/gpumem2.txt")
  p1=$(median_field "$name" 2 "$work/pocl1.txt")
  p2=$(median_field "$name" 2 "$work/pocl2.txt")
  check=$(same_field "$name" 3 "$work/gpumem1.txt")
  c2=$(same_field "$name" 3 "$work/gpumem2.txt")
  c3=$(same_field "$name" 3 "$work/pocl1.txt")
  c4=$(same_field "$name" 3 "$work/pocl2.txt")
  awk -v n="$name" -v s="$s" -v g1="$g1" -v g2="$g2" -v p1="$p1" -v p2="$p2" \
      -v c="$check" -v c2="$c2" -v c3="$c3" -v c4="$c4" 'BEGIN {
    same = (c !~ /varies/ && c + 0 == c2 + 0 && c + 0 == c3 + 0 && c + 0 == c4 + 0) \
      ? "equal (" c ")" : "MISMATCH " c " / " c2 " / " c3 " / " c4
    printf "| %s | %.3f | %.3f | %.3f | %.2fx | %.3f | %.3f | %.2fx | %s |\n",
      n, s * 1e3, g1 * 1e3, p1 * 1e3, g1 / p1, g2 * 1e3, p2 * 1e3, g2 / p2, same }'
done
echo
echo "medians of $runs runs (RUNS=$runs), each the best of its launches"
echo
echo "| kernel | fastest run: gpumem 1 (ms) | PoCL 1 (ms) | gpumem/PoCL 1 | gpumem 2 (ms) | PoCL 2 (ms) | gpumem/PoCL 2 |"
echo "|---|---|---|---|---|---|---|"
for name in $names; do
  awk -v n="$name" -v g1="$(min_field "$name" 2 "$work/gpumem1.txt")" \
      -v g2="$(min_field "$name" 2 "$work/gpumem2.txt")" \
      -v p1="$(min_field "$name" 2 "$work/pocl1.txt")" \
      -v p2="$(min_field "$name" 2 "$work/pocl2.txt")" 'BEGIN {
    printf "| %s | %.3f | %.3f | %.2fx | %.3f | %.3f | %.2fx |\n",
      n, g1 * 1e3, p1 * 1e3, g1 / p1, g2 * 1e3, p2 * 1e3, g2 / p2 }'
done
echo
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); PoCL $(dpkg-query -W -f='${Version}' pocl-opencl-icd 2>/dev/null || echo '?'); $(date -u +%F)"
