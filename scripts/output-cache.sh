# Sourced by the scripts that run many programs on several targets
# (compare-targets.sh, compare-sanitizer-reports.sh,
# compare-emulated-fibers.sh): within one lit run,
# a program run the same way twice runs once. Several tests compare the
# same reference run (every program on the cpu target, say) with a
# different target each; the second test on reads the first one's output.
#
# GPUMEM_OUTPUT_CACHE names the folder (test/lit.cfg.py empties
# build/test/output-cache at the start of every lit run, so a rebuilt
# gpumem never reads an older build's output); unset, every run is made.
#
#   cached_output COMMAND [ARG...]
# prints COMMAND's output (what it writes to stdout). The key is the
# command line, the contents of every argument that names a file (the
# program), the GPUMEM_* environment, and $CACHE_CONTEXT (what the
# command reads from its caller's variables).
cached_output() {
  if [ -z "${GPUMEM_OUTPUT_CACHE:-}" ]; then
    "$@"
    return
  fi
  local key arg file
  key=$({
    printf '%s\n' "$@" "${CACHE_CONTEXT:-}"
    env | grep '^GPUMEM_' | sort
    for arg in "$@"; do
      [ -f "$arg" ] && cat "$arg"
    done
  } | sha256sum | cut -c1-40)
  file=$GPUMEM_OUTPUT_CACHE/$key
  if [ -f "$file" ]; then
    cat "$file"
    return
  fi
  mkdir -p "$GPUMEM_OUTPUT_CACHE"
  # Written aside and moved, so a test running beside this one reads a
  # whole output or none.
  local part
  part=$(mktemp "$file.XXXXXX")
  "$@" >"$part"
  mv -f "$part" "$file"
  cat "$file"
}
