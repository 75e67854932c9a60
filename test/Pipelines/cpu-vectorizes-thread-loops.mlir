// REQUIRES: x86_64
// RUN: gpumem-opt %s --gpumem-cpu-pipeline="cpu=x86-64-v3" -o %t.mlir
// RUN: rm -rf %t.dir && mkdir %t.dir && gpumem-objects extract %t.mlir %t.dir
// RUN: objdump -d --no-show-raw-insn %t.dir/kernels.cpu.so | FileCheck %s

// The cpu target runs a barrier-free kernel's blocks as loops over their
// threads, which LLVM vectorizes across threads: consecutive x threads'
// loads, multiplies, adds and stores become 8-wide AVX2 operations (the
// x86-64-v3 CPU is named so that the test does not depend on the host).
// Both with a known block size (constant loops) and without one (the block
// size read from the thread context, with a scalar remainder).

// CHECK-LABEL: <__gpumem_run_blocks_known>:
// CHECK-NOT: >:
// CHECK: vmulps {{.*}}%ymm
// CHECK-NOT: >:
// CHECK: vaddps {{.*}}%ymm
// CHECK-NOT: >:
// CHECK: vmovups %ymm{{[0-9]+}},
// CHECK-LABEL: <__gpumem_run_blocks_any>:
// CHECK-NOT: >:
// CHECK: vmulps {{.*}}%ymm
// CHECK-NOT: >:
// CHECK: vaddps {{.*}}%ymm
// CHECK-NOT: >:
// CHECK: vmovups %ymm{{[0-9]+}},
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @known(%x: memref<?xf32>, %y: memref<?xf32>, %a: f32) kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
      %bx = gpu.block_id x
      %tx = gpu.thread_id x
      %n = gpu.block_dim x
      %base = arith.muli %bx, %n : index
      %i = arith.addi %base, %tx : index
      %xv = memref.load %x[%i] : memref<?xf32>
      %yv = memref.load %y[%i] : memref<?xf32>
      %ax = arith.mulf %a, %xv : f32
      %s = arith.addf %ax, %yv : f32
      memref.store %s, %y[%i] : memref<?xf32>
      gpu.return
    }
    gpu.func @any(%x: memref<?xf32>, %y: memref<?xf32>, %a: f32) kernel {
      %bx = gpu.block_id x
      %tx = gpu.thread_id x
      %n = gpu.block_dim x
      %base = arith.muli %bx, %n : index
      %i = arith.addi %base, %tx : index
      %xv = memref.load %x[%i] : memref<?xf32>
      %yv = memref.load %y[%i] : memref<?xf32>
      %ax = arith.mulf %a, %xv : f32
      %s = arith.addf %ax, %yv : f32
      memref.store %s, %y[%i] : memref<?xf32>
      gpu.return
    }
  }
}
