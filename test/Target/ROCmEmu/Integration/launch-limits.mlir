// HIP's launch limits on rocm-emu: the checks hipModuleLaunchKernel makes,
// with the messages the rocm runtime prints (HIP's error and the limit),
// then the launch's line. The sizes are read from memory, so only the
// runtime sees them; each RUN line writes them into a copy of this file.
//
// A workgroup of more than 1024 work-items:
// RUN: sed -e 's/@BX@/2048/; s/@GY@/1/; s/@DYN@/16/' %s > %t.block.mlir
// RUN: not gpumem-run --target=rocm-emu --chip=gfx1100 %t.block.mlir 2>&1 | FileCheck %s --check-prefix=BLOCK --match-full-lines
// BLOCK:launched
// BLOCK-NEXT:gpumem: error: hipModuleLaunchKernel failed for kernel 'main_kernel' (grid 1x1x1, block 2048x1x1, 64 bytes of dynamic LDS): hipErrorInvalidValue: invalid argument (a workgroup of 2048 x 1 x 1 = 2048 work-items; gfx1100 allows at most 1024)
// BLOCK-NEXT:gpumem: note: in the launch at {{.*}}.block.mlir:{{[0-9]+}}:3
// BLOCK-NOT:{{.}}
//
// A grid of 65536 workgroups in y runs (CUDA allows 65535), one more does
// not:
// RUN: sed -e 's/@BX@/1/; s/@GY@/65536/; s/@DYN@/16/' %s > %t.grid-ok.mlir
// RUN: gpumem-run --target=rocm-emu --chip=gfx90a %t.grid-ok.mlir 2>&1 | FileCheck %s --check-prefix=RAN --match-full-lines
// RAN:launched
// RAN-NEXT:done
// RUN: sed -e 's/@BX@/1/; s/@GY@/65537/; s/@DYN@/16/' %s > %t.grid.mlir
// RUN: not gpumem-run --target=rocm-emu --chip=gfx90a %t.grid.mlir 2>&1 | FileCheck %s --check-prefix=GRID --match-full-lines
// GRID:launched
// GRID-NEXT:gpumem: error: hipModuleLaunchKernel failed for kernel 'main_kernel' (grid 1x65537x1, block 1x1x1, 64 bytes of dynamic LDS): hipErrorInvalidValue: invalid argument (a grid of 1 x 65537 x 1 workgroups; HIP allows at most 2147483647 x 65536 x 65536)
// GRID-NEXT:gpumem: note: in the launch at {{.*}}.grid.mlir:{{[0-9]+}}:3
// GRID-NOT:{{.}}
//
// Dynamic LDS over the chip's LDS by itself (64 KiB on gfx90a):
// RUN: sed -e 's/@BX@/64/; s/@GY@/1/; s/@DYN@/16400/' %s > %t.lds.mlir
// RUN: not gpumem-run --target=rocm-emu --chip=gfx90a %t.lds.mlir 2>&1 | FileCheck %s --check-prefix=LDS --match-full-lines
// LDS:launched
// LDS-NEXT:gpumem: error: hipModuleLaunchKernel failed for kernel 'main_kernel' (grid 1x1x1, block 64x1x1, 65600 bytes of dynamic LDS): hipErrorInvalidValue: invalid argument (65600 bytes of dynamic LDS; gfx90a has 65536 per workgroup)
// LDS-NEXT:gpumem: note: in the launch at {{.*}}.lds.mlir:{{[0-9]+}}:3
// LDS-NOT:{{.}}
//
// Dynamic LDS that fits alone but not beside the kernel's 1024 bytes of
// static LDS; on gfx950, with 160 KiB, the same launch runs:
// RUN: sed -e 's/@BX@/64/; s/@GY@/1/; s/@DYN@/16200/' %s > %t.total.mlir
// RUN: not gpumem-run --target=rocm-emu --chip=gfx90a %t.total.mlir 2>&1 | FileCheck %s --check-prefix=TOTAL --match-full-lines
// TOTAL:launched
// TOTAL-NEXT:gpumem: error: kernel 'main_kernel' asks for 65824 bytes of LDS (1024 static + 64800 dynamic); gfx90a allows at most 65536 per workgroup
// TOTAL-NEXT:gpumem: note: in the launch at {{.*}}.total.mlir:{{[0-9]+}}:3
// TOTAL-NOT:{{.}}
// RUN: gpumem-run --target=rocm-emu --chip=gfx950 %t.total.mlir 2>&1 | FileCheck %s --check-prefix=RAN --match-full-lines

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %cfg = memref.alloc() : memref<3xindex>
  %bx = arith.constant @BX@ : index
  %gy = arith.constant @GY@ : index
  %dyn = arith.constant @DYN@ : index
  memref.store %bx, %cfg[%c0] : memref<3xindex>
  memref.store %gy, %cfg[%c1] : memref<3xindex>
  memref.store %dyn, %cfg[%c2] : memref<3xindex>
  %sx = memref.load %cfg[%c0] : memref<3xindex>
  %ny = memref.load %cfg[%c1] : memref<3xindex>
  %n = memref.load %cfg[%c2] : memref<3xindex>
  vector.print str "launched\n"
  gpu.launch blocks(%b0, %b1, %b2) in (%g0 = %c1, %g1 = %ny, %g2 = %c1)
             threads(%tx, %ty, %tz) in (%s0 = %sx, %s1 = %c1, %s2 = %c1) {
    %static = memref.alloca() : memref<256xf32, #gpu.address_space<workgroup>>
    %dynamic = memref.alloca(%n) : memref<?xf32, #gpu.address_space<workgroup>>
    %f = arith.constant 1.0 : f32
    %k0 = arith.constant 0 : index
    memref.store %f, %static[%k0] : memref<256xf32, #gpu.address_space<workgroup>>
    memref.store %f, %dynamic[%k0] : memref<?xf32, #gpu.address_space<workgroup>>
    gpu.terminator
  }
  vector.print str "done\n"
  memref.dealloc %cfg : memref<3xindex>
  return
}
