// Every bad target option is one located error and a non-zero exit, never an
// LLVM ERROR from the NVPTX backend or a failing ptxas.

// RUN: not gpumem-opt %s --gpumem-cuda-pipeline="chip=sm_42 format=isa" 2>&1 | FileCheck %s --check-prefix=CHIP
// CHIP: cuda-pipeline-invalid.mlir:[[@LINE+50]]:1: error: unknown NVIDIA chip 'sm_42'; gpumem knows sm_70, sm_72, sm_75, sm_80, sm_86, sm_87, sm_89, sm_90, sm_90a, sm_100, sm_100a, sm_120, sm_120a
// CHIP-NOT: LLVM ERROR

// Upstream's default +ptx60 with sm_90 aborts in the NVPTX backend.
// RUN: not gpumem-opt %s --gpumem-cuda-pipeline="chip=sm_90 features=+ptx60 format=isa" 2>&1 | FileCheck %s --check-prefix=OLDPTX
// OLDPTX: error: PTX 6.0 cannot target sm_90, which needs PTX 7.8 or later
// OLDPTX-NOT: LLVM ERROR

// RUN: not gpumem-opt %s --gpumem-cuda-pipeline="chip=sm_90 features=+ptx99 format=isa" 2>&1 | FileCheck %s --check-prefix=NEWPTX
// NEWPTX: error: PTX 9.9 is newer than LLVM 22 emits (at most PTX 9.0)

// RUN: not gpumem-opt %s --gpumem-cuda-pipeline="chip=sm_90 features=+ptxab format=isa" 2>&1 | FileCheck %s --check-prefix=MALFORMED
// MALFORMED: error: malformed PTX feature in '+ptxab'; expected +ptxNN, for example +ptx80

// RUN: not gpumem-opt %s --gpumem-cuda-pipeline="chip=sm_90 opt-level=4 format=isa" 2>&1 | FileCheck %s --check-prefix=OPT
// OPT: error: opt-level 4 is out of range; expected 0 to 3

// RUN: not gpumem-opt %s --gpumem-cuda-pipeline="chip=sm_90 format=elf" 2>&1 | FileCheck %s --check-prefix=FORMAT
// FORMAT: error: unknown output format 'elf'; expected isa, bin or fatbin

// RUN: not gpumem-opt %s --gpumem-cuda-pipeline="chip=sm_90 format=bin toolkit=%t.missing" 2>&1 | FileCheck %s --check-prefix=NOPTXAS
// NOPTXAS: error: format=bin needs ptxas, which was not found in {{.*}}.missing/bin; use format=isa to let the driver compile PTX

// A toolkit named but missing is an error, not a silent fall back to PTX.
// RUN: not gpumem-opt %s --gpumem-cuda-pipeline="chip=sm_90 toolkit=%t.missing" 2>&1 | FileCheck %s --check-prefix=NOPTXAS

// LLVM features are +name: without the sign LLVM would ignore it; a PTX
// version has two digits.
// RUN: not gpumem-opt %s --gpumem-cuda-pipeline="chip=sm_90 features=ptx80 format=isa" 2>&1 | FileCheck %s --check-prefix=NOSIGN
// NOSIGN: error: malformed PTX feature in 'ptx80'; expected +ptxNN, for example +ptx80
// RUN: not gpumem-opt %s --gpumem-cuda-pipeline="chip=sm_90 features=+ptx8 format=isa" 2>&1 | FileCheck %s --check-prefix=ONEDIGIT
// ONEDIGIT: error: malformed PTX feature in '+ptx8'; expected +ptxNN, for example +ptx80

// An unknown host-buffers mode lists every mode and prints no module.
// RUN: not gpumem-opt %s --gpumem-cuda-pipeline="host-buffers=cpy format=isa" 2>&1 | FileCheck %s --check-prefix=BUFFERS
// BUFFERS: error: unknown host-buffers mode 'cpy'; expected copy, managed, register or none
// BUFFERS-NOT: note

// gpumem-compile has no format option: for a chip the toolkit here cannot
// compile, it embeds PTX instead of advising one.
// RUN: %if ptxas-cuda13 %{ gpumem-compile --target=cuda --chip=sm_70 %s -o %t.exe 2>&1 | FileCheck %s --allow-empty --check-prefix=COMPILE70 %}
// COMPILE70-NOT: error

// CUDA 13's ptxas no longer compiles for sm_70.
// RUN: %if ptxas-cuda13 %{ not gpumem-opt %s --gpumem-cuda-pipeline="chip=sm_70 format=bin" 2>&1 | FileCheck %s --check-prefix=DROPPED %}
// DROPPED: error: ptxas of CUDA {{1[3-9]}}.{{[0-9]}} does not compile for sm_70; use format=isa or another toolkit
// ... but PTX for sm_70 is still fine for a driver to JIT.
// RUN: gpumem-opt %s --gpumem-cuda-pipeline="chip=sm_70 format=isa" | FileCheck %s --check-prefix=SM70
// SM70: #nvvm.target<O = 3, chip = "sm_70", features = "+ptx60">

module {
  func.func @main() {
    %c1 = arith.constant 1 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
      gpu.terminator
    }
    return
  }
}
