// A workgroup memref.alloca inside gpu.launch is LDS on AMD GPUs: the
// kernel's descriptor asks for its 1024 bytes of group segment, the
// accesses are ds_write/ds_read (ds_store/ds_load on gfx11), and nothing
// is in private (scratch) memory. Upstream's ROCDL lowering alone makes it
// a per-thread scratch buffer (private_segment_fixed_size 1028) that the
// threads never share.

// RUN: gpumem-opt %s %rocm-pipeline-gfx90a | gpumem-objects ptx - | FileCheck %s --check-prefix=GFX90A
// RUN: gpumem-opt %s %rocm-pipeline-gfx1100 | gpumem-objects ptx - | FileCheck %s --check-prefix=GFX1100

// GFX90A: .amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
// GFX90A-LABEL: main_kernel:
// GFX90A: ds_write_b32
// GFX90A: s_barrier
// GFX90A: ds_read_b32
// GFX90A: s_endpgm
// GFX90A: .amdhsa_group_segment_fixed_size 1024
// GFX90A-NEXT: .amdhsa_private_segment_fixed_size 0
// GFX90A: .group_segment_fixed_size: 1024
// GFX90A: .private_segment_fixed_size: 0
// GFX90A: .wavefront_size: 64

// GFX1100: .amdgcn_target "amdgcn-amd-amdhsa--gfx1100"
// GFX1100-LABEL: main_kernel:
// GFX1100: ds_store_b32
// GFX1100: s_barrier
// GFX1100: ds_load_b32
// GFX1100: s_endpgm
// GFX1100: .amdhsa_group_segment_fixed_size 1024
// GFX1100-NEXT: .amdhsa_private_segment_fixed_size 0
// GFX1100: .group_segment_fixed_size: 1024
// GFX1100: .private_segment_fixed_size: 0
// GFX1100: .wavefront_size: 32

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
    memref.store %w, %buf[%tx] : memref<256xf32>
    gpu.terminator
  }
  return
}
