#!/usr/bin/env python3
"""Runs the shell blocks of README.md and docs/*.md, so that every command
the docs show works as written.

Algorithm: every ```sh or ```bash block is run with `bash -e -o pipefail`
in a scratch directory that mirrors the repository (a symbolic link per
top-level entry) with `build` linked to the build directory under test, so
commands written as `build/bin/...` run as they read. A block is skipped
when the line before its fence is `<!-- docs-test: skip: REASON -->` (a
usage synopsis, a command for a GPU machine), or
`<!-- docs-test: needs ptxas -->` and no ptxas is found (`needs ld.lld`:
no ld.lld for the rocm target's code objects). Prints one line
per block ("ok", "skip" or "FAILED" with its output) and exits 1 when a
block failed.
  scripts/run-doc-commands.py [build-dir]
"""
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BLOCK = re.compile(r"^ *```(?:sh|bash)\n(.*?)^ *```", re.S | re.M)


def have_ptxas():
    for hint in (os.environ.get("CUDA_HOME"), os.environ.get("CUDA_PATH"),
                 "/usr/local/cuda"):
        if hint and os.access(os.path.join(hint, "bin", "ptxas"), os.X_OK):
            return True
    return shutil.which("ptxas") is not None


def have_ld_lld():
    """The linker of the rocm target's code objects (Debian's lld-22)."""
    return any(os.access(path, os.X_OK) for path in
               ("/usr/lib/llvm-22/bin/ld.lld",)) or any(
        shutil.which(name) for name in ("ld.lld-22", "ld.lld"))


def blocks(path):
    text = open(path).read()
    for match in BLOCK.finditer(text):
        line = text.count("\n", 0, match.start()) + 1
        before = text[:match.start()].rstrip("\n").rsplit("\n", 1)[-1].strip()
        yield line, before, match.group(1)


def main():
    build = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else
                            os.path.join(ROOT, "build"))
    ptxas = have_ptxas()
    ld_lld = have_ld_lld()
    failed = False
    with tempfile.TemporaryDirectory() as scratch:
        for entry in os.listdir(ROOT):
            if entry not in ("build", ".git"):
                os.symlink(os.path.join(ROOT, entry),
                           os.path.join(scratch, entry))
        os.symlink(build, os.path.join(scratch, "build"))
        docs = [os.path.join(ROOT, "README.md")] + sorted(
            glob.glob(os.path.join(ROOT, "docs", "*.md")))
        for doc in docs:
            name = os.path.relpath(doc, ROOT)
            for line, marker, body in blocks(doc):
                where = "%s:%d" % (name, line)
                if marker.startswith("<!-- docs-test: skip"):
                    print("skip   %s (%s)" % (where, marker[len("<!-- docs-test: skip"):].strip(" :->")))
                    continue
                if marker == "<!-- docs-test: needs ptxas -->" and not ptxas:
                    print("skip   %s (no ptxas)" % where)
                    continue
                if marker == "<!-- docs-test: needs ld.lld -->" and not ld_lld:
                    print("skip   %s (no ld.lld)" % where)
                    continue
                # Indented blocks (in lists) run as written.
                script = "\n".join(l[3:] if l.startswith("   ") else l
                                   for l in body.splitlines())
                # In a sanitizer build, mlir-runner (not instrumented) needs
                # the sanitizers' runtimes preloaded to load gpumem's.
                if os.environ.get("GPUMEM_UPSTREAM_RUNNER_ENV"):
                    script = ('mlir-runner-22() { env $GPUMEM_UPSTREAM_RUNNER_ENV '
                              'mlir-runner-22 "$@"; }\n' + script)
                run = subprocess.run(["bash", "-e", "-o", "pipefail", "-c",
                                      script], cwd=scratch,
                                     capture_output=True, text=True,
                                     timeout=600)
                if run.returncode == 0:
                    print("ok     %s" % where)
                else:
                    failed = True
                    print("FAILED %s (exit %d)" % (where, run.returncode))
                    print((run.stdout + run.stderr)[-2000:])
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
