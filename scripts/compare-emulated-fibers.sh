#!/usr/bin/env bash
# Runs every program of scripts/gpu-programs.sh on the cuda-emu target with
# its synchronizing kernels on fibers (coroutines=false) instead of
# coroutines, and compares the (normalized) output with the cpu target's
# (with cuda-emu's own coroutine run for a program its unsupported.txt
# lists): both ways of running NVVM kernels stay tested.
#   scripts/compare-emulated-fibers.sh [build-dir]
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
. "$root/scripts/gpu-programs.sh"
failed=0
for program in $(gpu_programs "$root"); do
  name=${program#$root/}
  mode=$(host_buffers_mode "$program")
  # A program cuda-emu lists as not comparable with the cpu target (the
  # cpu target cannot run it yet) is compared with cuda-emu's coroutines.
  if [ -n "$(unsupported_reason "$root" cuda-emu "$program")" ]; then
    cpu=$("$build/bin/gpumem-run" --target=cuda-emu --host-buffers="$mode" "$program" 2>&1 | normalize_output "$program")
  else
    cpu=$("$build/bin/gpumem-run" --target=cpu --host-buffers="$mode" "$program" 2>&1 | normalize_output "$program")
  fi
  fibers=$(run_emulated "$build" "$program" "host-buffers=$mode coroutines=false" | normalize_output "$program")
  if [ "$cpu" = "$fibers" ]; then
    echo "match    $name"
  else
    echo "MISMATCH $name"
    diff <(echo "$cpu") <(echo "$fibers") | head -20
    failed=1
  fi
done
exit $failed
