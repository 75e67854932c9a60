// RUN: gpumem-run --target=cpu %s | FileCheck %s --match-full-lines --strict-whitespace

// A device function, @block_sum, allocates its reduction buffer with a plain
// memref.alloca in workgroup memory; it is called twice from one kernel and
// once from another. The buffer must be one per block, shared by the
// block's threads (the tree reduction reads other threads' entries), and
// each call must see the block's own data.
//  Kernel A: 2 blocks x 128 threads, x = g (global id): block sums of x and
//            of x*x (two calls, the second reusing the buffer).
//  Kernel B: 3 blocks x 64 threads, x = 1000 - g: block sums of x.
// Every thread (not only thread 0) must get its block's sums; the host
// counts the threads that did not. All values are integers below 2^24,
// exact in f32. The host computes the same sums sequentially; the sums are
// printed as integers.

// CHECK:A sum x:   ( 8128, 24512 )
// CHECK-NEXT:A sum x*x: ( 690880, 4868800 )
// CHECK-NEXT:B sum x:   ( 61984, 57888, 53792 )
// CHECK-NEXT:host A sum x:   ( 8128, 24512 )
// CHECK-NEXT:host A sum x*x: ( 690880, 4868800 )
// CHECK-NEXT:host B sum x:   ( 61984, 57888, 53792 )
// CHECK-NEXT:threads with a wrong sum: 0
// CHECK-NEXT:ok

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %f0 = arith.constant 0.0 : f32
  %outA = memref.alloc() : memref<2x2xf32>
  %outB = memref.alloc() : memref<3xf32>
  %outA_u = memref.cast %outA : memref<2x2xf32> to memref<*xf32>
  gpu.host_register %outA_u : memref<*xf32>
  %outB_u = memref.cast %outB : memref<3xf32> to memref<*xf32>
  gpu.host_register %outB_u : memref<*xf32>
  // Every thread's results: A: 256 x (s1, s2), B: 192 x s.
  %allA = memref.alloc() : memref<256x2xf32>
  %allA_u = memref.cast %allA : memref<256x2xf32> to memref<*xf32>
  gpu.host_register %allA_u : memref<*xf32>
  %allB = memref.alloc() : memref<192xf32>
  %allB_u = memref.cast %allB : memref<192xf32> to memref<*xf32>
  gpu.host_register %allB_u : memref<*xf32>

  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1) {
    %b = arith.muli %bx, %c128 : index
    %g = arith.addi %b, %tx : index
    %gi = arith.index_cast %g : index to i64
    %x = arith.sitofp %gi : i64 to f32
    %s1 = func.call @block_sum(%x, %tx, %sx) : (f32, index, index) -> f32
    %xx = arith.mulf %x, %x : f32
    %s2 = func.call @block_sum(%xx, %tx, %sx) : (f32, index, index) -> f32
    memref.store %s1, %allA[%g, %c0] : memref<256x2xf32>
    memref.store %s2, %allA[%g, %c1] : memref<256x2xf32>
    %first = arith.cmpi eq, %tx, %c0 : index
    scf.if %first {
      memref.store %s1, %outA[%bx, %c0] : memref<2x2xf32>
      memref.store %s2, %outA[%bx, %c1] : memref<2x2xf32>
    }
    gpu.terminator
  }

  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c3, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %b = arith.muli %bx, %c64 : index
    %g = arith.addi %b, %tx : index
    %c1000 = arith.constant 1000 : index
    %v = arith.subi %c1000, %g : index
    %vi = arith.index_cast %v : index to i64
    %x = arith.sitofp %vi : i64 to f32
    %s = func.call @block_sum(%x, %tx, %sx) : (f32, index, index) -> f32
    memref.store %s, %allB[%g] : memref<192xf32>
    %first = arith.cmpi eq, %tx, %c0 : index
    scf.if %first {
      memref.store %s, %outB[%bx] : memref<3xf32>
    }
    gpu.terminator
  }

  // Host sums.
  %refA = memref.alloc() : memref<2x2xf32>
  %refB = memref.alloc() : memref<3xf32>
  scf.for %bb = %c0 to %c2 step %c1 {
    %lo = arith.muli %bb, %c128 : index
    %hi = arith.addi %lo, %c128 : index
    %s1, %s2 = scf.for %g = %lo to %hi step %c1 iter_args(%a = %f0, %q = %f0) -> (f32, f32) {
      %gi = arith.index_cast %g : index to i64
      %x = arith.sitofp %gi : i64 to f32
      %a1 = arith.addf %a, %x : f32
      %xx = arith.mulf %x, %x : f32
      %q1 = arith.addf %q, %xx : f32
      scf.yield %a1, %q1 : f32, f32
    }
    memref.store %s1, %refA[%bb, %c0] : memref<2x2xf32>
    memref.store %s2, %refA[%bb, %c1] : memref<2x2xf32>
  }
  scf.for %bb = %c0 to %c3 step %c1 {
    %lo = arith.muli %bb, %c64 : index
    %hi = arith.addi %lo, %c64 : index
    %s = scf.for %g = %lo to %hi step %c1 iter_args(%a = %f0) -> (f32) {
      %c1000 = arith.constant 1000 : index
      %v = arith.subi %c1000, %g : index
      %vi = arith.index_cast %v : index to i64
      %x = arith.sitofp %vi : i64 to f32
      %a1 = arith.addf %a, %x : f32
      scf.yield %a1 : f32
    }
    memref.store %s, %refB[%bb] : memref<3xf32>
  }

  %ga1 = func.call @col(%outA, %c0) : (memref<2x2xf32>, index) -> vector<2xf32>
  %ga2 = func.call @col(%outA, %c1) : (memref<2x2xf32>, index) -> vector<2xf32>
  %gb = vector.transfer_read %outB[%c0], %f0 {in_bounds = [true]} : memref<3xf32>, vector<3xf32>
  %ha1 = func.call @col(%refA, %c0) : (memref<2x2xf32>, index) -> vector<2xf32>
  %ha2 = func.call @col(%refA, %c1) : (memref<2x2xf32>, index) -> vector<2xf32>
  %hb = vector.transfer_read %refB[%c0], %f0 {in_bounds = [true]} : memref<3xf32>, vector<3xf32>
  vector.print str "A sum x:   "
  %ga1i = arith.fptosi %ga1 : vector<2xf32> to vector<2xi32>
  vector.print %ga1i : vector<2xi32>
  vector.print str "A sum x*x: "
  %ga2i = arith.fptosi %ga2 : vector<2xf32> to vector<2xi32>
  vector.print %ga2i : vector<2xi32>
  vector.print str "B sum x:   "
  %gbi = arith.fptosi %gb : vector<3xf32> to vector<3xi32>
  vector.print %gbi : vector<3xi32>
  vector.print str "host A sum x:   "
  %ha1i = arith.fptosi %ha1 : vector<2xf32> to vector<2xi32>
  vector.print %ha1i : vector<2xi32>
  vector.print str "host A sum x*x: "
  %ha2i = arith.fptosi %ha2 : vector<2xf32> to vector<2xi32>
  vector.print %ha2i : vector<2xi32>
  vector.print str "host B sum x:   "
  %hbi = arith.fptosi %hb : vector<3xf32> to vector<3xi32>
  vector.print %hbi : vector<3xi32>
  %i0 = arith.constant 0 : i32
  %c192 = arith.constant 192 : index
  %c256 = arith.constant 256 : index
  %badA = scf.for %g = %c0 to %c256 step %c1 iter_args(%n = %i0) -> (i32) {
    %bb = arith.divui %g, %c128 : index
    %x1 = memref.load %allA[%g, %c0] : memref<256x2xf32>
    %x2 = memref.load %allA[%g, %c1] : memref<256x2xf32>
    %w1 = memref.load %refA[%bb, %c0] : memref<2x2xf32>
    %w2 = memref.load %refA[%bb, %c1] : memref<2x2xf32>
    %n1 = arith.cmpf une, %x1, %w1 : f32
    %n2 = arith.cmpf une, %x2, %w2 : f32
    %ne = arith.ori %n1, %n2 : i1
    %inc = arith.extui %ne : i1 to i32
    %nn = arith.addi %n, %inc : i32
    scf.yield %nn : i32
  }
  %bad = scf.for %g = %c0 to %c192 step %c1 iter_args(%n = %badA) -> (i32) {
    %bb = arith.divui %g, %c64 : index
    %x = memref.load %allB[%g] : memref<192xf32>
    %w = memref.load %refB[%bb] : memref<3xf32>
    %ne = arith.cmpf une, %x, %w : f32
    %inc = arith.extui %ne : i1 to i32
    %nn = arith.addi %n, %inc : i32
    scf.yield %nn : i32
  }
  vector.print str "threads with a wrong sum: "
  vector.print %bad : i32
  %e1 = arith.cmpf oeq, %ga1, %ha1 : vector<2xf32>
  %e2 = arith.cmpf oeq, %ga2, %ha2 : vector<2xf32>
  %e3 = arith.cmpf oeq, %gb, %hb : vector<3xf32>
  %r1 = vector.reduction <and>, %e1 : vector<2xi1> into i1
  %r2 = vector.reduction <and>, %e2 : vector<2xi1> into i1
  %r3 = vector.reduction <and>, %e3 : vector<3xi1> into i1
  %r12 = arith.andi %r1, %r2 : i1
  %r123 = arith.andi %r12, %r3 : i1
  %nobad = arith.cmpi eq, %bad, %i0 : i32
  %all = arith.andi %r123, %nobad : i1
  scf.if %all {
    vector.print str "ok\n"
  } else {
    vector.print str "MISMATCH\n"
  }

  gpu.host_unregister %outA_u : memref<*xf32>
  gpu.host_unregister %outB_u : memref<*xf32>
  memref.dealloc %outA : memref<2x2xf32>
  memref.dealloc %outB : memref<3xf32>
  memref.dealloc %refA : memref<2x2xf32>
  memref.dealloc %refB : memref<3xf32>
  gpu.host_unregister %allA_u : memref<*xf32>
  gpu.host_unregister %allB_u : memref<*xf32>
  memref.dealloc %allA : memref<256x2xf32>
  memref.dealloc %allB : memref<192xf32>
  return
}

// Sum of %x over the n threads of the block (n a power of two, n <= 128).
// Every thread of the block must call it (it has barriers).
func.func @block_sum(%x: f32, %tid: index, %n: index) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %buf = memref.alloca() : memref<128xf32, #gpu.address_space<workgroup>>
  memref.store %x, %buf[%tid] : memref<128xf32, #gpu.address_space<workgroup>>
  gpu.barrier
  %half = arith.shrui %n, %c1 : index
  %done = scf.while (%s = %half) : (index) -> index {
    %more = arith.cmpi ugt, %s, %c0 : index
    scf.condition(%more) %s : index
  } do {
  ^bb0(%s: index):
    %active = arith.cmpi ult, %tid, %s : index
    scf.if %active {
      %o = arith.addi %tid, %s : index
      %a = memref.load %buf[%tid] : memref<128xf32, #gpu.address_space<workgroup>>
      %b = memref.load %buf[%o] : memref<128xf32, #gpu.address_space<workgroup>>
      %ab = arith.addf %a, %b : f32
      memref.store %ab, %buf[%tid] : memref<128xf32, #gpu.address_space<workgroup>>
    }
    gpu.barrier
    %next = arith.shrui %s, %c1 : index
    scf.yield %next : index
  }
  %r = memref.load %buf[%c0] : memref<128xf32, #gpu.address_space<workgroup>>
  // Nobody may overwrite buf (next call) before everybody has read buf[0].
  gpu.barrier
  return %r : f32
}

func.func @col(%m: memref<2x2xf32>, %k: index) -> vector<2xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = memref.load %m[%c0, %k] : memref<2x2xf32>
  %b = memref.load %m[%c1, %k] : memref<2x2xf32>
  %v = vector.from_elements %a, %b : vector<2xf32>
  return %v : vector<2xf32>
}
