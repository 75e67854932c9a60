#!/usr/bin/env bash
# Runs every program of scripts/gpu-programs.sh with gpumem-run on the cpu
# and cuda targets and compares the (normalized) outputs. Needs MLIR and a
# CUDA device on the same machine; test/Integration/CUDA runs it.
#   scripts/compare-targets.sh [build-dir]
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
. "$root/scripts/gpu-programs.sh"
failed=0
for program in $(gpu_programs "$root"); do
  name=${program#$root/}
  mode=$(host_buffers_mode "$program")
  cpu=$("$build/bin/gpumem-run" --target=cpu --host-buffers="$mode" "$program" 2>&1 | normalize_output "$program")
  cuda=$("$build/bin/gpumem-run" --target=cuda --host-buffers="$mode" "$program" 2>&1 | normalize_output "$program")
  if [ "$cpu" = "$cuda" ]; then
    echo "match    $name"
  else
    echo "MISMATCH $name"
    diff <(echo "$cpu") <(echo "$cuda") | head -20
    failed=1
  fi
done
exit $failed
