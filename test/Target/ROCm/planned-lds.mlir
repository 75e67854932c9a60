// Planned and module-level workgroup memory in LDS. A kernel whose three
// phases each use a 4 KiB tile gets 4096 bytes of LDS (12288 without
// reuse); a device function's workgroup buffer becomes an LDS global of
// its gpu.module. None of it is scratch. Kernels with no known block size
// may be launched with up to 1024 threads.

// RUN: gpumem-opt %s %rocm-pipeline-gfx942 | gpumem-objects ptx - | FileCheck %s

// CHECK-LABEL: gpu.binary @m (gfx942)
// CHECK-LABEL: phases:
// CHECK-COUNT-3: ds_write_b32
// CHECK: .amdhsa_kernel phases
// CHECK-NEXT: .amdhsa_group_segment_fixed_size 4096
// CHECK-NEXT: .amdhsa_private_segment_fixed_size 0
// CHECK: .max_flat_workgroup_size: 1024
// CHECK-NEXT: .name: phases

// CHECK-LABEL: gpu.binary @main_kernel (gfx942)
// CHECK: ds_write_b32
// CHECK: ds_read_b32
// CHECK: .amdhsa_group_segment_fixed_size 256
// CHECK-NEXT: .amdhsa_private_segment_fixed_size 0

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
  }

  func.func @reverse(%v: f32, %tx: index) -> f32 {
    %c63 = arith.constant 63 : index
    %tile = memref.alloca() : memref<64xf32, #gpu.address_space<workgroup>>
    memref.store %v, %tile[%tx] : memref<64xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    %r = arith.subi %c63, %tx : index
    %w = memref.load %tile[%r] : memref<64xf32, #gpu.address_space<workgroup>>
    return %w : f32
  }

  func.func @main() {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %buf = gpu.alloc () : memref<64xf32>
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
      %v = memref.load %buf[%tx] : memref<64xf32>
      %w = func.call @reverse(%v, %tx) : (f32, index) -> f32
      memref.store %w, %buf[%tx] : memref<64xf32>
      gpu.terminator
    }
    return
  }
}
