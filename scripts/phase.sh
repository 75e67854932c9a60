#!/usr/bin/env bash
# Runs one phase of `make test` and records how long it took.
#   scripts/phase.sh TIMES NAME COMMAND [ARG...]
# Appends "NAME<TAB>SECONDS<TAB>STATUS" to the file TIMES, prints the same
# line, and exits with COMMAND's status. scripts/test-times.sh report
# prints the table at the end of make test.
set -uo pipefail
times=$1 name=$2
mkdir -p "$(dirname "$times")"
shift 2
echo "gpumem: phase $name: $*"
start=$EPOCHREALTIME
"$@"
status=$?
seconds=$(awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { print b - a }')
printf '%s\t%.1f\t%s\n' "$name" "$seconds" "$status" >>"$times"
printf 'gpumem: phase %s took %.1f s\n' "$name" "$seconds"
exit $status
