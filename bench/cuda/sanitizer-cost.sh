#!/usr/bin/env bash
# What --sanitize=memcheck costs in the NVIDIA device code, measured here
# without a GPU: each bench/cpu kernel (elementwise, reduction, matmul,
# transpose) lowered by gpumem-opt --gpumem-cuda-pipeline to PTX without and
# with sanitize=memcheck, then per kernel the PTX instructions (lines of its
# body that are instructions, not labels or directives) and what ptxas -v
# says for the chip: registers and stack frame bytes. Prints a markdown
# table; figures only, nothing is asserted. Needs ptxas ($CUDA_HOME,
# $CUDA_PATH, /usr/local/cuda or $PATH); without one it prints the PTX
# counts alone.
#   bench/cuda/sanitizer-cost.sh [build-dir] [chip]
set -euo pipefail
cd "$(dirname "$0")/../.."
build=$(cd "${1:-build}" && pwd)
chip=${2:-sm_90}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
ptxas=""
for candidate in "${CUDA_HOME:-}/bin/ptxas" "${CUDA_PATH:-}/bin/ptxas" \
  /usr/local/cuda/bin/ptxas "$(command -v ptxas || true)"; do
  if [ -x "$candidate" ]; then ptxas=$candidate; break; fi
done

# ptx NAME OPTIONS: the PTX of bench/cpu/NAME.mlir into $work/NAME.OPTIONS.ptx
ptx() {
  local sanitize=""
  [ "$2" = memcheck ] && sanitize=" sanitize=memcheck"
  "$build/bin/gpumem-opt" "bench/cpu/$1.mlir" \
    --gpumem-cuda-pipeline="chip=$chip format=isa$sanitize" |
    "$build/bin/gpumem-objects" ptx - >"$work/$1.$2.ptx"
}

# Instructions of each .entry of a PTX file: "kernel count" lines.
instructions() {
  awk '/^\.visible \.entry|^\.entry/ { name = $3; sub(/\(.*/, "", name) }
       /^\{/ && name != "" { inside = 1; next }
       /^\}/ && inside { print name, count; inside = 0; count = 0; name = "" }
       inside && $0 ~ /^[ \t]+[@a-z]/ && $0 !~ /^[ \t]+\./ { count++ }' "$1"
}

# registers and stack bytes of `kernel` from ptxas -v on a PTX file.
resources() {
  "$ptxas" -arch="$chip" -v "$1" -o "$work/out.cubin" 2>&1 |
    awk -v k="$2" '/Compiling entry function/ { on = index($0, "'\''" k "'\''") > 0 }
      on && /bytes stack frame/ { stack = $5 }
      on && /Used [0-9]+ registers/ { for (i = 1; i <= NF; ++i) if ($i == "Used") regs = $(i + 1); print regs, stack; on = 0 }'
}

echo "| kernel | PTX instructions | with memcheck | registers | with memcheck | stack bytes | with memcheck |"
echo "|---|---|---|---|---|---|---|"
for name in elementwise reduction matmul transpose; do
  ptx "$name" plain
  ptx "$name" memcheck
  while read -r kernel plain; do
    checked=$(instructions "$work/$name.memcheck.ptx" | awk -v k="$kernel" '$1 == k { print $2 }')
    if [ -n "$ptxas" ]; then
      read -r regs stack < <(resources "$work/$name.plain.ptx" "$kernel")
      read -r regsChecked stackChecked < <(resources "$work/$name.memcheck.ptx" "$kernel")
    else
      regs="-" stack="-" regsChecked="-" stackChecked="-"
    fi
    echo "| $name/$kernel | $plain | $checked | $regs | $regsChecked | $stack | $stackChecked |"
  done < <(instructions "$work/$name.plain.ptx")
done
[ -n "$ptxas" ] && echo "ptxas: $ptxas, $chip" || echo "ptxas: none found (register and stack columns empty)"
