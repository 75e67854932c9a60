// RUN: gpumem-run --target=cuda-emu %s | FileCheck %s --match-full-lines --strict-whitespace
// RUN: gpumem-run --target=cpu %s | FileCheck %s --match-full-lines --strict-whitespace

// mma.sync's fragments hold, in each lane, exactly the elements the PTX
// ISA's tables give it (9.7.14.5): every lane loads its own registers from
// memory at those places, runs nvgpu.mma.sync, and stores its registers of
// D back at theirs. With g = lane / 4 and t = lane % 4:
//  - f64 m8n8k4: a0 = A[g][t], b0 = B[t][g], c0,c1 = C[g][2t], C[g][2t+1];
//  - tf32 m16n8k8: a0..a3 = A[g][t], A[g+8][t], A[g][t+4], A[g+8][t+4],
//    b0,b1 = B[t][g], B[t+4][g], c0..c3 = C[g][2t], C[g][2t+1], C[g+8][2t],
//    C[g+8][2t+1].
// Any other assignment of elements to lanes gives mismatches against the
// host's D = A*B + C.

// CHECK:f64 m8n8k4 mismatches: 0, sum -4
// CHECK-NEXT:tf32 m16n8k8 mismatches: 0, sum 512

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
  %a64 = memref.alloc() : memref<8x4xf64>
  %b64 = memref.alloc() : memref<4x8xf64>
  %d64 = memref.alloc() : memref<8x8xf64>
  %a32 = memref.alloc() : memref<16x8xf32>
  %b32 = memref.alloc() : memref<8x8xf32>
  %d32 = memref.alloc() : memref<16x8xf32>
  // X[i][j] = (i + 2j) mod 5 - 2 for A, (3i + j) mod 4 - 1 for B, i - j for C.
  scf.for %i = %c0 to %c16 step %c1 {
    scf.for %j = %c0 to %c8 step %c1 {
      %j2 = arith.muli %j, %c2 : index
      %s = arith.addi %i, %j2 : index
      %r = arith.remui %s, %c5 : index
      %e = arith.subi %r, %c2 : index
      %ev = arith.index_cast %e : index to i32
      %ea = arith.sitofp %ev : i32 to f32
      memref.store %ea, %a32[%i, %j] : memref<16x8xf32>
      %i3 = arith.muli %i, %c3 : index
      %s2 = arith.addi %i3, %j : index
      %r2 = arith.remui %s2, %c4 : index
      %e2 = arith.subi %r2, %c1 : index
      %ev2 = arith.index_cast %e2 : index to i32
      %eb = arith.sitofp %ev2 : i32 to f32
      %eb64 = arith.sitofp %ev2 : i32 to f64
      %ea64 = arith.sitofp %ev : i32 to f64
      %in8 = arith.cmpi ult, %i, %c8 : index
      scf.if %in8 {
        memref.store %eb, %b32[%i, %j] : memref<8x8xf32>
      }
      %in4 = arith.cmpi ult, %j, %c4 : index
      %a64ok = arith.andi %in8, %in4 : i1
      scf.if %a64ok {
        memref.store %ea64, %a64[%i, %j] : memref<8x4xf64>
      }
      %i4 = arith.cmpi ult, %i, %c4 : index
      scf.if %i4 {
        memref.store %eb64, %b64[%i, %j] : memref<4x8xf64>
      }
      %dd = arith.subi %i, %j : index
      %dv = arith.index_cast %dd : index to i32
      %df = arith.sitofp %dv : i32 to f32
      %df64 = arith.sitofp %dv : i32 to f64
      memref.store %df, %d32[%i, %j] : memref<16x8xf32>
      scf.if %in8 {
        memref.store %df64, %d64[%i, %j] : memref<8x8xf64>
      }
    }
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %g = arith.divui %tx, %c4 : index
    %t = arith.remui %tx, %c4 : index
    %t2 = arith.muli %t, %c2 : index
    %t21 = arith.addi %t2, %c1 : index
    %g8 = arith.addi %g, %c8 : index
    %t4 = arith.addi %t, %c4 : index
    // f64 m8n8k4.
    %xa = memref.load %a64[%g, %t] : memref<8x4xf64>
    %xb = memref.load %b64[%t, %g] : memref<4x8xf64>
    %xc0 = memref.load %d64[%g, %t2] : memref<8x8xf64>
    %xc1 = memref.load %d64[%g, %t21] : memref<8x8xf64>
    %fa = vector.from_elements %xa : vector<1x1xf64>
    %fb = vector.from_elements %xb : vector<1x1xf64>
    %fc = vector.from_elements %xc0, %xc1 : vector<1x2xf64>
    %fd = nvgpu.mma.sync (%fa, %fb, %fc) {mmaShape = [8, 8, 4]} : (vector<1x1xf64>, vector<1x1xf64>, vector<1x2xf64>) -> vector<1x2xf64>
    %y0 = vector.extract %fd[0, 0] : f64 from vector<1x2xf64>
    %y1 = vector.extract %fd[0, 1] : f64 from vector<1x2xf64>
    memref.store %y0, %d64[%g, %t2] : memref<8x8xf64>
    memref.store %y1, %d64[%g, %t21] : memref<8x8xf64>
    // tf32 m16n8k8.
    %a0 = memref.load %a32[%g, %t] : memref<16x8xf32>
    %a1 = memref.load %a32[%g8, %t] : memref<16x8xf32>
    %a2 = memref.load %a32[%g, %t4] : memref<16x8xf32>
    %a3 = memref.load %a32[%g8, %t4] : memref<16x8xf32>
    %b0 = memref.load %b32[%t, %g] : memref<8x8xf32>
    %b1 = memref.load %b32[%t4, %g] : memref<8x8xf32>
    %c00 = memref.load %d32[%g, %t2] : memref<16x8xf32>
    %c01 = memref.load %d32[%g, %t21] : memref<16x8xf32>
    %c10 = memref.load %d32[%g8, %t2] : memref<16x8xf32>
    %c11 = memref.load %d32[%g8, %t21] : memref<16x8xf32>
    %va = vector.from_elements %a0, %a1, %a2, %a3 : vector<4x1xf32>
    %vb = vector.from_elements %b0, %b1 : vector<2x1xf32>
    %vc = vector.from_elements %c00, %c01, %c10, %c11 : vector<2x2xf32>
    %vd = nvgpu.mma.sync (%va, %vb, %vc) {mmaShape = [16, 8, 8], tf32Enabled} : (vector<4x1xf32>, vector<2x1xf32>, vector<2x2xf32>) -> vector<2x2xf32>
    %d00 = vector.extract %vd[0, 0] : f32 from vector<2x2xf32>
    %d01 = vector.extract %vd[0, 1] : f32 from vector<2x2xf32>
    %d10 = vector.extract %vd[1, 0] : f32 from vector<2x2xf32>
    %d11 = vector.extract %vd[1, 1] : f32 from vector<2x2xf32>
    memref.store %d00, %d32[%g, %t2] : memref<16x8xf32>
    memref.store %d01, %d32[%g, %t21] : memref<16x8xf32>
    memref.store %d10, %d32[%g8, %t2] : memref<16x8xf32>
    memref.store %d11, %d32[%g8, %t21] : memref<16x8xf32>
    gpu.terminator
  }
  %z64 = arith.constant 0.0 : f64
  %r64:2 = scf.for %i = %c0 to %c8 step %c1 iter_args(%n0 = %c0, %s0 = %z64) -> (index, f64) {
    %rr:2 = scf.for %j = %c0 to %c8 step %c1 iter_args(%n1 = %n0, %s1 = %s0) -> (index, f64) {
      %dd = arith.subi %i, %j : index
      %dv = arith.index_cast %dd : index to i32
      %init = arith.sitofp %dv : i32 to f64
      %ref = scf.for %k = %c0 to %c4 step %c1 iter_args(%acc = %init) -> (f64) {
        %x = memref.load %a64[%i, %k] : memref<8x4xf64>
        %y = memref.load %b64[%k, %j] : memref<4x8xf64>
        %p = arith.mulf %x, %y : f64
        %q = arith.addf %acc, %p : f64
        scf.yield %q : f64
      }
      %got = memref.load %d64[%i, %j] : memref<8x8xf64>
      %ne = arith.cmpf une, %got, %ref : f64
      %more = arith.addi %n1, %c1 : index
      %n2 = arith.select %ne, %more, %n1 : index
      %s2 = arith.addf %s1, %got : f64
      scf.yield %n2, %s2 : index, f64
    }
    scf.yield %rr#0, %rr#1 : index, f64
  }
  %z32 = arith.constant 0.0 : f32
  %r32:2 = scf.for %i = %c0 to %c16 step %c1 iter_args(%n0 = %c0, %s0 = %z32) -> (index, f32) {
    %rr:2 = scf.for %j = %c0 to %c8 step %c1 iter_args(%n1 = %n0, %s1 = %s0) -> (index, f32) {
      %dd = arith.subi %i, %j : index
      %dv = arith.index_cast %dd : index to i32
      %init = arith.sitofp %dv : i32 to f32
      %ref = scf.for %k = %c0 to %c8 step %c1 iter_args(%acc = %init) -> (f32) {
        %x = memref.load %a32[%i, %k] : memref<16x8xf32>
        %y = memref.load %b32[%k, %j] : memref<8x8xf32>
        %p = arith.mulf %x, %y : f32
        %q = arith.addf %acc, %p : f32
        scf.yield %q : f32
      }
      %got = memref.load %d32[%i, %j] : memref<16x8xf32>
      %ne = arith.cmpf une, %got, %ref : f32
      %more = arith.addi %n1, %c1 : index
      %n2 = arith.select %ne, %more, %n1 : index
      %s2 = arith.addf %s1, %got : f32
      scf.yield %n2, %s2 : index, f32
    }
    scf.yield %rr#0, %rr#1 : index, f32
  }
  vector.print str "f64 m8n8k4 mismatches: "
  vector.print %r64#0 : index punctuation <no_punctuation>
  vector.print str ", sum "
  vector.print %r64#1 : f64
  vector.print str "tf32 m16n8k8 mismatches: "
  vector.print %r32#0 : index punctuation <no_punctuation>
  vector.print str ", sum "
  vector.print %r32#1 : f32
  return
}
