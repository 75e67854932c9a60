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
. "$root/scripts/output-cache.sh"
failed=0
for program in $(gpu_programs "$root"); do
  name=${program#$root/}
  mode=$(host_buffers_mode "$program")
  # A program cuda-emu lists as not comparable with the cpu target (the
  # cpu target cannot run it yet) is compared with cuda-emu's coroutines.
  # (The reference run is the one compare-targets.sh makes: within one
  # lit run it is made once, scripts/output-cache.sh.)
  reference=cpu
  [ -n "$(unsupported_reason "$root" cuda-emu "$program")" ] && reference=cuda-emu
  cpu=$(cached_output gpumem_run_output "$build" --target=$reference \
    --host-buffers="$mode" "$program" | normalize_output "$program")
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
