#!/usr/bin/env bash
# Compiles every program of scripts/gpu-programs.sh for the vulkan target
# and checks each SPIR-V module it embeds with SPIRV-Tools' spirv-val for
# its target environment: SPIR-V 1.3 for Vulkan 1.1 (the pipeline's
# default), or the SPIR-V version given, for the Vulkan version that
# introduced it (1.4: vulkan1.1spv1.4, 1.5: vulkan1.2, 1.6: vulkan1.3).
# Programs that do not compile for vulkan yet (test/Target/Vulkan/Integration/
# unsupported.txt says why) are skipped. Prints "valid" or "INVALID" per
# module and exits 1 when one is invalid.
#   scripts/validate-spirv.sh [build-dir] [spirv-version]
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
version=${2:-1.3}
case $version in
  1.3) env=vulkan1.1 ;;
  1.4) env=vulkan1.1spv1.4 ;;
  1.5) env=vulkan1.2 ;;
  1.6) env=vulkan1.3 ;;
  *) echo "unknown SPIR-V version $version (1.3 to 1.6)" >&2; exit 2 ;;
esac
. "$root/scripts/gpu-programs.sh"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
failed=0
for program in $(gpu_programs "$root"); do
  name=${program#$root/}
  mode=$(host_buffers_mode "$program")
  out="$scratch/$(basename "$program" .mlir)"
  if ! "$build/bin/gpumem-opt" "$program" \
      --gpumem-vulkan-pipeline="host-buffers=$mode spirv-version=$version" > "$out.mlir" 2>/dev/null; then
    if [ -n "$(unsupported_reason "$root" vulkan "$program")" ]; then
      echo "skip     $name (does not compile for vulkan yet)"
      continue
    fi
    echo "INVALID  $name: does not compile for vulkan"
    failed=1
    continue
  fi
  for module in $("$build/bin/gpumem-objects" spirv "$out.mlir" "$out"); do
    if log=$(spirv-val --target-env "$env" "$module" 2>&1); then
      echo "valid    $name ($(basename "$module"))"
    else
      echo "INVALID  $name ($(basename "$module")): $log"
      failed=1
    fi
  done
done
exit $failed
