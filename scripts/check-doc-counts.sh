#!/usr/bin/env bash
# The program counts the docs state, recomputed from the suite, so that they
# cannot drift (run by test/Docs/doc-counts.test):
#   docs/vulkan.md      "Every example, and M of the N executed CPU
#                       integration programs": N the error-free programs of
#                       test/Programs (scripts/gpu-programs.sh), M those the
#                       vulkan target's unsupported.txt does not list
#   docs/validation.md  "the T programs of `scripts/gpu-programs.sh` (the E
#                       examples and the N error-free executed CPU
#                       integration programs)"
# Prints each expected phrase with "ok" or "MISMATCH"; exits 1 on any.
set -euo pipefail
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
source "$root/scripts/gpu-programs.sh"
examples=$(ls "$root"/examples/*.mlir | wc -l)
total=$(gpu_programs "$root" | wc -l)
programs=$((total - examples))
listed=$(gpu_programs "$root" | while read -r f; do
  if [ -n "$(unsupported_reason "$root" vulkan "$f")" ]; then echo "$f"; fi
done | wc -l)
matching=$((programs - listed))
status=0
expect() { # file phrase (spaces may be line breaks in the file)
  if tr '\n' ' ' <"$root/$1" | tr -s ' ' | grep -qF "$2"; then
    echo "ok       $1: $2"
  else
    echo "MISMATCH $1: expected \"$2\""
    status=1
  fi
}
expect docs/vulkan.md "Every example, and $matching of the $programs executed CPU integration programs"
expect docs/validation.md "the $total programs of \`scripts/gpu-programs.sh\` (the $examples examples and the $programs error-free executed CPU integration programs)"
exit $status
