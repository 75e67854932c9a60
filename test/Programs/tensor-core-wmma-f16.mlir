// RUN: gpumem-run --target=cpu %s | FileCheck %s --match-full-lines --strict-whitespace
// RUN: %if cuda-emu %{ gpumem-run --target=cuda-emu %s | FileCheck %s --match-full-lines --strict-whitespace %}

// A 16x16x16 tensor-core matmul with f16 inputs and an f16 accumulator:
// gpu.subgroup_mma_load_matrix / compute / store_matrix, one warp (the
// counterpart of upstream's TensorCore/wmma-matmul-f16 test, with C loaded
// rather than zero). Small integers keep every sum exact in f16, so the
// device result, printed first, must equal the host's f32 reference printed
// after it, with no mismatch.

// CHECK:device:
// CHECK-NEXT:Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 2 offset = 0 sizes = [16, 16] strides = [16, 1] data = 
// CHECK-NEXT:{{\[\[}}-3,   2,   -5,   -4,   -7,   -2,   -9,   -8,   -11,   -6,   -13,   -12,   -15,   -10,   -17,   -16], 
// CHECK-NEXT: [6,   -4,   -6,   0,   2,   -8,   -10,   -4,   -2,   -12,   -14,   -8,   -6,   -16,   -18,   -12], 
// CHECK-NEXT: [5,   0,   3,   -6,   1,   -4,   -1,   -10,   -3,   -8,   -5,   -14,   -7,   -12,   -9,   -18], 
// CHECK-NEXT: [-1,   -1,   7,   3,   -5,   -5,   3,   -1,   -9,   -9,   -1,   -5,   -13,   -13,   -5,   -9], 
// CHECK-NEXT: [3,   8,   1,   2,   -1,   4,   -3,   -2,   -5,   0,   -7,   -6,   -9,   -4,   -11,   -10], 
// CHECK-NEXT: [2,   7,   0,   1,   -2,   3,   -4,   -3,   -6,   -1,   -8,   -7,   -10,   -5,   -12,   -11], 
// CHECK-NEXT: [11,   1,   -1,   5,   7,   -3,   -5,   1,   3,   -7,   -9,   -3,   -1,   -11,   -13,   -7], 
// CHECK-NEXT: [10,   5,   8,   -1,   6,   1,   4,   -5,   2,   -3,   0,   -9,   -2,   -7,   -4,   -13], 
// CHECK-NEXT: [4,   4,   12,   8,   0,   0,   8,   4,   -4,   -4,   4,   0,   -8,   -8,   0,   -4], 
// CHECK-NEXT: [8,   13,   6,   7,   4,   9,   2,   3,   0,   5,   -2,   -1,   -4,   1,   -6,   -5], 
// CHECK-NEXT: [7,   12,   5,   6,   3,   8,   1,   2,   -1,   4,   -3,   -2,   -5,   0,   -7,   -6], 
// CHECK-NEXT: [16,   6,   4,   10,   12,   2,   0,   6,   8,   -2,   -4,   2,   4,   -6,   -8,   -2], 
// CHECK-NEXT: [15,   10,   13,   4,   11,   6,   9,   0,   7,   2,   5,   -4,   3,   -2,   1,   -8], 
// CHECK-NEXT: [9,   9,   17,   13,   5,   5,   13,   9,   1,   1,   9,   5,   -3,   -3,   5,   1], 
// CHECK-NEXT: [13,   18,   11,   12,   9,   14,   7,   8,   5,   10,   3,   4,   1,   6,   -1,   0], 
// CHECK-NEXT: [12,   17,   10,   11,   8,   13,   6,   7,   4,   9,   2,   3,   0,   5,   -2,   -1]]
// CHECK-NEXT:host reference:
// CHECK-NEXT:Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 2 offset = 0 sizes = [16, 16] strides = [16, 1] data = 
// CHECK-NEXT:{{\[\[}}-3,   2,   -5,   -4,   -7,   -2,   -9,   -8,   -11,   -6,   -13,   -12,   -15,   -10,   -17,   -16], 
// CHECK-NEXT: [6,   -4,   -6,   0,   2,   -8,   -10,   -4,   -2,   -12,   -14,   -8,   -6,   -16,   -18,   -12], 
// CHECK-NEXT: [5,   0,   3,   -6,   1,   -4,   -1,   -10,   -3,   -8,   -5,   -14,   -7,   -12,   -9,   -18], 
// CHECK-NEXT: [-1,   -1,   7,   3,   -5,   -5,   3,   -1,   -9,   -9,   -1,   -5,   -13,   -13,   -5,   -9], 
// CHECK-NEXT: [3,   8,   1,   2,   -1,   4,   -3,   -2,   -5,   0,   -7,   -6,   -9,   -4,   -11,   -10], 
// CHECK-NEXT: [2,   7,   0,   1,   -2,   3,   -4,   -3,   -6,   -1,   -8,   -7,   -10,   -5,   -12,   -11], 
// CHECK-NEXT: [11,   1,   -1,   5,   7,   -3,   -5,   1,   3,   -7,   -9,   -3,   -1,   -11,   -13,   -7], 
// CHECK-NEXT: [10,   5,   8,   -1,   6,   1,   4,   -5,   2,   -3,   0,   -9,   -2,   -7,   -4,   -13], 
// CHECK-NEXT: [4,   4,   12,   8,   0,   0,   8,   4,   -4,   -4,   4,   0,   -8,   -8,   0,   -4], 
// CHECK-NEXT: [8,   13,   6,   7,   4,   9,   2,   3,   0,   5,   -2,   -1,   -4,   1,   -6,   -5], 
// CHECK-NEXT: [7,   12,   5,   6,   3,   8,   1,   2,   -1,   4,   -3,   -2,   -5,   0,   -7,   -6], 
// CHECK-NEXT: [16,   6,   4,   10,   12,   2,   0,   6,   8,   -2,   -4,   2,   4,   -6,   -8,   -2], 
// CHECK-NEXT: [15,   10,   13,   4,   11,   6,   9,   0,   7,   2,   5,   -4,   3,   -2,   1,   -8], 
// CHECK-NEXT: [9,   9,   17,   13,   5,   5,   13,   9,   1,   1,   9,   5,   -3,   -3,   5,   1], 
// CHECK-NEXT: [13,   18,   11,   12,   9,   14,   7,   8,   5,   10,   3,   4,   1,   6,   -1,   0], 
// CHECK-NEXT: [12,   17,   10,   11,   8,   13,   6,   7,   4,   9,   2,   3,   0,   5,   -2,   -1]]
// CHECK-NEXT:mismatches: 0

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %m = arith.constant 16 : index
  %n = arith.constant 16 : index
  %k = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %a = memref.alloc() : memref<16x16xf16>
  %b = memref.alloc() : memref<16x16xf16>
  %c = memref.alloc() : memref<16x16xf16>
  %ref = memref.alloc() : memref<16x16xf32>
  %out = memref.alloc() : memref<16x16xf32>
  // A[i][j] = (i + 2j) mod 5 - 2
  scf.for %i = %c0 to %m step %c1 {
    scf.for %j = %c0 to %k step %c1 {
      %j2 = arith.muli %j, %c2 : index
      %s = arith.addi %i, %j2 : index
      %r = arith.remui %s, %c5 : index
      %e = arith.subi %r, %c2 : index
      %v = arith.index_cast %e : index to i32
      %f = arith.sitofp %v : i32 to f16
      memref.store %f, %a[%i, %j] : memref<16x16xf16>
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
      %f = arith.sitofp %v : i32 to f16
      memref.store %f, %b[%i, %j] : memref<16x16xf16>
    }
  }
  // C[i][j] = i - j
  scf.for %i = %c0 to %m step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      %e = arith.subi %i, %j : index
      %v = arith.index_cast %e : index to i32
      %f = arith.sitofp %v : i32 to f16
      memref.store %f, %c[%i, %j] : memref<16x16xf16>
    }
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %x = gpu.subgroup_mma_load_matrix %a[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf16> -> !gpu.mma_matrix<16x16xf16, "AOp">
    %y = gpu.subgroup_mma_load_matrix %b[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf16> -> !gpu.mma_matrix<16x16xf16, "BOp">
    %z = gpu.subgroup_mma_load_matrix %c[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf16> -> !gpu.mma_matrix<16x16xf16, "COp">
    %d = gpu.subgroup_mma_compute %x, %y, %z : !gpu.mma_matrix<16x16xf16, "AOp">, !gpu.mma_matrix<16x16xf16, "BOp"> -> !gpu.mma_matrix<16x16xf16, "COp">
    gpu.subgroup_mma_store_matrix %d, %c[%c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xf16, "COp">, memref<16x16xf16>
    gpu.terminator
  }
  // The host's reference from the same inputs, in f32.
  %zero = arith.constant 0.0 : f32
  scf.for %i = %c0 to %m step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      %e = arith.subi %i, %j : index
      %v = arith.index_cast %e : index to i32
      %c0f = arith.sitofp %v : i32 to f32
      %sum = scf.for %l = %c0 to %k step %c1 iter_args(%acc = %c0f) -> (f32) {
        %va = memref.load %a[%i, %l] : memref<16x16xf16>
        %vb = memref.load %b[%l, %j] : memref<16x16xf16>
        %wa = arith.extf %va : f16 to f32
        %wb = arith.extf %vb : f16 to f32
        %p = arith.mulf %wa, %wb : f32
        %s = arith.addf %acc, %p : f32
        scf.yield %s : f32
      }
      memref.store %sum, %ref[%i, %j] : memref<16x16xf32>
      %dv = memref.load %c[%i, %j] : memref<16x16xf16>
      %dw = arith.extf %dv : f16 to f32
      memref.store %dw, %out[%i, %j] : memref<16x16xf32>
    }
  }
  %bad = scf.for %i = %c0 to %m step %c1 iter_args(%n0 = %c0) -> (index) {
    %row = scf.for %j = %c0 to %n step %c1 iter_args(%n1 = %n0) -> (index) {
      %u = memref.load %out[%i, %j] : memref<16x16xf32>
      %v = memref.load %ref[%i, %j] : memref<16x16xf32>
      %ne = arith.cmpf une, %u, %v : f32
      %more = arith.addi %n1, %c1 : index
      %next = arith.select %ne, %more, %n1 : index
      scf.yield %next : index
    }
    scf.yield %row : index
  }
  %dcast = memref.cast %out : memref<16x16xf32> to memref<*xf32>
  %rcast = memref.cast %ref : memref<16x16xf32> to memref<*xf32>
  vector.print str "device:\n"
  call @printMemrefF32(%dcast) : (memref<*xf32>) -> ()
  vector.print str "host reference:\n"
  call @printMemrefF32(%rcast) : (memref<*xf32>) -> ()
  vector.print str "mismatches: "
  vector.print %bad : index
  return
}
func.func private @printMemrefF32(memref<*xf32>)
