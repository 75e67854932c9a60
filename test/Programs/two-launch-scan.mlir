// RUN: gpumem-run --target=cpu %s | FileCheck %s --match-full-lines --strict-whitespace

// Data handed from one launch to the next: an inclusive prefix sum of 256
// values in two launches of 4 blocks x 64 threads.
//  Launch 1: every block scans its 64 values in shared memory
//    (Hillis-Steele: for offset 1, 2, 4, ..., 32, read, barrier, add,
//    barrier), writes the block-local scan to out[] and the block's total to
//    totals[bx], a device-only buffer from gpu.alloc.
//  Launch 2: reads what launch 1 wrote: thread g adds totals[0..bx-1] to
//    out[g].
//  Launch 3: one block of 256 threads reverses out into rev (rev[i] =
//    out[255 - i]), reading values that other blocks wrote in launch 2.
// in[i] = (i mod 5) + 1; the host scans sequentially.

// CHECK:block totals: ( 190, 191, 192, 193 )
// CHECK-NEXT:gpu scan:  ( 1, 3, 6, 10, 15, 16, 190, 381, 573, 766 )
// CHECK-NEXT:host scan: ( 1, 3, 6, 10, 15, 16, 190, 381, 573, 766 )
// CHECK-NEXT:rev[0] rev[255]: ( 766, 1 )
// CHECK-NEXT:mismatches: 0

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c63 = arith.constant 63 : index
  %c64 = arith.constant 64 : index
  %c255 = arith.constant 255 : index
  %c256 = arith.constant 256 : index
  %i0 = arith.constant 0 : i32
  %i1 = arith.constant 1 : i32

  %in = memref.alloc() : memref<256xi32>
  %out = memref.alloc() : memref<256xi32>
  %rev = memref.alloc() : memref<256xi32>
  %tot_host = memref.alloc() : memref<4xi32>
  scf.for %i = %c0 to %c256 step %c1 {
    %m = arith.remui %i, %c5 : index
    %mi = arith.index_cast %m : index to i32
    %v = arith.addi %mi, %i1 : i32
    memref.store %v, %in[%i] : memref<256xi32>
  }
  %in_u = memref.cast %in : memref<256xi32> to memref<*xi32>
  gpu.host_register %in_u : memref<*xi32>
  %out_u = memref.cast %out : memref<256xi32> to memref<*xi32>
  gpu.host_register %out_u : memref<*xi32>
  %rev_u = memref.cast %rev : memref<256xi32> to memref<*xi32>
  gpu.host_register %rev_u : memref<*xi32>
  %tot_u = memref.cast %tot_host : memref<4xi32> to memref<*xi32>
  gpu.host_register %tot_u : memref<*xi32>

  %t0 = gpu.wait async
  %totals, %t1 = gpu.alloc async [%t0] () : memref<4xi32>
  gpu.wait [%t1]

  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c4, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %s = memref.alloca() : memref<64xi32, 3>
    // Thread tx handles position p = tx xor 1 of the block: some threads
    // read values of threads with a lower id, some of threads with a higher
    // id, so a missing barrier shows whatever order threads run in.
    %p = arith.xori %tx, %c1 : index
    %b = arith.muli %bx, %c64 : index
    %g = arith.addi %b, %p : index
    %x = memref.load %in[%g] : memref<256xi32>
    memref.store %x, %s[%p] : memref<64xi32, 3>
    gpu.barrier
    %c6 = arith.constant 6 : index
    scf.for %k = %c0 to %c6 step %c1 {
      %off = arith.shli %c1, %k : index
      %has = arith.cmpi uge, %p, %off : index
      %add = scf.if %has -> (i32) {
        %src = arith.subi %p, %off : index
        %y = memref.load %s[%src] : memref<64xi32, 3>
        scf.yield %y : i32
      } else {
        scf.yield %i0 : i32
      }
      gpu.barrier
      %mine = memref.load %s[%p] : memref<64xi32, 3>
      %new = arith.addi %mine, %add : i32
      memref.store %new, %s[%p] : memref<64xi32, 3>
      gpu.barrier
    }
    %scan = memref.load %s[%p] : memref<64xi32, 3>
    memref.store %scan, %out[%g] : memref<256xi32>
    %last = arith.cmpi eq, %p, %c63 : index
    scf.if %last {
      memref.store %scan, %totals[%bx] : memref<4xi32>
    }
    gpu.terminator
  }

  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c4, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %b = arith.muli %bx, %c64 : index
    %g = arith.addi %b, %tx : index
    %prefix = scf.for %k = %c0 to %bx step %c1 iter_args(%acc = %i0) -> (i32) {
      %t = memref.load %totals[%k] : memref<4xi32>
      %a = arith.addi %acc, %t : i32
      scf.yield %a : i32
    }
    %v = memref.load %out[%g] : memref<256xi32>
    %w = arith.addi %v, %prefix : i32
    memref.store %w, %out[%g] : memref<256xi32>
    // Thread 0 of block 0 also copies the totals out for the host.
    %z = arith.cmpi eq, %g, %c0 : index
    scf.if %z {
      scf.for %k = %c0 to %c4 step %c1 {
        %t = memref.load %totals[%k] : memref<4xi32>
        memref.store %t, %tot_host[%k] : memref<4xi32>
      }
    }
    gpu.terminator
  }

  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
    %src = arith.subi %c255, %tx : index
    %v = memref.load %out[%src] : memref<256xi32>
    memref.store %v, %rev[%tx] : memref<256xi32>
    gpu.terminator
  }

  %t2 = gpu.wait async
  %t3 = gpu.dealloc async [%t2] %totals : memref<4xi32>
  gpu.wait [%t3]

  // Host: sequential scan, compared with out and rev.
  %ref = memref.alloc() : memref<256xi32>
  %all = scf.for %i = %c0 to %c256 step %c1 iter_args(%acc = %i0) -> (i32) {
    %x = memref.load %in[%i] : memref<256xi32>
    %a = arith.addi %acc, %x : i32
    memref.store %a, %ref[%i] : memref<256xi32>
    scf.yield %a : i32
  }
  %bad = scf.for %i = %c0 to %c256 step %c1 iter_args(%n = %i0) -> (i32) {
    %want = memref.load %ref[%i] : memref<256xi32>
    %got = memref.load %out[%i] : memref<256xi32>
    %j = arith.subi %c255, %i : index
    %gotr = memref.load %rev[%j] : memref<256xi32>
    %ne1 = arith.cmpi ne, %got, %want : i32
    %ne2 = arith.cmpi ne, %gotr, %want : i32
    %ne = arith.ori %ne1, %ne2 : i1
    %inc = arith.extui %ne : i1 to i32
    %n1 = arith.addi %n, %inc : i32
    scf.yield %n1 : i32
  }

  %tv = vector.transfer_read %tot_host[%c0], %i0 {in_bounds = [true]} : memref<4xi32>, vector<4xi32>
  vector.print str "block totals: "
  vector.print %tv : vector<4xi32>
  %gv = func.call @pick(%out) : (memref<256xi32>) -> vector<10xi32>
  %hv = func.call @pick(%ref) : (memref<256xi32>) -> vector<10xi32>
  vector.print str "gpu scan:  "
  vector.print %gv : vector<10xi32>
  vector.print str "host scan: "
  vector.print %hv : vector<10xi32>
  %r0 = memref.load %rev[%c0] : memref<256xi32>
  %r255 = memref.load %rev[%c255] : memref<256xi32>
  %rv = vector.from_elements %r0, %r255 : vector<2xi32>
  vector.print str "rev[0] rev[255]: "
  vector.print %rv : vector<2xi32>
  vector.print str "mismatches: "
  vector.print %bad : i32

  gpu.host_unregister %in_u : memref<*xi32>
  gpu.host_unregister %out_u : memref<*xi32>
  gpu.host_unregister %rev_u : memref<*xi32>
  gpu.host_unregister %tot_u : memref<*xi32>
  memref.dealloc %in : memref<256xi32>
  memref.dealloc %out : memref<256xi32>
  memref.dealloc %rev : memref<256xi32>
  memref.dealloc %tot_host : memref<4xi32>
  memref.dealloc %ref : memref<256xi32>
  return
}

// ( m[0], m[1], m[2], m[3], m[4], m[5], m[63], m[127], m[191], m[255] )
func.func @pick(%m: memref<256xi32>) -> vector<10xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c63 = arith.constant 63 : index
  %c127 = arith.constant 127 : index
  %c191 = arith.constant 191 : index
  %c255 = arith.constant 255 : index
  %x0 = memref.load %m[%c0] : memref<256xi32>
  %x1 = memref.load %m[%c1] : memref<256xi32>
  %x2 = memref.load %m[%c2] : memref<256xi32>
  %x3 = memref.load %m[%c3] : memref<256xi32>
  %x4 = memref.load %m[%c4] : memref<256xi32>
  %x5 = memref.load %m[%c5] : memref<256xi32>
  %x6 = memref.load %m[%c63] : memref<256xi32>
  %x7 = memref.load %m[%c127] : memref<256xi32>
  %x8 = memref.load %m[%c191] : memref<256xi32>
  %x9 = memref.load %m[%c255] : memref<256xi32>
  %v = vector.from_elements %x0, %x1, %x2, %x3, %x4, %x5, %x6, %x7, %x8, %x9 : vector<10xi32>
  return %v : vector<10xi32>
}
