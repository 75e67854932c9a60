#!/usr/bin/env bash
# The cpu target against PoCL, the OpenCL implementation that runs GPU
# kernels on CPU cores: bench/cpu/*.mlir (gpumem, 1 and 2 workers),
# bench/pocl/kernels.cl (the same kernels in OpenCL C, PoCL with 1 and 2
# threads) and bench/cpu/serial.cpp (serial -O2), in one run. Each program
# prints its best launch time and a checksum; the checksums must be equal
# (a MISMATCH says otherwise). Prints a markdown table with the ratios
# gpumem / PoCL per thread count (below 1: gpumem faster). Targets
# (docs/performance.md): at most 0.8x with 2 threads on every kernel.
# Figures only: nothing here asserts. Needs pocl-opencl-icd and
# ocl-icd-opencl-dev (make bench-pocl installs them).
#   bench/pocl.sh [build-dir]
set -euo pipefail
cd "$(dirname "$0")/.."
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

"$work/serial" > "$work/serial.txt"
POCL_MAX_PTHREAD_COUNT=1 "$work/pocl" bench/pocl/kernels.cl > "$work/pocl1.txt"
POCL_MAX_PTHREAD_COUNT=2 "$work/pocl" bench/pocl/kernels.cl > "$work/pocl2.txt"

field() { awk -v n="$1" -v f="$2" '$1 == n {print $f}' "$3"; }

echo "| kernel | serial -O2 (ms) | gpumem 1 (ms) | PoCL 1 (ms) | gpumem/PoCL 1 | gpumem 2 (ms) | PoCL 2 (ms) | gpumem/PoCL 2 | checksums |"
echo "|---|---|---|---|---|---|---|---|---|"
for name in $names; do
  one=$(GPUMEM_CPU_THREADS=1 "$work/$name")
  two=$(GPUMEM_CPU_THREADS=2 "$work/$name")
  g1=$(echo "$one" | sed -n 1p); g2=$(echo "$two" | sed -n 1p)
  check=$(echo "$one" | sed -n 2p)
  s=$(field "$name" 2 "$work/serial.txt")
  p1=$(field "$name" 2 "$work/pocl1.txt"); p2=$(field "$name" 2 "$work/pocl2.txt")
  c1=$(field "$name" 3 "$work/pocl1.txt"); c2=$(field "$name" 3 "$work/pocl2.txt")
  awk -v n="$name" -v s="$s" -v g1="$g1" -v g2="$g2" -v p1="$p1" -v p2="$p2" \
      -v c="$check" -v c1="$c1" -v c2="$c2" 'BEGIN {
    same = (c + 0 == c1 + 0 && c + 0 == c2 + 0) ? "equal (" c ")" : "MISMATCH " c " " c1 " " c2
    printf "| %s | %.3f | %.3f | %.3f | %.2fx | %.3f | %.3f | %.2fx | %s |\n",
      n, s * 1e3, g1 * 1e3, p1 * 1e3, g1 / p1, g2 * 1e3, p2 * 1e3, g2 / p2, same }'
done
echo
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); PoCL $(dpkg-query -W -f='${Version}' pocl-opencl-icd 2>/dev/null || echo '?'); $(date -u +%F)"
