// Dynamic shared memory is LDS after the kernel's static LDS, sized at
// launch: the kernel descriptor counts only the static bytes, the dynamic
// buffer's address is the static size (0x200 here), and memref.dim of it
// reads the dispatch packet's group_segment_size (byte 0x1c) minus that
// address. A dynamic-size workgroup allocation is packed into it, with the
// launch computing the bytes. No scratch anywhere.

// RUN: gpumem-opt %s %rocm-pipeline-gfx90a | FileCheck %s --check-prefix=HOST
// RUN: gpumem-opt %s %rocm-pipeline-gfx90a | gpumem-objects ptx - | FileCheck %s --check-prefix=GFX90A
// RUN: gpumem-opt %s %rocm-pipeline-gfx1100 | gpumem-objects ptx - | FileCheck %s --check-prefix=GFX1100

// The launches pass their dynamic LDS bytes: 1024 as written, 4 * %n
// computed for the packed allocation.
// HOST-LABEL: llvm.func @main
// HOST: %[[BYTES:.*]] = llvm.mlir.constant(1024 : i32) : i32
// HOST: gpu.launch_func @main_kernel::@main_kernel {{.*}} dynamic_shared_memory_size %[[BYTES]]
// HOST: gpu.launch_func @main_kernel_0::@main_kernel {{.*}} dynamic_shared_memory_size %{{.*}} args

// GFX90A-LABEL: gpu.binary @main_kernel (gfx90a)
// GFX90A: v_add_u32_e32 [[DYN:v[0-9]+]], 0x200, [[STATIC:v[0-9]+]]
// GFX90A: ds_write_b32 [[STATIC]],
// GFX90A: ds_write_b32 [[DYN]],
// GFX90A: s_barrier
// GFX90A: s_load_dword [[TOTAL:s[0-9]+]], s[{{[0-9]+}}:{{[0-9]+}}], 0x1c
// GFX90A: ds_read_b32
// GFX90A: ds_read_b32
// GFX90A: s_sub_i32 {{s[0-9]+}}, [[TOTAL]], 0x200
// GFX90A: .amdhsa_group_segment_fixed_size 512
// GFX90A-NEXT: .amdhsa_private_segment_fixed_size 0
// GFX90A: .amdhsa_user_sgpr_dispatch_ptr 1
// GFX90A: .group_segment_fixed_size: 512
// GFX90A: .private_segment_fixed_size: 0
// GFX90A-LABEL: gpu.binary @main_kernel_0 (gfx90a)
// GFX90A: ds_write_b32
// GFX90A: ds_read_b32
// GFX90A: .amdhsa_group_segment_fixed_size 0
// GFX90A-NEXT: .amdhsa_private_segment_fixed_size 0

// GFX1100-LABEL: gpu.binary @main_kernel (gfx1100)
// GFX1100: add_nc_u32 [[DYN:v[0-9]+]], 0x200, [[STATIC:v[0-9]+]]
// GFX1100: ds_store_b32 [[STATIC]],
// GFX1100: ds_store_b32 [[DYN]],
// GFX1100: s_barrier
// GFX1100: s_load_b32 [[TOTAL:s[0-9]+]], s[{{[0-9]+}}:{{[0-9]+}}], 0x1c
// GFX1100: ds_load_b32
// GFX1100: ds_load_b32
// GFX1100: s_sub_i32 {{s[0-9]+}}, [[TOTAL]], 0x200
// GFX1100: .amdhsa_group_segment_fixed_size 512
// GFX1100-NEXT: .amdhsa_private_segment_fixed_size 0
// GFX1100: .group_segment_fixed_size: 512
// GFX1100: .private_segment_fixed_size: 0
// GFX1100: .wavefront_size: 32
// GFX1100-LABEL: gpu.binary @main_kernel_0 (gfx1100)
// GFX1100: ds_store_b32
// GFX1100: ds_load_b32
// GFX1100: .amdhsa_group_segment_fixed_size 0
// GFX1100-NEXT: .amdhsa_private_segment_fixed_size 0

func.func @main(%n: index) {
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  %bytes = arith.constant 1024 : i32
  %buf = gpu.alloc () : memref<128xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1)
             dynamic_shared_memory_size %bytes {
    %c0 = arith.constant 0 : index
    %tile = memref.alloca() : memref<128xf32, #gpu.address_space<workgroup>>
    %dyn = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %view = memref.view %dyn[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<128xf32, #gpu.address_space<workgroup>>
    %v = memref.load %buf[%tx] : memref<128xf32>
    memref.store %v, %tile[%tx] : memref<128xf32, #gpu.address_space<workgroup>>
    %two = arith.addf %v, %v : f32
    memref.store %two, %view[%tx] : memref<128xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    %a = memref.load %tile[%tx] : memref<128xf32, #gpu.address_space<workgroup>>
    %b = memref.load %view[%tx] : memref<128xf32, #gpu.address_space<workgroup>>
    %size = memref.dim %dyn, %c0 : memref<?xi8, #gpu.address_space<workgroup>>
    %si = arith.index_cast %size : index to i32
    %sf = arith.sitofp %si : i32 to f32
    %s = arith.addf %a, %b : f32
    %t = arith.addf %s, %sf : f32
    memref.store %t, %buf[%tx] : memref<128xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1) {
    %row = memref.alloc(%n) : memref<?xf32, #gpu.address_space<workgroup>>
    %v = memref.load %buf[%tx] : memref<128xf32>
    memref.store %v, %row[%tx] : memref<?xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    %w = memref.load %row[%tx] : memref<?xf32, #gpu.address_space<workgroup>>
    memref.store %w, %buf[%tx] : memref<128xf32>
    gpu.terminator
  }
  return
}
