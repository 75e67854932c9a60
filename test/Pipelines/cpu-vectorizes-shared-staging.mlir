// REQUIRES: x86_64
// RUN: gpumem-opt %s --gpumem-cpu-pipeline="cpu=x86-64-v3" -o %t.mlir
// RUN: rm -rf %t.dir && mkdir %t.dir && gpumem-objects extract %t.mlir %t.dir
// RUN: objdump -d --no-show-raw-insn %t.dir/kernels.cpu.so | FileCheck %s
// RUN: gpumem-opt %s --gpumem-cpu-pipeline="cpu=znver4" -o %t.znver4.mlir
// RUN: rm -rf %t.znver4 && mkdir %t.znver4 && gpumem-objects extract %t.znver4.mlir %t.znver4
// RUN: objdump -d --no-show-raw-insn %t.znver4/kernels.cpu.so | FileCheck %s --check-prefix=AVX512

// A transpose through a padded workgroup tile. Its first phase copies a row
// of the input into a row of the tile: 16 consecutive threads, 16
// consecutive floats on each side. LLVM vectorizes that copy only when it
// knows that the tile (the block's arena) and the input do not overlap,
// which the cpu target tells it (lib/Target/CPU/ArenaAliasScopes.cpp):
// the block function then moves whole rows with 256-bit loads and stores.
// Without that, every float moves on its own (vmovss).
//
// With AVX-512 (znver4 here), LLVM would rather vectorize the copy down the
// tile's columns with gathers and scatters, which made the transpose three
// times slower on an AMD EPYC; the cpu target asks x86 code generation to
// prefer no scatters.

// CHECK-LABEL: <__gpumem_run_blocks_transpose>:
// CHECK-NOT: >:
// CHECK: vmovups {{.*}}%ymm
// CHECK-NOT: >:
// CHECK: vmovups %ymm{{[0-9]+}},

// AVX512-LABEL: <__gpumem_run_blocks_transpose>:
// AVX512-NOT: vscatter
// AVX512: ret
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @transpose(%in: memref<1024x1024xf32>, %out: memref<1024x1024xf32>)
        workgroup(%tile : memref<16x17xf32, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 16, 16, 1>} {
      %c16 = arith.constant 16 : index
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %r0 = arith.muli %by, %c16 : index
      %c0 = arith.muli %bx, %c16 : index
      %row = arith.addi %r0, %ty : index
      %col = arith.addi %c0, %tx : index
      %v = memref.load %in[%row, %col] : memref<1024x1024xf32>
      memref.store %v, %tile[%ty, %tx] : memref<16x17xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %orow = arith.addi %c0, %ty : index
      %ocol = arith.addi %r0, %tx : index
      %w = memref.load %tile[%tx, %ty] : memref<16x17xf32, #gpu.address_space<workgroup>>
      memref.store %w, %out[%orow, %ocol] : memref<1024x1024xf32>
      gpu.return
    }
  }
}
