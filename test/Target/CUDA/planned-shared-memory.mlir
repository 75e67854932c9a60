// PTX-level proof of shared memory planning: a kernel whose three phases
// each use a 4 KiB tile gets one 4096-byte .shared array; with reuse off,
// three. ptxas (when present) counts the same bytes. Two 32 KiB phases fit
// the 48 KiB of static shared memory once they share bytes, so they stay
// static instead of moving to dynamic shared memory.

// RUN: gpumem-opt %s --gpumem-cuda-pipeline="chip=sm_90 format=isa" | gpumem-objects ptx - | FileCheck %s --implicit-check-not=.extern
// RUN: gpumem-opt %s --gpumem-cuda-pipeline="chip=sm_90 format=isa workgroup-reuse=false" | gpumem-objects ptx - | FileCheck %s --check-prefix=OFF
// RUN: %if ptxas %{ gpumem-opt %s --gpumem-cuda-pipeline="chip=sm_90 format=isa" | gpumem-objects smem - | FileCheck %s --check-prefix=SMEM %}
// RUN: %if ptxas %{ gpumem-opt %s --gpumem-cuda-pipeline="chip=sm_90 format=isa workgroup-reuse=false" | gpumem-objects smem - | FileCheck %s --check-prefix=SMEM-OFF %}

// With ptxas, the report adds each kernel's registers, read from the cubin,
// and its static shared memory as ptxas counts it.
// RUN: %if ptxas %{ gpumem-opt %s --gpumem-cuda-pipeline="chip=sm_90 format=bin smem-report=text" -o /dev/null 2>&1 | FileCheck %s --check-prefix=REGS %}
// REGS-DAG: registers of kernel @m::@big on sm_90 (ptxas): {{[0-9]+}} per thread, 32768 bytes static shared memory; block size not known at compile time
// REGS-DAG: registers of kernel @m::@phases on sm_90 (ptxas): {{[0-9]+}} per thread, 4096 bytes static shared memory; block size not known at compile time

// CHECK-LABEL: .visible .entry phases(
// CHECK:       .shared .align 16 .b8 __wg_phases_0[4096];
// CHECK-NOT:   .shared .align
// CHECK-LABEL: .visible .entry big(
// CHECK:       .shared .align 16 .b8 __wg_big_0[32768];

// OFF:       .extern .shared .align 16 .b8 __dynamic_shmem__0[];
// OFF-LABEL: .visible .entry phases(
// OFF-COUNT-3: .shared .align 16 .b8 __wg_phases_{{[0-2]}}[4096];
// OFF-LABEL: .visible .entry big(
// OFF-NOT:   .shared .align

// SMEM-DAG: m::phases: 4096 bytes shared memory
// SMEM-DAG: m::big: 32768 bytes shared memory
// SMEM-OFF-DAG: m::phases: 12288 bytes shared memory
// SMEM-OFF-DAG: m::big: 0 bytes shared memory

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @phases(%out: memref<1024xf32>) kernel {
      %tx = gpu.thread_id x
      %a = memref.alloca() : memref<1024xf32, #gpu.address_space<workgroup>>
      %v = memref.load %out[%tx] : memref<1024xf32>
      memref.store %v, %a[%tx] : memref<1024xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %x = memref.load %a[%tx] : memref<1024xf32, #gpu.address_space<workgroup>>
      %b = memref.alloca() : memref<1024xf32, #gpu.address_space<workgroup>>
      memref.store %x, %b[%tx] : memref<1024xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %y = memref.load %b[%tx] : memref<1024xf32, #gpu.address_space<workgroup>>
      %c = memref.alloca() : memref<1024xf32, #gpu.address_space<workgroup>>
      memref.store %y, %c[%tx] : memref<1024xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %z = memref.load %c[%tx] : memref<1024xf32, #gpu.address_space<workgroup>>
      memref.store %z, %out[%tx] : memref<1024xf32>
      gpu.return
    }
    gpu.func @big(%out: memref<8192xf32>) kernel {
      %tx = gpu.thread_id x
      %a = memref.alloca() : memref<8192xf32, #gpu.address_space<workgroup>>
      %v = memref.load %out[%tx] : memref<8192xf32>
      memref.store %v, %a[%tx] : memref<8192xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %x = memref.load %a[%tx] : memref<8192xf32, #gpu.address_space<workgroup>>
      %b = memref.alloca() : memref<8192xf32, #gpu.address_space<workgroup>>
      memref.store %x, %b[%tx] : memref<8192xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %y = memref.load %b[%tx] : memref<8192xf32, #gpu.address_space<workgroup>>
      memref.store %y, %out[%tx] : memref<8192xf32>
      gpu.return
    }
  }
}
