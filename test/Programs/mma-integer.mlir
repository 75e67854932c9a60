// RUN: gpumem-run --target=cpu %s | FileCheck %s --match-full-lines --strict-whitespace
// RUN: %if cuda-emu %{ gpumem-run --target=cuda-emu %s | FileCheck %s --match-full-lines --strict-whitespace %}

// A 16x16x32 integer matmul on tensor-core fragments, C of i32, as two K
// tiles of 16: the first reads A and B as signed i8 (si8), the second as
// unsigned (ui8: bytes above 127 count 128..255); then C - C0 with subi.
// One warp.
// A[i][k] = (7i + 3k) mod 201 - 100, B[k][j] = (11k + 5j) mod 251,
// C0[i][j] = 1000 i - j.

// CHECK:device C[0][0]: 382489
// CHECK-NEXT:device sum: 39871768
// CHECK-NEXT:host sum:   39871768
// CHECK-NEXT:mismatches: 0

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %c11 = arith.constant 11 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %c100 = arith.constant 100 : index
  %c201 = arith.constant 201 : index
  %c251 = arith.constant 251 : index
  %i0 = arith.constant 0 : i32
  %i1000 = arith.constant 1000 : i32

  %a = memref.alloc() : memref<16x32xi8>
  %b = memref.alloc() : memref<32x16xi8>
  %c = memref.alloc() : memref<16x16xi32>
  %c0m = memref.alloc() : memref<16x16xi32>
  scf.for %i = %c0 to %c16 step %c1 {
    scf.for %k = %c0 to %c32 step %c1 {
      %i7 = arith.muli %i, %c7 : index
      %k3 = arith.muli %k, %c3 : index
      %s = arith.addi %i7, %k3 : index
      %m = arith.remui %s, %c201 : index
      %v = arith.subi %m, %c100 : index
      %vi = arith.index_cast %v : index to i8
      memref.store %vi, %a[%i, %k] : memref<16x32xi8>
    }
    scf.for %j = %c0 to %c16 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %ji = arith.index_cast %j : index to i32
      %t = arith.muli %ii, %i1000 : i32
      %v = arith.subi %t, %ji : i32
      memref.store %v, %c[%i, %j] : memref<16x16xi32>
      memref.store %v, %c0m[%i, %j] : memref<16x16xi32>
    }
  }
  scf.for %k = %c0 to %c32 step %c1 {
    scf.for %j = %c0 to %c16 step %c1 {
      %k11 = arith.muli %k, %c11 : index
      %j5 = arith.muli %j, %c5 : index
      %s = arith.addi %k11, %j5 : index
      %m = arith.remui %s, %c251 : index
      %vi = arith.index_cast %m : index to i8
      memref.store %vi, %b[%k, %j] : memref<32x16xi8>
    }
  }
  %ref = memref.alloc() : memref<16x16xi32>
  scf.for %i = %c0 to %c16 step %c1 {
    scf.for %j = %c0 to %c16 step %c1 {
      %sum = scf.for %k = %c0 to %c32 step %c1 iter_args(%acc = %i0) -> i32 {
        %x = memref.load %a[%i, %k] : memref<16x32xi8>
        %y = memref.load %b[%k, %j] : memref<32x16xi8>
        %xs = arith.extsi %x : i8 to i32
        %ys = arith.extsi %y : i8 to i32
        %xu = arith.extui %x : i8 to i32
        %yu = arith.extui %y : i8 to i32
        %ps = arith.muli %xs, %ys : i32
        %pu = arith.muli %xu, %yu : i32
        %first = arith.cmpi ult, %k, %c16 : index
        %p = arith.select %first, %ps, %pu : i32
        %n = arith.addi %acc, %p : i32
        scf.yield %n : i32
      }
      memref.store %sum, %ref[%i, %j] : memref<16x16xi32>
    }
  }
  %au = memref.cast %a : memref<16x32xi8> to memref<*xi8>
  %bu = memref.cast %b : memref<32x16xi8> to memref<*xi8>
  %cu = memref.cast %c : memref<16x16xi32> to memref<*xi32>
  %c0u = memref.cast %c0m : memref<16x16xi32> to memref<*xi32>
  gpu.host_register %au : memref<*xi8>
  gpu.host_register %bu : memref<*xi8>
  gpu.host_register %cu : memref<*xi32>
  gpu.host_register %c0u : memref<*xi32>

  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %fc = gpu.subgroup_mma_load_matrix %c[%c0, %c0] {leadDimension = 16 : index}
        : memref<16x16xi32> -> !gpu.mma_matrix<16x16xi32, "COp">
    %fa0 = gpu.subgroup_mma_load_matrix %a[%c0, %c0] {leadDimension = 32 : index}
        : memref<16x32xi8> -> !gpu.mma_matrix<16x16xsi8, "AOp">
    %fb0 = gpu.subgroup_mma_load_matrix %b[%c0, %c0] {leadDimension = 16 : index}
        : memref<32x16xi8> -> !gpu.mma_matrix<16x16xsi8, "BOp">
    %f1 = gpu.subgroup_mma_compute %fa0, %fb0, %fc
        : !gpu.mma_matrix<16x16xsi8, "AOp">, !gpu.mma_matrix<16x16xsi8, "BOp">
        -> !gpu.mma_matrix<16x16xi32, "COp">
    %fa1 = gpu.subgroup_mma_load_matrix %a[%c0, %c16] {leadDimension = 32 : index}
        : memref<16x32xi8> -> !gpu.mma_matrix<16x16xui8, "AOp">
    %fb1 = gpu.subgroup_mma_load_matrix %b[%c16, %c0] {leadDimension = 16 : index}
        : memref<32x16xi8> -> !gpu.mma_matrix<16x16xui8, "BOp">
    %f2 = gpu.subgroup_mma_compute %fa1, %fb1, %f1
        : !gpu.mma_matrix<16x16xui8, "AOp">, !gpu.mma_matrix<16x16xui8, "BOp">
        -> !gpu.mma_matrix<16x16xi32, "COp">
    %f3 = gpu.subgroup_mma_elementwise subi %f2, %fc
        : (!gpu.mma_matrix<16x16xi32, "COp">, !gpu.mma_matrix<16x16xi32, "COp">) -> !gpu.mma_matrix<16x16xi32, "COp">
    gpu.subgroup_mma_store_matrix %f3, %c[%c0, %c0] {leadDimension = 16 : index}
        : !gpu.mma_matrix<16x16xi32, "COp">, memref<16x16xi32>
    gpu.terminator
  }

  %bad, %dsum, %hsum = scf.for %i = %c0 to %c16 step %c1
      iter_args(%n = %i0, %ds = %i0, %hs = %i0) -> (i32, i32, i32) {
    %r:3 = scf.for %j = %c0 to %c16 step %c1
        iter_args(%n1 = %n, %ds1 = %ds, %hs1 = %hs) -> (i32, i32, i32) {
      %got = memref.load %c[%i, %j] : memref<16x16xi32>
      %want = memref.load %ref[%i, %j] : memref<16x16xi32>
      %ne = arith.cmpi ne, %got, %want : i32
      %inc = arith.extui %ne : i1 to i32
      %n2 = arith.addi %n1, %inc : i32
      %ds2 = arith.addi %ds1, %got : i32
      %hs2 = arith.addi %hs1, %want : i32
      scf.yield %n2, %ds2, %hs2 : i32, i32, i32
    }
    scf.yield %r#0, %r#1, %r#2 : i32, i32, i32
  }
  %e00 = memref.load %c[%c0, %c0] : memref<16x16xi32>
  vector.print str "device C[0][0]: "
  vector.print %e00 : i32
  vector.print str "device sum: "
  vector.print %dsum : i32
  vector.print str "host sum:   "
  vector.print %hsum : i32
  vector.print str "mismatches: "
  vector.print %bad : i32
  return
}
