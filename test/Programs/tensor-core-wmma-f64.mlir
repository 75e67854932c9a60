// RUN: gpumem-run --target=cpu %s | FileCheck %s --match-full-lines --strict-whitespace
// RUN: %if cuda-emu %{ gpumem-run --target=cuda-emu %s | FileCheck %s --match-full-lines --strict-whitespace %}

// An 8x8x4 tensor-core matmul on f64 (sm_80's double-precision mma), one
// warp (the counterpart of upstream's sm80/wmma-matmul-f64 test). The device
// result, the host's f64 reference and the mismatch count.

// CHECK:device:
// CHECK-NEXT:Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 2 offset = 0 sizes = [8, 8] strides = [8, 1] data = 
// CHECK-NEXT:{{\[\[}}4,   2,   -8,   -6,   0,   -2,   -12,   -10], 
// CHECK-NEXT: [2,   -5,   0,   -3,   -2,   -9,   -4,   -7], 
// CHECK-NEXT: [5,   -2,   3,   0,   1,   -6,   -1,   -4], 
// CHECK-NEXT: [-2,   6,   6,   -2,   -6,   2,   2,   -6], 
// CHECK-NEXT: [1,   4,   -1,   6,   -3,   0,   -5,   2], 
// CHECK-NEXT: [9,   7,   -3,   -1,   5,   3,   -7,   -5], 
// CHECK-NEXT: [7,   0,   5,   2,   3,   -4,   1,   -2], 
// CHECK-NEXT: [10,   3,   8,   5,   6,   -1,   4,   1]]
// CHECK-NEXT:host reference:
// CHECK-NEXT:Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 2 offset = 0 sizes = [8, 8] strides = [8, 1] data = 
// CHECK-NEXT:{{\[\[}}4,   2,   -8,   -6,   0,   -2,   -12,   -10], 
// CHECK-NEXT: [2,   -5,   0,   -3,   -2,   -9,   -4,   -7], 
// CHECK-NEXT: [5,   -2,   3,   0,   1,   -6,   -1,   -4], 
// CHECK-NEXT: [-2,   6,   6,   -2,   -6,   2,   2,   -6], 
// CHECK-NEXT: [1,   4,   -1,   6,   -3,   0,   -5,   2], 
// CHECK-NEXT: [9,   7,   -3,   -1,   5,   3,   -7,   -5], 
// CHECK-NEXT: [7,   0,   5,   2,   3,   -4,   1,   -2], 
// CHECK-NEXT: [10,   3,   8,   5,   6,   -1,   4,   1]]
// CHECK-NEXT:mismatches: 0

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %m = arith.constant 8 : index
  %n = arith.constant 8 : index
  %k = arith.constant 4 : index
  %c32 = arith.constant 32 : index
  %a = memref.alloc() : memref<8x4xf64>
  %b = memref.alloc() : memref<4x8xf64>
  %c = memref.alloc() : memref<8x8xf64>
  %ref = memref.alloc() : memref<8x8xf64>
  %out = memref.alloc() : memref<8x8xf64>
  // A[i][j] = (i + 2j) mod 5 - 2
  scf.for %i = %c0 to %m step %c1 {
    scf.for %j = %c0 to %k step %c1 {
      %j2 = arith.muli %j, %c2 : index
      %s = arith.addi %i, %j2 : index
      %r = arith.remui %s, %c5 : index
      %e = arith.subi %r, %c2 : index
      %v = arith.index_cast %e : index to i32
      %f = arith.sitofp %v : i32 to f64
      memref.store %f, %a[%i, %j] : memref<8x4xf64>
    }
  }
  // B[i][j] = (3i + j) mod 4 - 1
  scf.for %i = %c0 to %k step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      %i3 = arith.muli %i, %c3 : index
      %s = arith.addi %i3, %j : index
      %r = arith.remui %s, %c4 : index
      %e = arith.subi %r, %c1 : index
      %v = arith.index_cast %e : index to i32
      %f = arith.sitofp %v : i32 to f64
      memref.store %f, %b[%i, %j] : memref<4x8xf64>
    }
  }
  // C[i][j] = i - j
  scf.for %i = %c0 to %m step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      %e = arith.subi %i, %j : index
      %v = arith.index_cast %e : index to i32
      %f = arith.sitofp %v : i32 to f64
      memref.store %f, %c[%i, %j] : memref<8x8xf64>
    }
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %x = gpu.subgroup_mma_load_matrix %a[%c0, %c0] {leadDimension = 4 : index} : memref<8x4xf64> -> !gpu.mma_matrix<8x4xf64, "AOp">
    %y = gpu.subgroup_mma_load_matrix %b[%c0, %c0] {leadDimension = 8 : index} : memref<4x8xf64> -> !gpu.mma_matrix<4x8xf64, "BOp">
    %z = gpu.subgroup_mma_load_matrix %c[%c0, %c0] {leadDimension = 8 : index} : memref<8x8xf64> -> !gpu.mma_matrix<8x8xf64, "COp">
    %d = gpu.subgroup_mma_compute %x, %y, %z : !gpu.mma_matrix<8x4xf64, "AOp">, !gpu.mma_matrix<4x8xf64, "BOp"> -> !gpu.mma_matrix<8x8xf64, "COp">
    gpu.subgroup_mma_store_matrix %d, %c[%c0, %c0] {leadDimension = 8 : index} : !gpu.mma_matrix<8x8xf64, "COp">, memref<8x8xf64>
    gpu.terminator
  }
  // The host's reference from the same inputs, in f64.
  %zero = arith.constant 0.0 : f64
  scf.for %i = %c0 to %m step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      %e = arith.subi %i, %j : index
      %v = arith.index_cast %e : index to i32
      %c0f = arith.sitofp %v : i32 to f64
      %sum = scf.for %l = %c0 to %k step %c1 iter_args(%acc = %c0f) -> (f64) {
        %va = memref.load %a[%i, %l] : memref<8x4xf64>
        %vb = memref.load %b[%l, %j] : memref<4x8xf64>
        %wa = arith.addf %va, %zero : f64
        %wb = arith.addf %vb, %zero : f64
        %p = arith.mulf %wa, %wb : f64
        %s = arith.addf %acc, %p : f64
        scf.yield %s : f64
      }
      memref.store %sum, %ref[%i, %j] : memref<8x8xf64>
      %dv = memref.load %c[%i, %j] : memref<8x8xf64>
      memref.store %dv, %out[%i, %j] : memref<8x8xf64>
    }
  }
  %bad = scf.for %i = %c0 to %m step %c1 iter_args(%n0 = %c0) -> (index) {
    %row = scf.for %j = %c0 to %n step %c1 iter_args(%n1 = %n0) -> (index) {
      %u = memref.load %out[%i, %j] : memref<8x8xf64>
      %v = memref.load %ref[%i, %j] : memref<8x8xf64>
      %ne = arith.cmpf une, %u, %v : f64
      %more = arith.addi %n1, %c1 : index
      %next = arith.select %ne, %more, %n1 : index
      scf.yield %next : index
    }
    scf.yield %row : index
  }
  %dcast = memref.cast %out : memref<8x8xf64> to memref<*xf64>
  %rcast = memref.cast %ref : memref<8x8xf64> to memref<*xf64>
  vector.print str "device:\n"
  call @printMemrefF64(%dcast) : (memref<*xf64>) -> ()
  vector.print str "host reference:\n"
  call @printMemrefF64(%rcast) : (memref<*xf64>) -> ()
  vector.print str "mismatches: "
  vector.print %bad : index
  return
}
func.func private @printMemrefF64(memref<*xf64>)
