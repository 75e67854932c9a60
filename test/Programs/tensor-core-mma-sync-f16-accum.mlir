// RUN: gpumem-run --target=cpu %s | FileCheck %s --match-full-lines --strict-whitespace
// RUN: %if cuda-emu %{ gpumem-run --target=cuda-emu %s | FileCheck %s --match-full-lines --strict-whitespace %}

// A 16x8x16 warp-level matmul with nvgpu.ldmatrix and nvgpu.mma.sync
// (mma.sync.m16n8k16 with f16 inputs and an f16 accumulator; the
// counterpart of upstream's sm80/transform-mma-sync-matmul-f16-f16-accum
// test, written with the ops its transform script makes). A and B go
// through workgroup memory; ldmatrix.x4 loads A's fragment, ldmatrix.x2.trans
// B's, and each lane reads and writes the accumulator's registers at the
// places the PTX ISA gives them, so a wrong per-lane layout anywhere shows
// as mismatches against the host's reference.

// CHECK:device:
// CHECK-NEXT:Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 2 offset = 0 sizes = [16, 8] strides = [8, 1] data = 
// CHECK-NEXT:{{\[\[}}-3,   2,   -5,   -4,   -7,   -2,   -9,   -8], 
// CHECK-NEXT: [6,   -4,   -6,   0,   2,   -8,   -10,   -4], 
// CHECK-NEXT: [5,   0,   3,   -6,   1,   -4,   -1,   -10], 
// CHECK-NEXT: [-1,   -1,   7,   3,   -5,   -5,   3,   -1], 
// CHECK-NEXT: [3,   8,   1,   2,   -1,   4,   -3,   -2], 
// CHECK-NEXT: [2,   7,   0,   1,   -2,   3,   -4,   -3], 
// CHECK-NEXT: [11,   1,   -1,   5,   7,   -3,   -5,   1], 
// CHECK-NEXT: [10,   5,   8,   -1,   6,   1,   4,   -5], 
// CHECK-NEXT: [4,   4,   12,   8,   0,   0,   8,   4], 
// CHECK-NEXT: [8,   13,   6,   7,   4,   9,   2,   3], 
// CHECK-NEXT: [7,   12,   5,   6,   3,   8,   1,   2], 
// CHECK-NEXT: [16,   6,   4,   10,   12,   2,   0,   6], 
// CHECK-NEXT: [15,   10,   13,   4,   11,   6,   9,   0], 
// CHECK-NEXT: [9,   9,   17,   13,   5,   5,   13,   9], 
// CHECK-NEXT: [13,   18,   11,   12,   9,   14,   7,   8], 
// CHECK-NEXT: [12,   17,   10,   11,   8,   13,   6,   7]]
// CHECK-NEXT:host reference:
// CHECK-NEXT:Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 2 offset = 0 sizes = [16, 8] strides = [8, 1] data = 
// CHECK-NEXT:{{\[\[}}-3,   2,   -5,   -4,   -7,   -2,   -9,   -8], 
// CHECK-NEXT: [6,   -4,   -6,   0,   2,   -8,   -10,   -4], 
// CHECK-NEXT: [5,   0,   3,   -6,   1,   -4,   -1,   -10], 
// CHECK-NEXT: [-1,   -1,   7,   3,   -5,   -5,   3,   -1], 
// CHECK-NEXT: [3,   8,   1,   2,   -1,   4,   -3,   -2], 
// CHECK-NEXT: [2,   7,   0,   1,   -2,   3,   -4,   -3], 
// CHECK-NEXT: [11,   1,   -1,   5,   7,   -3,   -5,   1], 
// CHECK-NEXT: [10,   5,   8,   -1,   6,   1,   4,   -5], 
// CHECK-NEXT: [4,   4,   12,   8,   0,   0,   8,   4], 
// CHECK-NEXT: [8,   13,   6,   7,   4,   9,   2,   3], 
// CHECK-NEXT: [7,   12,   5,   6,   3,   8,   1,   2], 
// CHECK-NEXT: [16,   6,   4,   10,   12,   2,   0,   6], 
// CHECK-NEXT: [15,   10,   13,   4,   11,   6,   9,   0], 
// CHECK-NEXT: [9,   9,   17,   13,   5,   5,   13,   9], 
// CHECK-NEXT: [13,   18,   11,   12,   9,   14,   7,   8], 
// CHECK-NEXT: [12,   17,   10,   11,   8,   13,   6,   7]]
// CHECK-NEXT:mismatches: 0

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %a = memref.alloc() : memref<16x16xf16>
  %b = memref.alloc() : memref<16x8xf16>
  %c = memref.alloc() : memref<16x8xf16>
  %ref = memref.alloc() : memref<16x8xf32>
  %out = memref.alloc() : memref<16x8xf32>
  // A[i][j] = (i + 2j) mod 5 - 2, B[i][j] = (3i + j) mod 4 - 1, C[i][j] = i - j.
  scf.for %i = %c0 to %c16 step %c1 {
    scf.for %j = %c0 to %c16 step %c1 {
      %j2 = arith.muli %j, %c2 : index
      %s = arith.addi %i, %j2 : index
      %r = arith.remui %s, %c5 : index
      %e = arith.subi %r, %c2 : index
      %v = arith.index_cast %e : index to i32
      %f = arith.sitofp %v : i32 to f16
      memref.store %f, %a[%i, %j] : memref<16x16xf16>
    }
    scf.for %j = %c0 to %c8 step %c1 {
      %i3 = arith.muli %i, %c3 : index
      %s = arith.addi %i3, %j : index
      %r = arith.remui %s, %c4 : index
      %e = arith.subi %r, %c1 : index
      %v = arith.index_cast %e : index to i32
      %f = arith.sitofp %v : i32 to f16
      memref.store %f, %b[%i, %j] : memref<16x8xf16>
      %d = arith.subi %i, %j : index
      %w = arith.index_cast %d : index to i32
      %g = arith.sitofp %w : i32 to f16
      memref.store %g, %c[%i, %j] : memref<16x8xf16>
    }
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %sa = memref.alloc() : memref<16x16xf16, #gpu.address_space<workgroup>>
    %sb = memref.alloc() : memref<16x8xf16, #gpu.address_space<workgroup>>
    %c256 = arith.constant 256 : index
    %c128 = arith.constant 128 : index
    scf.for %e = %tx to %c256 step %c32 {
      %i = arith.divui %e, %c16 : index
      %j = arith.remui %e, %c16 : index
      %v = memref.load %a[%i, %j] : memref<16x16xf16>
      memref.store %v, %sa[%i, %j] : memref<16x16xf16, #gpu.address_space<workgroup>>
    }
    scf.for %e = %tx to %c128 step %c32 {
      %i = arith.divui %e, %c8 : index
      %j = arith.remui %e, %c8 : index
      %v = memref.load %b[%i, %j] : memref<16x8xf16>
      memref.store %v, %sb[%i, %j] : memref<16x8xf16, #gpu.address_space<workgroup>>
    }
    gpu.barrier
    // ldmatrix.x4 for A: lanes 0-7, 8-15, 16-23, 24-31 address the rows of
    // A's four 8x8 quarters (top left, bottom left, top right, bottom right).
    %arow = arith.remui %tx, %c16 : index
    %ahalf = arith.divui %tx, %c16 : index
    %acol = arith.muli %ahalf, %c8 : index
    %fa = nvgpu.ldmatrix %sa[%arow, %acol] {numTiles = 4 : i32, transpose = false} : memref<16x16xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
    // ldmatrix.x2.trans for B (row-major k x n): lanes 0-15 address rows k.
    %fb = nvgpu.ldmatrix %sb[%arow, %c0] {numTiles = 2 : i32, transpose = true} : memref<16x8xf16, #gpu.address_space<workgroup>> -> vector<2x2xf16>
    // The accumulator fragment as the PTX ISA lays it out for
    // mma.m16n8k16: lane l holds row l/4 and row l/4 + 8, columns
    // 2*(l%4) and 2*(l%4) + 1.
    %g = arith.divui %tx, %c4 : index
    %t = arith.remui %tx, %c4 : index
    %col = arith.muli %t, %c2 : index
    %g8 = arith.addi %g, %c8 : index
    %r0 = vector.load %c[%g, %col] : memref<16x8xf16>, vector<2xf16>
    %r1 = vector.load %c[%g8, %col] : memref<16x8xf16>, vector<2xf16>
    %z = arith.constant dense<0.0> : vector<2x2xf16>
    %z0 = vector.insert %r0, %z [0] : vector<2xf16> into vector<2x2xf16>
    %fc = vector.insert %r1, %z0 [1] : vector<2xf16> into vector<2x2xf16>
    %fd = nvgpu.mma.sync (%fa, %fb, %fc) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf16>) -> vector<2x2xf16>
    %d0 = vector.extract %fd[0] : vector<2xf16> from vector<2x2xf16>
    %d1 = vector.extract %fd[1] : vector<2xf16> from vector<2x2xf16>
    vector.store %d0, %c[%g, %col] : memref<16x8xf16>, vector<2xf16>
    vector.store %d1, %c[%g8, %col] : memref<16x8xf16>, vector<2xf16>
    gpu.terminator
  }
  // The host's reference from the same inputs, in f32.
  %fz = arith.constant 0.0 : f32
  scf.for %i = %c0 to %c16 step %c1 {
    scf.for %j = %c0 to %c8 step %c1 {
      %e = arith.subi %i, %j : index
      %v = arith.index_cast %e : index to i32
      %c0f = arith.sitofp %v : i32 to f32
      %sum = scf.for %l = %c0 to %c16 step %c1 iter_args(%acc = %c0f) -> (f32) {
        %va = memref.load %a[%i, %l] : memref<16x16xf16>
        %vb = memref.load %b[%l, %j] : memref<16x8xf16>
        %wa = arith.extf %va : f16 to f32
        %wb = arith.extf %vb : f16 to f32
        %p = arith.mulf %wa, %wb : f32
        %s = arith.addf %acc, %p : f32
        scf.yield %s : f32
      }
      memref.store %sum, %ref[%i, %j] : memref<16x8xf32>
      %dv = memref.load %c[%i, %j] : memref<16x8xf16>
      %dw = arith.extf %dv : f16 to f32
      memref.store %dw, %out[%i, %j] : memref<16x8xf32>
    }
  }
  %bad = scf.for %i = %c0 to %c16 step %c1 iter_args(%n0 = %c0) -> (index) {
    %row = scf.for %j = %c0 to %c8 step %c1 iter_args(%n1 = %n0) -> (index) {
      %u = memref.load %out[%i, %j] : memref<16x8xf32>
      %v = memref.load %ref[%i, %j] : memref<16x8xf32>
      %ne = arith.cmpf une, %u, %v : f32
      %more = arith.addi %n1, %c1 : index
      %next = arith.select %ne, %more, %n1 : index
      scf.yield %next : index
    }
    scf.yield %row : index
  }
  %dcast = memref.cast %out : memref<16x8xf32> to memref<*xf32>
  %rcast = memref.cast %ref : memref<16x8xf32> to memref<*xf32>
  vector.print str "device:\n"
  call @printMemrefF32(%dcast) : (memref<*xf32>) -> ()
  vector.print str "host reference:\n"
  call @printMemrefF32(%rcast) : (memref<*xf32>) -> ()
  vector.print str "mismatches: "
  vector.print %bad : index
  return
}
func.func private @printMemrefF32(memref<*xf32>)
