#!/usr/bin/env bash
# make run: the headline example, a tiled matmul whose shared tiles are plain
# workgroup memref.alloca inside the K loop.
#  1. Run it: on an NVIDIA GPU when one is usable (and gpumem's CUDA runtime
#     is built), else on the CPU target, with faithful GPU semantics.
#  2. Run the sm_90 device code of the same program on CPU cores
#     (--target=cuda-emu), unless it already ran on a GPU.
#  3. Show the shared memory the sm_90 kernel really gets (ptxas -v when
#     ptxas is present), proof that the tiles are .shared and not a
#     per-thread stack buffer.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
example=examples/tiled-matmul.mlir

target=cpu
if [ -e "$build/lib/libgpumem_cuda_runtime.so" ] && \
   command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then
  target=cuda
fi
echo "gpumem: running $example on the $target target"
"$build/bin/gpumem-run" --target=$target "$example"
if [ $target = cpu ]; then
  echo "gpumem: running its NVIDIA (sm_90) device code on CPU cores (--target=cuda-emu)"
  "$build/bin/gpumem-run" --target=cuda-emu "$example"
fi

out="$build/examples/tiled-matmul.sm_90.mlir"
mkdir -p "$(dirname "$out")"
echo "gpumem: the same program compiled for sm_90 (gpumem-cuda-pipeline):"
"$build/bin/gpumem-opt" "$example" \
  --gpumem-cuda-pipeline="chip=sm_90 format=isa" -o "$out"
ptx=$("$build/bin/gpumem-objects" ptx "$out")
echo "$ptx" | grep -E '^\s*\.shared' | sed 's/^\s*/  PTX: /'
"$build/bin/gpumem-objects" smem "$out" | sed 's/^/  /'
if echo "$ptx" | grep -q '__local_depot'; then
  echo "gpumem: error: a per-thread __local_depot appeared in the PTX" >&2
  exit 1
fi
echo "gpumem: no per-thread stack buffer in the PTX: the tiles are real shared memory"
