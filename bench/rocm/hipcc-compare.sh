#!/usr/bin/env bash
# The rocm target's device code against AMD's compiler, statically (no AMD
# GPU is needed; docs/performance.md, "rocm target against hipcc"):
#   bench/rocm/hipcc-compare.sh [build-dir] [out-dir]
#     build-dir  gpumem's build (default build): bin/gpumem-opt, bin/gpumem-objects
#     out-dir    where both assemblies are kept (default <build-dir>/hipcc-compare)
# The kernels of bench/cuda/kernels.mlir (matmul, reduce, transpose) and
# bench/cuda/bandwidth.mlir (axpy) go through
#   gpumem-opt --gpumem-rocm-pipeline="chip=$CHIP"   (format=isa when the
#                                                     pipeline has that option)
# and their HIP C++ twins, bench/rocm/kernels.hip, through
#   hipcc --offload-arch=$CHIP -O3 --cuda-device-only -S
# and, to separate the LLVM release from the front end, hipcc's optimized
# device IR (-emit-llvm) through LLVM 22's backend, the one gpumem uses
# (opt -passes=amdgpu-attributor, then llc -O3): the rows "hipcc-ir+llc22".
# The assemblies are read by bench/rocm/amdgpu-asm-stats.py, which prints
# two markdown tables per kernel and compiler: resources (instructions, code
# bytes, VGPRs, SGPRs, AGPRs, spills, LDS and scratch bytes) and the inner
# loop (the largest innermost back-edge loop's instruction mix).
# Environment: CHIP (default gfx90a), HIPCC (default: hipcc on PATH),
# LLVM_BIN (default /usr/lib/llvm-22/bin: opt, llc, llvm-mc, llvm-readelf).
# Figures only; the exit status is 1 when a tool is missing or fails, or
# when a kernel's LDS bytes differ between the two compilers (the twins
# would then not be the same kernels). hipcc comes with `make bench-hipcc`.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
out=${2:-$build/hipcc-compare}
chip=${CHIP:-gfx90a}
llvm_bin=${LLVM_BIN:-/usr/lib/llvm-22/bin}
export LLVM_BIN=$llvm_bin

hipcc=${HIPCC:-$(command -v hipcc || true)}
if [ -z "$hipcc" ] || [ ! -x "$hipcc" ]; then
  echo "error: hipcc not found (HIPCC or PATH); make bench-hipcc installs" \
       "Debian's hipcc and runs this script" >&2
  exit 1
fi
for tool in gpumem-opt gpumem-objects; do
  [ -x "$build/bin/$tool" ] || { echo "error: $build/bin/$tool not found" >&2; exit 1; }
done
mkdir -p "$out"
out=$(cd "$out" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# 1. hipcc: the device assembly only (no host compile, no GPU query).
"$hipcc" --offload-arch="$chip" -O3 --cuda-device-only -S \
  -Wno-unused-command-line-argument \
  "$here/kernels.hip" -o "$out/hipcc.s"
"$hipcc" --offload-arch="$chip" -O3 --cuda-device-only -S -emit-llvm \
  -Wno-unused-command-line-argument \
  "$here/kernels.hip" -o "$out/hipcc.ll"
"$llvm_bin/opt" -mtriple=amdgcn-amd-amdhsa -mcpu="$chip" -passes=amdgpu-attributor \
  "$out/hipcc.ll" -o "$work/hipcc.bc"
"$llvm_bin/llc" -O3 -mtriple=amdgcn-amd-amdhsa -mcpu="$chip" "$work/hipcc.bc" \
  -o "$out/hipcc-ir+llc22.s"

# 2. gpumem: each module through the rocm pipeline, its object extracted.
# format=isa is asked for when the pipeline knows the option; without it
# the pipeline's only output is assembly.
pipeline="chip=$chip format=isa"
if ! "$build/bin/gpumem-opt" "$root/bench/cuda/bandwidth.mlir" \
     --gpumem-rocm-pipeline="$pipeline" -o /dev/null 2> "$work/probe.txt"; then
  if grep -q 'format' "$work/probe.txt"; then
    pipeline="chip=$chip"
  else
    cat "$work/probe.txt" >&2
    exit 1
  fi
fi
gpumem_files=()
for source in kernels bandwidth; do
  "$build/bin/gpumem-opt" "$root/bench/cuda/$source.mlir" \
    --gpumem-rocm-pipeline="$pipeline" -o "$work/$source.mlir"
  "$build/bin/gpumem-objects" extract "$work/$source.mlir" "$work/$source" > /dev/null
  object=$(grep -l '\.amdhsa_kernel' "$work/$source"/* | head -1 || true)
  if [ -z "$object" ]; then
    echo "error: the rocm object of bench/cuda/$source.mlir holds no AMDGPU" \
         "assembly (.amdhsa_kernel)" >&2
    exit 1
  fi
  cp "$object" "$out/gpumem-$source.s"
  gpumem_files+=("gpumem=$out/gpumem-$source.s")
done

# 3. The tables.
python3 "$here/amdgpu-asm-stats.py" --kernels matmul,reduce,transpose,axpy \
  "gpumem=$out/gpumem-kernels.s" "gpumem=$out/gpumem-bandwidth.s" \
  "hipcc=$out/hipcc.s" "hipcc-ir+llc22=$out/hipcc-ir+llc22.s" |
  tee "$out/figures.md"
echo
hip_version=$("$hipcc" --version 2>/dev/null | sed -n 's/^HIP version: //p' | head -1)
clang_version=$("$hipcc" --version 2>/dev/null | grep -m1 'clang version' || true)
llvm_version=$("$llvm_bin/llvm-config" --version 2>/dev/null || echo '?')
echo "chip $chip; gpumem: gpumem-opt --gpumem-rocm-pipeline=\"$pipeline\" (LLVM $llvm_version);" \
     "hipcc: HIP ${hip_version:-?}, ${clang_version:-clang ?}, hipcc --offload-arch=$chip -O3" \
     "--cuda-device-only -S; hipcc-ir+llc22: that -emit-llvm, then opt/llc $llvm_version;" \
     "rocm-device-libs" \
     "$(dpkg-query -W -f='${Version}' rocm-device-libs 2>/dev/null || echo '?');" \
     "$(date -u +%F)"
echo "assemblies: $out/{gpumem-kernels,gpumem-bandwidth,hipcc,hipcc-ir+llc22}.s"

# 4. The twins must use the same LDS, else they are not the same kernels.
lds() { # compiler kernel -> LDS bytes from the first table
  awk -F'|' -v c="$1" -v k="$2" \
    '{gsub(/ /, "", $2); gsub(/ /, "", $3); gsub(/ /, "", $10)}
     NF == 12 && $2 == k && $3 == c {print $10}' "$out/figures.md"
}
for kernel in matmul reduce transpose axpy; do
  if [ "$(lds gpumem "$kernel")" != "$(lds hipcc "$kernel")" ]; then
    echo "error: $kernel uses $(lds gpumem "$kernel") LDS bytes in gpumem's code" \
         "and $(lds hipcc "$kernel") in hipcc's" >&2
    exit 1
  fi
done
