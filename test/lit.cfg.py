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
#   vulkan  gpumem's Vulkan runtime finds a Vulkan device (Mesa's lavapipe
#          on a machine without a GPU): vulkan-executed tests run.
#   vulkan-subgroup-size-N  that device's subgroups have N lanes.
#   spirv-val  SPIRV-Tools' validator is on $PATH.
#   sanitize  gpumem was built with sanitizers (GPUMEM_SANITIZE); their
#          options (GPUMEM_SANITIZER_ENVIRONMENT) are set for every test.

import importlib.util
import os
import re
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
llvm_config.add_tool_substitutions(
    ["gpumem-opt", "gpumem-objects", "gpumem-run", "gpumem-compile", "FileCheck", "not", "count"],
    [config.gpumem_tools_dir, config.llvm_tools_dir])


def load_gpumem_objects():
    """gpumem-objects' own ptxas search, so the feature matches the tool."""
    path = os.path.join(config.gpumem_src_root, "tools", "gpumem-objects",
                        "gpumem-objects.py")
    spec = importlib.util.spec_from_file_location("gpumem_objects", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


ptxas = load_gpumem_objects().find_ptxas()
if ptxas:
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", ptxas))
    version = subprocess.run([ptxas, "--version"], capture_output=True,
                             text=True).stdout
    release = re.search(r"release (\d+)\.(\d+)", version)
    # CUDA 13 dropped sm_70 and sm_72.
    if release and int(release.group(1)) >= 13:
        config.available_features.add("ptxas-cuda13")
    lit_config.note("ptxas found: " + ptxas)
else:
    lit_config.note("ptxas not found: PTX-level tests that need it are "
                    "unsupported")


def cuda_device_usable():
    """Mirrors gpumem::isCudaDeviceUsable (cuInit, then a device count)."""
    import ctypes
    try:
        driver = ctypes.CDLL("libcuda.so.1")
    except OSError:
        return False
    count = ctypes.c_int(0)
    return (driver.cuInit(0) == 0 and
            driver.cuDeviceGetCount(ctypes.byref(count)) == 0 and
            count.value > 0)


import platform
if platform.machine() in ("x86_64", "AMD64"):
    config.available_features.add("x86_64")
if platform.machine() in ("x86_64", "AMD64", "aarch64", "arm64"):
    config.available_features.add("cuda-emu")
else:
    lit_config.note("cuda-emu needs an x86-64 or AArch64 host: its executed "
                    "tests are unsupported")

if cuda_device_usable():
    config.available_features.add("cuda")
    lit_config.note("CUDA device found: GPU-executed tests run")
else:
    lit_config.note("no CUDA device: GPU-executed tests are unsupported")


def vulkan_probe(function):
    """`function`() of the built Vulkan runtime (gpumemVulkanDeviceKind or
    gpumemVulkanSubgroupSize), in a child process (the runtime may be
    instrumented, and needs the sanitizers preloaded); 0 when it cannot
    tell."""
    runtime = os.path.join(config.gpumem_obj_root, "lib",
                           "libgpumem_vulkan_runtime.so")
    env = dict(os.environ)
    for setting in config.environment.get("GPUMEM_UPSTREAM_RUNNER_ENV",
                                          "").split():
        name, value = setting.split("=", 1)
        env[name] = value
    probe = ("import ctypes, sys; "
             "sys.exit(getattr(ctypes.CDLL(sys.argv[1]), sys.argv[2])())")
    try:
        return subprocess.run([sys.executable, "-c", probe, runtime, function],
                              env=env, capture_output=True,
                              timeout=60).returncode
    except (OSError, subprocess.TimeoutExpired):
        return 0


import shutil
import sys
if vulkan_probe("gpumemVulkanDeviceKind") in (1, 2):
    config.available_features.add("vulkan")
    # vulkan-subgroup-size-8: the device's subgroups have 8 lanes
    # (lavapipe's on AVX2 machines).
    config.available_features.add(
        "vulkan-subgroup-size-%d" % vulkan_probe("gpumemVulkanSubgroupSize"))
    lit_config.note("Vulkan device found: vulkan-executed tests run")
else:
    lit_config.note("no Vulkan device: vulkan-executed tests are unsupported")
if shutil.which("spirv-val"):
    config.available_features.add("spirv-val")

