// RUN: gpumem-run --target=cpu %s | FileCheck %s --match-full-lines --strict-whitespace
// RUN: %if cuda-emu %{ gpumem-run --target=cuda-emu %s | FileCheck %s --match-full-lines --strict-whitespace %}

// A 32x16x16 f16 matmul with f32 accumulate on tensor-core fragments: one
// block of two warps, warp w computes rows 16w..16w+15 of C = A*B + C0 with
// gpu.subgroup_mma_load_matrix, compute and store_matrix.
// A[i][k] = (i + 2k) mod 7 - 3, B[k][j] = (3k + j) mod 5 - 2, C0[i][j] = i - j
// (small integers: every sum is exact). The host computes the same in f32.

// CHECK:device C[0][0]: 11
// CHECK-NEXT:device C[17][9]: 17
// CHECK-NEXT:device sum: 4093
// CHECK-NEXT:host sum:   4093
// CHECK-NEXT:mismatches: 0

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %f0 = arith.constant 0.0 : f32
  %i0 = arith.constant 0 : i32

  %a = memref.alloc() : memref<32x16xf16>
  %b = memref.alloc() : memref<16x16xf16>
  %c = memref.alloc() : memref<32x16xf32>
  scf.for %i = %c0 to %c32 step %c1 {
    scf.for %k = %c0 to %c16 step %c1 {
      %k2 = arith.muli %k, %c2 : index
      %s = arith.addi %i, %k2 : index
      %m = arith.remui %s, %c7 : index
      %v = arith.subi %m, %c3 : index
      %vi = arith.index_cast %v : index to i32
      %vf = arith.sitofp %vi : i32 to f16
      memref.store %vf, %a[%i, %k] : memref<32x16xf16>
    }
    scf.for %j = %c0 to %c16 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %ji = arith.index_cast %j : index to i32
      %d = arith.subi %ii, %ji : i32
      %df = arith.sitofp %d : i32 to f32
      memref.store %df, %c[%i, %j] : memref<32x16xf32>
    }
  }
  scf.for %k = %c0 to %c16 step %c1 {
    scf.for %j = %c0 to %c16 step %c1 {
      %k3 = arith.muli %k, %c3 : index
      %s = arith.addi %k3, %j : index
      %m = arith.remui %s, %c5 : index
      %v = arith.subi %m, %c2 : index
      %vi = arith.index_cast %v : index to i32
      %vf = arith.sitofp %vi : i32 to f16
      memref.store %vf, %b[%k, %j] : memref<16x16xf16>
    }
  }
  // The host's reference, before the device overwrites C.
  %ref = memref.alloc() : memref<32x16xf32>
  scf.for %i = %c0 to %c32 step %c1 {
    scf.for %j = %c0 to %c16 step %c1 {
      %c0v = memref.load %c[%i, %j] : memref<32x16xf32>
      %sum = scf.for %k = %c0 to %c16 step %c1 iter_args(%acc = %c0v) -> f32 {
        %x = memref.load %a[%i, %k] : memref<32x16xf16>
        %y = memref.load %b[%k, %j] : memref<16x16xf16>
        %xf = arith.extf %x : f16 to f32
        %yf = arith.extf %y : f16 to f32
        %p = arith.mulf %xf, %yf : f32
        %n = arith.addf %acc, %p : f32
        scf.yield %n : f32
      }
      memref.store %sum, %ref[%i, %j] : memref<32x16xf32>
    }
  }
  %au = memref.cast %a : memref<32x16xf16> to memref<*xf16>
  %bu = memref.cast %b : memref<16x16xf16> to memref<*xf16>
  %cu = memref.cast %c : memref<32x16xf32> to memref<*xf32>
  gpu.host_register %au : memref<*xf16>
  gpu.host_register %bu : memref<*xf16>
  gpu.host_register %cu : memref<*xf32>

  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %w = arith.divui %tx, %c32 : index
    %row = arith.muli %w, %c16 : index
    %fa = gpu.subgroup_mma_load_matrix %a[%row, %c0] {leadDimension = 16 : index}
        : memref<32x16xf16> -> !gpu.mma_matrix<16x16xf16, "AOp">
    %fb = gpu.subgroup_mma_load_matrix %b[%c0, %c0] {leadDimension = 16 : index}
        : memref<16x16xf16> -> !gpu.mma_matrix<16x16xf16, "BOp">
    %fc = gpu.subgroup_mma_load_matrix %c[%row, %c0] {leadDimension = 16 : index}
        : memref<32x16xf32> -> !gpu.mma_matrix<16x16xf32, "COp">
    %fd = gpu.subgroup_mma_compute %fa, %fb, %fc
        : !gpu.mma_matrix<16x16xf16, "AOp">, !gpu.mma_matrix<16x16xf16, "BOp">
        -> !gpu.mma_matrix<16x16xf32, "COp">
    gpu.subgroup_mma_store_matrix %fd, %c[%row, %c0] {leadDimension = 16 : index}
        : !gpu.mma_matrix<16x16xf32, "COp">, memref<32x16xf32>
    gpu.terminator
  }

  %bad, %dsum, %hsum = scf.for %i = %c0 to %c32 step %c1
      iter_args(%n = %i0, %ds = %f0, %hs = %f0) -> (i32, f32, f32) {
    %r:3 = scf.for %j = %c0 to %c16 step %c1
        iter_args(%n1 = %n, %ds1 = %ds, %hs1 = %hs) -> (i32, f32, f32) {
      %got = memref.load %c[%i, %j] : memref<32x16xf32>
      %want = memref.load %ref[%i, %j] : memref<32x16xf32>
      %ne = arith.cmpf une, %got, %want : f32
      %inc = arith.extui %ne : i1 to i32
      %n2 = arith.addi %n1, %inc : i32
      %ds2 = arith.addf %ds1, %got : f32
      %hs2 = arith.addf %hs1, %want : f32
      scf.yield %n2, %ds2, %hs2 : i32, f32, f32
    }
    scf.yield %r#0, %r#1, %r#2 : i32, f32, f32
  }
  %c17 = arith.constant 17 : index
  %c9 = arith.constant 9 : index
  %e00 = memref.load %c[%c0, %c0] : memref<32x16xf32>
  %e179 = memref.load %c[%c17, %c9] : memref<32x16xf32>
  vector.print str "device C[0][0]: "
  vector.print %e00 : f32
  vector.print str "device C[17][9]: "
  vector.print %e179 : f32
  vector.print str "device sum: "
  vector.print %dsum : f32
  vector.print str "host sum:   "
  vector.print %hsum : f32
  vector.print str "mismatches: "
  vector.print %bad : i32
  return
}
