#!/usr/bin/env bash
# Build and test time from the developer's side (docs/performance.md,
# "Build and test time"):
#   cold         a fresh clone of HEAD with an empty compiler cache
#   warm         a second fresh clone, in another folder, with the cache the
#                cold one filled
#   pass edit    in the warm clone, one line of a pass changed: rebuild and
#                run that pass's lit tests
#   runtime edit the same for a file of the cpu runtime and its tests
#   scripts/time-build.sh [--goal build|test] [--skip-cold] [--keep]
# --goal says what the cold and warm clones run: `make build` or `make
# test` (the default). The cache lives in a folder of its own
# ($WORK/ccache), so the user's cache is neither used nor cleared;
# --skip-cold reuses the one an earlier run left (with --keep) for a warm
# run alone. Prints one line per measurement; the clones' own output goes
# to $WORK/*.log. WORK defaults to a new folder under /tmp.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
goal=test skip_cold=0 keep=0
while [ $# -gt 0 ]; do
  case $1 in
  --goal) goal=$2; shift 2 ;;
  --skip-cold) skip_cold=1; shift ;;
  --keep) keep=1; shift ;;
  *) echo "time-build.sh: unknown option '$1'" >&2; exit 2 ;;
  esac
done
case $goal in build | test) ;; *) echo "time-build.sh: --goal is build or test" >&2; exit 2 ;; esac
work=${WORK:-$(mktemp -d /tmp/gpumem-time-build.XXXXXX)}
mkdir -p "$work"
export CCACHE_DIR=$work/ccache
[ "$keep" = 1 ] || trap 'rm -rf "$work"/cold "$work"/warm' EXIT

# seconds LOG COMMAND...: runs COMMAND with its output in LOG, prints its
# wall-clock seconds.
seconds() {
  local log=$1 start=$EPOCHREALTIME
  shift
  "$@" >"$log" 2>&1 || { echo "time-build.sh: failed: $* (see $log)" >&2; return 1; }
  awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.0f", b - a }'
}
report() { printf '%-14s %6s s  (%s)\n' "$1" "$2" "$3"; }
clone() { rm -rf "$work/$1"; git clone -q "$root" "$work/$1"; }

echo "gpumem build and test time, $(git -C "$root" rev-parse --short HEAD), $(nproc) cores, make $goal"
if [ "$skip_cold" = 0 ]; then
  rm -rf "$CCACHE_DIR"
  clone cold
  report cold "$(seconds "$work/cold.log" make -C "$work/cold" "$goal")" "make $goal, empty cache"
  rm -rf "$work/cold"
fi
clone warm
report warm "$(seconds "$work/warm.log" make -C "$work/warm" "$goal")" "make $goal, cache kept"

# An edit, a rebuild of the release build, and the lit tests that cover it
# (lit --filter FILTER).
edit_and_test() { # name file filter
  local name=$1 file=$2 filter=$3
  # Code, not a comment: a comment alone is a cache hit.
  echo "[[maybe_unused]] static int timeBuildEdit = 1;" >>"$work/warm/$file"
  report "$name" "$(seconds "$work/$name.log" sh -c "cd '$work/warm' && cmake --build build &&
    /usr/lib/llvm-22/bin/lit -q --filter '$filter' build/test")" \
    "$file; lit --filter '$filter'"
}
edit_and_test "pass edit" lib/Transforms/HoistWorkgroupAllocs.cpp 'hoist-workgroup-allocs'
edit_and_test "runtime edit" runtime/cpu/Launch.cpp 'Programs/(grid-block-3d|concurrent-kernels|dynamic-shared-memory)\.mlir'

