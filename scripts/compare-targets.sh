#!/usr/bin/env bash
# Runs every program of scripts/gpu-programs.sh with gpumem-run on each of
# the given targets and compares the (normalized) outputs with the first
# target's. Needs MLIR; the cuda target needs a CUDA device on the same
# machine. test/Target/CUDA/Integration runs it for cpu and cuda,
# test/Target/CUDAEmu/Integration for cpu and cuda-emu,
# test/Target/Vulkan/Integration for cpu and vulkan, over the programs of
# test/Programs. A program a target lists in
# test/Target/<Target>/Integration/unsupported.txt is reported as skipped
# there, and fails the run once it matches.
# A target written cpu+sanitize runs with --sanitize (test/Sanitizer).
#   scripts/compare-targets.sh [build-dir] [target...]   (default: cpu cuda)
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(cpu cuda)
. "$root/scripts/gpu-programs.sh"
failed=0
for program in $(gpu_programs "$root"); do
  name=${program#$root/}
  mode=$(host_buffers_mode "$program")
  reference=""
  compared=0
  verdict="match   "
  for target in "${targets[@]}"; do
    # TARGET+sanitize: the target with --sanitize (its reports would differ).
    flags=(--target="${target%+sanitize}")
    [ "$target" != "${target%+sanitize}" ] && flags+=(--sanitize)
    output=$("$build/bin/gpumem-run" "${flags[@]}" --host-buffers="$mode" "$program" 2>&1 | normalize_output "$program")
    reason=$(unsupported_reason "$root" "$target" "$program")
    if [ -n "$reference" ] && [ -n "$reason" ]; then
      # Listed as not running there yet: say so, and fail once it does.
      if [ "$output" = "$reference" ]; then
        echo "UNEXPECTED match of $name on $target, listed as unsupported: $reason"
        failed=1
      else
        echo "skip     $name on $target: $reason"
      fi
      continue
    fi
    compared=$((compared + 1))
    if [ -z "$reference" ]; then
      reference=$output
      first=$target
    elif [ "$output" != "$reference" ]; then
      verdict="MISMATCH"
      echo "--- $name: $first vs $target"
      diff <(echo "$reference") <(echo "$output") | head -20
      failed=1
    fi
  done
  # The first target alone compares nothing.
  [ "$compared" -gt 1 ] && echo "$verdict $name (${targets[*]})"
done
exit $failed
