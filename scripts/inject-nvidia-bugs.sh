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
tests=$root/test/Programs
. "$root/scripts/gpu-programs.sh"

# pass: the programs that must notice it missing.
declare -A catchers=(
  [gpumem-read-dynamic-shared-size-nvvm]="dynamic-shared-memory.mlir"
  [gpumem-rewrite-shuffle-up-for-nvvm]="warp-shuffle-modes.mlir"
  [gpumem-promote-printf-args-for-nvvm]="gpu-printf.mlir"
  [gpumem-finalize-nvvm-shared-memory]="dynamic-shared-memory.mlir dynamic-size-workgroup-allocs.mlir"
)

# One worker: the order of gpu.printf lines of different blocks is fixed.
export GPUMEM_CPU_THREADS=1
status=0
for pass in gpumem-read-dynamic-shared-size-nvvm gpumem-rewrite-shuffle-up-for-nvvm \
            gpumem-promote-printf-args-for-nvvm gpumem-finalize-nvvm-shared-memory; do
  caught=0
  for name in ${catchers[$pass]}; do
    program=$tests/$name
    expected=$("$build/bin/gpumem-run" --target=cpu "$program" 2>&1)
    baseline=$(run_emulated "$build" "$program" "host-buffers=copy")
    broken=$(run_emulated "$build" "$program" "host-buffers=copy test-omit-pass=$pass")
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
