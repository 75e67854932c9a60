// RUN: gpumem-run --target=cpu %s | FileCheck %s --match-full-lines --strict-whitespace

// 3-D grid (3, 2, 2) of 3-D blocks (8, 4, 2): 12 blocks of 64 threads
// (2 warps each). Every thread writes 18 fields into its own row of
// out[768][18]: block id x y z, thread id x y z (the launch's region
// arguments), grid dim x y z, block dim x y z, gpu.global_id x y z,
// gpu.lane_id, gpu.subgroup_id, gpu.num_subgroups. Its row is
//   ((bz*2 + by)*3 + bx) * 64 + (tz*4 + ty)*8 + tx
// (the linear id within the block counts x fastest). The host recomputes
// every field of every row from the row number, counts mismatching rows
// (a row never written still holds -1), and prints a checksum and three
// rows.

// CHECK:row 0:   ( 0, 0, 0, 0, 0, 0, 3, 2, 2, 8, 4, 2, 0, 0, 0, 0, 0, 2 )
// CHECK-NEXT:row 333: ( 2, 1, 0, 5, 1, 0, 3, 2, 2, 8, 4, 2, 21, 5, 0, 13, 0, 2 )
// CHECK-NEXT:row 767: ( 2, 1, 1, 7, 3, 1, 3, 2, 2, 8, 4, 2, 23, 7, 3, 31, 1, 2 )
// CHECK-NEXT:checksum: 48384
// CHECK-NEXT:host checksum: 48384
// CHECK-NEXT:mismatches: 0

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c18 = arith.constant 18 : index
  %c64 = arith.constant 64 : index
  %c768 = arith.constant 768 : index
  %i0 = arith.constant 0 : i32
  %im1 = arith.constant -1 : i32

  %out = memref.alloc() : memref<768x18xi32>
  scf.for %r = %c0 to %c768 step %c1 {
    scf.for %f = %c0 to %c18 step %c1 {
      memref.store %im1, %out[%r, %f] : memref<768x18xi32>
    }
  }
  %out_u = memref.cast %out : memref<768x18xi32> to memref<*xi32>
  gpu.host_register %out_u : memref<*xi32>

  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c3, %gy = %c2, %gz = %c2)
             threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c4, %sz = %c2) {
    %b0 = arith.muli %bz, %gy : index
    %b1 = arith.addi %b0, %by : index
    %b2 = arith.muli %b1, %gx : index
    %block = arith.addi %b2, %bx : index
    %t0 = arith.muli %tz, %sy : index
    %t1 = arith.addi %t0, %ty : index
    %t2 = arith.muli %t1, %sx : index
    %thread = arith.addi %t2, %tx : index
    %nthreads = arith.muli %sx, %sy : index
    %nthreads2 = arith.muli %nthreads, %sz : index
    %r0 = arith.muli %block, %nthreads2 : index
    %row = arith.addi %r0, %thread : index
    %gidx = gpu.global_id x
    %gidy = gpu.global_id y
    %gidz = gpu.global_id z
    %lane = gpu.lane_id
    %sg = gpu.subgroup_id : index
    %nsg = gpu.num_subgroups : index
    // The same ids through the ops, for the thread id's y.
    %ty_op = gpu.thread_id y
    %vals = vector.from_elements %bx, %by, %bz, %tx, %ty_op, %tz, %gx, %gy, %gz,
        %sx, %sy, %sz, %gidx, %gidy, %gidz, %lane, %sg, %nsg : vector<18xindex>
    %vi = arith.index_cast %vals : vector<18xindex> to vector<18xi32>
    vector.transfer_write %vi, %out[%row, %c0] {in_bounds = [true]}
        : vector<18xi32>, memref<768x18xi32>
    gpu.terminator
  }

  // Host: expected fields of row r.
  %bad, %sum, %hsum = scf.for %r = %c0 to %c768 step %c1
      iter_args(%n = %i0, %s = %i0, %hs = %i0) -> (i32, i32, i32) {
    %block = arith.divui %r, %c64 : index
    %thread = arith.remui %r, %c64 : index
    %bx = arith.remui %block, %c3 : index
    %byz = arith.divui %block, %c3 : index
    %by = arith.remui %byz, %c2 : index
    %bz = arith.divui %byz, %c2 : index
    %tx = arith.remui %thread, %c8 : index
    %tyz = arith.divui %thread, %c8 : index
    %ty = arith.remui %tyz, %c4 : index
    %tz = arith.divui %tyz, %c4 : index
    %g0 = arith.muli %bx, %c8 : index
    %gidx = arith.addi %g0, %tx : index
    %g1 = arith.muli %by, %c4 : index
    %gidy = arith.addi %g1, %ty : index
    %g2 = arith.muli %bz, %c2 : index
    %gidz = arith.addi %g2, %tz : index
    %c32 = arith.constant 32 : index
    %lane = arith.remui %thread, %c32 : index
    %sg = arith.divui %thread, %c32 : index
    %vals = vector.from_elements %bx, %by, %bz, %tx, %ty, %tz, %c3, %c2, %c2,
        %c8, %c4, %c2, %gidx, %gidy, %gidz, %lane, %sg, %c2 : vector<18xindex>
    %want = arith.index_cast %vals : vector<18xindex> to vector<18xi32>
    %got = vector.transfer_read %out[%r, %c0], %i0 {in_bounds = [true]}
        : memref<768x18xi32>, vector<18xi32>
    %ne = arith.cmpi ne, %got, %want : vector<18xi32>
    %any = vector.reduction <or>, %ne : vector<18xi1> into i1
    %inc = arith.extui %any : i1 to i32
    %n1 = arith.addi %n, %inc : i32
    %gs = vector.reduction <add>, %got : vector<18xi32> into i32
    %ws = vector.reduction <add>, %want : vector<18xi32> into i32
    %s1 = arith.addi %s, %gs : i32
    %hs1 = arith.addi %hs, %ws : i32
    scf.yield %n1, %s1, %hs1 : i32, i32, i32
  }

  %c333 = arith.constant 333 : index
  %c767 = arith.constant 767 : index
  %row0 = vector.transfer_read %out[%c0, %c0], %i0 {in_bounds = [true]} : memref<768x18xi32>, vector<18xi32>
  %row1 = vector.transfer_read %out[%c333, %c0], %i0 {in_bounds = [true]} : memref<768x18xi32>, vector<18xi32>
  %row2 = vector.transfer_read %out[%c767, %c0], %i0 {in_bounds = [true]} : memref<768x18xi32>, vector<18xi32>
  vector.print str "row 0:   "
  vector.print %row0 : vector<18xi32>
  vector.print str "row 333: "
  vector.print %row1 : vector<18xi32>
  vector.print str "row 767: "
  vector.print %row2 : vector<18xi32>
  vector.print str "checksum: "
  vector.print %sum : i32
  vector.print str "host checksum: "
  vector.print %hsum : i32
  vector.print str "mismatches: "
  vector.print %bad : i32

  gpu.host_unregister %out_u : memref<*xi32>
  memref.dealloc %out : memref<768x18xi32>
  return
}
