// RUN: gpumem-run --target=cpu %s | FileCheck %s --match-full-lines --strict-whitespace
// RUN: %if cuda-emu %{ gpumem-run --target=cuda-emu %s | FileCheck %s --match-full-lines --strict-whitespace %}

// A 16x16x16 tensor-core matmul with an f16 accumulator whose result is
// then changed elementwise on the fragments: D = max(2 * (A*B + C), C),
// with gpu.subgroup_mma_constant_matrix and gpu.subgroup_mma_elementwise
// mulf and maxf (the counterpart of upstream's
// TensorCore/wmma-matmul-f16-elementwise test). The host computes the same
// in f32 and counts mismatches.

// CHECK:device:
// CHECK-NEXT:Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 2 offset = 0 sizes = [16, 16] strides = [16, 1] data = 
// CHECK-NEXT:{{\[\[}}0,   4,   -2,   -3,   -4,   -4,   -6,   -7,   -8,   -9,   -10,   -11,   -12,   -13,   -14,   -15], 
// CHECK-NEXT: [12,   0,   -1,   0,   4,   -4,   -5,   -6,   -4,   -8,   -9,   -10,   -11,   -12,   -13,   -14], 
// CHECK-NEXT: [10,   1,   6,   -1,   2,   -3,   -2,   -5,   -6,   -7,   -8,   -9,   -10,   -11,   -12,   -13], 
// CHECK-NEXT: [3,   2,   14,   6,   -1,   -2,   6,   -2,   -5,   -6,   -2,   -8,   -9,   -10,   -10,   -12], 
// CHECK-NEXT: [6,   16,   2,   4,   0,   8,   -2,   -3,   -4,   0,   -6,   -7,   -8,   -8,   -10,   -11], 
// CHECK-NEXT: [5,   14,   3,   2,   1,   6,   -1,   -2,   -3,   -2,   -5,   -6,   -7,   -8,   -9,   -10], 
// CHECK-NEXT: [22,   5,   4,   10,   14,   1,   0,   2,   6,   -3,   -4,   -5,   -2,   -7,   -8,   -9], 
// CHECK-NEXT: [20,   10,   16,   4,   12,   2,   8,   0,   4,   -2,   0,   -4,   -4,   -6,   -7,   -8], 
// CHECK-NEXT: [8,   8,   24,   16,   4,   3,   16,   8,   0,   -1,   8,   0,   -4,   -5,   0,   -7], 
// CHECK-NEXT: [16,   26,   12,   14,   8,   18,   4,   6,   1,   10,   -1,   -2,   -3,   2,   -5,   -6], 
// CHECK-NEXT: [14,   24,   10,   12,   6,   16,   4,   4,   2,   8,   0,   -1,   -2,   0,   -4,   -5], 
// CHECK-NEXT: [32,   12,   9,   20,   24,   6,   5,   12,   16,   2,   1,   4,   8,   -2,   -3,   -4], 
// CHECK-NEXT: [30,   20,   26,   9,   22,   12,   18,   5,   14,   4,   10,   1,   6,   -1,   2,   -3], 
// CHECK-NEXT: [18,   18,   34,   26,   10,   10,   26,   18,   5,   4,   18,   10,   1,   0,   10,   2], 
// CHECK-NEXT: [26,   36,   22,   24,   18,   28,   14,   16,   10,   20,   6,   8,   2,   12,   0,   0], 
// CHECK-NEXT: [24,   34,   20,   22,   16,   26,   12,   14,   8,   18,   5,   6,   3,   10,   1,   0]]
// CHECK-NEXT:host reference:
// CHECK-NEXT:Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 2 offset = 0 sizes = [16, 16] strides = [16, 1] data = 
// CHECK-NEXT:{{\[\[}}0,   4,   -2,   -3,   -4,   -4,   -6,   -7,   -8,   -9,   -10,   -11,   -12,   -13,   -14,   -15], 
// CHECK-NEXT: [12,   0,   -1,   0,   4,   -4,   -5,   -6,   -4,   -8,   -9,   -10,   -11,   -12,   -13,   -14], 
// CHECK-NEXT: [10,   1,   6,   -1,   2,   -3,   -2,   -5,   -6,   -7,   -8,   -9,   -10,   -11,   -12,   -13], 
// CHECK-NEXT: [3,   2,   14,   6,   -1,   -2,   6,   -2,   -5,   -6,   -2,   -8,   -9,   -10,   -10,   -12], 
// CHECK-NEXT: [6,   16,   2,   4,   0,   8,   -2,   -3,   -4,   0,   -6,   -7,   -8,   -8,   -10,   -11], 
// CHECK-NEXT: [5,   14,   3,   2,   1,   6,   -1,   -2,   -3,   -2,   -5,   -6,   -7,   -8,   -9,   -10], 
// CHECK-NEXT: [22,   5,   4,   10,   14,   1,   0,   2,   6,   -3,   -4,   -5,   -2,   -7,   -8,   -9], 
// CHECK-NEXT: [20,   10,   16,   4,   12,   2,   8,   0,   4,   -2,   0,   -4,   -4,   -6,   -7,   -8], 
// CHECK-NEXT: [8,   8,   24,   16,   4,   3,   16,   8,   0,   -1,   8,   0,   -4,   -5,   0,   -7], 
// CHECK-NEXT: [16,   26,   12,   14,   8,   18,   4,   6,   1,   10,   -1,   -2,   -3,   2,   -5,   -6], 
// CHECK-NEXT: [14,   24,   10,   12,   6,   16,   4,   4,   2,   8,   0,   -1,   -2,   0,   -4,   -5], 
// CHECK-NEXT: [32,   12,   9,   20,   24,   6,   5,   12,   16,   2,   1,   4,   8,   -2,   -3,   -4], 
// CHECK-NEXT: [30,   20,   26,   9,   22,   12,   18,   5,   14,   4,   10,   1,   6,   -1,   2,   -3], 
// CHECK-NEXT: [18,   18,   34,   26,   10,   10,   26,   18,   5,   4,   18,   10,   1,   0,   10,   2], 
// CHECK-NEXT: [26,   36,   22,   24,   18,   28,   14,   16,   10,   20,   6,   8,   2,   12,   0,   0], 
// CHECK-NEXT: [24,   34,   20,   22,   16,   26,   12,   14,   8,   18,   5,   6,   3,   10,   1,   0]]
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
    %two = arith.constant 2.0 : f16
    %t = gpu.subgroup_mma_constant_matrix %two : !gpu.mma_matrix<16x16xf16, "COp">
    %p = gpu.subgroup_mma_elementwise mulf %d, %t : (!gpu.mma_matrix<16x16xf16, "COp">, !gpu.mma_matrix<16x16xf16, "COp">) -> !gpu.mma_matrix<16x16xf16, "COp">
    %q = gpu.subgroup_mma_elementwise maxf %p, %z : (!gpu.mma_matrix<16x16xf16, "COp">, !gpu.mma_matrix<16x16xf16, "COp">) -> !gpu.mma_matrix<16x16xf16, "COp">
    gpu.subgroup_mma_store_matrix %q, %c[%c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xf16, "COp">, memref<16x16xf16>
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
      %two = arith.constant 2.0 : f32
      %p = arith.mulf %sum, %two : f32
      %q = arith.maximumf %p, %c0f : f32
      memref.store %q, %ref[%i, %j] : memref<16x16xf32>
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
