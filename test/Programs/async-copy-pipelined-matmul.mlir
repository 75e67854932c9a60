// RUN: gpumem-run --target=cpu %s | FileCheck %s --match-full-lines --strict-whitespace
// RUN: sed 's/numGroups = 2 : i32/numGroups = 3 : i32/' %s > %t.cpu.mlir
// RUN: gpumem-run --target=cpu %t.cpu.mlir | FileCheck %s --check-prefix=EARLY --match-full-lines --strict-whitespace
// RUN: %if cuda-emu %{ gpumem-run --target=cuda-emu %s | FileCheck %s --match-full-lines --strict-whitespace %}
// RUN: %if cuda-emu %{ sed 's/numGroups = 2 : i32/numGroups = 3 : i32/' %s > %t.mlir %}
// RUN: %if cuda-emu %{ gpumem-run --target=cuda-emu %t.mlir | FileCheck %s --check-prefix=EARLY --match-full-lines --strict-whitespace %}

// A three-stage software-pipelined matmul, D (16x8) = A (16x64) * B (64x8)
// in f16 with an f32 accumulator, one warp: each k-tile of A and B is
// brought into one of three workgroup stages by cp.async (A's 16-byte
// chunks bypassing L1, B's 8-byte ones), two tiles ahead of the one being
// multiplied; `device_async_wait {numGroups = 2}` (cp.async.wait_group 2)
// waits for the tile about to be used, ldmatrix loads the fragments and
// mma.sync.m16n8k16 accumulates. Past the last tile the copies read nothing
// and zero-fill (src-size 0), so every iteration commits one group. The
// device's checksums (plain, and weighted by position) and mismatches
// against the host's reference follow. The second run waits for one group
// too few (wait_group 3): a tile is multiplied before its copies landed,
// which on cuda-emu and cpu is always the stale stage, and the result is wrong.

// CHECK:device checksum: 4, weighted: 1462
// CHECK-NEXT:host checksum:   4, weighted: 1462
// CHECK-NEXT:mismatches: 0

// EARLY:device checksum: 59, weighted: 4576
// EARLY-NEXT:host checksum:   4, weighted: 1462
// EARLY-NEXT:mismatches: 128

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %a = memref.alloc() : memref<16x64xf16>
  %b = memref.alloc() : memref<64x8xf16>
  %d = memref.alloc() : memref<16x8xf32>
  // A[i][k] = (i + 3k) mod 7 - 3, B[k][j] = (2k + j) mod 5 - 2.
  scf.for %i = %c0 to %c16 step %c1 {
    scf.for %k = %c0 to %c64 step %c1 {
      %k3 = arith.muli %k, %c3 : index
      %s = arith.addi %i, %k3 : index
      %r = arith.remui %s, %c7 : index
      %e = arith.subi %r, %c3 : index
      %v = arith.index_cast %e : index to i32
      %f = arith.sitofp %v : i32 to f16
      memref.store %f, %a[%i, %k] : memref<16x64xf16>
    }
  }
  scf.for %k = %c0 to %c64 step %c1 {
    scf.for %j = %c0 to %c8 step %c1 {
      %k2 = arith.muli %k, %c2 : index
      %s = arith.addi %k2, %j : index
      %r = arith.remui %s, %c5 : index
      %e = arith.subi %r, %c2 : index
      %v = arith.index_cast %e : index to i32
      %f = arith.sitofp %v : i32 to f16
      memref.store %f, %b[%k, %j] : memref<64x8xf16>
    }
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %sa = memref.alloc() : memref<3x16x16xf16, #gpu.address_space<workgroup>>
    %sb = memref.alloc() : memref<3x16x8xf16, #gpu.address_space<workgroup>>
    // Thread t copies 16 bytes of A's k-tile (row t/2, columns 8*(t%2)..)
    // and 8 bytes of B's (row t/2, columns 4*(t%2)..).
    %row = arith.divui %tx, %c2 : index
    %half = arith.remui %tx, %c2 : index
    %acol = arith.muli %half, %c8 : index
    %bcol = arith.muli %half, %c4 : index
    // Stage 0 and 1 hold k-tiles 0 and 1 before the loop.
    %ta0 = nvgpu.device_async_copy %a[%row, %acol], %sa[%c0, %row, %acol], 8 {bypassL1} : memref<16x64xf16> to memref<3x16x16xf16, #gpu.address_space<workgroup>>
    %krow0 = arith.addi %row, %c0 : index
    %tb0 = nvgpu.device_async_copy %b[%krow0, %bcol], %sb[%c0, %row, %bcol], 4 : memref<64x8xf16> to memref<3x16x8xf16, #gpu.address_space<workgroup>>
    %g0 = nvgpu.device_async_create_group %ta0, %tb0
    %acol1 = arith.addi %acol, %c16 : index
    %krow1 = arith.addi %row, %c16 : index
    %ta1 = nvgpu.device_async_copy %a[%row, %acol1], %sa[%c1, %row, %acol], 8 {bypassL1} : memref<16x64xf16> to memref<3x16x16xf16, #gpu.address_space<workgroup>>
    %tb1 = nvgpu.device_async_copy %b[%krow1, %bcol], %sb[%c1, %row, %bcol], 4 : memref<64x8xf16> to memref<3x16x8xf16, #gpu.address_space<workgroup>>
    %g1 = nvgpu.device_async_create_group %ta1, %tb1
    %lrow = arith.remui %tx, %c16 : index
    %lhalf = arith.divui %tx, %c16 : index
    %lcol = arith.muli %lhalf, %c8 : index
    %zero = arith.constant dense<0.0> : vector<2x2xf32>
    %acc = scf.for %kt = %c0 to %c4 step %c1 iter_args(%c = %zero) -> (vector<2x2xf32>) {
      // Issue k-tile kt + 2 into stage (kt + 2) mod 3; past the last tile
      // the copies read nothing and fill zeros (src-size 0), so every
      // iteration commits one group and waits for all but the newest two.
      %next = arith.addi %kt, %c2 : index
      %stage = arith.remui %next, %c3 : index
      %inside = arith.cmpi ult, %next, %c4 : index
      %tile = arith.select %inside, %next, %c0 : index
      %na = arith.select %inside, %c8, %c0 : index
      %nb = arith.select %inside, %c4, %c0 : index
      %k0 = arith.muli %tile, %c16 : index
      %ka = arith.addi %k0, %acol : index
      %kb = arith.addi %k0, %row : index
      %ta = nvgpu.device_async_copy %a[%row, %ka], %sa[%stage, %row, %acol], 8, %na {bypassL1} : memref<16x64xf16> to memref<3x16x16xf16, #gpu.address_space<workgroup>>
      %tb = nvgpu.device_async_copy %b[%kb, %bcol], %sb[%stage, %row, %bcol], 4, %nb : memref<64x8xf16> to memref<3x16x8xf16, #gpu.address_space<workgroup>>
      %g = nvgpu.device_async_create_group %ta, %tb
      nvgpu.device_async_wait %g {numGroups = 2 : i32}
      gpu.barrier
      %cur = arith.remui %kt, %c3 : index
      %fa = nvgpu.ldmatrix %sa[%cur, %lrow, %lcol] {numTiles = 4 : i32, transpose = false} : memref<3x16x16xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
      %fb = nvgpu.ldmatrix %sb[%cur, %lrow, %c0] {numTiles = 2 : i32, transpose = true} : memref<3x16x8xf16, #gpu.address_space<workgroup>> -> vector<2x2xf16>
      %r = nvgpu.mma.sync (%fa, %fb, %c) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      // The stage read here is overwritten by the next iteration's copies.
      gpu.barrier
      scf.yield %r : vector<2x2xf32>
    }
    // Lane l holds D's rows l/4 and l/4 + 8, columns 2*(l%4) and + 1.
    %g4 = arith.divui %tx, %c4 : index
    %t4 = arith.remui %tx, %c4 : index
    %col = arith.muli %t4, %c2 : index
    %g8 = arith.addi %g4, %c8 : index
    %d0 = vector.extract %acc[0] : vector<2xf32> from vector<2x2xf32>
    %d1 = vector.extract %acc[1] : vector<2xf32> from vector<2x2xf32>
    vector.store %d0, %d[%g4, %col] : memref<16x8xf32>, vector<2xf32>
    vector.store %d1, %d[%g8, %col] : memref<16x8xf32>, vector<2xf32>
    gpu.terminator
  }
  // The host's D and both checksums (sum of all elements, and of each
  // element times its position + 1, which a misplaced element changes).
  %f0 = arith.constant 0.0 : f32
  %sums:3 = scf.for %i = %c0 to %c16 step %c1 iter_args(%s0 = %f0, %w0 = %f0, %n0 = %c0) -> (f32, f32, index) {
    %rs:3 = scf.for %j = %c0 to %c8 step %c1 iter_args(%s1 = %s0, %w1 = %w0, %n1 = %n0) -> (f32, f32, index) {
      %ref = scf.for %k = %c0 to %c64 step %c1 iter_args(%acc = %f0) -> (f32) {
        %va = memref.load %a[%i, %k] : memref<16x64xf16>
        %vb = memref.load %b[%k, %j] : memref<64x8xf16>
        %wa = arith.extf %va : f16 to f32
        %wb = arith.extf %vb : f16 to f32
        %p = arith.mulf %wa, %wb : f32
        %s = arith.addf %acc, %p : f32
        scf.yield %s : f32
      }
      %dv = memref.load %d[%i, %j] : memref<16x8xf32>
      %i8 = arith.muli %i, %c8 : index
      %pos = arith.addi %i8, %j : index
      %pos1 = arith.addi %pos, %c1 : index
      %pi = arith.index_cast %pos1 : index to i32
      %pf = arith.sitofp %pi : i32 to f32
      %s2 = arith.addf %s1, %dv : f32
      %wd = arith.mulf %dv, %pf : f32
      %w2 = arith.addf %w1, %wd : f32
      %ne = arith.cmpf une, %dv, %ref : f32
      %more = arith.addi %n1, %c1 : index
      %n2 = arith.select %ne, %more, %n1 : index
      scf.yield %s2, %w2, %n2 : f32, f32, index
    }
    scf.yield %rs#0, %rs#1, %rs#2 : f32, f32, index
  }
  %hs:2 = scf.for %i = %c0 to %c16 step %c1 iter_args(%s0 = %f0, %w0 = %f0) -> (f32, f32) {
    %rs:2 = scf.for %j = %c0 to %c8 step %c1 iter_args(%s1 = %s0, %w1 = %w0) -> (f32, f32) {
      %ref = scf.for %k = %c0 to %c64 step %c1 iter_args(%acc = %f0) -> (f32) {
        %va = memref.load %a[%i, %k] : memref<16x64xf16>
        %vb = memref.load %b[%k, %j] : memref<64x8xf16>
        %wa = arith.extf %va : f16 to f32
        %wb = arith.extf %vb : f16 to f32
        %p = arith.mulf %wa, %wb : f32
        %s = arith.addf %acc, %p : f32
        scf.yield %s : f32
      }
      %i8 = arith.muli %i, %c8 : index
      %pos = arith.addi %i8, %j : index
      %pos1 = arith.addi %pos, %c1 : index
      %pi = arith.index_cast %pos1 : index to i32
      %pf = arith.sitofp %pi : i32 to f32
      %s2 = arith.addf %s1, %ref : f32
      %wd = arith.mulf %ref, %pf : f32
      %w2 = arith.addf %w1, %wd : f32
      scf.yield %s2, %w2 : f32, f32
    }
    scf.yield %rs#0, %rs#1 : f32, f32
  }
  vector.print str "device checksum: "
  vector.print %sums#0 : f32 punctuation <no_punctuation>
  vector.print str ", weighted: "
  vector.print %sums#1 : f32
  vector.print str "host checksum:   "
  vector.print %hs#0 : f32 punctuation <no_punctuation>
  vector.print str ", weighted: "
  vector.print %hs#1 : f32
  vector.print str "mismatches: "
  vector.print %sums#2 : index
  return
}
