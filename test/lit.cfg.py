# lit configuration of gpumem's tests.
#
# Features:
#   ptxas  a CUDA ptxas was found ($CUDA_HOME, $CUDA_PATH, /usr/local/cuda,
#          $PATH); PTX-level tests that ask ptxas for shared memory need it.
#   ptxas-cuda13  that ptxas is from CUDA 13 or later.
#   cuda   libcuda.so.1 loads and reports a device: GPU-executed tests run.
#   cuda-emu  the cuda-emu target can run here: the NVIDIA device code of a
#          program runs on the CPU runtime, which needs an x86-64 or AArch64
#          host (Boost.Context's fibers); executed cuda-emu tests run.
#   rocm-emu  the same for the AMD device code: executed rocm-emu tests run.
#   vulkan  gpumem's Vulkan runtime finds a Vulkan device (Mesa's lavapipe
#          on a machine without a GPU): vulkan-executed tests run.
#   vulkan-subgroup-size-N  that device's subgroups have N lanes.
#   spirv-val  SPIRV-Tools' validator is on $PATH.
#   sanitize  gpumem was built with sanitizers (GPUMEM_SANITIZE); their
#          options (GPUMEM_SANITIZER_ENVIRONMENT) are set for every test.

import os
import re
import shutil
import subprocess

import lit.formats
from lit.llvm import llvm_config

config.name = "gpumem"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.excludes = ["lit.cfg.py", "lit.site.cfg.py", "CMakeLists.txt",
                   "Inputs"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.gpumem_obj_root, "test")

# The outputs the comparing scripts share within this lit run
# (scripts/output-cache.sh): emptied here, once per run, so no run reads
# what an earlier build printed.
output_cache = os.path.join(config.test_exec_root, "output-cache")
shutil.rmtree(output_cache, ignore_errors=True)
os.makedirs(output_cache, exist_ok=True)
config.environment["GPUMEM_OUTPUT_CACHE"] = output_cache

llvm_config.with_system_environment(["HOME", "CUDA_HOME", "CUDA_PATH"])
llvm_config.use_default_substitutions()
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.with_environment("PATH", config.gpumem_tools_dir, append_path=True)

config.substitutions.append(("%gpumem_src_root", config.gpumem_src_root))
# %uninstrumented: the prefix for an upstream tool that loads gpumem's
# runtimes (mlir-runner). In a sanitizer build the sanitizers' runtimes must
# be loaded first, and LeakSanitizer is off as for gpumem-run's programs.
# Scripts get the same settings as $GPUMEM_UPSTREAM_RUNNER_ENV.
uninstrumented = ""
if config.gpumem_sanitize:
    config.available_features.add("sanitize")
    for setting in config.gpumem_sanitizer_environment.split(";"):
        name, value = setting.split("=", 1)
        config.environment[name] = value
    libraries = [subprocess.run(["c++", "-print-file-name=" + name],
                                capture_output=True, text=True).stdout.strip()
                 for name in ("libasan.so", "libubsan.so")]
    runner_env = "LD_PRELOAD=%s ASAN_OPTIONS=%s:detect_leaks=0" % (
        ":".join(libraries), config.environment.get("ASAN_OPTIONS", ""))
    config.environment["GPUMEM_UPSTREAM_RUNNER_ENV"] = runner_env
    uninstrumented = "env " + runner_env
config.substitutions.append(("%uninstrumented", uninstrumented))
config.substitutions.append(("%gpumem_obj_root", config.gpumem_obj_root))
# %cmake_launcher: the CMake option that gives projects the tests build
# (test/Install) gpumem's compiler launcher, the compiler cache
# (cmake/CompilerCache.cmake), when it has one.
config.substitutions.append((
    "%cmake_launcher",
    '"-DCMAKE_CXX_COMPILER_LAUNCHER=%s"' % config.gpumem_cxx_launcher
    if config.gpumem_cxx_launcher else ""))
llvm_config.add_tool_substitutions(
    ["gpumem-opt", "gpumem-objects", "gpumem-run", "gpumem-compile", "FileCheck", "not", "count"],
    [config.gpumem_tools_dir, config.llvm_tools_dir])


def list_targets():
    """gpumem-run --list-targets: {target: (available, text after the
    name)}, so that the features say what the tools find (their own CUDA
    driver, Vulkan runtime and ptxas probes), never a copy of them."""
    env = dict(os.environ)
    env.update(config.environment)
    try:
        run = subprocess.run(
            [os.path.join(config.gpumem_tools_dir, "gpumem-run"),
             "--list-targets"], env=env, capture_output=True, text=True,
            timeout=120)
    except (OSError, subprocess.TimeoutExpired) as error:
        lit_config.fatal("gpumem-run --list-targets failed: %s" % error)
    if run.returncode != 0:
        lit_config.fatal("gpumem-run --list-targets failed: " + run.stderr)
    targets = {}
    for line in run.stdout.splitlines():
        name, _, rest = line.partition(" ")
        targets[name] = (rest.startswith("available"), rest)
    return targets


targets = list_targets()

ptxas = re.search(r"; ptxas (.+) \(CUDA (\d+)\.(\d+)\)$",
                  targets.get("cuda", (False, ""))[1])
if ptxas:
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", ptxas.group(1)))
    # CUDA 13 dropped sm_70 and sm_72.
    if int(ptxas.group(2)) >= 13:
        config.available_features.add("ptxas-cuda13")
    lit_config.note("ptxas found: " + ptxas.group(1))
else:
    lit_config.note("ptxas not found: PTX-level tests that need it are "
                    "unsupported")

import platform
if platform.machine() in ("x86_64", "AMD64"):
    config.available_features.add("x86_64")
if targets.get("cuda-emu", (False, ""))[0]:
    config.available_features.add("cuda-emu")
else:
    lit_config.note("cuda-emu needs an x86-64 or AArch64 host: its executed "
                    "tests are unsupported")
if targets.get("rocm-emu", (False, ""))[0]:
    config.available_features.add("rocm-emu")
else:
    lit_config.note("rocm-emu needs an x86-64 or AArch64 host: its executed "
                    "tests are unsupported")

if targets.get("cuda", (False, ""))[0]:
    config.available_features.add("cuda")
    lit_config.note("CUDA device found: GPU-executed tests run")
else:
    lit_config.note("no CUDA device: GPU-executed tests are unsupported")

import shutil
vulkan = targets.get("vulkan", (False, ""))
if vulkan[0]:
    config.available_features.add("vulkan")
    # vulkan-subgroup-size-8: the device's subgroups have 8 lanes
    # (lavapipe's on AVX2 machines).
    subgroup = re.search(r"subgroup size (\d+)", vulkan[1])
    config.available_features.add(
        "vulkan-subgroup-size-%s" % (subgroup.group(1) if subgroup else "0"))
    # vulkan-cpu: the device is a CPU implementation (lavapipe), no GPU.
    if "CPU implementation" in vulkan[1]:
        config.available_features.add("vulkan-cpu")
    lit_config.note("Vulkan device found: vulkan-executed tests run")
else:
    lit_config.note("no Vulkan device: vulkan-executed tests are unsupported")
if shutil.which("spirv-val"):
    config.available_features.add("spirv-val")

