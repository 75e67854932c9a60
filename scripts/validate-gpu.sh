#!/usr/bin/env bash
# GPU validation for machines that have an NVIDIA GPU but no MLIR libraries.
#
#   scripts/validate-gpu.sh [build-dir] [bundle-dir]
#     Here, no GPU needed: builds a self-contained bundle. Every program of
#     scripts/gpu-programs.sh is compiled with gpumem-compile --target=cuda
#     (chip: $CHIP, default sm_90; --host-buffers from its RUN line, else
#     copy), its expected output is taken from the cpu
#     target, and gpumem's two runtime libraries are copied next to it.
#     The CUDA benchmarks of bench/cuda are built into <bundle-dir>/bench.
#   <bundle-dir>/run.sh
#     On the GPU machine, one command: runs every program, compares its
#     output with the cpu target's, runs compute-sanitizer memcheck and
#     racecheck on it (when compute-sanitizer is there), prints a markdown
#     table and ends with "N passed, N failed".
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
bundle=${2:-$build/gpu-bundle}
chip=${CHIP:-sm_90}
. "$root/scripts/gpu-programs.sh"

rm -rf "$bundle"
mkdir -p "$bundle/bin" "$bundle/expected" "$bundle/lib"
cp "$build/lib/libgpumem_cuda_runtime.so" "$build/lib/libgpumem_runner_utils.so" \
   "$bundle/lib/"
: > "$bundle/unordered.txt"
for program in $(gpu_programs "$root"); do
  name=$(basename "${program%.mlir}")
  case "$program" in */examples/*) name="example-$name" ;; esac
  mode=$(host_buffers_mode "$program")
  "$build/bin/gpumem-compile" --target=cuda --chip="$chip" \
    --host-buffers="$mode" "$program" \
    -o "$bundle/bin/$name"
  "$build/bin/gpumem-run" --target=cpu --host-buffers="$mode" "$program" 2>&1 |
    normalize_output "$program" > "$bundle/expected/$name.txt"
  if grep -q 'gpu.printf' "$program"; then echo "$name" >> "$bundle/unordered.txt"; fi
done

cat > "$bundle/run.sh" <<'RUN'
#!/usr/bin/env bash
# Runs the gpumem GPU validation bundle; see scripts/validate-gpu.sh.
set -uo pipefail
cd "$(dirname "$0")"
sanitizer=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
[ -x "$sanitizer" ] || sanitizer=""
normalize() {
  sed -E 's/base@ = 0x[0-9a-f]+/base@ = ADDR/' |
    if grep -qx "$1" unordered.txt; then sort; else cat; fi
}
sanitize() { # tool program -> "clean" / "N errors" / "not run"
  [ -n "$sanitizer" ] || { echo "not run"; return; }
  local log
  log=$("$sanitizer" --tool "$1" --error-exitcode 99 "bin/$2" 2>&1 >/dev/null)
  if [ $? -eq 99 ]; then
    echo "$(echo "$log" | grep -oE '[0-9]+ (errors?|hazards?)' | tail -1 || echo errors)"
  else
    echo clean
  fi
}
acceptable() { [ "$1" = clean ] || [ "$1" = "not run" ]; }
echo "date: $(date -u +%F)"
nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader 2>/dev/null | sed 's/^/gpu: /'
echo
echo "| program | output | memcheck | racecheck |"
echo "|---|---|---|---|"
passed=0 failed=0
for exe in bin/*; do
  name=$(basename "$exe")
  actual=$("./$exe" 2>&1 | normalize "$name")
  if [ "$actual" = "$(cat "expected/$name.txt")" ]; then output=match; else output=MISMATCH; fi
  memcheck=$(sanitize memcheck "$name")
  racecheck=$(sanitize racecheck "$name")
  echo "| $name | $output | $memcheck | $racecheck |"
  if [ "$output" = match ] && acceptable "$memcheck" && acceptable "$racecheck"; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    [ "$output" = match ] || diff <(cat "expected/$name.txt") <(echo "$actual") | head -10 | sed 's/^/    /'
  fi
done
echo
echo "validation: $passed passed, $failed failed"
[ "$failed" = 0 ]
RUN
chmod +x "$bundle/run.sh"
# The CUDA benchmarks (bench/cuda) travel in the same bundle.
"$root/bench/cuda/build.sh" "$build" "$bundle/bench" > "$bundle/bench-build.log" 2>&1 ||
  echo "warning: the CUDA benchmarks did not build; see $bundle/bench-build.log"
echo "bundle ready: $bundle ($(ls "$bundle/bin" | wc -l) programs, chip $chip)"
echo "on the GPU machine: $bundle/run.sh, then $bundle/bench/run.sh"
