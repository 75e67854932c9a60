#!/usr/bin/env python3
"""Seeded, time-bounded mutation fuzzer for gpumem's tools.

Algorithm:
  1. Corpus: every .mlir file under test/ and examples/, split at
     `// -----` markers; each chunk (full-line comments dropped) is a seed
     input. Chunks of test/**/Inputs files are kept only if they parse.
  2. One random.Random(--seed) generates, in a fixed order, mutant after
     mutant: pick a seed input, apply 1-3 textual mutations (integer
     literal, memory space, line duplicate/delete/swap, element type, shape
     dimension, gpu.shuffle mode). The sequence of mutants depends only on
     the seed; how far along it a run gets depends on --seconds.
  3. --jobs worker threads take the mutants in that order: `gpumem-opt
     MUTANT` must exit 0 (verifier-valid), then the mutant goes through the
     cpu, cuda (format=isa), cuda-emu, rocm, rocm-emu and vulkan pipelines,
     the cpu, cuda-emu and rocm-emu ones again with --sanitize's checks,
     the cuda and cuda-emu ones with memcheck in the device code (its log),
     and, if it has func.func @main, `gpumem-run -v --target=cpu`.
  4. A finding is a signal death, a timeout, or a crash marker (LLVM ERROR,
     stack dump, assertion, UNREACHABLE) in the output; a normal `error:`
     diagnostic is not. Exception: when gpumem-run crashes or times out
     after it said it is running the program, the mutated program
     misbehaved (out-of-bounds stores, double frees, huge loops): that is a
     "program fault", listed apart and not a finding. Both are
     grouped by signature (command kind plus the LLVM ERROR/assertion line,
     the first gpumem/mlir stack frame, or "timeout"); the shortest mutant
     of each is saved in --out as <kind>-<n>.mlir (program-run-<n>.mlir)
     with its command on top.
  5. An "unlocated" error is a finding too: an `error:` line without a
     `file:line:col:` prefix (`<unknown>:0: error:`, `loc(...): error:`, a
     bare `error:` or `gpumem-run: error:` from a pass manager or tool), in
     a run that did not crash; for gpumem-run only what it printed before
     it started the program counts. They are grouped by command kind plus
     the first such message with numbers, quoted names, @symbols and
     %values normalized, and saved as unlocated-<kind>-<n>.mlir.
  6. Prints a summary; exits 1 if there was any finding, else 0.

Usage: scripts/fuzz.py --build build --seed N --seconds S [--jobs J] [--out DIR]
"""

import argparse
import concurrent.futures
import os
import random
import re
import resource
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TIMEOUT_S = 20
MAX_MUTANTS_IN_FLIGHT = 8  # per job: bounds the lookahead of the generator
MEMORY_LIMIT = 8 << 30  # address space of every tool run, in bytes

# --- Corpus -----------------------------------------------------------------


def load_corpus(build):
    """Every chunk of every .mlir file under test/ and examples/, sorted."""
    seeds = []
    for top in ("test", "examples"):
        for dirpath, dirnames, filenames in os.walk(os.path.join(ROOT, top)):
            dirnames.sort()
            for name in sorted(filenames):
                path = os.path.join(dirpath, name)
                if not name.endswith(".mlir"):
                    continue
                with open(path, encoding="utf-8") as f:
                    chunks = re.split(r"^// -----.*$", f.read(), flags=re.M)
                for chunk in chunks:
                    lines = [l for l in chunk.splitlines()
                             if l.strip() and not l.lstrip().startswith("//")]
                    if not lines:
                        continue
                    body = "\n".join(lines) + "\n"
                    inputs_dir = os.sep + "Inputs" + os.sep in path
                    if inputs_dir and run(opt_cmd(build, None), body)[0] != 0:
                        continue  # an Inputs file that does not parse
                    seeds.append((os.path.relpath(path, ROOT), body))
    return seeds

# --- Mutations: each takes (lines, rng), returns new lines or None ----------


INT_RE = re.compile(r"(?<![\w%#^@.$-])-?\d+(?![\w.])")
INT_VALUES = [0, 1, -1, 2, 32, 2**31 - 1, 2**63 - 1, -2**63]
SPACE_RE = re.compile(r", ([1-5])>")
NAMED_SPACE_RE = re.compile(r"#gpu\.address_space<(workgroup|private|global)>")
TYPE_SWAPS = {"i32": ["i64"], "i64": ["i32", "index"], "index": ["i64"],
              "f32": ["f16"], "f16": ["f32"]}
TYPE_RE = re.compile(r"\b(i32|i64|index|f32|f16)\b")
DIM_RE = re.compile(r"(?<=[<x])(\d+|\?)(?=x)")
DIM_VALUES = ["0", "1", "2", "7", "32", "33", "1024", "65536", "?"]
SHUFFLE_RE = re.compile(r"(?<=gpu\.shuffle )(xor|up|down|idx)\b")


def replace_match(lines, rng, regex, choose, everywhere=False):
    """Replaces one random match of regex (or, with everywhere, every match
    with the same text) by choose(old_text)."""
    hits = [(i, m) for i, l in enumerate(lines) for m in regex.finditer(l)]
    if not hits:
        return None
    i, m = rng.choice(hits)
    new = choose(m.group(0))
    if new == m.group(0):
        return None
    if everywhere:
        return [regex.sub(lambda n: new if n.group(0) == m.group(0)
                          else n.group(0), l) for l in lines]
    lines = list(lines)
    lines[i] = lines[i][:m.start()] + new + lines[i][m.end():]
    return lines


def mutate_int(lines, rng):
    pick = lambda _: str(rng.choice(INT_VALUES + [rng.randint(-1000, 100000)]))
    return replace_match(lines, rng, INT_RE, pick)


def mutate_space(lines, rng):
    if rng.random() < 0.5:
        return replace_match(lines, rng, SPACE_RE,
                             lambda _: ", %d>" % rng.choice([1, 2, 3, 4, 5]))
    names = ["workgroup", "private", "global"]
    return replace_match(lines, rng, NAMED_SPACE_RE, lambda _:
                         "#gpu.address_space<%s>" % rng.choice(names))


def mutate_duplicate(lines, rng):
    # A line that defines SSA values would only make a redefinition.
    choices = [i for i, l in enumerate(lines) if not re.match(r"\s*%.*=", l)]
    if not choices:
        return None
    i = rng.choice(choices)
    return lines[:i + 1] + [lines[i]] + lines[i + 1:]


def mutate_delete(lines, rng):
    i = rng.randrange(len(lines))
    return lines[:i] + lines[i + 1:]


def mutate_swap(lines, rng):
    i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
    lines = list(lines)
    lines[i], lines[j] = lines[j], lines[i]
    return lines


def mutate_type(lines, rng):
    # Changing every occurrence keeps more mutants verifier-valid.
    mutant = replace_match(lines, rng, TYPE_RE,
                           lambda t: rng.choice(TYPE_SWAPS[t]),
                           everywhere=rng.random() < 0.5)
    # MLIR's own parser crashes on a dense array of index
    # (`array<index: ...>`, in Parser::parseDenseArrayAttr) before any
    # gpumem code runs: not a finding gpumem can mend.
    if mutant and any("array<index" in line for line in mutant):
        return None
    return mutant


def mutate_dim(lines, rng):
    return replace_match(lines, rng, DIM_RE, lambda _: rng.choice(DIM_VALUES),
                         everywhere=rng.random() < 0.5)


def mutate_shuffle(lines, rng):
    return replace_match(lines, rng, SHUFFLE_RE,
                         lambda _: rng.choice(["xor", "up", "down", "idx"]))


MUTATIONS = [mutate_int, mutate_int, mutate_space, mutate_duplicate,
             mutate_delete, mutate_swap, mutate_type, mutate_dim,
             mutate_shuffle]


def generate(rng, seeds, seen):
    """The next mutant (origin, text) that differs from every earlier one.
    Deterministic: it depends only on rng's state and seen."""
    while True:
        origin, body = rng.choice(seeds)
        lines = body.splitlines()
        for _ in range(rng.randint(1, 3)):
            mutated = rng.choice(MUTATIONS)(lines, rng)
            if mutated:
                lines = mutated
        text = "\n".join(lines) + "\n"
        if text != body and text not in seen:
            seen.add(text)
            return origin, text

# --- Running the tools and classifying what they do -------------------------


def opt_cmd(build, path, *flags):
    return [os.path.join(build, "bin", "gpumem-opt"), path or "-", *flags,
            "-o", "/dev/null"]


def run(cmd, stdin_text=None):
    """(returncode or "timeout", stderr [+ stdout for gpumem-opt]); after a
    timeout, what stderr had until then."""
    is_run = os.path.basename(cmd[0]) == "gpumem-run"
    for attempt in range(60):
        try:
            p = subprocess.run(cmd, input=stdin_text, text=True,
                               errors="replace", timeout=TIMEOUT_S,
                               stdout=subprocess.DEVNULL if is_run
                               else subprocess.PIPE, stderr=subprocess.PIPE)
            return p.returncode, (p.stdout or "") + p.stderr
        except subprocess.TimeoutExpired as timeout:
            err = timeout.stderr or ""
            if isinstance(err, bytes):
                err = err.decode("utf-8", "replace")
            return "timeout", err
        except OSError:  # the tool is being relinked: wait for it
            if attempt == 59:
                raise
            time.sleep(2)


CRASH_MARKERS = ("LLVM ERROR", "PLEASE submit a bug report", "Stack dump",
                 "Assertion", "UNREACHABLE")
FRAME_RE = re.compile(r"^\s*#\d+ 0x[0-9a-f]+ ?(.*)$", re.M)
# glibc's messages about a corrupted heap: the program wrote out of bounds.
HEAP_RE = re.compile(r"^(free|malloc|realloc|munmap_chunk|corrupted|double "
                     r"free)\b.*$", re.M)
# What `gpumem-run -v` prints once the program is compiled and about to run:
# a fault after it is the mutated program's own.
RUNNING = "gpumem: running @main"


# A diagnostic line: PREFIX error: MESSAGE. It is located when PREFIX is
# `file:line:col: ` (MLIR's `<unknown>:0:` and `loc(...)` prefixes are not).
ERROR_RE = re.compile(r"^(\S*?:? ?|loc\(.*\): )error: (.*)$", re.M)
LOCATED_RE = re.compile(r"^(?!<unknown>)[^\s:]+:\d+:\d+: $")


def unlocated_error(output):
    """The first error diagnostic without a source location, normalized to a
    signature (numbers -> N, 'names' and "names" -> '_', @sym -> @S,
    %value -> %V), or None."""
    for prefix, message in ERROR_RE.findall(output):
        if LOCATED_RE.match(prefix):
            continue
        message = re.sub(r"\S*/mutant-\d+\.mlir", "MUTANT", message)
        message = re.sub(r"'[^']*'", "'_'", message)
        message = re.sub(r'"[^"]*"', '"_"', message)
        message = re.sub(r"@[\w$.-]+", "@S", message)
        message = re.sub(r"%[\w$.#-]+", "%V", message)
        message = re.sub(r"\b\d+\b", "N", message)
        prefix = "loc(...): " if prefix.startswith("loc(") else prefix
        return (prefix + "error: " + message)[:200]
    return None


def classify(kind, rc, output):
    """(category, signature): category None for a normal run or located
    error, "finding" for a tool crash or hang, "unlocated" for an error
    without a source location, "program" for a fault of the mutated program
    (gpumem-run had started it)."""
    program = kind == "run" and RUNNING in output
    if rc == "timeout":
        return ("program" if program else "finding"), "timeout"
    crashed = rc < 0 or rc >= 128
    if not crashed and not any(m in output for m in CRASH_MARKERS):
        unlocated = unlocated_error(output.split(RUNNING)[0])
        return ("unlocated", unlocated) if unlocated else (None, None)
    if program:
        heap = HEAP_RE.search(output)
        return "program", (heap.group(0).strip()[:200] if heap else
                           "crash in malloc/free" if "./malloc/" in output else
                           "signal %d" % -rc if rc < 0 else "exit %d" % rc)
    for line in output.splitlines():
        if "LLVM ERROR" in line or "Assertion" in line or "UNREACHABLE" in line:
            line = re.sub(r"\S*/mutant-\d+\.mlir", "MUTANT", line.strip())
            return "finding", line[:200]
    for frame in FRAME_RE.findall(output):
        if re.search(r"\b(gpumem|mlir)::", frame) and "PrettyStackTrace" not in frame:
            return "finding", re.sub(r"\(.*", "", frame).strip()[:200]
    return "finding", "signal %d" % -rc if rc < 0 else "exit %d" % rc


def check(build, path, text):
    """Runs one mutant: (verified, [(category, kind, command, signature)])."""
    cmd = opt_cmd(build, path)
    rc, out = run(cmd)
    category, sig = classify("verify", rc, out)
    if category:  # the parser or verifier itself crashed
        return False, [(category, "verify", cmd, sig)]
    if rc != 0:
        return False, []
    commands = [("cpu", opt_cmd(build, path, "--gpumem-cpu-pipeline")),
                ("cuda", opt_cmd(build, path, "--gpumem-cuda-pipeline=format=isa")),
                ("cuda-emu", opt_cmd(build, path, "--gpumem-cuda-emu-pipeline")),
                ("rocm", opt_cmd(build, path, "--gpumem-rocm-pipeline")),
                ("rocm-emu", opt_cmd(build, path, "--gpumem-rocm-emu-pipeline")),
                ("vulkan", opt_cmd(build, path, "--gpumem-vulkan-pipeline")),
                # --sanitize's instrumentation, on the targets that have it.
                ("cpu-sanitize", opt_cmd(build, path, "--gpumem-cpu-pipeline="
                                         "sanitize=memcheck,racecheck,initcheck,synccheck")),
                ("cuda-emu-sanitize", opt_cmd(build, path, "--gpumem-cuda-emu-pipeline="
                                              "sanitize=memcheck,racecheck,initcheck")),
                ("rocm-emu-sanitize", opt_cmd(build, path, "--gpumem-rocm-emu-pipeline="
                                              "sanitize=memcheck,racecheck,initcheck")),
                # memcheck in the NVIDIA device code, with its log.
                ("cuda-sanitize", opt_cmd(build, path, "--gpumem-cuda-pipeline="
                                          "format=isa sanitize=memcheck")),
                ("cuda-emu-device-log", opt_cmd(build, path, "--gpumem-cuda-emu-pipeline="
                                                "sanitize=memcheck device-sanitizer-log=true"))]
    if re.search(r"func\.func @main\b", text):
        commands.append(("run", [os.path.join(build, "bin", "gpumem-run"),
                                 "-v", "--target=cpu", path]))
    results = []
    for kind, cmd in commands:
        category, sig = classify(kind, *run(cmd))
        if category:
            results.append((category, kind, cmd, sig))
    return True, results

# --- Driver -----------------------------------------------------------------


def report(groups, category, out_dir, prefix=""):
    """Prints one category's groups and saves a reproducer for each."""
    numbers = {}
    for (cat, kind, sig), (count, cmd, text) in sorted(groups.items()):
        if cat != category:
            continue
        name = prefix + kind
        numbers[name] = numbers.get(name, 0) + 1
        path = os.path.join(out_dir, "%s-%d.mlir" % (name, numbers[name]))
        tool = os.path.relpath(cmd[0])
        command = " ".join([tool] + [path if "/mutant-" in c else c
                                     for c in cmd[1:]])
        os.makedirs(out_dir, exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write("// COMMAND: %s\n// SIGNATURE: [%s] %s\n%s"
                    % (command, kind, sig, text))
        print("  [%s] %s (%d mutants)\n    reproducer: %s\n    command: %s"
              % (kind, sig, count, path, command))


def sanitizer_build(build):
    """Whether `build` was configured with GPUMEM_SANITIZE."""
    try:
        with open(os.path.join(build, "CMakeCache.txt")) as cache:
            return any(line.startswith("GPUMEM_SANITIZE:") and
                       line.strip().split("=", 1)[1] for line in cache)
    except OSError:
        return False


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add = parser.add_argument
    add("--build", required=True, help="gpumem build directory")
    add("--seed", type=int, required=True)
    add("--seconds", type=float, required=True)
    add("--jobs", type=int, default=2, help="worker threads")
    add("--out", help="reproducer directory (default: BUILD/fuzz)")
    args = parser.parse_args()
    build = os.path.abspath(args.build)
    out_dir = os.path.abspath(args.out or os.path.join(build, "fuzz"))
    deadline = time.monotonic() + args.seconds
    # Children inherit the limit: a mutant that allocates gigabytes fails
    # its malloc instead of taking the machine's memory. AddressSanitizer
    # reserves terabytes of address space, so a sanitizer build caps each
    # allocation through its allocator instead.
    if sanitizer_build(build):
        os.environ["ASAN_OPTIONS"] = ":".join(filter(None, [
            os.environ.get("ASAN_OPTIONS"), "allocator_may_return_null=1",
            "max_allocation_size_mb=%d" % (MEMORY_LIMIT >> 20)]))
    else:
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))

    seeds = load_corpus(build)
    rng, seen = random.Random(args.seed), set()
    tried = valid = 0
    # (category, kind, signature) -> [count, command, shortest mutant text]
    groups = {}

    with tempfile.TemporaryDirectory(prefix="gpumem-fuzz-") as tmp, \
            concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:

        def work(n, text):
            path = os.path.join(tmp, "mutant-%d.mlir" % n)
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
            try:
                return check(build, path, text)
            finally:
                os.remove(path)

        pending = set()
        while time.monotonic() < deadline or pending:
            # Keep the workers fed with the next mutants of the sequence.
            while (time.monotonic() < deadline and
                   len(pending) < args.jobs * MAX_MUTANTS_IN_FLIGHT):
                origin, text = generate(rng, seeds, seen)
                tried += 1
                future = pool.submit(work, tried, text)
                future.mutant = "// mutant %d of %s\n%s" % (tried, origin, text)
                pending.add(future)
            done, pending = concurrent.futures.wait(
                pending, timeout=0.5,
                return_when=concurrent.futures.FIRST_COMPLETED)
            for future in done:
                verified, results = future.result()
                valid += verified
                for category, kind, cmd, sig in results:
                    group = groups.setdefault((category, kind, sig),
                                              [0, cmd, None])
                    group[0] += 1
                    if group[2] is None or len(future.mutant) < len(group[2]):
                        group[1], group[2] = cmd, future.mutant
            if time.monotonic() >= deadline:
                for future in pending:  # not started yet: never run
                    if future.cancel():
                        tried -= 1
                pending = {f for f in pending if not f.cancelled()}

    count = lambda category: sum(1 for g in groups if g[0] == category)
    print("fuzz: seed %d, seconds %g, jobs %d, corpus %d inputs"
          % (args.seed, args.seconds, args.jobs, len(seeds)))
    print("inputs tried: %d" % tried)
    print("verifier-valid mutants run: %d" % valid)
    print("findings: %d" % count("finding"))
    report(groups, "finding", out_dir)
    print("program faults at run time (undefined behaviour of the mutant, "
          "not findings): %d" % count("program"))
    report(groups, "program", out_dir, prefix="program-")
    print("errors without a source location (findings): %d"
          % count("unlocated"))
    report(groups, "unlocated", out_dir, prefix="unlocated-")
    return 1 if count("finding") or count("unlocated") else 0


if __name__ == "__main__":
    sys.exit(main())
