// RUN: gpumem-run --target=cpu %s | FileCheck %s --match-full-lines --strict-whitespace
// RUN: env GPUMEM_CPU_THREADS=1 gpumem-run --target=cpu %s | FileCheck %s --match-full-lines --strict-whitespace
// RUN: %if cuda-emu %{ gpumem-run --target=cuda-emu %s | FileCheck %s --match-full-lines --strict-whitespace %}
// RUN: %if vulkan %{ gpumem-run --target=vulkan %s | FileCheck %s --match-full-lines --strict-whitespace %}
// RUN: %if cuda %{ gpumem-run --target=cuda %s | FileCheck %s --match-full-lines --strict-whitespace %}

// Loops with the same bounds in every thread, between barriers. On the cpu
// target, thread-loop fission runs such a loop once per block around loops
// over the threads when its accesses are contiguous or equal across x, so
// that the loop over x vectorizes; the values it carries per thread then
// live in arrays.
//
// The first kernel (8x4 threads) does two steps of a tile product: each
// step fills a 4x8 tile, and each thread sums tile[ty][k] * tile[k mod 4][tx]
// over k < 8 into its running sum, which the inner loop continues from the
// outer one. The inner loop also carries a per-thread value that gets a
// value equal in all threads (2k) and a counter equal in all threads.
// Rows 1-4 print the sums, rows 5-8 ty + the last 2k + the counter, twice.
//
// The second kernel (8 threads) runs an inner loop to a per-thread bound
// (tx + i): fission keeps that loop inside the thread loop. Thread tx sums
// v + k over k < tx + i, where v = tx + 2i; rows 9-10 print i = 0 and 1.

// CHECK:( 12992, 13305, 13618, 13931, 14244, 14557, 14870, 15183 )
// CHECK-NEXT:( 16576, 17017, 17458, 17899, 18340, 18781, 19222, 19663 )
// CHECK-NEXT:( 20160, 20729, 21298, 21867, 22436, 23005, 23574, 24143 )
// CHECK-NEXT:( 23744, 24441, 25138, 25835, 26532, 27229, 27926, 28623 )
// CHECK-NEXT:( 44, 44, 44, 44, 44, 44, 44, 44 )
// CHECK-NEXT:( 45, 45, 45, 45, 45, 45, 45, 45 )
// CHECK-NEXT:( 46, 46, 46, 46, 46, 46, 46, 46 )
// CHECK-NEXT:( 47, 47, 47, 47, 47, 47, 47, 47 )
// CHECK-NEXT:( 0, 1, 5, 12, 22, 35, 51, 70 )
// CHECK-NEXT:( 2, 7, 15, 26, 40, 57, 77, 100 )
// CHECK-NOT:{{.}}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c10 = arith.constant 10 : index
  %sums = memref.alloc() : memref<10x8xi32>
  %sums_u = memref.cast %sums : memref<10x8xi32> to memref<*xi32>
  gpu.host_register %sums_u : memref<*xi32>

  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c4, %sz = %c1) {
    %tile = memref.alloca() : memref<4x8xi32, #gpu.address_space<workgroup>>
    %i0 = arith.constant 0 : i32
    %i1 = arith.constant 1 : i32
    %i2 = arith.constant 2 : i32
    %i8 = arith.constant 8 : i32
    %i32 = arith.constant 32 : i32
    %txi = arith.index_cast %tx : index to i32
    %tyi = arith.index_cast %ty : index to i32
    %res:2 = scf.for %kt = %c0 to %c2 step %c1
        iter_args(%s = %txi, %t = %tyi) -> (i32, i32) {
      %kti = arith.index_cast %kt : index to i32
      %row = arith.muli %tyi, %i8 : i32
      %step = arith.muli %kti, %i32 : i32
      %v0 = arith.addi %txi, %row : i32
      %v = arith.addi %v0, %step : i32
      memref.store %v, %tile[%ty, %tx] : memref<4x8xi32, #gpu.address_space<workgroup>>
      gpu.barrier
      %in:3 = scf.for %k = %c0 to %c8 step %c1
          iter_args(%p = %s, %q = %txi, %n = %i0) -> (i32, i32, i32) {
        %kr = arith.remui %k, %c4 : index
        %a = memref.load %tile[%ty, %k] : memref<4x8xi32, #gpu.address_space<workgroup>>
        %b = memref.load %tile[%kr, %tx] : memref<4x8xi32, #gpu.address_space<workgroup>>
        %ab = arith.muli %a, %b : i32
        %p2 = arith.addi %p, %ab : i32
        %ki = arith.index_cast %k : index to i32
        %q2 = arith.muli %ki, %i2 : i32
        %n2 = arith.addi %n, %i1 : i32
        scf.yield %p2, %q2, %n2 : i32, i32, i32
      }
      gpu.barrier
      %t1 = arith.addi %t, %in#1 : i32
      %t2 = arith.addi %t1, %in#2 : i32
      scf.yield %in#0, %t2 : i32, i32
    }
    %row2 = arith.addi %ty, %c4 : index
    memref.store %res#0, %sums[%ty, %tx] : memref<10x8xi32>
    memref.store %res#1, %sums[%row2, %tx] : memref<10x8xi32>
    gpu.terminator
  }

  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1) {
    %buf = memref.alloca() : memref<8xi32, #gpu.address_space<workgroup>>
    %i0 = arith.constant 0 : i32
    %end = scf.for %i = %c0 to %c2 step %c1 iter_args(%n = %tx) -> index {
      %vi = arith.addi %n, %i : index
      %v = arith.index_cast %vi : index to i32
      memref.store %v, %buf[%tx] : memref<8xi32, #gpu.address_space<workgroup>>
      gpu.barrier
      %sum = scf.for %k = %c0 to %n step %c1 iter_args(%a = %i0) -> i32 {
        %w = memref.load %buf[%tx] : memref<8xi32, #gpu.address_space<workgroup>>
        %ki = arith.index_cast %k : index to i32
        %wk = arith.addi %w, %ki : i32
        %a2 = arith.addi %a, %wk : i32
        scf.yield %a2 : i32
      }
      %row = arith.addi %i, %c8 : index
      memref.store %sum, %sums[%row, %tx] : memref<10x8xi32>
      gpu.barrier
      %n2 = arith.addi %n, %c1 : index
      scf.yield %n2 : index
    }
    gpu.terminator
  }

  scf.for %r = %c0 to %c10 step %c1 {
    %line = vector.load %sums[%r, %c0] : memref<10x8xi32>, vector<8xi32>
    vector.print %line : vector<8xi32>
  }
  return
}
