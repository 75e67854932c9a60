#!/usr/bin/env bash
# Builds the CUDA benchmarks (docs/performance.md, "CUDA target")
# here, where no GPU is needed, into one self-contained directory:
#   bench/cuda/build.sh [build-dir] [out-dir]
#     build-dir  gpumem's build (default build): bin/gpumem-opt,
#                bin/gpumem-objects and, when built, lib/libgpumem_cuda_runtime.so
#     out-dir    default <build-dir>/gpu-bench; emptied first
# Then, on the GPU machine, one command: <out-dir>/run.sh
#
# out-dir holds run.sh, runtime-bench (launch overhead, allocation),
# kernel-bench (kernel time against nvcc), kernels-nvcc.cubin (nvcc -O3),
# kernels-gpumem.cubin (gpumem-opt --gpumem-cuda-pipeline), bandwidth-bench
# and bandwidth-gpumem.cubin (where the data lives: device, copies, managed,
# registered), bin/bandwidth-{copy,managed,register} (bandwidth-modes.mlir
# compiled by gpumem-compile with each --host-buffers mode, when
# bin/gpumem-compile and the runtime exist), lib/ with the gpumem runtime
# and runner utilities, and build-info.txt. Every path is relative to run.sh, so
# the directory can go anywhere, e.g. inside the bundle of
# scripts/validate-gpu.sh (build that first: it empties its bundle):
#   scripts/validate-gpu.sh build build/gpu-bundle
#   bench/cuda/build.sh build build/gpu-bundle/bench
#
# Without libgpumem_cuda_runtime.so in build-dir/lib, runtime-bench is built
# with -DGPUMEM_NO_RUNTIME and run.sh reports only the plain driver figures.
# Checks made here: the empty kernel's PTX and both cubins assemble, the
# gpumem kernels use the designed static shared memory (ptxas -v: matmul
# 2048 bytes, reduce 1024, transpose 1088) and both cubins declare the same
# .nv.shared sections. Environment: CHIP (default sm_90), CXX (default g++),
# GPUMEM_CUDA_RUNTIME (the runtime library to link instead of
# build-dir/lib/libgpumem_cuda_runtime.so, e.g. from another build).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
out=${2:-$build/gpu-bench}
chip=${CHIP:-sm_90}
cxx=${CXX:-g++}

find_cuda_tool() { # name -> path or nothing
  local dir
  for dir in "${CUDA_HOME:-}" "${CUDA_PATH:-}" /usr/local/cuda; do
    if [ -n "$dir" ] && [ -x "$dir/bin/$1" ]; then echo "$dir/bin/$1"; return; fi
  done
  command -v "$1" || true
}
nvcc=$(find_cuda_tool nvcc)
ptxas=$(find_cuda_tool ptxas)
cuobjdump=$(find_cuda_tool cuobjdump)
runtime=${GPUMEM_CUDA_RUNTIME:-$build/lib/libgpumem_cuda_runtime.so}
for tool in gpumem-opt gpumem-objects; do
  [ -x "$build/bin/$tool" ] || { echo "error: $build/bin/$tool not found" >&2; exit 1; }
done

rm -rf "$out"
mkdir -p "$out/lib"
out=$(cd "$out" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# 1. Harnesses: the driver through dlopen; runtime-bench links the gpumem
# runtime, found at run time in ./lib (or ../lib inside a validation bundle).
"$cxx" -std=c++17 -O2 -Wall -o "$out/kernel-bench" "$here/kernel-bench.cpp" -ldl
"$cxx" -std=c++17 -O2 -Wall -o "$out/bandwidth-bench" "$here/bandwidth-bench.cpp" -ldl
if [ -f "$runtime" ]; then
  # shellcheck disable=SC2016 # $ORIGIN is for the linker, not the shell
  "$cxx" -std=c++17 -O2 -Wall -o "$out/runtime-bench" "$here/runtime-bench.cpp" \
    -L"$(dirname "$runtime")" -lgpumem_cuda_runtime \
    -Wl,-rpath,'$ORIGIN/lib:$ORIGIN/../lib' -ldl
  cp "$runtime" "$out/lib/"
  # Any other gpumem library the runtime needs travels with it.
  for needed in $(readelf -d "$runtime" | sed -n 's/.*(NEEDED).*\[\(libgpumem[^]]*\)\]/\1/p'); do
    cp "$(dirname "$runtime")/$needed" "$out/lib/"
  done
  runtime_state="linked ($runtime)"
else
  echo "note: $runtime does not exist yet: runtime-bench is built without it" \
       "(-DGPUMEM_NO_RUNTIME); run.sh will report the plain driver figures only" >&2
  "$cxx" -std=c++17 -O2 -Wall -DGPUMEM_NO_RUNTIME -o "$out/runtime-bench" \
    "$here/runtime-bench.cpp" -ldl
  runtime_state="not built: -DGPUMEM_NO_RUNTIME, mgpu figures unavailable"
fi

# 2. The empty kernel's PTX assembles.
"$out/runtime-bench" ptx > "$work/empty.ptx"
if [ -n "$ptxas" ]; then
  "$ptxas" -arch=sm_90 "$work/empty.ptx" -o "$work/empty.cubin"
  echo "empty kernel PTX: assembles with ptxas (sm_90)"
else
  echo "empty kernel PTX: not checked (no ptxas)"
fi

# 3. The nvcc cubin.
if [ -n "$nvcc" ]; then
  "$nvcc" -O3 -arch="$chip" -cubin -Xptxas -v "$here/kernels.cu" \
    -o "$out/kernels-nvcc.cubin" 2> "$out/ptxas-nvcc.txt"
  nvcc_state=$("$nvcc" --version | tail -2 | head -1)
else
  echo "error: nvcc not found (CUDA_HOME, /usr/local/cuda, PATH): no nvcc cubin" >&2
  exit 1
fi

# 4. The gpumem cubin, and its shared memory from the PTX of the same pipeline.
"$build/bin/gpumem-opt" "$here/kernels.mlir" \
  --gpumem-cuda-pipeline="chip=$chip format=bin" -o "$work/bin.mlir"
"$build/bin/gpumem-objects" extract "$work/bin.mlir" "$work/objects" > /dev/null
cp "$work/objects/gpumem_bench.$chip.cubin" "$out/kernels-gpumem.cubin"
"$build/bin/gpumem-opt" "$here/kernels.mlir" \
  --gpumem-cuda-pipeline="chip=$chip format=isa" -o "$work/isa.mlir"
"$build/bin/gpumem-objects" smem "$work/isa.mlir" > "$out/smem-gpumem.txt"
cat "$out/smem-gpumem.txt"
smem_state="checked by ptxas -v: matmul 2048, reduce 1024, transpose 1088 bytes"
if grep -q 'ptxas -v' "$out/smem-gpumem.txt"; then
  for expected in matmul:2048 reduce:1024 transpose:1088; do
    kernel=${expected%:*} bytes=${expected#*:}
    grep -q "::$kernel: $bytes bytes shared memory" "$out/smem-gpumem.txt" || {
      echo "error: gpumem kernel $kernel does not use $bytes bytes of shared memory" >&2
      exit 1
    }
  done
else
  smem_state="not checked per kernel (no ptxas)"
fi

# 5. Both cubins: the same static shared memory per kernel (the .nv.shared.*
# section sizes, which on sm_90 include 1 KiB the driver reserves).
shared_sections() {
  readelf -S -W "$1" 2>/dev/null |
    awk '{for (i = 1; i <= NF; ++i) if ($i ~ /^\.nv\.shared\./ && $i !~ /reserved/) print $i, $(i + 4)}' |
    while read -r name hex; do echo "${name#.nv.shared.}=$((16#$hex))"; done | sort
}
shared_sections "$out/kernels-nvcc.cubin" > "$work/nvcc.shared"
shared_sections "$out/kernels-gpumem.cubin" > "$work/gpumem.shared"
if [ -s "$work/nvcc.shared" ] && cmp -s "$work/nvcc.shared" "$work/gpumem.shared"; then
  echo "cubins: same .nv.shared section sizes: $(tr '\n' ' ' < "$work/gpumem.shared")"
else
  echo "error: the cubins' .nv.shared sections differ:" >&2
  diff "$work/nvcc.shared" "$work/gpumem.shared" >&2 || true
  exit 1
fi
if [ -n "$cuobjdump" ]; then
  for which in nvcc gpumem; do
    "$cuobjdump" -res-usage "$out/kernels-$which.cubin" > "$out/res-usage-$which.txt"
  done
  echo "cuobjdump -res-usage: res-usage-nvcc.txt, res-usage-gpumem.txt"
fi

# 6. The bandwidth kernel (bandwidth-bench), and the pass's modes end to end:
# the same kernel on plain host buffers, compiled once per --host-buffers
# mode into executables that need only lib/.
"$build/bin/gpumem-opt" "$here/bandwidth.mlir" \
  --gpumem-cuda-pipeline="chip=$chip format=bin" -o "$work/bandwidth.mlir"
"$build/bin/gpumem-objects" extract "$work/bandwidth.mlir" "$work/bandwidth" > /dev/null
cp "$work/bandwidth/gpumem_bandwidth.$chip.cubin" "$out/bandwidth-gpumem.cubin"
utils=$(dirname "$runtime")/libgpumem_runner_utils.so
if [ -x "$build/bin/gpumem-compile" ] && [ -f "$runtime" ] && [ -f "$utils" ]; then
  mkdir -p "$out/bin"
  cp "$utils" "$out/lib/"
  for mode in copy managed register; do
    "$build/bin/gpumem-compile" --target=cuda --chip="$chip" --host-buffers="$mode" \
      "$here/bandwidth-modes.mlir" -o "$out/bin/bandwidth-$mode"
  done
  modes_state="bin/bandwidth-{copy,managed,register} (gpumem-compile --host-buffers=MODE)"
else
  echo "note: no gpumem-compile, runtime or runner utilities in $build: the" \
       "--host-buffers mode programs are not built" >&2
  modes_state="not built"
fi

cp "$here/run.sh" "$out/run.sh"
chmod +x "$out/run.sh"
cat > "$out/build-info.txt" <<INFO
built: $(date -u +%F) on $(hostname)
chip: $chip
nvcc: $nvcc_state (nvcc -O3 -arch=$chip -cubin)
gpumem: gpumem-opt --gpumem-cuda-pipeline="chip=$chip format=bin"
gpumem shared memory: $smem_state
runtime: $runtime_state
bandwidth kernel: gpumem-opt --gpumem-cuda-pipeline="chip=$chip format=bin" (bandwidth.mlir)
host-buffers modes: $modes_state
INFO
echo "benchmarks ready: $out (runtime $runtime_state)"
echo "on the GPU machine: $out/run.sh"
