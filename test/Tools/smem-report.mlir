// The workgroup memory report and picture on every target, from the tools'
// flags; a wrong report format is an error.

// RUN: gpumem-compile --target=cpu --smem-report --smem-svg=%t.cpu.svg %s -o %t.cpu 2>&1 | FileCheck %s --check-prefixes=REPORT,CPU
// RUN: FileCheck %s --check-prefix=SVG < %t.cpu.svg
// RUN: gpumem-compile --target=cuda-emu --smem-report %s -o %t.emu 2>&1 | FileCheck %s --check-prefixes=REPORT,NVIDIA
// RUN: gpumem-compile --target=cuda --chip=sm_80 --smem-report %s -o %t.cuda 2>&1 | FileCheck %s --check-prefixes=REPORT,SM80
// RUN: %if ptxas %{ gpumem-compile --target=cuda --chip=sm_80 --smem-report %s -o %t.cuda2 2>&1 | FileCheck %s --check-prefix=REGS %}
// RUN: gpumem-compile --target=vulkan --smem-report %s -o %t.vk 2>&1 | FileCheck %s --check-prefixes=REPORT,VULKAN
// RUN: gpumem-compile --target=cpu --smem-report=json --smem-report-file=%t.json %s -o %t.cpu2
// RUN: FileCheck %s --check-prefix=JSON < %t.json
// RUN: gpumem-compile --target=cpu --workgroup-reuse=false --smem-report %s -o %t.off 2>&1 | FileCheck %s --check-prefix=OFF
// RUN: not gpumem-compile --target=cpu --smem-report=xml %s -o %t.bad 2>&1 | FileCheck %s --check-prefix=BAD

// CPU:    workgroup memory of kernel @main_kernel::@main_kernel ({{.*}}smem-report.mlir:[[#LAUNCH:]]:3), target cpu
// NVIDIA: workgroup memory of kernel @main_kernel::@main_kernel ({{.*}}smem-report.mlir:[[#LAUNCH:]]:3), target cuda-emu sm_90
// SM80:   workgroup memory of kernel @main_kernel::@main_kernel ({{.*}}smem-report.mlir:[[#LAUNCH:]]:3), target cuda sm_80
// VULKAN: workgroup memory of kernel @main_kernel::@main_kernel ({{.*}}smem-report.mlir:[[#LAUNCH:]]:3), target vulkan
// REPORT-NEXT: #    line       buffer              bytes align  pad   offset  live (lines)     shares with
// REPORT-NEXT: #0   [[#LAUNCH+2]]:10       16x16xf32            1024    16    0        0  [[#LAUNCH+3]]:5..[[#LAUNCH+3]]:5       #1
// REPORT-NEXT: #1   [[#LAUNCH+5]]:10       16x16xf32            1024    16    0        0  [[#LAUNCH+6]]:5..[[#LAUNCH+6]]:5       #0
// REPORT-NEXT: static: 1024 bytes planned, lower bound 1024, 2048 without reuse
// REPORT-NEXT: barrier inserted at {{.*}}smem-report.mlir:[[#LAUNCH+6]]:5
// CPU-NEXT:    limit: 232448 bytes per block
// NVIDIA-NEXT: limit: 232448 bytes per block on sm_90 (49152 static)
// NVIDIA-NEXT: occupancy: 8 blocks per SM (114 by shared memory, 76 without reuse; 8 by 256 threads per block; 32 per SM at most)
// SM80-NEXT:   limit: 166912 bytes per block on sm_80 (49152 static)
// VULKAN-NEXT: limit: 32768 bytes per block
// REGS: registers of kernel @main_kernel::@main_kernel on sm_80 (ptxas): {{[0-9]+}} per thread, {{[0-9]+}} bytes static shared memory; occupancy 8 blocks per SM ({{[0-9]+}} by registers, {{[0-9]+}} by shared memory, 8 by threads)

// SVG: <svg
// SVG: @main_kernel::@main_kernel: 1024 static bytes planned

// JSON: "target": "cpu"
// JSON: "static_bytes": 1024,

// OFF: static: 2048 bytes planned, lower bound 1024, 2048 without reuse (not planned: reuse is off)

// BAD: error: unknown --smem-report 'xml'; expected text or json

func.func @main() {
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  %f = arith.constant 1.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
    %a = memref.alloca() : memref<16x16xf32, #gpu.address_space<workgroup>>
    memref.store %f, %a[%tx, %tx] : memref<16x16xf32, #gpu.address_space<workgroup>>

    %b = memref.alloca() : memref<16x16xf32, #gpu.address_space<workgroup>>
    memref.store %f, %b[%tx, %tx] : memref<16x16xf32, #gpu.address_space<workgroup>>
    gpu.terminator
  }
  return
}
