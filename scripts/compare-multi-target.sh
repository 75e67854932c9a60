#!/usr/bin/env bash
# Compiles every program of scripts/gpu-programs.sh into one executable for
# cpu, cuda-emu, rocm-emu, vulkan, cuda and rocm (gpumem-compile
# --target=LIST; a target that refuses the program is left out of the list,
# and said), runs it with GPUMEM_TARGET set to each of those that can run
# here, and compares each run's (normalized) output with what gpumem-run
# prints for that target alone: the executable's copies must behave as the
# single-target programs do.
#   scripts/compare-multi-target.sh [build-dir] [program...]
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$root/build}" && pwd) || exit 2
shift || true
. "$root/scripts/gpu-programs.sh"
programs=("$@")
[ ${#programs[@]} -eq 0 ] && mapfile -t programs < <(gpu_programs "$root")
listing=$("$build/bin/gpumem-run" --list-targets) || exit 2
runnable=()
for target in cpu cuda-emu rocm-emu vulkan cuda rocm; do
  grep -q "^$target available" <<<"$listing" && runnable+=("$target")
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=0
for program in "${programs[@]}"; do
  name=${program#$root/}
  mode=$(host_buffers_mode "$program")
  list=(cpu cuda-emu rocm-emu vulkan cuda rocm)
  while :; do
    joined=$(IFS=,; echo "${list[*]}")
    if log=$("$build/bin/gpumem-compile" --target="$joined" \
        --host-buffers="$mode" "$program" -o "$work/program" 2>&1); then
      break
    fi
    refused=$(sed -n 's/.*compiling the program for the \(.*\) target failed/\1/p' <<<"$log")
    if [ -z "$refused" ]; then
      echo "FAILED   $name: gpumem-compile --target=$joined"
      echo "$log" | head -5
      failed=1
      continue 2
    fi
    echo "left out $name on $refused: $(grep -m1 'error:' <<<"$log")"
    list=("${list[@]/$refused}")
    mapfile -t list < <(printf '%s\n' "${list[@]}" | grep .)
  done
  verdict="match   "
  compared=()
  for target in "${list[@]}"; do
    [[ " ${runnable[*]} " == *" $target "* ]] || continue
    alone=$("$build/bin/gpumem-run" --target="$target" --host-buffers="$mode" \
      "$program" 2>&1 | normalize_output "$program")
    chosen=$(GPUMEM_TARGET=$target "$work/program" 2>&1 | normalize_output "$program")
    compared+=("$target")
    if [ "$alone" != "$chosen" ]; then
      verdict="MISMATCH"
      echo "--- $name on $target: gpumem-run vs the multi-target executable"
      diff <(echo "$alone") <(echo "$chosen") | head -20
      failed=1
    fi
  done
  echo "$verdict $name (executable for ${list[*]}; ran ${compared[*]})"
done
exit $failed
