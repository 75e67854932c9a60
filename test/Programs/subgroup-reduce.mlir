// RUN: gpumem-run --target=cpu %s | FileCheck %s --match-full-lines --strict-whitespace

// gpu.subgroup_reduce over warps of 32: 2 blocks of 32x3 threads (3 warps
// each, one per row of the 2-D block: linear id = ty*32 + tx). The lane with
// global id g = bx*96 + ty*32 + tx holds x = (37*g) mod 101. Every lane
// reduces over its warp with the kinds add (f32), maxsi, minui, xor (i32)
// and mul (f32, of m = 1, -1 or 2 for x mod 3 = 0, 1, 2: exact powers of
// two), writes all five results, and the host checks every lane's copy
// against sequential reductions. Lane 0's values are printed.

// CHECK:gpu add:  ( 1586, 1599, 1612, 1524, 1638, 1651 )
// CHECK-NEXT:host add: ( 1586, 1599, 1612, 1524, 1638, 1651 )
// CHECK-NEXT:gpu max:  ( 100, 99, 98, 97, 100, 99 )
// CHECK-NEXT:host max: ( 100, 99, 98, 97, 100, 99 )
// CHECK-NEXT:gpu min:  ( 0, 2, 1, 0, 2, 1 )
// CHECK-NEXT:host min: ( 0, 2, 1, 0, 2, 1 )
// CHECK-NEXT:gpu xor:  ( 116, 27, 44, 108, 26, 13 )
// CHECK-NEXT:host xor: ( 116, 27, 44, 108, 26, 13 )
// CHECK-NEXT:gpu mul:  ( -512, -4096, 2048, 512, 1024, 4096 )
// CHECK-NEXT:host mul: ( -512, -4096, 2048, 512, 1024, 4096 )
// CHECK-NEXT:lanes with a wrong result: 0

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  %c32 = arith.constant 32 : index
  %c96 = arith.constant 96 : index
  %c192 = arith.constant 192 : index
  %i0 = arith.constant 0 : i32

  // res[g][k]: k = 0 add, 1 max, 2 min, 3 xor, 4 mul.
  %res = memref.alloc() : memref<192x5xi32>
  %res_u = memref.cast %res : memref<192x5xi32> to memref<*xi32>
  gpu.host_register %res_u : memref<*xi32>

  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c3, %sz = %c1) {
    %row = arith.muli %ty, %c32 : index
    %lin = arith.addi %row, %tx : index
    %b = arith.muli %bx, %c96 : index
    %g = arith.addi %b, %lin : index
    %x = func.call @value(%g) : (index) -> i32
    %xf = arith.sitofp %x : i32 to f32
    %m = func.call @factor(%x) : (i32) -> f32
    %add = gpu.subgroup_reduce add %xf : (f32) -> f32
    %max = gpu.subgroup_reduce maxsi %x : (i32) -> i32
    %min = gpu.subgroup_reduce minui %x uniform : (i32) -> i32
    %xor = gpu.subgroup_reduce xor %x : (i32) -> i32
    %mul = gpu.subgroup_reduce mul %m : (f32) -> f32
    %addi = arith.fptosi %add : f32 to i32
    %muli = arith.fptosi %mul : f32 to i32
    memref.store %addi, %res[%g, %c0] : memref<192x5xi32>
    memref.store %max, %res[%g, %c1] : memref<192x5xi32>
    memref.store %min, %res[%g, %c2] : memref<192x5xi32>
    memref.store %xor, %res[%g, %c3] : memref<192x5xi32>
    memref.store %muli, %res[%g, %c4] : memref<192x5xi32>
    gpu.terminator
  }

  // Host: ref[w][k] for the 6 warps.
  %ref = memref.alloc() : memref<6x5xi32>
  %f0 = arith.constant 0.0 : f32
  %f1 = arith.constant 1.0 : f32
  %kmin = arith.constant -2147483648 : i32
  %kmax = arith.constant -1 : i32
  scf.for %w = %c0 to %c6 step %c1 {
    %lo = arith.muli %w, %c32 : index
    %hi = arith.addi %lo, %c32 : index
    %s, %mx, %mn, %xr, %ml = scf.for %g = %lo to %hi step %c1
        iter_args(%s0 = %f0, %mx0 = %kmin, %mn0 = %kmax, %xr0 = %i0, %ml0 = %f1)
        -> (f32, i32, i32, i32, f32) {
      %x = func.call @value(%g) : (index) -> i32
      %xf = arith.sitofp %x : i32 to f32
      %m = func.call @factor(%x) : (i32) -> f32
      %s1 = arith.addf %s0, %xf : f32
      %mx1 = arith.maxsi %mx0, %x : i32
      %mn1 = arith.minui %mn0, %x : i32
      %xr1 = arith.xori %xr0, %x : i32
      %ml1 = arith.mulf %ml0, %m : f32
      scf.yield %s1, %mx1, %mn1, %xr1, %ml1 : f32, i32, i32, i32, f32
    }
    %si = arith.fptosi %s : f32 to i32
    %mli = arith.fptosi %ml : f32 to i32
    memref.store %si, %ref[%w, %c0] : memref<6x5xi32>
    memref.store %mx, %ref[%w, %c1] : memref<6x5xi32>
    memref.store %mn, %ref[%w, %c2] : memref<6x5xi32>
    memref.store %xr, %ref[%w, %c3] : memref<6x5xi32>
    memref.store %mli, %ref[%w, %c4] : memref<6x5xi32>
  }

  // Every lane against its warp's reference.
  %bad = scf.for %g = %c0 to %c192 step %c1 iter_args(%n = %i0) -> (i32) {
    %w = arith.divui %g, %c32 : index
    %wrong = scf.for %k = %c0 to %c5 step %c1 iter_args(%any = %i0) -> (i32) {
      %got = memref.load %res[%g, %k] : memref<192x5xi32>
      %want = memref.load %ref[%w, %k] : memref<6x5xi32>
      %ne = arith.cmpi ne, %got, %want : i32
      %nei = arith.extui %ne : i1 to i32
      %any1 = arith.ori %any, %nei : i32
      scf.yield %any1 : i32
    }
    %n1 = arith.addi %n, %wrong : i32
    scf.yield %n1 : i32
  }

  %gv0 = func.call @lane0(%res, %c0) : (memref<192x5xi32>, index) -> vector<6xi32>
  %hv0 = func.call @column(%ref, %c0) : (memref<6x5xi32>, index) -> vector<6xi32>
  vector.print str "gpu add:  "
  vector.print %gv0 : vector<6xi32>
  vector.print str "host add: "
  vector.print %hv0 : vector<6xi32>
  %gv1 = func.call @lane0(%res, %c1) : (memref<192x5xi32>, index) -> vector<6xi32>
  %hv1 = func.call @column(%ref, %c1) : (memref<6x5xi32>, index) -> vector<6xi32>
  vector.print str "gpu max:  "
  vector.print %gv1 : vector<6xi32>
  vector.print str "host max: "
  vector.print %hv1 : vector<6xi32>
  %gv2 = func.call @lane0(%res, %c2) : (memref<192x5xi32>, index) -> vector<6xi32>
  %hv2 = func.call @column(%ref, %c2) : (memref<6x5xi32>, index) -> vector<6xi32>
  vector.print str "gpu min:  "
  vector.print %gv2 : vector<6xi32>
  vector.print str "host min: "
  vector.print %hv2 : vector<6xi32>
  %gv3 = func.call @lane0(%res, %c3) : (memref<192x5xi32>, index) -> vector<6xi32>
  %hv3 = func.call @column(%ref, %c3) : (memref<6x5xi32>, index) -> vector<6xi32>
  vector.print str "gpu xor:  "
  vector.print %gv3 : vector<6xi32>
  vector.print str "host xor: "
  vector.print %hv3 : vector<6xi32>
  %gv4 = func.call @lane0(%res, %c4) : (memref<192x5xi32>, index) -> vector<6xi32>
  %hv4 = func.call @column(%ref, %c4) : (memref<6x5xi32>, index) -> vector<6xi32>
  vector.print str "gpu mul:  "
  vector.print %gv4 : vector<6xi32>
  vector.print str "host mul: "
  vector.print %hv4 : vector<6xi32>
  vector.print str "lanes with a wrong result: "
  vector.print %bad : i32

  gpu.host_unregister %res_u : memref<*xi32>
  memref.dealloc %res : memref<192x5xi32>
  memref.dealloc %ref : memref<6x5xi32>
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

// 1, -1 or 2 for x mod 3 = 0, 1 or 2.
func.func @factor(%x: i32) -> f32 {
  %k3 = arith.constant 3 : i32
  %k1 = arith.constant 1 : i32
  %p1 = arith.constant 1.0 : f32
  %m1 = arith.constant -1.0 : f32
  %p2 = arith.constant 2.0 : f32
  %k0 = arith.constant 0 : i32
  %r = arith.remui %x, %k3 : i32
  %is0 = arith.cmpi eq, %r, %k0 : i32
  %is1 = arith.cmpi eq, %r, %k1 : i32
  %a = arith.select %is1, %m1, %p2 : f32
  %b = arith.select %is0, %p1, %a : f32
  return %b : f32
}

// res[32w][k] for the 6 warps (lane 0 of each).
func.func @lane0(%res: memref<192x5xi32>, %k: index) -> vector<6xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c6 = arith.constant 6 : index
  %c32 = arith.constant 32 : index
  %init = arith.constant dense<0> : vector<6xi32>
  %v = scf.for %w = %c0 to %c6 step %c1 iter_args(%acc = %init) -> (vector<6xi32>) {
    %g = arith.muli %w, %c32 : index
    %x = memref.load %res[%g, %k] : memref<192x5xi32>
    %acc1 = vector.insert %x, %acc[%w] : i32 into vector<6xi32>
    scf.yield %acc1 : vector<6xi32>
  }
  return %v : vector<6xi32>
}

// ref[0..5][k].
func.func @column(%ref: memref<6x5xi32>, %k: index) -> vector<6xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c6 = arith.constant 6 : index
  %init = arith.constant dense<0> : vector<6xi32>
  %v = scf.for %w = %c0 to %c6 step %c1 iter_args(%acc = %init) -> (vector<6xi32>) {
    %x = memref.load %ref[%w, %k] : memref<6x5xi32>
    %acc1 = vector.insert %x, %acc[%w] : i32 into vector<6xi32>
    scf.yield %acc1 : vector<6xi32>
  }
  return %v : vector<6xi32>
}
