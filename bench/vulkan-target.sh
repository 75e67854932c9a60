#!/usr/bin/env bash
# The vulkan target against a plain Vulkan host (C++, g++ -O2).
#   bench/vulkan-target.sh [build-dir] [repeats]
# 1. Launch overhead: bench/vulkan/launch.mlir (gpumem-compile
#    --target=vulkan) against bench/vulkan/plain-launch.cpp dispatching the
#    same SPIR-V (extracted from the lowered launch.mlir by gpumem-objects),
#    once reusing its command buffer, fence and descriptor set, once making
#    the Vulkan calls gpumem's runtime makes per launch; on all cores, and
#    pinned to one core (taskset -c 0), where lavapipe's threads hand work
#    over without cross-core wake-ups and the figures are steadier.
# 2. Kernel time: bench/cpu/*.mlir on the vulkan target against the same
#    kernels in GLSL (bench/vulkan/*.comp, glslangValidator -V) run by
#    bench/vulkan/plain-kernels.cpp, which also runs gpumem's SPIR-V of each
#    (code generation apart from the runtime).
# Every program times itself (best of its own runs) and prints a checksum;
# each runs `repeats` times (default 3), the variants alternating which goes
# first, and the table shows the best figure of each. Prints markdown
# tables. Target (docs/performance.md): gpumem <= 1.1x plain. Figures only:
# nothing here asserts.
set -euo pipefail
cd "$(dirname "$0")/.."
build=$(cd "${1:-build}" && pwd)
repeats=${2:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

names="elementwise reduction matmul transpose"
"$build/bin/gpumem-opt" --gpumem-vulkan-pipeline bench/vulkan/launch.mlir \
  -o "$work/launch.lowered.mlir"
"$build/bin/gpumem-objects" spirv "$work/launch.lowered.mlir" "$work/spv" >/dev/null
"$build/bin/gpumem-compile" --target=vulkan bench/vulkan/launch.mlir -o "$work/launch"
for name in $names; do
  "$build/bin/gpumem-compile" --target=vulkan "bench/cpu/$name.mlir" -o "$work/$name"
  "$build/bin/gpumem-opt" --gpumem-vulkan-pipeline "bench/cpu/$name.mlir" \
    -o "$work/$name.lowered.mlir"
  "$build/bin/gpumem-objects" spirv "$work/$name.lowered.mlir" "$work/$name.gpumem" >/dev/null
  glslangValidator -V --target-env vulkan1.1 -o "$work/$name.spv" \
    "bench/vulkan/$name.comp" >/dev/null
done
for tool in plain-launch plain-kernels; do
  g++ -O2 -std=c++17 -o "$work/$tool" "bench/vulkan/$tool.cpp" -ldl
done

# run KEY COMMAND...: runs it, keeps its checksum, and the lower of its time
# and the time kept under KEY.
run() {
  local key=$1 out time
  shift
  out=$("$@" 2>"$work/stderr")
  sed -n 's/^device: //p' "$work/stderr" >> "$work/device"
  time=$(echo "$out" | sed -n 1p)
  echo "$out" | sed -n 2p > "$work/$key.check"
  if [ ! -f "$work/$key.best" ] ||
     awk -v a="$time" -v b="$(cat "$work/$key.best")" 'BEGIN { exit !(a < b) }'; then
    echo "$time" > "$work/$key.best"
  fi
}

spv="$work/spv/main_kernel.spv"
for ((r = 0; r < repeats; ++r)); do
  for pin in "" "taskset -c 0"; do
    p=${pin:+pinned.}
    if ((r % 2 == 0)); then
      run "${p}plain" $pin "$work/plain-launch" "$spv" reuse
      run "${p}steps" $pin "$work/plain-launch" "$spv" per-launch
      run "${p}gpumem" $pin "$work/launch"
    else
      run "${p}gpumem" $pin "$work/launch"
      run "${p}steps" $pin "$work/plain-launch" "$spv" per-launch
      run "${p}plain" $pin "$work/plain-launch" "$spv" reuse
    fi
  done
  for name in $names; do
    if ((r % 2 == 0)); then
      run "$name.plain" "$work/plain-kernels" "$name" "$work/$name.spv"
      run "$name.spirv" "$work/plain-kernels" "$name" "$work/$name.gpumem/main_kernel.spv" gpumem
      run "$name.gpumem" "$work/$name"
    else
      run "$name.gpumem" "$work/$name"
      run "$name.spirv" "$work/plain-kernels" "$name" "$work/$name.gpumem/main_kernel.spv" gpumem
      run "$name.plain" "$work/plain-kernels" "$name" "$work/$name.spv"
    fi
  done
done

best() { cat "$work/$1.best"; }
check() { cat "$work/$1.check"; }
echo "| launch (1 block x 32 threads, synchronous) | us per launch, $(nproc) cores | / plain | us per launch, 1 core | / plain | check |"
echo "|---|---|---|---|---|---|"
for row in "plain:plain Vulkan, reusing command buffer, fence, set" \
           "steps:plain Vulkan, gpumem's Vulkan calls per launch" \
           "gpumem:gpumem (launch.mlir)"; do
  key=${row%%:*}
  awk -v n="${row#*:}" -v a="$(best "$key")" -v p="$(best plain)" \
      -v b="$(best "pinned.$key")" -v q="$(best pinned.plain)" -v c="$(check "$key")" \
    'BEGIN { printf "| %s | %.1f | %.2fx | %.1f | %.2fx | %s |\n", n, a, a / p, b, b / q, c }'
done
echo
echo "| kernel | plain host, GLSL (s) | plain host, gpumem's SPIR-V (s) | gpumem (s) | gpumem / plain GLSL | check (GLSL, SPIR-V, gpumem) |"
echo "|---|---|---|---|---|---|"
for name in $names; do
  awk -v n="$name" -v a="$(best "$name.plain")" -v s="$(best "$name.spirv")" \
      -v b="$(best "$name.gpumem")" -v c="$(check "$name.plain")" \
      -v e="$(check "$name.spirv")" -v d="$(check "$name.gpumem")" \
    'BEGIN { printf "| %s | %.4g | %.4g | %.4g | %.2fx | %s, %s, %s |\n", n, a, s, b, b / a, c, e, d }'
done
echo
mesa=$(dpkg-query -W -f='${Version}' mesa-vulkan-drivers 2>/dev/null || echo unknown)
device=$(sort -u "$work/device" | paste -sd ' ')
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); $device, Mesa $mesa; best of $repeats runs each; $(date -u +%F)"
