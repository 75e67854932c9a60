// --smem-report on the rocm target ends with a line per kernel read from
// the HSA code object's amdhsa.kernels metadata: VGPRs (with AGPRs on
// gfx90a), SGPRs, LDS and scratch, and the waves per SIMD that registers
// and LDS allow. 32 KiB of LDS and 256 threads: a gfx90a CU (64 KiB) holds
// 2 workgroups of 4 wave64s, 2 waves per SIMD; a gfx1100 WGP (128 KiB)
// holds 4 of 8 wave32s, 8 per SIMD. A kernel launched with a block size
// known only at run time gets no LDS limit.

// REQUIRES: ld.lld
// RUN: gpumem-opt %s --gpumem-rocm-pipeline="chip=gfx90a smem-report=text" -o /dev/null 2>&1 | FileCheck %s --check-prefix=GFX90A
// RUN: gpumem-opt %s --gpumem-rocm-pipeline="chip=gfx1100 smem-report=text" -o /dev/null 2>&1 | FileCheck %s --check-prefix=GFX1100
// RUN: gpumem-opt %s --gpumem-rocm-pipeline="chip=gfx90a smem-report=json" -o /dev/null 2>&1 | FileCheck %s --check-prefix=JSON
// RUN: gpumem-opt %s --gpumem-rocm-pipeline="chip=gfx90a smem-report=json smem-report-file=%t.json" -o /dev/null
// RUN: FileCheck %s --check-prefix=FILE < %t.json
// format=isa makes no code object, so no register lines.
// RUN: gpumem-opt %s --gpumem-rocm-pipeline="chip=gfx90a smem-report=text format=isa" -o /dev/null 2>&1 | FileCheck %s --check-prefix=ISA

// GFX90A: registers of kernel @main_kernel::@main_kernel on gfx90a (code object): {{[0-9]+}} VGPRs, 0 AGPRs, {{[0-9]+}} SGPRs, 32768 bytes LDS, 0 bytes scratch; occupancy 2 waves per SIMD (8 by VGPRs, 8 by SGPRs, 2 by LDS)
// GFX90A: registers of kernel @main_kernel_0::@main_kernel on gfx90a (code object): {{[0-9]+}} VGPRs, 0 AGPRs, {{[0-9]+}} SGPRs, 0 bytes LDS, 0 bytes scratch; occupancy 8 waves per SIMD (8 by VGPRs, 8 by SGPRs, LDS not counted: block size not known at compile time)

// GFX1100: registers of kernel @main_kernel::@main_kernel on gfx1100 (code object): {{[0-9]+}} VGPRs, {{[0-9]+}} SGPRs, 32768 bytes LDS, 0 bytes scratch; occupancy 8 waves per SIMD (16 by VGPRs, 16 by SGPRs, 8 by LDS)
// GFX1100: registers of kernel @main_kernel_0::@main_kernel on gfx1100

// JSON: {"agprs":0,"chip":"gfx90a","kernel":"main_kernel","lds_bytes":32768,"module":"main_kernel","occupancy_with_registers":{"by_lds":2,"by_sgprs":8,"by_vgprs":8,"max_waves_per_simd":8,"waves_per_simd":2},"scratch_bytes_per_lane":0,"sgprs":{{[0-9]+}},"vgprs":{{[0-9]+}},"wavefront_size":64}

// FILE: "kernels": [
// FILE: "kernel": "main_kernel",
// FILE: "lds_bytes": 32768,
// FILE: "module": "main_kernel",
// FILE: "occupancy_with_registers": {
// FILE-NEXT: "by_lds": 2,
// FILE: "waves_per_simd": 2

// ISA-NOT: registers of kernel

func.func @main(%n: index) {
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  %buf = gpu.alloc () : memref<8192xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
    %tile = memref.alloca() : memref<8192xf32, #gpu.address_space<workgroup>>
    %v = memref.load %buf[%tx] : memref<8192xf32>
    memref.store %v, %tile[%tx] : memref<8192xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    %w = memref.load %tile[%tx] : memref<8192xf32, #gpu.address_space<workgroup>>
    memref.store %w, %buf[%tx] : memref<8192xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %n, %sy = %c1, %sz = %c1) {
    %v = memref.load %buf[%tx] : memref<8192xf32>
    %s = arith.addf %v, %v : f32
    memref.store %s, %buf[%tx] : memref<8192xf32>
    gpu.terminator
  }
  return
}
