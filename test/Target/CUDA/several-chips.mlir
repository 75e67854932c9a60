// One gpu.module for several NVIDIA chips (chip=sm_80,sm_90, in any order):
// a #nvvm.target per chip, oldest first; each chip's shared memory maximum
// and op requirements checked, the error naming the chip; without ptxas
// the PTX of each chip, the oldest embedded (the driver compiles it for the
// newer ones); with ptxas one fatbin of a cubin per chip and the newest
// chip's PTX, which the executable embeds.

// RUN: gpumem-opt %s --gpumem-attach-nvvm-target="chip=sm_90,sm_80" | FileCheck %s --check-prefix=ATTACH
// ATTACH: gpu.module @kernels [#nvvm.target<O = 3, chip = "sm_80", features = "+ptx70">, #nvvm.target<O = 3, chip = "sm_90", features = "+ptx78">]

// RUN: gpumem-opt %s --gpumem-cuda-pipeline="chip=sm_90,sm_80 format=isa" | gpumem-objects chips - | FileCheck %s --check-prefix=ISA
// ISA: kernels: sm_80 ptx
// ISA-NEXT: kernels: sm_90 ptx
// RUN: gpumem-opt %s --gpumem-cuda-pipeline="chip=sm_90,sm_80 format=isa" | FileCheck %s --check-prefix=ISA-BINARY
// ISA-BINARY: gpu.binary @kernels  [#gpu.object<#nvvm.target<O = 3, chip = "sm_80"

// RUN: %if ptxas-cuda13 %{ gpumem-opt %s --gpumem-cuda-pipeline="chip=sm_90,sm_80" -o %t.mlir %}
// RUN: %if ptxas-cuda13 %{ gpumem-objects chips %t.mlir | FileCheck %s --check-prefix=FATBIN %}
// RUN: %if ptxas-cuda13 %{ FileCheck %s --check-prefix=SELECT < %t.mlir %}
// FATBIN: kernels: sm_80 cubin
// FATBIN-NEXT: kernels: sm_90 cubin
// FATBIN-NEXT: kernels: sm_90 ptx
// FATBIN-NEXT: kernels: sm_90 fatbin, {{[0-9]+}} bytes: sm_80 cubin, sm_90 cubin, sm_90 ptx
// SELECT: gpu.binary @kernels <#gpu.select_object<3 : i32>>

// The executable embeds the fatbin: gpumem-compile --chip takes the list.
// RUN: %if ptxas-cuda13 %{ gpumem-compile --target=cuda --chip=sm_90,sm_80 %gpumem_src_root/examples/tiled-matmul.mlir -o %t.exe %}
// RUN: %if ptxas-cuda13 %{ gpumem-objects chips %t.exe | FileCheck %s --check-prefix=EXE %}
// EXE: fatbin at offset {{[0-9]+}}: sm_80 cubin, sm_90 cubin, sm_90 ptx
// EXE-NOT: fatbin

// The report reads the registers of each chip's cubin.
// RUN: %if ptxas-cuda13 %{ gpumem-opt %s --gpumem-cuda-pipeline="chip=sm_80,sm_90 smem-report=text" -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPORT %}
// REPORT: registers of kernel @kernels::@scale on sm_80 (ptxas)
// REPORT: registers of kernel @kernels::@scale on sm_90 (ptxas)

// Limits and requirements per chip.
// RUN: not gpumem-opt %S/Inputs/too-much-shared-memory.mlir --gpumem-cuda-pipeline="chip=sm_90,sm_86 format=isa" 2>&1 | FileCheck %s --check-prefix=LIMIT
// LIMIT: error: 'gpu.func' op uses {{[0-9]+}} bytes of workgroup memory; sm_86 allows at most 101376 per block
// RUN: not gpumem-opt %S/Inputs/tensor-cores-sm80.mlir --gpumem-cuda-pipeline="chip=sm_75,sm_90 format=isa" 2>&1 | FileCheck %s --check-prefix=NEEDS
// NEEDS: error: {{.*}}the target chip is sm_75
// RUN: not gpumem-opt %s --gpumem-cuda-pipeline="chip=sm_80,sm_99 format=isa" 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not gpumem-opt %s --gpumem-cuda-emu-pipeline="chip=sm_80,sm_90" 2>&1 | FileCheck %s --check-prefix=EMU
// EMU: error: chip=sm_80,sm_90 names several chips; the cuda-emu target plans for one (the cuda pipeline takes several)
// UNKNOWN: error: unknown NVIDIA chip 'sm_99'; gpumem knows

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @scale(%data: memref<256xf32>) kernel {
      %t = gpu.thread_id x
      %v = memref.load %data[%t] : memref<256xf32>
      %w = arith.addf %v, %v : f32
      memref.store %w, %data[%t] : memref<256xf32>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    %data = gpu.alloc () : memref<256xf32>
    gpu.launch_func @kernels::@scale blocks in (%c1, %c1, %c1) threads in (%c256, %c1, %c1) args(%data : memref<256xf32>)
    return
  }
}
