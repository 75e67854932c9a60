// RUN: gpumem-run --target=cpu %s | FileCheck %s --match-full-lines --strict-whitespace

// Expected to fail until the cpu runtime lets a gpu.shuffle of width w < 32
// proceed with only the first w lanes of the warp: the rewrite of
// gpu.all_reduce (upstream's GpuAllReduceRewriter) reduces the per-warp
// partial results with a shuffle of width = number of warps, executed by
// those lanes of warp 0 only, while the other lanes of warp 0 go on to the
// next gpu.barrier. Today the runtime stops with
//   gpumem: error: kernel 'main_kernel': deadlock at shuffle FILE:L:C: ...
//   while N threads of its warp wait at the barrier at FILE:L:C
// for every block size (even 32 threads).

// gpu.all_reduce (gpu.subgroup_reduce is in subgroup-reduce.mlir).
// Launch 1: 2 blocks of 64x2 threads (4 warps each). Thread with global
// linear id g = bx*128 + ty*64 + tx holds x = (37*g) mod 101. Every thread
// computes, for its block:
//   - gpu.all_reduce add   of x (f32),
//   - gpu.all_reduce maxsi of x (i32),
//   - gpu.all_reduce and   of x + 1024 (i32),
//   - gpu.all_reduce with a region (i32 addition) of x*x.
// Every thread writes all results; the host checks every thread's copy
// against sequential reductions and prints the per-block values.
// Launch 2: one block of 5x8 = 40 threads (a partial last warp),
// gpu.all_reduce add and gpu.all_reduce minsi of 3*t - 50.

// CHECK:block add:   ( 6321, 6428 )
// CHECK-NEXT:block max:   ( 100, 100 )
// CHECK-NEXT:block and:   ( 1024, 1024 )
// CHECK-NEXT:block sumsq: ( 421087, 432146 )
// CHECK-NEXT:host block add:   ( 6321, 6428 )
// CHECK-NEXT:host block max:   ( 100, 100 )
// CHECK-NEXT:host block and:   ( 1024, 1024 )
// CHECK-NEXT:host block sumsq: ( 421087, 432146 )
// CHECK-NEXT:threads with a wrong block result: 0
// CHECK-NEXT:40 threads: add 340 min -50
// CHECK-NEXT:threads with a wrong 40-thread result: 0

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %c40 = arith.constant 40 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %i0 = arith.constant 0 : i32
  %i1 = arith.constant 1 : i32

  // res[g][0..3] = add, max, and, sumsq (as i32).
  %res = memref.alloc() : memref<256x4xi32>
  %res_u = memref.cast %res : memref<256x4xi32> to memref<*xi32>
  gpu.host_register %res_u : memref<*xi32>
  %res40 = memref.alloc() : memref<40x2xi32>
  %res40_u = memref.cast %res40 : memref<40x2xi32> to memref<*xi32>
  gpu.host_register %res40_u : memref<*xi32>

  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c2, %sz = %c1) {
    %l = arith.muli %ty, %c64 : index
    %lin = arith.addi %l, %tx : index
    %b = arith.muli %bx, %c128 : index
    %g = arith.addi %b, %lin : index
    %x = func.call @value(%g) : (index) -> i32
    %xf = arith.sitofp %x : i32 to f32
    %add = gpu.all_reduce add %xf uniform {} : (f32) -> f32
    %max = gpu.all_reduce maxsi %x uniform {} : (i32) -> i32
    %k1024 = arith.constant 1024 : i32
    %xa = arith.addi %x, %k1024 : i32
    %and = gpu.all_reduce and %xa uniform {} : (i32) -> i32
    %xx = arith.muli %x, %x : i32
    %sumsq = gpu.all_reduce %xx uniform {
    ^bb0(%lhs : i32, %rhs : i32):
      %s = arith.addi %lhs, %rhs : i32
      "gpu.yield"(%s) : (i32) -> ()
    } : (i32) -> i32
    %addi = arith.fptosi %add : f32 to i32
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    memref.store %addi, %res[%g, %c0] : memref<256x4xi32>
    memref.store %max, %res[%g, %c1] : memref<256x4xi32>
    memref.store %and, %res[%g, %c2] : memref<256x4xi32>
    memref.store %sumsq, %res[%g, %c3] : memref<256x4xi32>
    gpu.terminator
  }

  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c5, %sy = %c8, %sz = %c1) {
    %l = arith.muli %ty, %c5 : index
    %t = arith.addi %l, %tx : index
    %ti = arith.index_cast %t : index to i32
    %k3 = arith.constant 3 : i32
    %k50 = arith.constant 50 : i32
    %t3 = arith.muli %ti, %k3 : i32
    %y = arith.subi %t3, %k50 : i32
    %sum = gpu.all_reduce add %y uniform {} : (i32) -> i32
    %min = gpu.all_reduce minsi %y uniform {} : (i32) -> i32
    memref.store %sum, %res40[%t, %c0] : memref<40x2xi32>
    memref.store %min, %res40[%t, %c1] : memref<40x2xi32>
    gpu.terminator
  }

  // Host references: ref[b][0..3] per block.
  %ref = memref.alloc() : memref<2x4xi32>
  %kmin = arith.constant -2147483648 : i32
  %kall = arith.constant -1 : i32
  %k1024 = arith.constant 1024 : i32
  scf.for %b = %c0 to %c2 step %c1 {
    %lo = arith.muli %b, %c128 : index
    %hi = arith.addi %lo, %c128 : index
    %s, %m, %a, %q = scf.for %g = %lo to %hi step %c1
        iter_args(%s0 = %i0, %m0 = %kmin, %a0 = %kall, %q0 = %i0) -> (i32, i32, i32, i32) {
      %x = func.call @value(%g) : (index) -> i32
      %s1 = arith.addi %s0, %x : i32
      %m1 = arith.maxsi %m0, %x : i32
      %xa = arith.addi %x, %k1024 : i32
      %a1 = arith.andi %a0, %xa : i32
      %xx = arith.muli %x, %x : i32
      %q1 = arith.addi %q0, %xx : i32
      scf.yield %s1, %m1, %a1, %q1 : i32, i32, i32, i32
    }
    %c3 = arith.constant 3 : index
    memref.store %s, %ref[%b, %c0] : memref<2x4xi32>
    memref.store %m, %ref[%b, %c1] : memref<2x4xi32>
    memref.store %a, %ref[%b, %c2] : memref<2x4xi32>
    memref.store %q, %ref[%b, %c3] : memref<2x4xi32>
  }
  // Check every thread's copies.
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %bbad = scf.for %g = %c0 to %c256 step %c1
      iter_args(%n0 = %i0) -> (i32) {
    %b = arith.divui %g, %c128 : index
    %bwrong = scf.for %k = %c0 to %c4 step %c1 iter_args(%any = %i0) -> (i32) {
      %got = memref.load %res[%g, %k] : memref<256x4xi32>
      %want = memref.load %ref[%b, %k] : memref<2x4xi32>
      %ne = arith.cmpi ne, %got, %want : i32
      %nei = arith.extui %ne : i1 to i32
      %any1 = arith.ori %any, %nei : i32
      scf.yield %any1 : i32
    }
    %m0 = arith.addi %n0, %bwrong : i32
    scf.yield %m0 : i32
  }

  %pad = arith.constant 0 : i32
  // GPU values: thread 0 of each block.
  %gadd = func.call @col2(%res, %c0) : (memref<256x4xi32>, index) -> vector<2xi32>
  %gmax = func.call @col2(%res, %c1) : (memref<256x4xi32>, index) -> vector<2xi32>
  %gand = func.call @col2(%res, %c2) : (memref<256x4xi32>, index) -> vector<2xi32>
  %gsq = func.call @col2(%res, %c3) : (memref<256x4xi32>, index) -> vector<2xi32>
  vector.print str "block add:   "
  vector.print %gadd : vector<2xi32>
  vector.print str "block max:   "
  vector.print %gmax : vector<2xi32>
  vector.print str "block and:   "
  vector.print %gand : vector<2xi32>
  vector.print str "block sumsq: "
  vector.print %gsq : vector<2xi32>
  %refT = memref.alloc() : memref<4x2xi32>
  scf.for %b = %c0 to %c2 step %c1 {
    scf.for %k = %c0 to %c4 step %c1 {
      %v = memref.load %ref[%b, %k] : memref<2x4xi32>
      memref.store %v, %refT[%k, %b] : memref<4x2xi32>
    }
  }
  %h0 = vector.transfer_read %refT[%c0, %c0], %pad {in_bounds = [true]} : memref<4x2xi32>, vector<2xi32>
  %h1 = vector.transfer_read %refT[%c1, %c0], %pad {in_bounds = [true]} : memref<4x2xi32>, vector<2xi32>
  %h2 = vector.transfer_read %refT[%c2, %c0], %pad {in_bounds = [true]} : memref<4x2xi32>, vector<2xi32>
  %h3 = vector.transfer_read %refT[%c3, %c0], %pad {in_bounds = [true]} : memref<4x2xi32>, vector<2xi32>
  vector.print str "host block add:   "
  vector.print %h0 : vector<2xi32>
  vector.print str "host block max:   "
  vector.print %h1 : vector<2xi32>
  vector.print str "host block and:   "
  vector.print %h2 : vector<2xi32>
  vector.print str "host block sumsq: "
  vector.print %h3 : vector<2xi32>
  vector.print str "threads with a wrong block result: "
  vector.print %bbad : i32

  // 40 threads: y = 3t - 50, sum = 3*780 - 2000 = 340, min = -50.
  %s40 = memref.load %res40[%c0, %c0] : memref<40x2xi32>
  %m40 = memref.load %res40[%c0, %c1] : memref<40x2xi32>
  vector.print str "40 threads: add "
  vector.print %s40 : i32 punctuation <no_punctuation>
  vector.print str " min "
  vector.print %m40 : i32
  %k340 = arith.constant 340 : i32
  %km50 = arith.constant -50 : i32
  %bad40 = scf.for %t = %c0 to %c40 step %c1 iter_args(%n = %i0) -> (i32) {
    %s = memref.load %res40[%t, %c0] : memref<40x2xi32>
    %m = memref.load %res40[%t, %c1] : memref<40x2xi32>
    %ne1 = arith.cmpi ne, %s, %k340 : i32
    %ne2 = arith.cmpi ne, %m, %km50 : i32
    %ne = arith.ori %ne1, %ne2 : i1
    %nei = arith.extui %ne : i1 to i32
    %n1 = arith.addi %n, %nei : i32
    scf.yield %n1 : i32
  }
  vector.print str "threads with a wrong 40-thread result: "
  vector.print %bad40 : i32

  gpu.host_unregister %res_u : memref<*xi32>
  gpu.host_unregister %res40_u : memref<*xi32>
  memref.dealloc %res : memref<256x4xi32>
  memref.dealloc %res40 : memref<40x2xi32>
  memref.dealloc %ref : memref<2x4xi32>
  memref.dealloc %refT : memref<4x2xi32>
  return
}

// x(g) = (37 * g) mod 101.
func.func @value(%g: index) -> i32 {
  %c37 = arith.constant 37 : index
  %c101 = arith.constant 101 : index
  %m = arith.muli %g, %c37 : index
  %r = arith.remui %m, %c101 : index
  %i = arith.index_cast %r : index to i32
  return %i : i32
}

// ( res[0][k], res[128][k] ): thread 0 of each block.
func.func @col2(%res: memref<256x4xi32>, %k: index) -> vector<2xi32> {
  %c0 = arith.constant 0 : index
  %c128 = arith.constant 128 : index
  %a = memref.load %res[%c0, %k] : memref<256x4xi32>
  %b = memref.load %res[%c128, %k] : memref<256x4xi32>
  %v = vector.from_elements %a, %b : vector<2xi32>
  return %v : vector<2xi32>
}
