// RUN: gpumem-opt %s -split-input-file -pass-pipeline='builtin.module(gpu.module(gpumem-lower-gpu-to-cpu-abi,gpumem-sanitize-memory-accesses))' | FileCheck %s
// RUN: gpumem-opt %s -split-input-file -pass-pipeline='builtin.module(gpu.module(gpumem-lower-gpu-to-cpu-abi,gpumem-sanitize-memory-accesses{version-blocks=false}))' | FileCheck %s --check-prefix=OFF

// saxpy's index, bx * bdx + tx, is in [bx * bdx, bx * bdx + bdx - 1] for
// the whole block: run_blocks evaluates that once per block, before the
// thread loops, and runs a copy of the kernel without checks when both
// memrefs hold it and no argument lies in freed memory (ctx field 152);
// otherwise the checked kernel, kept out of line.
// CHECK-LABEL: func.func private @__gpumem_kernel_saxpy(
// CHECK: arith.cmpi ult
// CHECK-LABEL: func.func private @__gpumem_kernel_saxpy_in_bounds(
// CHECK-NOT: arith.cmpi ult
// CHECK-NOT: llvm.call
// CHECK: memref.load %arg0
// CHECK: memref.load %arg1
// CHECK: memref.store
// CHECK-NEXT: return
// CHECK-LABEL: func.func private @__gpumem_run_blocks_saxpy(
// CHECK: scf.for
// CHECK: %[[BID:.*]] = llvm.load %{{.*}} : !llvm.ptr -> i64
// CHECK: %[[DIM0:.*]] = memref.dim
// CHECK: arith.cmpi slt, %{{.*}}, %[[DIM0]]
// CHECK: %[[DIM1:.*]] = memref.dim
// CHECK: arith.cmpi slt, %{{.*}}, %[[DIM1]]
// CHECK: llvm.getelementptr %arg1[152]
// CHECK: %[[FREED:.*]] = llvm.load
// CHECK: arith.cmpi eq, %[[FREED]]
// CHECK: scf.if
// CHECK: scf.for
// CHECK: func.call @__gpumem_kernel_saxpy_in_bounds(
// CHECK: } else {
// CHECK: scf.for
// CHECK: func.call @__gpumem_kernel_saxpy({{.*}}) {no_inline}
// OFF-NOT: _in_bounds
gpu.module @kernels {
  gpu.func @saxpy(%x: memref<?xf32>, %y: memref<?xf32>, %a: f32) kernel {
    %bx = gpu.block_id x
    %tx = gpu.thread_id x
    %bd = gpu.block_dim x
    %base = arith.muli %bx, %bd : index
    %i = arith.addi %base, %tx : index
    %xv = memref.load %x[%i] : memref<?xf32>
    %yv = memref.load %y[%i] : memref<?xf32>
    %ax = arith.mulf %a, %xv : f32
    %s = arith.addf %ax, %yv : f32
    memref.store %s, %y[%i] : memref<?xf32>
    gpu.return
  }
}

// -----

// An index loaded from memory has no range: that access keeps its check in
// the copy, the others lose theirs.
// CHECK-LABEL: func.func private @__gpumem_kernel_gather_in_bounds(
// CHECK: %[[J:.*]] = memref.load %arg0
// CHECK: arith.cmpi ult, %[[J]]
// CHECK: memref.load %arg1[%[[J]]]
// CHECK: } else {
// CHECK: llvm.call
// CHECK: }
// CHECK-NOT: arith.cmpi ult
// CHECK: memref.store
// CHECK-NEXT: return
gpu.module @kernels {
  gpu.func @gather(%idx: memref<?xindex>, %x: memref<?xf32>, %y: memref<?xf32>) kernel {
    %tx = gpu.thread_id x
    %j = memref.load %idx[%tx] : memref<?xindex>
    %v = memref.load %x[%j] : memref<?xf32>
    memref.store %v, %y[%tx] : memref<?xf32>
    gpu.return
  }
}

// -----

// A kernel with a barrier runs as a block-wide copy with thread loops of
// its own: their induction variables range over the block, the workgroup
// tile's bounds are static. The copy of the block-wide copy is checked
// nowhere.
// CHECK-LABEL: func.func private @__gpumem_kernel_block_tile_in_bounds(
// CHECK-NOT: arith.cmpi ult
// CHECK-NOT: llvm.call
// CHECK: return
// CHECK-LABEL: func.func private @__gpumem_run_blocks_tile(
// CHECK: scf.if
// CHECK-NEXT: func.call @__gpumem_kernel_block_tile_in_bounds(
// CHECK-NEXT: } else {
// CHECK-NEXT: func.call @__gpumem_kernel_block_tile({{.*}}) {no_inline}
gpu.module @kernels {
  gpu.func @tile(%in: memref<?x64xf32>, %out: memref<?x64xf32>) workgroup(%t: memref<16x17xf32, 3>) kernel {
    %c16 = arith.constant 16 : index
    %bx = gpu.block_id x
    %tx = gpu.thread_id x
    %ty = gpu.thread_id y
    %r0 = arith.muli %bx, %c16 : index
    %row = arith.addi %r0, %ty : index
    %v = memref.load %in[%row, %tx] : memref<?x64xf32>
    memref.store %v, %t[%ty, %tx] : memref<16x17xf32, 3>
    gpu.barrier
    %w = memref.load %t[%tx, %ty] : memref<16x17xf32, 3>
    memref.store %w, %out[%row, %tx] : memref<?x64xf32>
    gpu.return
  }
}

// -----

// Loops, divisions, remainders and masks by constants, min and select keep
// ranges; a while loop's value has none, so nothing is proved and nothing
// is copied.
// CHECK-LABEL: func.func private @__gpumem_kernel_ranges_in_bounds(
// CHECK-NOT: arith.cmpi ult
// CHECK-NOT: llvm.call
// CHECK: return
// CHECK-LABEL: func.func private @__gpumem_kernel_unknown(
// CHECK-NOT: _in_bounds
gpu.module @kernels {
  gpu.func @ranges(%m: memref<?xf32>, %n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c7 = arith.constant 7 : index
    %tx = gpu.thread_id x
    %q = arith.divui %tx, %c4 : index
    %r = arith.remui %tx, %c4 : index
    %k = arith.andi %tx, %c7 : index
    %lo = arith.minsi %q, %r : index
    %big = arith.cmpi sgt, %q, %r : index
    %pick = arith.select %big, %q, %k : index
    scf.for %i = %c0 to %n step %c1 {
      %a = arith.addi %i, %lo : index
      %v = memref.load %m[%a] : memref<?xf32>
      memref.store %v, %m[%pick] : memref<?xf32>
    }
    gpu.return
  }
  gpu.func @unknown(%m: memref<?xf32>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %tx = gpu.thread_id x
    %last = scf.while (%s = %tx) : (index) -> index {
      %more = arith.cmpi sgt, %s, %c0 : index
      scf.condition(%more) %s : index
    } do {
    ^bb0(%s: index):
      %h = arith.shrui %s, %c1 : index
      scf.yield %h : index
    }
    %v = memref.load %m[%last] : memref<?xf32>
    memref.store %v, %m[%last] : memref<?xf32>
    gpu.return
  }
}
