// The LDS a workgroup may use is checked at compile time against the
// chip's limit (64 KiB on gfx90a and gfx1100, 160 KiB on gfx950): static
// workgroup memory, plus a launch's dynamic bytes when they are a constant.
// Over the limit is an error at the launch, with a note at the largest
// buffer; on gfx950 the same kernel compiles, all of it LDS.

// RUN: gpumem-opt %s -split-input-file %rocm-front-gfx90a -verify-diagnostics
// RUN: gpumem-opt %s -split-input-file %rocm-front-gfx1100 -verify-diagnostics
// RUN: gpumem-opt %s -split-input-file %rocm-pipeline-gfx950 | gpumem-objects ptx - | FileCheck %s --check-prefix=GFX950

// The report names the chip's limit.
// RUN: gpumem-opt %s -split-input-file --pass-pipeline='builtin.module(gpumem-hoist-workgroup-allocs,gpu-kernel-outlining,gpumem-hoist-workgroup-allocs,gpumem-plan-workgroup-memory{target=rocm chip=gfx950 report=text})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPORT
// REPORT: workgroup memory of kernel @main_kernel::@main_kernel ({{.*}}), target rocm gfx950
// REPORT: limit: 163840 bytes per block

// GFX950-LABEL: gpu.binary @main_kernel (gfx950)
// GFX950: .amdhsa_group_segment_fixed_size 70000
// GFX950-NEXT: .amdhsa_private_segment_fixed_size 0
// GFX950-LABEL: gpu.binary @main_kernel (gfx950)
// GFX950: .amdhsa_group_segment_fixed_size 32768
// GFX950-NEXT: .amdhsa_private_segment_fixed_size 0

func.func @main() {
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %buf = gpu.alloc () : memref<64xf32>
  // expected-error-re @below {{'gpu.launch_func' op launches kernel 'main_kernel' with 70000 bytes of static workgroup memory; gfx{{90a|1100}} allows at most 65536 bytes of LDS per workgroup}}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    // expected-note @below {{the largest static workgroup buffer, 70000 bytes of 'memref<17500xf32, #gpu.address_space<workgroup>>'}}
    %big = memref.alloca() : memref<17500xf32, #gpu.address_space<workgroup>>
    %v = memref.load %buf[%tx] : memref<64xf32>
    memref.store %v, %big[%tx] : memref<17500xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    %w = memref.load %big[%tx] : memref<17500xf32, #gpu.address_space<workgroup>>
    memref.store %w, %buf[%tx] : memref<64xf32>
    gpu.terminator
  }
  return
}

// -----

func.func @main() {
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %bytes = arith.constant 40000 : i32
  %buf = gpu.alloc () : memref<64xf32>
  // expected-error-re @below {{'gpu.launch_func' op launches kernel 'main_kernel' with 72768 bytes of workgroup memory (32768 static + 40000 dynamic); gfx{{90a|1100}} allows at most 65536 bytes of LDS per workgroup}}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1)
             dynamic_shared_memory_size %bytes {
    // expected-note @below {{the largest static workgroup buffer, 32768 bytes of 'memref<8192xf32, #gpu.address_space<workgroup>>'}}
    %tile = memref.alloca() : memref<8192xf32, #gpu.address_space<workgroup>>
    %v = memref.load %buf[%tx] : memref<64xf32>
    memref.store %v, %tile[%tx] : memref<8192xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    %w = memref.load %tile[%tx] : memref<8192xf32, #gpu.address_space<workgroup>>
    memref.store %w, %buf[%tx] : memref<64xf32>
    gpu.terminator
  }
  return
}
