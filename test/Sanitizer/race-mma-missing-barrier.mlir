// racecheck on a fragment load: the async copies into workgroup memory are
// followed by their waits but no barrier, so lane 0's A fragment (the whole
// tile) reads bytes other threads copy. mma-async-copy.mlir with its barrier
// is clean.
// RUN: not gpumem-run --target=cpu --sanitize=racecheck %s 2>&1 | FileCheck %s
// CHECK: gpumem: sanitizer: race (write after read) on workgroup memory in kernel 'main_kernel', block (0,0,0): byte 16 (async copy of 16 bytes)
// CHECK-NEXT:   thread (1,0,0) writes it at {{.*}}race-mma-missing-barrier.mlir:{{[0-9]+}}:11: %ta = nvgpu.device_async_copy
// CHECK-NEXT:   thread (0,0,0) read it at {{.*}}race-mma-missing-barrier.mlir:{{[0-9]+}}:11: %fa = gpu.subgroup_mma_load_matrix %sa[%c0, %c0] {leadDimension = 16 : index}, with no barrier between

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c8 = arith.constant 8 : index
  %c9 = arith.constant 9 : index
  %c12 = arith.constant 12 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %f0 = arith.constant 0.0 : f32
  %i0 = arith.constant 0 : i32

  %a = memref.alloc() : memref<16x16xf16>
  %b = memref.alloc() : memref<16x16xf16>
  %c = memref.alloc() : memref<16x16xf32>
  scf.for %i = %c0 to %c16 step %c1 {
    scf.for %k = %c0 to %c16 step %c1 {
      %k3 = arith.muli %k, %c3 : index
      %s = arith.addi %i, %k3 : index
      %m = arith.remui %s, %c9 : index
      %v = arith.subi %m, %c4 : index
      %vi = arith.index_cast %v : index to i32
      %vf = arith.sitofp %vi : i32 to f16
      memref.store %vf, %a[%i, %k] : memref<16x16xf16>
      %i2 = arith.muli %i, %c2 : index
      %t = arith.addi %i2, %k : index
      %tm = arith.remui %t, %c5 : index
      %tv = arith.subi %tm, %c2 : index
      %ti = arith.index_cast %tv : index to i32
      %tf = arith.sitofp %ti : i32 to f16
      // b[i][k] = B[i][k], row i, column k
      memref.store %tf, %b[%i, %k] : memref<16x16xf16>
    }
  }
  %ref = memref.alloc() : memref<16x16xf32>
  scf.for %i = %c0 to %c16 step %c1 {
    scf.for %j = %c0 to %c16 step %c1 {
      %sum = scf.for %k = %c0 to %c16 step %c1 iter_args(%acc = %f0) -> f32 {
        %x = memref.load %a[%i, %k] : memref<16x16xf16>
        %y = memref.load %b[%k, %j] : memref<16x16xf16>
        %xf = arith.extf %x : f16 to f32
        %yf = arith.extf %y : f16 to f32
        // Rows 12..15 of B keep columns 0..3 and 8..11 only.
        %late = arith.cmpi uge, %k, %c12 : index
        %jm = arith.remui %j, %c8 : index
        %past = arith.cmpi uge, %jm, %c4 : index
        %zeroed = arith.andi %late, %past : i1
        %ye = arith.select %zeroed, %f0, %yf : f32
        %p = arith.mulf %xf, %ye : f32
        %n = arith.addf %acc, %p : f32
        scf.yield %n : f32
      }
      memref.store %sum, %ref[%i, %j] : memref<16x16xf32>
    }
  }
  %au = memref.cast %a : memref<16x16xf16> to memref<*xf16>
  %bu = memref.cast %b : memref<16x16xf16> to memref<*xf16>
  %cu = memref.cast %c : memref<16x16xf32> to memref<*xf32>
  gpu.host_register %au : memref<*xf16>
  gpu.host_register %bu : memref<*xf16>
  gpu.host_register %cu : memref<*xf32>

  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %sa = memref.alloca() : memref<16x16xf16, #gpu.address_space<workgroup>>
    %sb = memref.alloca() : memref<16x16xf16, #gpu.address_space<workgroup>>
    // Thread t copies row t/2, columns 8*(t%2) .. +8.
    %row = arith.divui %tx, %c2 : index
    %half = arith.remui %tx, %c2 : index
    %col = arith.muli %half, %c8 : index
    %ta = nvgpu.device_async_copy %a[%row, %col], %sa[%row, %col], 8
        : memref<16x16xf16> to memref<16x16xf16, #gpu.address_space<workgroup>>
    %ga = nvgpu.device_async_create_group %ta
    %late = arith.cmpi uge, %row, %c12 : index
    %n = arith.select %late, %c4, %c8 : index
    %tb = nvgpu.device_async_copy %b[%row, %col], %sb[%row, %col], 8, %n
        : memref<16x16xf16> to memref<16x16xf16, #gpu.address_space<workgroup>>
    %gb = nvgpu.device_async_create_group %tb
    nvgpu.device_async_wait %ga {numGroups = 1 : i32}
    nvgpu.device_async_wait %gb {numGroups = 0 : i32}
    %fa = gpu.subgroup_mma_load_matrix %sa[%c0, %c0] {leadDimension = 16 : index}
        : memref<16x16xf16, #gpu.address_space<workgroup>> -> !gpu.mma_matrix<16x16xf16, "AOp">
    %fb = gpu.subgroup_mma_load_matrix %sb[%c0, %c0] {leadDimension = 16 : index}
        : memref<16x16xf16, #gpu.address_space<workgroup>> -> !gpu.mma_matrix<16x16xf16, "BOp">
    %zero = arith.constant 0.0 : f32
    %fc = gpu.subgroup_mma_constant_matrix %zero : !gpu.mma_matrix<16x16xf32, "COp">
    %fd = gpu.subgroup_mma_compute %fa, %fb, %fc
        : !gpu.mma_matrix<16x16xf16, "AOp">, !gpu.mma_matrix<16x16xf16, "BOp">
        -> !gpu.mma_matrix<16x16xf32, "COp">
    gpu.subgroup_mma_store_matrix %fd, %c[%c0, %c0] {leadDimension = 16 : index}
        : !gpu.mma_matrix<16x16xf32, "COp">, memref<16x16xf32>
    gpu.terminator
  }

  %bad, %dsum, %hsum = scf.for %i = %c0 to %c16 step %c1
      iter_args(%nb = %i0, %ds = %f0, %hs = %f0) -> (i32, f32, f32) {
    %r:3 = scf.for %j = %c0 to %c16 step %c1
        iter_args(%n1 = %nb, %ds1 = %ds, %hs1 = %hs) -> (i32, f32, f32) {
      %got = memref.load %c[%i, %j] : memref<16x16xf32>
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
  %e00 = memref.load %c[%c0, %c0] : memref<16x16xf32>
  vector.print str "device C[0][0]: "
  vector.print %e00 : f32
  vector.print str "device sum: "
  vector.print %dsum : f32
  vector.print str "host sum:   "
  vector.print %hsum : f32
  vector.print str "mismatches: "
  vector.print %bad : i32
  return
}
