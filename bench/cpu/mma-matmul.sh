#!/usr/bin/env bash
# Tensor-core fragments on the cpu target against plain FMAs: a 1024^3 f16
# matmul with f32 accumulate written with gpu.subgroup_mma_* (mma-matmul.mlir)
# and the same written with loads and math.fma (fma-matmul.mlir), with 1 and
# 2 workers.
#   [RUNS=n] bench/cpu/mma-matmul.sh [build-dir]
# Builds both with gpumem-compile (kernels for this machine's CPU), runs each
# $RUNS times (default 11, bench/median.sh), interleaved, and prints a
# markdown table of the medians of each run's best-of-3 kernel time and the
# ratio of the fragment version to the FMA version. Target
# (docs/performance.md): within 2x. Figures only: nothing here asserts.
set -euo pipefail
cd "$(dirname "$0")/../.."
. bench/median.sh
build=$(cd "${1:-build}" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

names="mma-matmul fma-matmul"
for name in $names; do
  "$build/bin/gpumem-compile" --target=cpu --cpu=host "bench/cpu/$name.mlir" \
    -o "$work/$name"
done
for run in $(seq "$runs"); do
  run_gpumem "$work" $names
done

echo "| kernel | 1 worker (s) | 2 workers (s) | GFMA/s (1 worker) | check |"
echo "|---|---|---|---|---|"
for name in $names; do
  t1=$(median_field "$name" 2 "$work/gpumem1.txt")
  t2=$(median_field "$name" 2 "$work/gpumem2.txt")
  check=$(same_field "$name" 3 "$work/gpumem1.txt")
  awk -v n="$name" -v a="$t1" -v b="$t2" -v c="$check" \
    'BEGIN { printf "| %s | %.4g | %.4g | %.2f | %s |\n", n, a, b, 1073741824 / a / 1e9, c }'
done
awk -v a="$(median_field mma-matmul 2 "$work/gpumem1.txt")" \
    -v b="$(median_field fma-matmul 2 "$work/gpumem1.txt")" \
    'BEGIN { printf "\nfragments / FMAs, 1 worker: %.2fx\n", a / b }'
echo
echo "medians of $runs runs (RUNS=$runs), each the best of 3 launches"
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); $(date -u +%F)"
