// The tools' own options: --version names gpumem, --help lists gpumem's
// options without LLVM's hundreds, -v says what was picked and how long it
// took, --print-pipeline and MLIR's --mlir-timing work.

// RUN: gpumem-run --version | FileCheck %s --check-prefix=VERSION
// RUN: gpumem-compile --version | FileCheck %s --check-prefix=VERSION
// VERSION: gpumem {{[0-9]+\.[0-9]+\.[0-9]+}} (MLIR and LLVM 22.

// --help of every tool prints all it has (in the sanitizer build of make
// test too, where reading a freed description aborts).
// RUN: gpumem-opt --help | FileCheck %s --check-prefix=OPT-HELP
// RUN: gpumem-compile --help | FileCheck %s --check-prefix=HELP
// RUN: gpumem-run --help-hidden | FileCheck %s --check-prefix=HELP
// OPT-HELP: test-omit-pass{{.*}}(gpumem-read-dynamic-shared-size-nvvm, gpumem-rewrite-shuffle-up-for-nvvm, gpumem-promote-printf-args-for-nvvm, gpumem-finalize-nvvm-shared-memory)
// RUN: gpumem-run --help | FileCheck %s --check-prefix=HELP
// HELP: gpumem options:
// HELP: --target=<string>
// HELP-NOT: --amdgpu
// RUN: gpumem-run --help | wc -l | FileCheck %s --check-prefix=SHORT
// SHORT: {{^[1-4][0-9]$}}

// RUN: gpumem-run -v --target=cuda-emu %s 2>&1 >/dev/null | FileCheck %s --check-prefix=VERBOSE
// The pipeline one pass a line; times in seconds with three decimals.
// VERBOSE: gpumem: target cuda-emu, chip sm_90
// VERBOSE-NEXT: gpumem: pipeline any(
// VERBOSE-NEXT: {{^}}  gpumem-check-device-code,
// VERBOSE: {{^}}  gpu.module(
// VERBOSE: {{^}}    gpumem-lower-nvvm-to-cpu{
// VERBOSE: {{^}})
// VERBOSE-NEXT: gpumem: compiled in {{[0-9]+\.[0-9][0-9][0-9]}} s
// VERBOSE-NEXT: gpumem: running @main
// VERBOSE-NEXT: gpumem: ran in {{[0-9]+\.[0-9][0-9][0-9]}} s

// RUN: gpumem-compile --print-pipeline --target=cpu %s -o %t 2>&1 | FileCheck %s --check-prefix=PIPELINE
// PIPELINE: gpumem: pipeline any(
// PIPELINE: gpumem-lower-gpu-to-cpu-abi

// RUN: gpumem-run --mlir-timing --target=cpu %s 2>&1 >/dev/null | FileCheck %s --check-prefix=TIMING
// TIMING: Execution time report
// TIMING: GPUMemHoistWorkgroupAllocsPass

func.func @main() {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    gpu.terminator
  }
  return
}
