// RUN: gpumem-run --target=cpu %s | FileCheck %s --match-full-lines --strict-whitespace
// RUN: %if cuda-emu %{ gpumem-run --target=cuda-emu %s | FileCheck %s --match-full-lines --strict-whitespace %}

// A 16x16 f32 accumulator carried through a K loop of four 16x16x16 f16
// tiles (K = 64) by scf.for, from gpu.subgroup_mma_constant_matrix 0, then
// element-wise: D = maxf(acc, L) + L, then D / 2, where L = 4 everywhere.
// B is stored transposed (Bt[j][k] = B[k][j]) and loaded with `transpose`;
// D is stored transposed as well. One warp in a block of 32 threads.
// A[i][k] = (i + k) mod 5 - 2, B[k][j] = (2k + 3j) mod 7 - 3.

// CHECK:device D[0][0]: 4
// CHECK-NEXT:device sum: 1139.5
// CHECK-NEXT:host sum:   1139.5
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
  %f2 = arith.constant 2.0 : f32
  %f4 = arith.constant 4.0 : f32
  %i0 = arith.constant 0 : i32

  %a = memref.alloc() : memref<16x64xf16>
  %bt = memref.alloc() : memref<16x64xf16>
  %d = memref.alloc() : memref<16x16xf32>
  scf.for %i = %c0 to %c16 step %c1 {
    scf.for %k = %c0 to %c64 step %c1 {
      %s = arith.addi %i, %k : index
      %m = arith.remui %s, %c5 : index
      %v = arith.subi %m, %c2 : index
      %vi = arith.index_cast %v : index to i32
      %vf = arith.sitofp %vi : i32 to f16
      memref.store %vf, %a[%i, %k] : memref<16x64xf16>
      // Bt[i][k] = B[k][i] = (2k + 3i) mod 7 - 3
      %k2 = arith.muli %k, %c2 : index
      %i3 = arith.muli %i, %c3 : index
      %t = arith.addi %k2, %i3 : index
      %tm = arith.remui %t, %c7 : index
      %tv = arith.subi %tm, %c3 : index
      %ti = arith.index_cast %tv : index to i32
      %tf = arith.sitofp %ti : i32 to f16
      memref.store %tf, %bt[%i, %k] : memref<16x64xf16>
    }
  }
  // Host reference in D's layout (D is stored transposed: ref[j][i]).
  %ref = memref.alloc() : memref<16x16xf32>
  scf.for %i = %c0 to %c16 step %c1 {
    scf.for %j = %c0 to %c16 step %c1 {
      %sum = scf.for %k = %c0 to %c64 step %c1 iter_args(%acc = %f0) -> f32 {
        %x = memref.load %a[%i, %k] : memref<16x64xf16>
        %y = memref.load %bt[%j, %k] : memref<16x64xf16>
        %xf = arith.extf %x : f16 to f32
        %yf = arith.extf %y : f16 to f32
        %p = arith.mulf %xf, %yf : f32
        %n = arith.addf %acc, %p : f32
        scf.yield %n : f32
      }
      %mx = arith.maximumf %sum, %f4 : f32
      %ad = arith.addf %mx, %f4 : f32
      %dv = arith.divf %ad, %f2 : f32
      memref.store %dv, %ref[%j, %i] : memref<16x16xf32>
    }
  }
  %au = memref.cast %a : memref<16x64xf16> to memref<*xf16>
  %bu = memref.cast %bt : memref<16x64xf16> to memref<*xf16>
  %du = memref.cast %d : memref<16x16xf32> to memref<*xf32>
  gpu.host_register %au : memref<*xf16>
  gpu.host_register %bu : memref<*xf16>
  gpu.host_register %du : memref<*xf32>

  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %zero = arith.constant 0.0 : f32
    %four = arith.constant 4.0 : f32
    %two = arith.constant 2.0 : f32
    %init = gpu.subgroup_mma_constant_matrix %zero : !gpu.mma_matrix<16x16xf32, "COp">
    %acc = scf.for %k = %c0 to %c64 step %c16
        iter_args(%c = %init) -> (!gpu.mma_matrix<16x16xf32, "COp">) {
      %fa = gpu.subgroup_mma_load_matrix %a[%c0, %k] {leadDimension = 64 : index}
          : memref<16x64xf16> -> !gpu.mma_matrix<16x16xf16, "AOp">
      %fb = gpu.subgroup_mma_load_matrix %bt[%c0, %k] {leadDimension = 64 : index, transpose}
          : memref<16x64xf16> -> !gpu.mma_matrix<16x16xf16, "BOp">
      %n = gpu.subgroup_mma_compute %fa, %fb, %c
          : !gpu.mma_matrix<16x16xf16, "AOp">, !gpu.mma_matrix<16x16xf16, "BOp">
          -> !gpu.mma_matrix<16x16xf32, "COp">
      scf.yield %n : !gpu.mma_matrix<16x16xf32, "COp">
    }
    %l = gpu.subgroup_mma_constant_matrix %four : !gpu.mma_matrix<16x16xf32, "COp">
    %h = gpu.subgroup_mma_constant_matrix %two : !gpu.mma_matrix<16x16xf32, "COp">
    %mx = gpu.subgroup_mma_elementwise maxf %acc, %l
        : (!gpu.mma_matrix<16x16xf32, "COp">, !gpu.mma_matrix<16x16xf32, "COp">) -> !gpu.mma_matrix<16x16xf32, "COp">
    %ad = gpu.subgroup_mma_elementwise addf %mx, %l
        : (!gpu.mma_matrix<16x16xf32, "COp">, !gpu.mma_matrix<16x16xf32, "COp">) -> !gpu.mma_matrix<16x16xf32, "COp">
    %dv = gpu.subgroup_mma_elementwise divf %ad, %h
        : (!gpu.mma_matrix<16x16xf32, "COp">, !gpu.mma_matrix<16x16xf32, "COp">) -> !gpu.mma_matrix<16x16xf32, "COp">
    gpu.subgroup_mma_store_matrix %dv, %d[%c0, %c0] {leadDimension = 16 : index, transpose}
        : !gpu.mma_matrix<16x16xf32, "COp">, memref<16x16xf32>
    gpu.terminator
  }

  %bad, %dsum, %hsum = scf.for %i = %c0 to %c16 step %c1
      iter_args(%n = %i0, %ds = %f0, %hs = %f0) -> (i32, f32, f32) {
    %r:3 = scf.for %j = %c0 to %c16 step %c1
        iter_args(%n1 = %n, %ds1 = %ds, %hs1 = %hs) -> (i32, f32, f32) {
      %got = memref.load %d[%i, %j] : memref<16x16xf32>
      %want = memref.load %ref[%i, %j] : memref<16x16xf32>
      %ne = arith.cmpf une, %got, %want : f32
      %inc = arith.extui %ne : i1 to i32
      %n2 = arith.addi %n1, %inc : i32
      %ds2 = arith.addf %ds1, %got : f32
      %hs2 = arith.addf %hs1, %want : f32
      scf.yield %n2, %ds2, %hs2 : i32, f32, f32
    }
    scf.yield %r#0, %r#1, %r#2 : i32, f32, f32
  }
  %e00 = memref.load %d[%c0, %c0] : memref<16x16xf32>
  vector.print str "device D[0][0]: "
  vector.print %e00 : f32
  vector.print str "device sum: "
  vector.print %dsum : f32
  vector.print str "host sum:   "
  vector.print %hsum : f32
  vector.print str "mismatches: "
  vector.print %bad : i32
  return
}
