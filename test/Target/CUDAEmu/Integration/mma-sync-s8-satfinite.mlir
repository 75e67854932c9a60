// RUN: gpumem-run --target=cuda-emu %s | FileCheck %s --match-full-lines --strict-whitespace
// RUN: gpumem-run --target=cpu %s | FileCheck %s --match-full-lines --strict-whitespace

// mma.sync.m16n8k32 on s8 with an s32 accumulator and .satfinite (what
// nvgpu.mma.sync on i8 lowers to), each lane holding the elements the PTX
// ISA gives it (g = lane / 4, t = lane % 4): registers a0..a3 hold A's row
// g, columns 4t..4t+3, then row g + 8, then the same at column 16 + 4t;
// b0, b1 hold B's rows 4t..4t+3 and 16 + 4t.. of column g; c0..c3 are C's
// (g, 2t), (g, 2t+1), (g+8, 2t), (g+8, 2t+1). C starts 2 below the
// largest i32, so sums above 2 saturate at 2147483647 rather than wrap;
// the host computes the same in 64 bits and clamps.

// CHECK:mismatches: 0, saturated: 30

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
  %big = arith.constant 2147483645 : i32
  %a = memref.alloc() : memref<16x32xi8>
  %b = memref.alloc() : memref<32x8xi8>
  %d = memref.alloc() : memref<16x8xi32>
  // A[i][k] = (i + 2k) mod 5 - 2, B[k][j] = (3k + j) mod 4 - 1.
  scf.for %i = %c0 to %c32 step %c1 {
    scf.for %j = %c0 to %c32 step %c1 {
      %j2 = arith.muli %j, %c2 : index
      %s = arith.addi %i, %j2 : index
      %r = arith.remui %s, %c5 : index
      %e = arith.subi %r, %c2 : index
      %ev = arith.index_cast %e : index to i8
      %i3 = arith.muli %i, %c3 : index
      %s2 = arith.addi %i3, %j : index
      %r2 = arith.remui %s2, %c4 : index
      %e2 = arith.subi %r2, %c1 : index
      %ev2 = arith.index_cast %e2 : index to i8
      %i16 = arith.cmpi ult, %i, %c16 : index
      scf.if %i16 {
        memref.store %ev, %a[%i, %j] : memref<16x32xi8>
      }
      %j8 = arith.cmpi ult, %j, %c8 : index
      scf.if %j8 {
        memref.store %ev2, %b[%i, %j] : memref<32x8xi8>
      }
      %both = arith.andi %i16, %j8 : i1
      scf.if %both {
        memref.store %big, %d[%i, %j] : memref<16x8xi32>
      }
    }
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %g = arith.divui %tx, %c4 : index
    %t = arith.remui %tx, %c4 : index
    %t4 = arith.muli %t, %c4 : index
    %t416 = arith.addi %t4, %c16 : index
    %g8 = arith.addi %g, %c8 : index
    %t2 = arith.muli %t, %c2 : index
    %t21 = arith.addi %t2, %c1 : index
    %a0 = vector.load %a[%g, %t4] : memref<16x32xi8>, vector<4xi8>
    %a1 = vector.load %a[%g8, %t4] : memref<16x32xi8>, vector<4xi8>
    %a2 = vector.load %a[%g, %t416] : memref<16x32xi8>, vector<4xi8>
    %a3 = vector.load %a[%g8, %t416] : memref<16x32xi8>, vector<4xi8>
    %za = arith.constant dense<0> : vector<4x4xi8>
    %va0 = vector.insert %a0, %za [0] : vector<4xi8> into vector<4x4xi8>
    %va1 = vector.insert %a1, %va0 [1] : vector<4xi8> into vector<4x4xi8>
    %va2 = vector.insert %a2, %va1 [2] : vector<4xi8> into vector<4x4xi8>
    %va = vector.insert %a3, %va2 [3] : vector<4xi8> into vector<4x4xi8>
    %zb = arith.constant dense<0> : vector<2x4xi8>
    %vb = scf.for %q = %c0 to %c4 step %c1 iter_args(%acc = %zb) -> (vector<2x4xi8>) {
      %k0 = arith.addi %t4, %q : index
      %k1 = arith.addi %t416, %q : index
      %x0 = memref.load %b[%k0, %g] : memref<32x8xi8>
      %x1 = memref.load %b[%k1, %g] : memref<32x8xi8>
      %r0 = vector.insert %x0, %acc [0, %q] : i8 into vector<2x4xi8>
      %r1 = vector.insert %x1, %r0 [1, %q] : i8 into vector<2x4xi8>
      scf.yield %r1 : vector<2x4xi8>
    }
    %c00 = memref.load %d[%g, %t2] : memref<16x8xi32>
    %c01 = memref.load %d[%g, %t21] : memref<16x8xi32>
    %c10 = memref.load %d[%g8, %t2] : memref<16x8xi32>
    %c11 = memref.load %d[%g8, %t21] : memref<16x8xi32>
    %vc = vector.from_elements %c00, %c01, %c10, %c11 : vector<2x2xi32>
    %vd = nvgpu.mma.sync (%va, %vb, %vc) {mmaShape = [16, 8, 32]} : (vector<4x4xi8>, vector<2x4xi8>, vector<2x2xi32>) -> vector<2x2xi32>
    %d00 = vector.extract %vd[0, 0] : i32 from vector<2x2xi32>
    %d01 = vector.extract %vd[0, 1] : i32 from vector<2x2xi32>
    %d10 = vector.extract %vd[1, 0] : i32 from vector<2x2xi32>
    %d11 = vector.extract %vd[1, 1] : i32 from vector<2x2xi32>
    memref.store %d00, %d[%g, %t2] : memref<16x8xi32>
    memref.store %d01, %d[%g, %t21] : memref<16x8xi32>
    memref.store %d10, %d[%g8, %t2] : memref<16x8xi32>
    memref.store %d11, %d[%g8, %t21] : memref<16x8xi32>
    gpu.terminator
  }
  %max = arith.constant 2147483647 : i64
  %big64 = arith.extsi %big : i32 to i64
  %res:2 = scf.for %i = %c0 to %c16 step %c1 iter_args(%n0 = %c0, %m0 = %c0) -> (index, index) {
    %rr:2 = scf.for %j = %c0 to %c8 step %c1 iter_args(%n1 = %n0, %m1 = %m0) -> (index, index) {
      %sum = scf.for %k = %c0 to %c32 step %c1 iter_args(%acc = %big64) -> (i64) {
        %x = memref.load %a[%i, %k] : memref<16x32xi8>
        %y = memref.load %b[%k, %j] : memref<32x8xi8>
        %xw = arith.extsi %x : i8 to i64
        %yw = arith.extsi %y : i8 to i64
        %p = arith.muli %xw, %yw : i64
        %s = arith.addi %acc, %p : i64
        scf.yield %s : i64
      }
      %over = arith.cmpi sgt, %sum, %max : i64
      %clamped = arith.select %over, %max, %sum : i64
      %ref = arith.trunci %clamped : i64 to i32
      %got = memref.load %d[%i, %j] : memref<16x8xi32>
      %ne = arith.cmpi ne, %got, %ref : i32
      %more = arith.addi %n1, %c1 : index
      %n2 = arith.select %ne, %more, %n1 : index
      %sat = arith.addi %m1, %c1 : index
      %m2 = arith.select %over, %sat, %m1 : index
      scf.yield %n2, %m2 : index, index
    }
    scf.yield %rr#0, %rr#1 : index, index
  }
  vector.print str "mismatches: "
  vector.print %res#0 : index punctuation <no_punctuation>
  vector.print str ", saturated: "
  vector.print %res#1 : index
  return
}
