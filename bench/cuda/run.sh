#!/usr/bin/env bash
# Runs gpumem's CUDA benchmarks on a machine with an NVIDIA GPU and prints
# markdown tables (docs/performance.md, "CUDA target" and
# "Host buffers: bandwidth by data path"). This file
# is copied into the directory bench/cuda/build.sh makes; run it from there:
#   <out-dir>/run.sh [runs]      runs: timed kernel runs (default 20)
# Everything it uses lies next to it (libraries in ./lib). Figures only:
# targets are reported as met / not met, never asserted. The exit status is
# 1 only when a benchmark fails to run or a kernel result mismatches.
set -uo pipefail
cd "$(dirname "$0")" || exit 1
runs=${1:-20}
status=0

if [ ! -x runtime-bench ] || [ ! -x kernel-bench ]; then
  echo "error: run.sh belongs in the directory made by bench/cuda/build.sh" >&2
  exit 1
fi

echo "# gpumem CUDA benchmarks"
echo
echo "date: $(date -u +%F)"
nvidia-smi --query-gpu=name,driver_version,compute_cap,clocks.max.sm \
  --format=csv,noheader 2>/dev/null | sed 's/^/gpu: /'
sed 's/^/build /' build-info.txt
echo

failures=$(mktemp)
errors=$(mktemp)
trap 'rm -f "$failures" "$errors"' EXIT
# Runs runtime-bench; its stdout, or nothing with a note on stderr (called
# in $(...), so a failure is recorded in a file, not a variable).
bench() {
  local output rc
  output=$(./runtime-bench "$@" 2> "$errors")
  rc=$?
  if [ $rc -eq 2 ]; then
    echo "note: runtime-bench $*: built without libgpumem_cuda_runtime.so" >&2
    return
  fi
  cat "$errors" >&2
  if [ $rc -ne 0 ]; then
    echo "error: runtime-bench $* failed (status $rc)" >&2
    echo "runtime-bench $*" >> "$failures"
  else
    echo "$output"
  fi
}
# fmt VALUE: the value, or "n/a" when empty.
fmt() { if [ -n "$1" ]; then echo "$1"; else echo "n/a"; fi; }
# ratio A B TARGET: "A/B x" and whether it is <= TARGET, or n/a.
ratio() {
  if [ -n "$1" ] && [ -n "$2" ]; then
    awk -v a="$1" -v b="$2" -v t="$3" \
      'BEGIN { r = a / b; printf "%.3fx (<= %sx: %s)", r, t, (r <= t ? "met" : "not met") }'
  else
    echo "n/a"
  fi
}

echo "## 1. Launch overhead: empty kernel, 1 x 32 threads, 100000 launches on one stream"
echo
plain=$(bench launch plain)
mgpu=$(bench launch mgpu)
p_submit=$(echo "$plain" | awk '$1 == "launch" {print $3}')
p_total=$(echo "$plain" | awk '$1 == "launch" {print $4}')
m_submit=$(echo "$mgpu" | awk '$1 == "launch" {print $3}')
m_total=$(echo "$mgpu" | awk '$1 == "launch" {print $4}')
echo "| path | submit (us/launch) | with synchronize (us/launch) |"
echo "|---|---|---|"
echo "| cuLaunchKernel (cuModuleLoadDataEx) | $(fmt "$p_submit") | $(fmt "$p_total") |"
echo "| mgpuLaunchKernel (mgpuModuleLoadJIT) | $(fmt "$m_submit") | $(fmt "$m_total") |"
echo "| mgpu / plain | $(ratio "$m_submit" "$p_submit" 1.1) | $(ratio "$m_total" "$p_total" 1.1) |"
echo
echo "Median of 5 repetitions after 1000 warm-up launches. \"submit\": the launch"
echo "loop alone; \"with synchronize\": up to the end of the stream synchronize."
echo

echo "## 2. Allocation throughput (allocate/free pairs per second)"
echo
alloc_plain=$(bench alloc plain)
alloc_mgpu=$(bench alloc mgpu)
echo "| size | pairs | mgpu, stream null | mgpu, stream-ordered | cuMemAlloc/cuMemFree | cuMemAllocAsync/cuMemFreeAsync |"
echo "|---|---|---|---|---|---|"
pick() { # output mode bytes -> pairs per second
  echo "$1" | awk -v m="$2" -v b="$3" '$1 == "alloc" && $3 == m && $4 == b {printf "%.0f", $6}'
}
for bytes in 256 65536 16777216; do
  pairs=$(printf '%s\n%s\n' "$alloc_plain" "$alloc_mgpu" |
          awk -v b="$bytes" '$1 == "alloc" && $4 == b {print $5; exit}')
  case $bytes in 256) size="256 B" ;; 65536) size="64 KiB" ;; *) size="16 MiB" ;; esac
  echo "| $size | $(fmt "$pairs") | $(fmt "$(pick "$alloc_mgpu" sync $bytes)") | $(fmt "$(pick "$alloc_mgpu" stream $bytes)") | $(fmt "$(pick "$alloc_plain" sync $bytes)") | $(fmt "$(pick "$alloc_plain" stream $bytes)") |"
done
echo
echo "The last two columns are the driver called directly, for reference."
echo

echo "## 3. Kernel time: gpumem against nvcc -O3"
echo
./kernel-bench kernels-nvcc.cubin kernels-gpumem.cubin "$runs" || status=1
echo

echo "## 4. Bandwidth: y = 3 x + y over 2 x 256 MiB, the data in device, managed or registered memory"
echo
if [ -x bandwidth-bench ]; then
  ./bandwidth-bench bandwidth-gpumem.cubin || status=1
else
  echo "n/a: bandwidth-bench was not built"
fi
echo

echo "## 5. gpumem-host-buffers-to-device modes end to end (same kernel, plain host buffers)"
echo
for mode in copy managed register; do
  if [ -x "bin/bandwidth-$mode" ]; then
    echo "### --host-buffers=$mode"
    echo '```'
    "bin/bandwidth-$mode" || { echo "error: bin/bandwidth-$mode failed" >&2; status=1; }
    echo '```'
  else
    echo "--host-buffers=$mode: not built"
  fi
done
[ -s "$failures" ] && status=1
exit $status
