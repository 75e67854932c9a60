// RUN: gpumem-run --target=cpu %s | FileCheck %s --match-full-lines --strict-whitespace

// Per-thread private scratch buffers, indexed dynamically, kept alive across
// gpu.barrier (where the cpu target switches between the block's threads).
// 2 blocks of 64 threads; thread g = bx*64 + tx has three buffers:
//   p: memref<16xf32, #gpu.address_space<private>>
//   q: memref<16xi32, 5>      (the integer spelling of private)
//   r: memref<?xi32> of dynamic size n = 8 (default memory space)
// For k = 0..15 it writes p[(7k + g) mod 16] = 100g + k and
// q[(3k + g) mod 16] = k; r[j] = g + j. Then gpu.barrier (twice, with a
// shared counter touched in between, so the threads really interleave),
// then it reads everything back in a different order:
//   out[g] = sum_j p[j] * (q[j] + 1) + sum_j r[j]
// If two threads shared a buffer, the last writer's values would show up.
// The host computes the same for all 128 threads.

// CHECK:gpu:  ( 1068, 14676, 69108, 858372, 1729284 )
// CHECK-NEXT:host: ( 1068, 14676, 69108, 858372, 1729284 )
// CHECK-NEXT:mismatches: 0
// CHECK-NEXT:visits: 128

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %i0 = arith.constant 0 : i32
  %f0 = arith.constant 0.0 : f32

  %out = memref.alloc() : memref<128xf32>
  %visits = memref.alloc() : memref<1xi32>
  memref.store %i0, %visits[%c0] : memref<1xi32>
  %out_u = memref.cast %out : memref<128xf32> to memref<*xf32>
  gpu.host_register %out_u : memref<*xf32>
  %visits_u = memref.cast %visits : memref<1xi32> to memref<*xi32>
  gpu.host_register %visits_u : memref<*xi32>

  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %c3 = arith.constant 3 : index
    %c7 = arith.constant 7 : index
    %c16 = arith.constant 16 : index
    %c100 = arith.constant 100 : index
    %counter = memref.alloca() : memref<1xi32, #gpu.address_space<workgroup>>
    %p = memref.alloca() : memref<16xf32, #gpu.address_space<private>>
    %q = memref.alloca() : memref<16xi32, 5>
    %r = memref.alloca(%c8) : memref<?xi32>
    %b = arith.muli %bx, %c64 : index
    %g = arith.addi %b, %tx : index
    scf.for %k = %c0 to %c16 step %c1 {
      %k7 = arith.muli %k, %c7 : index
      %k7g = arith.addi %k7, %g : index
      %j = arith.remui %k7g, %c16 : index
      %g100 = arith.muli %g, %c100 : index
      %v = arith.addi %g100, %k : index
      %vi = arith.index_cast %v : index to i64
      %vf = arith.sitofp %vi : i64 to f32
      memref.store %vf, %p[%j] : memref<16xf32, #gpu.address_space<private>>
      %k3 = arith.muli %k, %c3 : index
      %k3g = arith.addi %k3, %g : index
      %jq = arith.remui %k3g, %c16 : index
      %ki = arith.index_cast %k : index to i32
      memref.store %ki, %q[%jq] : memref<16xi32, 5>
    }
    scf.for %j = %c0 to %c8 step %c1 {
      %gj = arith.addi %g, %j : index
      %gji = arith.index_cast %gj : index to i32
      memref.store %gji, %r[%j] : memref<?xi32>
    }
    // The last thread zeroes the block's counter, thread 0 publishes it.
    %c63 = arith.constant 63 : index
    %last = arith.cmpi eq, %tx, %c63 : index
    scf.if %last {
      memref.store %i0, %counter[%c0] : memref<1xi32, #gpu.address_space<workgroup>>
    }
    %first = arith.cmpi eq, %tx, %c0 : index
    gpu.barrier
    %one = arith.constant 1 : i32
    %old = memref.atomic_rmw addi %one, %counter[%c0] : (i32, memref<1xi32, #gpu.address_space<workgroup>>) -> i32
    gpu.barrier
    scf.if %first {
      %n = memref.load %counter[%c0] : memref<1xi32, #gpu.address_space<workgroup>>
      %o = memref.atomic_rmw addi %n, %visits[%c0] : (i32, memref<1xi32>) -> i32
    }
    // Read back, highest index first.
    %s1 = scf.for %i = %c0 to %c16 step %c1 iter_args(%acc = %f0) -> (f32) {
      %c15 = arith.constant 15 : index
      %j = arith.subi %c15, %i : index
      %x = memref.load %p[%j] : memref<16xf32, #gpu.address_space<private>>
      %y = memref.load %q[%j] : memref<16xi32, 5>
      %y1 = arith.addi %y, %one : i32
      %yf = arith.sitofp %y1 : i32 to f32
      %xy = arith.mulf %x, %yf : f32
      %a = arith.addf %acc, %xy : f32
      scf.yield %a : f32
    }
    %s2 = scf.for %j = %c0 to %c8 step %c1 iter_args(%acc = %s1) -> (f32) {
      %x = memref.load %r[%j] : memref<?xi32>
      %xf = arith.sitofp %x : i32 to f32
      %a = arith.addf %acc, %xf : f32
      scf.yield %a : f32
    }
    memref.store %s2, %out[%g] : memref<128xf32>
    gpu.terminator
  }

  // Host: the same per thread, with host buffers.
  %ref = memref.alloc() : memref<128xf32>
  %p = memref.alloc() : memref<16xf32>
  %q = memref.alloc() : memref<16xi32>
  %c3 = arith.constant 3 : index
  %c7 = arith.constant 7 : index
  %c16 = arith.constant 16 : index
  %c100 = arith.constant 100 : index
  %one = arith.constant 1 : i32
  scf.for %g = %c0 to %c128 step %c1 {
    scf.for %k = %c0 to %c16 step %c1 {
      %k7 = arith.muli %k, %c7 : index
      %k7g = arith.addi %k7, %g : index
      %j = arith.remui %k7g, %c16 : index
      %g100 = arith.muli %g, %c100 : index
      %v = arith.addi %g100, %k : index
      %vi = arith.index_cast %v : index to i64
      %vf = arith.sitofp %vi : i64 to f32
      memref.store %vf, %p[%j] : memref<16xf32>
      %k3 = arith.muli %k, %c3 : index
      %k3g = arith.addi %k3, %g : index
      %jq = arith.remui %k3g, %c16 : index
      %ki = arith.index_cast %k : index to i32
      memref.store %ki, %q[%jq] : memref<16xi32>
    }
    %s1 = scf.for %j = %c0 to %c16 step %c1 iter_args(%acc = %f0) -> (f32) {
      %x = memref.load %p[%j] : memref<16xf32>
      %y = memref.load %q[%j] : memref<16xi32>
      %y1 = arith.addi %y, %one : i32
      %yf = arith.sitofp %y1 : i32 to f32
      %xy = arith.mulf %x, %yf : f32
      %a = arith.addf %acc, %xy : f32
      scf.yield %a : f32
    }
    %s2 = scf.for %j = %c0 to %c8 step %c1 iter_args(%acc = %s1) -> (f32) {
      %gj = arith.addi %g, %j : index
      %x = arith.index_cast %gj : index to i64
      %xf = arith.sitofp %x : i64 to f32
      %a = arith.addf %acc, %xf : f32
      scf.yield %a : f32
    }
    memref.store %s2, %ref[%g] : memref<128xf32>
  }

  %bad = scf.for %g = %c0 to %c128 step %c1 iter_args(%n = %i0) -> (i32) {
    %x = memref.load %out[%g] : memref<128xf32>
    %y = memref.load %ref[%g] : memref<128xf32>
    %ne = arith.cmpf une, %x, %y : f32
    %inc = arith.extui %ne : i1 to i32
    %n1 = arith.addi %n, %inc : i32
    scf.yield %n1 : i32
  }
  // Printed: ( out[0], out[1], out[5], out[63], out[127] ), as integers
  // (all values are integers below 2^24, exact in f32).
  %c5 = arith.constant 5 : index
  %c63 = arith.constant 63 : index
  %c127 = arith.constant 127 : index
  %gv = func.call @pick(%out, %c0, %c1, %c5, %c63, %c127) : (memref<128xf32>, index, index, index, index, index) -> vector<5xf32>
  %hv = func.call @pick(%ref, %c0, %c1, %c5, %c63, %c127) : (memref<128xf32>, index, index, index, index, index) -> vector<5xf32>
  %gvi = arith.fptosi %gv : vector<5xf32> to vector<5xi32>
  %hvi = arith.fptosi %hv : vector<5xf32> to vector<5xi32>
  vector.print str "gpu:  "
  vector.print %gvi : vector<5xi32>
  vector.print str "host: "
  vector.print %hvi : vector<5xi32>
  vector.print str "mismatches: "
  vector.print %bad : i32
  %nv = memref.load %visits[%c0] : memref<1xi32>
  vector.print str "visits: "
  vector.print %nv : i32

  gpu.host_unregister %out_u : memref<*xf32>
  gpu.host_unregister %visits_u : memref<*xi32>
  memref.dealloc %out : memref<128xf32>
  memref.dealloc %visits : memref<1xi32>
  memref.dealloc %ref : memref<128xf32>
  memref.dealloc %p : memref<16xf32>
  memref.dealloc %q : memref<16xi32>
  return
}

func.func @pick(%m: memref<128xf32>, %a: index, %b: index, %c: index, %d: index, %e: index) -> vector<5xf32> {
  %x0 = memref.load %m[%a] : memref<128xf32>
  %x1 = memref.load %m[%b] : memref<128xf32>
  %x2 = memref.load %m[%c] : memref<128xf32>
  %x3 = memref.load %m[%d] : memref<128xf32>
  %x4 = memref.load %m[%e] : memref<128xf32>
  %v = vector.from_elements %x0, %x1, %x2, %x3, %x4 : vector<5xf32>
  return %v : vector<5xf32>
}
