#!/usr/bin/env bash
# Shows that the executed tests catch bugs in gpumem's AMD device lowering:
# for each of the rocm pipeline's AMD-specific steps, compiles the programs
# that should notice with that step left out (gpumem-rocm-emu-pipeline's
# test-omit-pass), runs them on the rocm-emu target for the chip named
# through mlir-runner, and compares their output with the same program's
# on rocm-emu with nothing left out. Prints one line per step, chip and
# program: "caught" when the output differs (the bug shows), "MISSED" when
# it does not; "BASELINE-DIFFERS" when the program does not print on
# rocm-emu what it prints on the cpu target and
# test/Target/ROCmEmu/Integration/unsupported.txt does not say why. Exits
# non-zero when a step is missed by every program, or a baseline differs.
#   scripts/inject-rocm-bugs.sh [build-dir]
#
# The steps, and why leaving each out shows on rocm-emu:
#   gpumem-read-dynamic-shared-size-rocdl  memref.dim of the dynamic LDS
#       buffer is 0 (upstream's descriptor): views of it are empty.
#   gpumem-private-allocas-for-rocdl  a dynamic-size private buffer stays an
#       alloca in address space 0, which the AMDGPU backend cannot select;
#       rocm-emu refuses it at compile time as the rocm target fails.
#   gpumem-rewrite-shuffles-for-rocdl  shuffles narrower than the wavefront
#       and `up` shuffles take upstream's segment semantics.
#   gpumem-promote-printf-args-for-nvvm  HIP's printf zero-extends an i8 or
#       i16 argument to 64 bits: a negative one prints as a large number.
#   gpumem-finalize-rocdl-kernels  a kernel without a flat workgroup size
#       gets the ROCDL translation's "1,256", so HIP refuses a launch of
#       more work-items (workgroup-1024.mlir, written for it). Its other
#       fixes (the dynamic LDS global's linkage, LDS alignment) matter to
#       the AMDGPU backend's layout, which rocm-emu makes its own way.
#   wavefront-subgroup-size  the front lowers gpu.subgroup_reduce for
#       32-lane subgroups on a 64-lane chip (gfx90a): clustered reductions
#       mix lanes of the wrong clusters.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
. "$root/scripts/gpu-programs.sh"

# step: the chip:program pairs that must notice it missing.
declare -A catchers=(
  [gpumem-read-dynamic-shared-size-rocdl]="gfx90a:test/Programs/dynamic-shared-memory.mlir"
  [gpumem-private-allocas-for-rocdl]="gfx90a:test/Programs/private-scratch.mlir"
  [gpumem-rewrite-shuffles-for-rocdl]="gfx1100:test/Programs/warp-shuffle-modes.mlir"
  [gpumem-promote-printf-args-for-nvvm]="gfx1100:test/Programs/gpu-printf.mlir"
  [gpumem-finalize-rocdl-kernels]="gfx90a:test/Target/ROCmEmu/Integration/workgroup-1024.mlir"
  [wavefront-subgroup-size]="gfx90a:test/Programs/subgroup-reduce-clustered.mlir"
)
steps="gpumem-read-dynamic-shared-size-rocdl gpumem-private-allocas-for-rocdl
  gpumem-rewrite-shuffles-for-rocdl gpumem-promote-printf-args-for-nvvm
  gpumem-finalize-rocdl-kernels wavefront-subgroup-size"

# Runs `program` with gpumem-rocm-emu-pipeline="options" through upstream's
# mlir-runner, as run_emulated does for cuda-emu.
run_rocm_emulated() { # build-dir program options
  local runner=${MLIR_RUNNER:-mlir-runner-22}
  command -v "$runner" >/dev/null || runner=/usr/lib/llvm-22/bin/mlir-runner
  local ir
  # A compile-time refusal is the program's output.
  ir=$("$1/bin/gpumem-opt" "$2" --gpumem-rocm-emu-pipeline="$3" 2>&1) || {
    echo "$ir"
    return
  }
  echo "$ir" | sed -e 's/#gpumem\.cpu\(<[^>]*>\)\{0,1\}/#rocdl.target/' |
    env ${GPUMEM_UPSTREAM_RUNNER_ENV:-} "$runner" -e main -entry-point-result=void \
      --shared-libs="$1/lib/libgpumem_cpu_runtime.so,$1/lib/libgpumem_runner_utils.so" 2>&1 |
    normalize_output "$2"
}

# One worker: the order of gpu.printf lines of different blocks is fixed.
export GPUMEM_CPU_THREADS=1
status=0
for step in $steps; do
  caught=0
  for pair in ${catchers[$step]}; do
    chip=${pair%%:*}
    name=${pair#*:}
    program=$root/$name
    mode=$(host_buffers_mode "$program")
    options="chip=$chip host-buffers=$mode"
    expected=$("$build/bin/gpumem-run" --target=cpu --host-buffers="$mode" "$program" 2>&1 | normalize_output "$program")
    baseline=$(run_rocm_emulated "$build" "$program" "$options")
    broken=$(run_rocm_emulated "$build" "$program" "$options test-omit-pass=$step")
    if [ "$baseline" != "$expected" ] &&
       [ -z "$(unsupported_reason "$root" "rocm-emu@$chip" "$program")" ]; then
      echo "BASELINE-DIFFERS $step $chip $(basename "$name")"
      status=1
    elif [ "$broken" != "$baseline" ]; then
      echo "caught $step $chip $(basename "$name")"
      caught=1
    else
      echo "MISSED $step $chip $(basename "$name")"
    fi
  done
  [ $caught = 1 ] || status=1
done
exit $status
