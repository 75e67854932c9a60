// RUN: gpumem-run --target=cpu %s | FileCheck %s --match-full-lines --strict-whitespace

// Butterfly reduction within warps with gpu.shuffle xor, width 32: 3 blocks
// of 96 threads (9 warps). Every lane starts with x = gid (its global id,
// as f32) and for offset = 16, 8, 4, 2, 1 adds the value of lane
// (lane xor offset), so afterwards *every* lane holds the sum of its warp.
// Each lane also ANDs the valid flags of its five shuffles. Every lane
// writes its result to out[gid] and its flags to valid[gid]; the host
// checks all 288 lanes against sequential warp sums. Warp w holds
// 32w .. 32w+31, whose sum is 1024*w + 496.

// CHECK:gpu warp sums:  ( 496, 1520, 2544, 3568, 4592, 5616, 6640, 7664, 8688 )
// CHECK-NEXT:host warp sums: ( 496, 1520, 2544, 3568, 4592, 5616, 6640, 7664, 8688 )
// CHECK-NEXT:lanes that differ from their warp's sum: 0
// CHECK-NEXT:lanes with an invalid shuffle: 0

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c9 = arith.constant 9 : index
  %c32 = arith.constant 32 : index
  %c96 = arith.constant 96 : index
  %c288 = arith.constant 288 : index
  %f0 = arith.constant 0.0 : f32
  %fm1 = arith.constant -1.0 : f32
  %i0 = arith.constant 0 : i32
  %i1 = arith.constant 1 : i32

  %out = memref.alloc() : memref<288xf32>
  %valid = memref.alloc() : memref<288xi32>
  %sums = memref.alloc() : memref<9xf32>
  %ref = memref.alloc() : memref<9xf32>
  scf.for %i = %c0 to %c288 step %c1 {
    memref.store %fm1, %out[%i] : memref<288xf32>
    memref.store %i0, %valid[%i] : memref<288xi32>
  }
  %out_u = memref.cast %out : memref<288xf32> to memref<*xf32>
  gpu.host_register %out_u : memref<*xf32>
  %valid_u = memref.cast %valid : memref<288xi32> to memref<*xi32>
  gpu.host_register %valid_u : memref<*xi32>

  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c3, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c96, %sy = %c1, %sz = %c1) {
    %base = arith.muli %bx, %c96 : index
    %gid = arith.addi %base, %tx : index
    %gi = arith.index_cast %gid : index to i64
    %x = arith.sitofp %gi : i64 to f32
    %w32 = arith.constant 32 : i32
    %o16 = arith.constant 16 : i32
    %true = arith.constant true
    %sum, %ok = scf.for %k = %c0 to %c5 step %c1
        iter_args(%acc = %x, %allv = %true) -> (f32, i1) {
      %ki = arith.index_cast %k : index to i32
      %off = arith.shrui %o16, %ki : i32
      %y, %v = gpu.shuffle xor %acc, %off, %w32 : f32
      %acc1 = arith.addf %acc, %y : f32
      %allv1 = arith.andi %allv, %v : i1
      scf.yield %acc1, %allv1 : f32, i1
    }
    memref.store %sum, %out[%gid] : memref<288xf32>
    %oki = arith.extui %ok : i1 to i32
    memref.store %oki, %valid[%gid] : memref<288xi32>
    gpu.terminator
  }

  // Host: warp sums, sequentially.
  scf.for %w = %c0 to %c9 step %c1 {
    %lo = arith.muli %w, %c32 : index
    %hi = arith.addi %lo, %c32 : index
    %s = scf.for %i = %lo to %hi step %c1 iter_args(%acc = %f0) -> (f32) {
      %ii = arith.index_cast %i : index to i64
      %f = arith.sitofp %ii : i64 to f32
      %a1 = arith.addf %acc, %f : f32
      scf.yield %a1 : f32
    }
    memref.store %s, %ref[%w] : memref<9xf32>
    // The GPU's value of lane 0 of warp w.
    %g = memref.load %out[%lo] : memref<288xf32>
    memref.store %g, %sums[%w] : memref<9xf32>
  }
  %bad, %invalid = scf.for %i = %c0 to %c288 step %c1
      iter_args(%n = %i0, %m = %i0) -> (i32, i32) {
    %w = arith.divui %i, %c32 : index
    %want = memref.load %ref[%w] : memref<9xf32>
    %got = memref.load %out[%i] : memref<288xf32>
    %ne = arith.cmpf une, %got, %want : f32
    %inc = arith.extui %ne : i1 to i32
    %n1 = arith.addi %n, %inc : i32
    %v = memref.load %valid[%i] : memref<288xi32>
    %inv = arith.subi %i1, %v : i32
    %m1 = arith.addi %m, %inv : i32
    scf.yield %n1, %m1 : i32, i32
  }

  %pad = arith.constant 0.0 : f32
  %gv = vector.transfer_read %sums[%c0], %pad {in_bounds = [true]} : memref<9xf32>, vector<9xf32>
  %hv = vector.transfer_read %ref[%c0], %pad {in_bounds = [true]} : memref<9xf32>, vector<9xf32>
  vector.print str "gpu warp sums:  "
  vector.print %gv : vector<9xf32>
  vector.print str "host warp sums: "
  vector.print %hv : vector<9xf32>
  vector.print str "lanes that differ from their warp's sum: "
  vector.print %bad : i32
  vector.print str "lanes with an invalid shuffle: "
  vector.print %invalid : i32

  gpu.host_unregister %out_u : memref<*xf32>
  gpu.host_unregister %valid_u : memref<*xi32>
  memref.dealloc %out : memref<288xf32>
  memref.dealloc %valid : memref<288xi32>
  memref.dealloc %sums : memref<9xf32>
  memref.dealloc %ref : memref<9xf32>
  return
}
