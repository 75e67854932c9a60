# Sourced by the GPU validation scripts: the programs whose output on the
# cuda target must equal their output on the cpu target, and how outputs
# are normalized before comparing.
#
# Every example and every executed CPU integration test (managed memory and
# the synchronous data paths included), except those that expect an error
# (their RUN lines start with `not`: divergent barriers are undefined
# behaviour on a GPU, not an error) and those marked XFAIL.
gpu_programs() {
  local root=$1
  ls "$root"/examples/*.mlir
  for f in "$root"/test/Programs/*.mlir; do
    grep -q '^// RUN: not ' "$f" && continue
    grep -q '^// XFAIL:' "$f" && continue
    echo "$f"
  done
}

# Why `target` does not run `program` (a path under the repository) with
# the cpu target's output yet, from test/Target/<Target>/Integration/unsupported.txt
# (<Target> the target's folder: CPU, CUDA, CUDAEmu, ROCm, ROCmEmu, Vulkan);
# nothing when it does.
unsupported_reason() { # root target[@chip] program
  local folder chip=
  [ "$2" != "${2%@*}" ] && chip=${2#*@}
  case ${2%@*} in
    cpu) folder=CPU ;;
    cuda) folder=CUDA ;;
    cuda-emu) folder=CUDAEmu ;;
    rocm) folder=ROCm ;;
    rocm-emu) folder=ROCmEmu ;;
    vulkan) folder=Vulkan ;;
    *) return 0 ;;
  esac
  local list="$1/test/Target/$folder/Integration/unsupported.txt"
  [ -f "$list" ] || return 0
  # An entry names a program, or a program@chip for that chip alone.
  awk -v name="${3#$1/}" -v chip="$chip" \
    '$1 == name || (chip != "" && $1 == name "@" chip) {
       $1 = ""; sub(/^ +/, ""); print; exit }' "$list"
}

# How a program's host buffers reach its kernels: the --host-buffers=MODE
# of its RUN line, else copy (the tools' default; docs/memory.md).
host_buffers_mode() {
  local mode
  mode=$(sed -n 's/^\/\/ RUN:.*--host-buffers=\([a-z]*\).*/\1/p' "$1" | head -1)
  echo "${mode:-copy}"
}

# A program's output with gpumem-run's flags, stderr included; with
# scripts/output-cache.sh's cached_output, the scripts share it.
gpumem_run_output() { # build-dir flags... program
  local build=$1
  shift
  "$build/bin/gpumem-run" "$@" 2>&1
}

# printMemref prints buffer addresses; gpu.printf lines of different blocks
# have no fixed order on a GPU.
normalize_output() {
  local program=$1
  sed -E 's/base@ = 0x[0-9a-f]+/base@ = ADDR/' |
    if grep -q 'gpu.printf' "$program"; then sort; else cat; fi
}

# Runs `program` with gpumem-cuda-emu-pipeline="options" through upstream's
# mlir-runner (the runtimes are its drop-ins), for pipeline options that
# gpumem-run does not take.
run_emulated() { # build-dir program options
  local runner=${MLIR_RUNNER:-mlir-runner-22}
  command -v "$runner" >/dev/null || runner=/usr/lib/llvm-22/bin/mlir-runner
  "$1/bin/gpumem-opt" "$2" --gpumem-cuda-emu-pipeline="$3" 2>&1 |
    # mlir-runner does not know gpumem's dialect: the runtime never reads the
    # object's target attribute, so an upstream one stands in for it.
    sed -e 's/#gpumem\.cpu\(<[^>]*>\)\{0,1\}/#nvvm.target/' |
    env ${GPUMEM_UPSTREAM_RUNNER_ENV:-} "$runner" -e main -entry-point-result=void \
      --shared-libs="$1/lib/libgpumem_cpu_runtime.so,$1/lib/libgpumem_runner_utils.so" 2>&1
}
