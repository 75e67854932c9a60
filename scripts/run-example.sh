#!/usr/bin/env bash
# make run: compile the headline example (a tiled matmul whose shared tiles
# are plain workgroup memref.alloca inside the K loop) for sm_90 and show the
# shared memory each kernel really gets, as ptxas reports it when present.
# Running it on the CPU or a GPU arrives with the cpu and cuda targets.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
example=examples/tiled-matmul.mlir
out="$build/examples/tiled-matmul.sm_90.mlir"
mkdir -p "$(dirname "$out")"

echo "gpumem: $example -> sm_90 PTX (gpumem-cuda-pipeline)"
"$build/bin/gpumem-opt" "$example" \
  --gpumem-cuda-pipeline="chip=sm_90 format=isa" -o "$out"
echo "gpumem: shared memory declared in the PTX:"
"$build/bin/gpumem-objects" ptx "$out" | grep -E '^\s*\.shared' | sed 's/^\s*/  /'
echo "gpumem: shared memory per kernel:"
"$build/bin/gpumem-objects" smem "$out" | sed 's/^/  /'
if "$build/bin/gpumem-objects" ptx "$out" | grep -q '__local_depot'; then
  echo "gpumem: error: a per-thread __local_depot appeared in the PTX" >&2
  exit 1
fi
echo "gpumem: no per-thread stack buffer in the PTX: the tiles are real shared memory"
