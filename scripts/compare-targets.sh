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
# A target written cpu+sanitize runs with --sanitize (test/Sanitizer),
# cuda-emu+device-log with --sanitize=memcheck --sanitize-device-log (the
# cuda target's checks in the device code), one written rocm-emu@gfx1100
# with --chip=gfx1100; compared with the same target without them, it skips
# no program of the unsupported list.
# The targets and which of them run here are what `gpumem-run
# --list-targets` of the build says: a target it does not name, or names
# unavailable, is an error (exit 2) before any program runs.
#   scripts/compare-targets.sh [build-dir] [target...]
#   (default: cpu, then every other target available here)
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$root/build}" && pwd) || exit 2
shift || true
targets=("$@")
. "$root/scripts/gpu-programs.sh"
. "$root/scripts/output-cache.sh"

# "<target> available[: ...]" or "<target> unavailable: why", one a line.
listing=$("$build/bin/gpumem-run" --list-targets) || {
  echo "compare-targets.sh: error: $build/bin/gpumem-run --list-targets failed" >&2
  exit 2
}
declare -A known=()
available=()
while read -r name state; do
  known[$name]=$state
  [ "${state%%:*}" = available ] && available+=("$name")
done <<<"$listing"
if [ ${#targets[@]} -eq 0 ]; then
  # cpu runs everywhere and is the reference the others are compared with.
  targets=(cpu)
  for name in "${available[@]}"; do
    [ "$name" = cpu ] || targets+=("$name")
  done
fi
for target in "${targets[@]}"; do
  name=${target%+sanitize}
  name=${name%+device-log}
  name=${name%@*}
  state=${known[$name]-}
  if [ -z "$state" ]; then
    echo "compare-targets.sh: error: unknown target '$name'; gpumem-run knows: $(printf '%s\n' "$listing" | cut -d' ' -f1 | paste -sd' ')" >&2
    exit 2
  elif [ "${state%%:*}" != available ]; then
    echo "compare-targets.sh: error: target $name ${state%%; ptxas *}" >&2
    exit 2
  fi
done
failed=0
# The target without +sanitize or +device-log.
unchecked() {
  local target=${1%+sanitize}
  echo "${target%+device-log}"
}
for program in $(gpu_programs "$root"); do
  name=${program#$root/}
  mode=$(host_buffers_mode "$program")
  reference=""
  compared=0
  verdict="match   "
  for target in "${targets[@]}"; do
    # TARGET+sanitize: the target with --sanitize (its reports would differ);
    # TARGET@CHIP: the target compiling for CHIP.
    base=$(unchecked "$target")
    flags=(--target="${base%@*}")
    [ "$target" = "$base+sanitize" ] && flags+=(--sanitize)
    [ "$target" = "$base+device-log" ] && flags+=(--sanitize=memcheck --sanitize-device-log)
    [ "$base" != "${base%@*}" ] && flags+=(--chip="${base#*@}")
    # (A run made before in this lit run is not made again.)
    output=$(cached_output gpumem_run_output "$build" "${flags[@]}" \
      --host-buffers="$mode" "$program" | normalize_output "$program")
    reason=$(unsupported_reason "$root" "$target" "$program")
    # The same target with --sanitize is compared with its own output: the
    # list's reasons, about the cpu target's output, do not apply.
    [ -n "$reference" ] && [ "$base" = "$(unchecked "$first")" ] && reason=""
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
