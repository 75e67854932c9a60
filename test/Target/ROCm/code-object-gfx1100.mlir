// A gfx1100 (wave32) kernel that needs no device library links into an HSA
// code object for gfx1100 with its LDS in the kernel descriptor. One that
// calls the device libraries is an error on this chip where they predate
// it (device-libs-invalid.mlir).

// REQUIRES: ld.lld
// RUN: gpumem-opt %s --gpumem-rocm-pipeline="chip=gfx1100" -o %t.mlir
// RUN: rm -rf %t.dir && mkdir %t.dir && gpumem-objects extract %t.mlir %t.dir
// RUN: llvm-readelf --file-header --dyn-symbols --notes %t.dir/main_kernel.gfx1100.hsaco | FileCheck %s
// RUN: llvm-objdump -d %t.dir/main_kernel.gfx1100.hsaco | FileCheck %s --check-prefix=CODE

// CHECK: Type: DYN (Shared object file)
// CHECK: Machine: EM_AMDGPU
// CHECK: Flags: 0x{{[0-9a-f]+}}, gfx1100
// CHECK-DAG: OBJECT {{.*}} main_kernel.kd
// CHECK-DAG: FUNC {{.*}} main_kernel
// CHECK: NT_AMDGPU_METADATA (AMDGPU Metadata)
// CHECK: amdhsa.kernels:
// CHECK: .group_segment_fixed_size: 1024
// CHECK: .max_flat_workgroup_size: 256
// CHECK: .name: main_kernel
// CHECK: .private_segment_fixed_size: 0
// CHECK: .symbol: main_kernel.kd
// CHECK: .wavefront_size: 32
// CHECK: amdhsa.target: amdgcn-amd-amdhsa--gfx1100

// CODE-LABEL: <main_kernel>:
// CODE: ds_store_b32
// CODE: s_barrier
// CODE: ds_load_b32
// CODE: v_sqrt_f32
// CODE: s_endpgm

func.func @main() {
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  %c255 = arith.constant 255 : index
  %buf = gpu.alloc () : memref<256xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
    %tile = memref.alloca() : memref<256xf32, #gpu.address_space<workgroup>>
    %v = memref.load %buf[%tx] : memref<256xf32>
    memref.store %v, %tile[%tx] : memref<256xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    %r = arith.subi %c255, %tx : index
    %w = memref.load %tile[%r] : memref<256xf32, #gpu.address_space<workgroup>>
    %s = math.sqrt %w : f32
    memref.store %s, %buf[%tx] : memref<256xf32>
    gpu.terminator
  }
  return
}
