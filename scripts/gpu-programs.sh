# Sourced by the GPU validation scripts: the programs whose output on the
# cuda target must equal their output on the cpu target, and how outputs
# are normalized before comparing.
#
# Every example and every executed CPU integration test (managed memory and
# the synchronous data paths included), except those that expect an error
# (their RUN lines start with `not`: divergent barriers are undefined
# behaviour on a GPU, not an error) and those marked XFAIL.
gpu_programs() {
  local root=$1
  ls "$root"/examples/*.mlir
  for f in "$root"/test/Integration/CPU/*.mlir; do
    grep -q '^// RUN: not ' "$f" && continue
    grep -q '^// XFAIL:' "$f" && continue
    echo "$f"
  done
}

# How a program's host buffers reach its kernels: the --host-buffers=MODE
# of its RUN line, else copy (the tools' default; docs/memory.md).
host_buffers_mode() {
  local mode
  mode=$(sed -n 's/^\/\/ RUN:.*--host-buffers=\([a-z]*\).*/\1/p' "$1" | head -1)
  echo "${mode:-copy}"
}

# printMemref prints buffer addresses; gpu.printf lines of different blocks
# have no fixed order on a GPU.
normalize_output() {
  local program=$1
  sed -E 's/base@ = 0x[0-9a-f]+/base@ = ADDR/' |
    if grep -q 'gpu.printf' "$program"; then sort; else cat; fi
}
