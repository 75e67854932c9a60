#!/usr/bin/env bash
# Shows that the executed tests catch bugs in gpumem's NVIDIA device
# lowering: for each of gpumem's NVIDIA passes, compiles the programs that
# should notice with that pass left out (gpumem-cuda-emu-pipeline's
# test-omit-pass), runs them on the cuda-emu target through mlir-runner,
# and compares their output with the cpu target's. Prints one line per
# pass and program: "caught" when the output differs (the bug shows), "MISSED"
# when it does not; exits non-zero when a pass is missed by every program.
#   scripts/inject-nvidia-bugs.sh [build-dir]
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
tests=$root/test/Integration/CPU
runner=${MLIR_RUNNER:-mlir-runner-22}
command -v "$runner" >/dev/null || runner=/usr/lib/llvm-22/bin/mlir-runner

# pass: the programs that must notice it missing.
declare -A catchers=(
  [gpumem-read-dynamic-shared-size-nvvm]="dynamic-shared-memory.mlir"
  [gpumem-rewrite-shuffle-up-for-nvvm]="warp-shuffle-modes.mlir"
  [gpumem-promote-printf-args-for-nvvm]="gpu-printf.mlir"
  [gpumem-finalize-nvvm-shared-memory]="dynamic-shared-memory.mlir dynamic-size-workgroup-allocs.mlir"
)

run_emulated() { # program omitted-pass
  "$build/bin/gpumem-opt" "$1" \
      --gpumem-cuda-emu-pipeline="host-buffers=copy test-omit-pass=$2" 2>&1 |
    # mlir-runner does not know gpumem's dialect: the runtime never reads the
    # object's target attribute, so an upstream one stands in for it.
    sed -e 's/#gpumem\.cpu\(<[^>]*>\)\{0,1\}/#nvvm.target/' |
    "$runner" -e main -entry-point-result=void \
      --shared-libs="$build/lib/libgpumem_cpu_runtime.so,$build/lib/libgpumem_runner_utils.so" 2>&1
}

# One worker: the order of gpu.printf lines of different blocks is fixed.
export GPUMEM_CPU_THREADS=1
status=0
for pass in gpumem-read-dynamic-shared-size-nvvm gpumem-rewrite-shuffle-up-for-nvvm \
            gpumem-promote-printf-args-for-nvvm gpumem-finalize-nvvm-shared-memory; do
  caught=0
  for name in ${catchers[$pass]}; do
    program=$tests/$name
    expected=$("$build/bin/gpumem-run" --target=cpu "$program" 2>&1)
    baseline=$(run_emulated "$program" "")
    broken=$(run_emulated "$program" "$pass")
    if [ "$baseline" != "$expected" ]; then
      echo "BASELINE-DIFFERS $pass $name"
      status=1
    elif [ "$broken" != "$expected" ]; then
      echo "caught $pass $name"
      caught=1
    else
      echo "MISSED $pass $name"
    fi
  done
  [ $caught = 1 ] || status=1
done
exit $status
