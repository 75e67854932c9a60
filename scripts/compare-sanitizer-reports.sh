#!/bin/bash
# Runs each planted bug of test/Sanitizer (or the files given after the
# build directory and the two targets) with --sanitize on two targets and
# compares the reports: "same FILE (A B)" or "DIFFERENT FILE (A B)" with a
# diff. Addresses (0x...) are not compared; blocks run on one worker
# (GPUMEM_CPU_THREADS=1), so the first block to meet a bug is the same.
# $SANITIZE names the checks (--sanitize=$SANITIZE; all when unset).
#   scripts/compare-sanitizer-reports.sh BUILD cpu cuda-emu [FILE...]
#   scripts/compare-sanitizer-reports.sh BUILD cuda-emu rocm-emu:gfx1100
#   SANITIZE=memcheck scripts/compare-sanitizer-reports.sh BUILD cpu cuda-emu+device-log
set -u
build=$1 first=$2 second=$3
shift 3
here=$(cd "$(dirname "$0")/.." && pwd)
. "$here/scripts/output-cache.sh"
files=("$@")
[ ${#files[@]} -eq 0 ] && files=("$here"/test/Sanitizer/*.mlir)
checks=--sanitize${SANITIZE:+=$SANITIZE}
# A target is a word (cpu, cuda-emu) or TARGET:CHIP (rocm-emu:gfx1100),
# with +device-log for --sanitize-device-log (cuda-emu+device-log).
report() {
  local spec=${1%+device-log} extra=()
  [ "$spec" != "$1" ] && extra=(--sanitize-device-log)
  local target=${spec%%:*}
  [ "$target" != "$spec" ] && extra+=(--chip="${spec#*:}")
  # No planted bug runs for a second; one that hangs is cut off at 30 s,
  # and its report then differs.
  GPUMEM_CPU_THREADS=1 timeout 30 "$build/bin/gpumem-run" --target="$target" \
    "${extra[@]}" "$checks" "$2" 2>&1 | sed -E 's/0x[0-9a-f]+/0x.../g'
  echo "exit status ${PIPESTATUS[0]}"
}
for file in "${files[@]}"; do
  name=${file#"$here"/}
  # A report made before in this lit run is not made again
  # (scripts/output-cache.sh).
  if diff <(CACHE_CONTEXT="$build $checks" cached_output report "$first" "$file") \
    <(CACHE_CONTEXT="$build $checks" cached_output report "$second" "$file") >/tmp/compare-sanitizer.$$; then
    echo "same $name ($first $second)"
  else
    echo "DIFFERENT $name ($first $second)"
    cat /tmp/compare-sanitizer.$$
  fi
done
rm -f /tmp/compare-sanitizer.$$
