#!/usr/bin/env bash
# The time report of `make test`.
#   scripts/test-times.sh start TIMES   forget earlier phases, note the
#                                       compiler cache's counters
#   scripts/test-times.sh report TIMES RESULTS.json...
# report prints every phase that scripts/phase.sh recorded in TIMES, their
# sum, the ten slowest lit tests of each lit results file (lit -o), and the
# compiler cache's hit rate since `start` (cmake/CompilerCache.cmake).
set -euo pipefail
command=$1 times=$2
shift 2
stats=$times.ccache
ccache_counters() {
  command -v ccache >/dev/null 2>&1 || return 0
  ccache --print-stats 2>/dev/null |
    awk '$1 ~ /^(direct_cache_hit|preprocessed_cache_hit|cache_miss)$/'
}
case $command in
start)
  mkdir -p "$(dirname "$times")"
  : >"$times"
  ccache_counters >"$stats"
  ;;
report)
  echo "gpumem: make test, time by phase"
  awk -F'\t' '{ printf "  %-24s %8.1f s%s\n", $1, $2, ($3 == 0 ? "" : "  (failed)")
                total += $2 }
              END { printf "  %-24s %8.1f s (%.1f min)\n", "total", total, total / 60 }' "$times"
  for results in "$@"; do
    [ -f "$results" ] || continue
    echo "gpumem: the ten slowest tests of $results"
    python3 - "$results" <<'PY'
import json, sys
tests = json.load(open(sys.argv[1]))["tests"]
for test in sorted(tests, key=lambda t: -t.get("elapsed", 0) or 0)[:10]:
    print("  %8.1f s  %s" % (test.get("elapsed") or 0, test["name"]))
PY
  done
  if command -v ccache >/dev/null 2>&1 && [ -f "$stats" ]; then
    ccache_counters | awk -v before="$stats" '
      BEGIN { while ((getline line < before) > 0) { split(line, f); old[f[1]] = f[2] } }
      { now[$1] = $2 - old[$1] }
      END { hits = now["direct_cache_hit"] + now["preprocessed_cache_hit"]
            all = hits + now["cache_miss"]
            if (all > 0) printf "gpumem: compiler cache: %d of %d compiles hit (%.0f%%)\n", hits, all, 100 * hits / all
            else print "gpumem: compiler cache: no compiles" }'
  else
    echo "gpumem: compiler cache: not in use (ccache not installed)"
  fi
  ;;
*)
  echo "test-times.sh: unknown command '$command'" >&2
  exit 2
  ;;
esac
