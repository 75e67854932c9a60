#!/usr/bin/env python3
"""Shared memory planning figures: for every kernel of the examples, the
executed integration programs, the PTX and sanitizer tests and the
benchmarks, the static workgroup bytes planned against the live-bytes lower
bound and against one buffer after the other (no reuse), and the blocks per
SM that shared memory allows on sm_80 and sm_90 where planning changes them.
Figures only: nothing here asserts.

  bench/smem-plan.py [build-dir]

Each file goes through the cuda pipeline (PTX, no ptxas) with the report in
JSON (gpumem-plan-workgroup-memory); files the pipeline rejects (error
tests) are skipped.
"""
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PATTERNS = ["examples/*.mlir", "test/Programs/*.mlir",
            "test/Target/CUDAEmu/Integration/*.mlir",
            "test/Target/Vulkan/Integration/*.mlir",
            "test/Target/CUDA/*.mlir", "test/Sanitizer/*.mlir", "bench/*/*.mlir"]


def nvvm_pass_tests():
    """test/Target/CUDA also holds the tests of the cuda target's own
    passes, each named after its pass: IR snippets, not programs."""
    with open(os.path.join(ROOT, "include", "gpumem", "Target", "CUDA",
                           "Passes.td")) as f:
        names = re.findall(r'Pass<"gpumem-([a-z0-9-]+)"', f.read())
    return lambda path: (os.path.dirname(path).endswith("Target/CUDA") and
                         os.path.basename(path).startswith(tuple(names)))


def report(opt, path, chip):
    with tempfile.NamedTemporaryFile(suffix=".json") as out:
        pipeline = ("--gpumem-cuda-pipeline=chip=%s format=isa "
                    "smem-report=json smem-report-file=%s" % (chip, out.name))
        run = subprocess.run([opt, path, pipeline, "-o", os.devnull],
                             capture_output=True, text=True)
        if run.returncode != 0:
            return None
        with open(out.name) as f:
            return json.load(f)["kernels"]


def blocks(occupancy, reuse):
    shared = occupancy["by_shared_memory" if reuse
                       else "by_shared_memory_without_reuse"]
    return min(shared, occupancy["by_threads"], occupancy["by_sm_limit"])


def main():
    build = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "build")
    opt = os.path.join(build, "bin", "gpumem-opt")
    is_pass_test = nvvm_pass_tests()
    files = sorted({p for pattern in PATTERNS
                    for p in glob.glob(os.path.join(ROOT, pattern))
                    if not is_pass_test(p)})
    rows, skipped = [], 0
    for path in files:
        by_chip = {chip: report(opt, path, chip) for chip in ("sm_80", "sm_90")}
        if by_chip["sm_90"] is None or by_chip["sm_80"] is None:
            skipped += 1
            continue
        for k80, k90 in zip(by_chip["sm_80"], by_chip["sm_90"]):
            rows.append((os.path.relpath(path, ROOT), k90, k80))

    print("| program | kernel | without reuse | planned | lower bound | "
          "sm_80 blocks/SM | sm_90 blocks/SM |")
    print("|---|---|---|---|---|---|---|")
    at_bound = saved = planned_kernels = 0
    for path, k90, k80 in rows:
        if k90["static_bytes"] == 0 and k90["bytes_without_reuse"] == 0:
            continue
        at_bound += k90["static_bytes"] == k90["lower_bound_bytes"]
        saved += k90["bytes_without_reuse"] - k90["static_bytes"]
        planned_kernels += k90["static_bytes"] < k90["bytes_without_reuse"]
        occupancy = []
        for kernel in (k80, k90):
            before = blocks(kernel["occupancy"], False)
            after = blocks(kernel["occupancy"], True)
            occupancy.append("%d -> %d" % (before, after) if before != after
                             else "%d" % after)
        print("| %s | %s | %d | %d | %d | %s | %s |" % (
            path, k90["kernel"], k90["bytes_without_reuse"],
            k90["static_bytes"], k90["lower_bound_bytes"], occupancy[0],
            occupancy[1]))
    with_memory = sum(1 for _, k, _ in rows if k["bytes_without_reuse"])
    print()
    print("kernels: %d (%d with static workgroup memory, %d files skipped: "
          "rejected by the pipeline)" % (len(rows), with_memory, skipped))
    print("planned bytes at the lower bound: %d of %d" % (at_bound,
                                                           with_memory))
    print("kernels whose buffers share bytes: %d; static bytes saved: %d" % (
        planned_kernels, saved))


if __name__ == "__main__":
    main()
