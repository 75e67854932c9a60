// RUN: gpumem-run --target=cpu %s | FileCheck %s --match-full-lines --strict-whitespace
// RUN: gpumem-run --target=cpu --check-dynamic-shared-bounds %s | FileCheck %s --match-full-lines --strict-whitespace

// gpu.dynamic_shared_memory next to a static workgroup buffer. 3 blocks of
// 64 threads, launched with dynamic_shared_memory_size = 768 bytes. In the
// dynamic buffer, memref.view makes two arrays: a: 64 x f32 at byte 0 and
// b: 64 x i32 at byte 512 (bytes 256..511 stay unused). The kernel also has
// a static workgroup alloca st: 64 x i32.
// Thread t of block k writes st[t] = 1000k + t, a[t] = 2000k + t + 0.5,
// b[t] = 3000k + t; barrier; then reads its neighbour's entries
// (n = (t+1) mod 64) of all three and writes their sum to out. If the
// dynamic memory overlapped the static buffer (or another block's), or the
// two views overlapped each other, the sums would be wrong.
// Thread 0 also stores the dynamic buffer's size (memref.dim), and the
// difference of the base addresses of st and the dynamic buffer is checked
// to be at least st's 256 bytes.

// CHECK:sums:  ( 3.5, 6.5, 0.5, 6003.5, 6000.5, 12003.5, 12000.5 )
// CHECK-NEXT:host: ( 3.5, 6.5, 0.5, 6003.5, 6000.5, 12003.5, 12000.5 )
// CHECK-NEXT:mismatches: 0
// CHECK-NEXT:dynamic bytes: ( 768, 768, 768 )
// CHECK-NEXT:static and dynamic apart: ( 1, 1, 1 )

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c64 = arith.constant 64 : index
  %c192 = arith.constant 192 : index
  %i0 = arith.constant 0 : i32
  %f0 = arith.constant 0.0 : f32
  %bytes = arith.constant 768 : i32

  %out = memref.alloc() : memref<192xf32>
  %info = memref.alloc() : memref<3x2xi32>
  %out_u = memref.cast %out : memref<192xf32> to memref<*xf32>
  gpu.host_register %out_u : memref<*xf32>
  %info_u = memref.cast %info : memref<3x2xi32> to memref<*xi32>
  gpu.host_register %info_u : memref<*xi32>

  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c3, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1)
             dynamic_shared_memory_size %bytes {
    %st = memref.alloca() : memref<64xi32, #gpu.address_space<workgroup>>
    %dyn = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %off_a = arith.constant 0 : index
    %off_b = arith.constant 512 : index
    %a = memref.view %dyn[%off_a][] : memref<?xi8, #gpu.address_space<workgroup>>
        to memref<64xf32, #gpu.address_space<workgroup>>
    %b = memref.view %dyn[%off_b][] : memref<?xi8, #gpu.address_space<workgroup>>
        to memref<64xi32, #gpu.address_space<workgroup>>

    %k1000 = arith.constant 1000 : index
    %k2000 = arith.constant 2000 : index
    %k3000 = arith.constant 3000 : index
    %half = arith.constant 0.5 : f32
    %s0 = arith.muli %bx, %k1000 : index
    %s1 = arith.addi %s0, %tx : index
    %si = arith.index_cast %s1 : index to i32
    memref.store %si, %st[%tx] : memref<64xi32, #gpu.address_space<workgroup>>
    %a0 = arith.muli %bx, %k2000 : index
    %a1 = arith.addi %a0, %tx : index
    %a2 = arith.index_cast %a1 : index to i64
    %a3 = arith.sitofp %a2 : i64 to f32
    %af = arith.addf %a3, %half : f32
    memref.store %af, %a[%tx] : memref<64xf32, #gpu.address_space<workgroup>>
    %b0 = arith.muli %bx, %k3000 : index
    %b1 = arith.addi %b0, %tx : index
    %bi = arith.index_cast %b1 : index to i32
    memref.store %bi, %b[%tx] : memref<64xi32, #gpu.address_space<workgroup>>
    gpu.barrier

    %t1 = arith.addi %tx, %c1 : index
    %n = arith.remui %t1, %c64 : index
    %x = memref.load %st[%n] : memref<64xi32, #gpu.address_space<workgroup>>
    %y = memref.load %a[%n] : memref<64xf32, #gpu.address_space<workgroup>>
    %z = memref.load %b[%n] : memref<64xi32, #gpu.address_space<workgroup>>
    %xz = arith.addi %x, %z : i32
    %xzf = arith.sitofp %xz : i32 to f32
    %sum = arith.addf %xzf, %y : f32
    %g0 = arith.muli %bx, %c64 : index
    %g = arith.addi %g0, %tx : index
    memref.store %sum, %out[%g] : memref<192xf32>

    %first = arith.cmpi eq, %tx, %c0 : index
    scf.if %first {
      %d = memref.dim %dyn, %c0 : memref<?xi8, #gpu.address_space<workgroup>>
      %di = arith.index_cast %d : index to i32
      memref.store %di, %info[%bx, %c0] : memref<3x2xi32>
      %pst = memref.extract_aligned_pointer_as_index %st : memref<64xi32, #gpu.address_space<workgroup>> -> index
      %pdy = memref.extract_aligned_pointer_as_index %dyn : memref<?xi8, #gpu.address_space<workgroup>> -> index
      // |pdy - pst| >= 256: the two buffers do not overlap.
      %c256 = arith.constant 256 : index
      %lo = arith.minui %pst, %pdy : index
      %hi = arith.maxui %pst, %pdy : index
      %gap = arith.subi %hi, %lo : index
      %apart = arith.cmpi uge, %gap, %c256 : index
      %ai = arith.extui %apart : i1 to i32
      memref.store %ai, %info[%bx, %c1] : memref<3x2xi32>
    }
    gpu.terminator
  }

  // Host: out[64k + t] = (1000k + n) + (3000k + n) + (2000k + n + 0.5)
  //                    = 6000k + 3n + 0.5 with n = (t+1) mod 64.
  %ref = memref.alloc() : memref<192xf32>
  %bad = scf.for %g = %c0 to %c192 step %c1 iter_args(%acc = %i0) -> (i32) {
    %k = arith.divui %g, %c64 : index
    %t = arith.remui %g, %c64 : index
    %t1 = arith.addi %t, %c1 : index
    %n = arith.remui %t1, %c64 : index
    %c6000 = arith.constant 6000 : index
    %c3i = arith.constant 3 : index
    %v0 = arith.muli %k, %c6000 : index
    %v1 = arith.muli %n, %c3i : index
    %v2 = arith.addi %v0, %v1 : index
    %v3 = arith.index_cast %v2 : index to i64
    %v4 = arith.sitofp %v3 : i64 to f32
    %half = arith.constant 0.5 : f32
    %want = arith.addf %v4, %half : f32
    memref.store %want, %ref[%g] : memref<192xf32>
    %got = memref.load %out[%g] : memref<192xf32>
    %ne = arith.cmpf une, %got, %want : f32
    %inc = arith.extui %ne : i1 to i32
    %acc1 = arith.addi %acc, %inc : i32
    scf.yield %acc1 : i32
  }
  %gv = func.call @pick(%out) : (memref<192xf32>) -> vector<7xf32>
  %hv = func.call @pick(%ref) : (memref<192xf32>) -> vector<7xf32>
  vector.print str "sums:  "
  vector.print %gv : vector<7xf32>
  vector.print str "host: "
  vector.print %hv : vector<7xf32>
  vector.print str "mismatches: "
  vector.print %bad : i32
  %d0 = memref.load %info[%c0, %c0] : memref<3x2xi32>
  %d1 = memref.load %info[%c1, %c0] : memref<3x2xi32>
  %c2 = arith.constant 2 : index
  %d2 = memref.load %info[%c2, %c0] : memref<3x2xi32>
  %dv = vector.from_elements %d0, %d1, %d2 : vector<3xi32>
  vector.print str "dynamic bytes: "
  vector.print %dv : vector<3xi32>
  %p0 = memref.load %info[%c0, %c1] : memref<3x2xi32>
  %p1 = memref.load %info[%c1, %c1] : memref<3x2xi32>
  %p2 = memref.load %info[%c2, %c1] : memref<3x2xi32>
  %pv = vector.from_elements %p0, %p1, %p2 : vector<3xi32>
  vector.print str "static and dynamic apart: "
  vector.print %pv : vector<3xi32>

  gpu.host_unregister %out_u : memref<*xf32>
  gpu.host_unregister %info_u : memref<*xi32>
  memref.dealloc %out : memref<192xf32>
  memref.dealloc %info : memref<3x2xi32>
  memref.dealloc %ref : memref<192xf32>
  return
}

// ( m[0], m[1], m[63], m[64], m[127], m[128], m[191] )
func.func @pick(%m: memref<192xf32>) -> vector<7xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c63 = arith.constant 63 : index
  %c64 = arith.constant 64 : index
  %c127 = arith.constant 127 : index
  %c128 = arith.constant 128 : index
  %c191 = arith.constant 191 : index
  %x0 = memref.load %m[%c0] : memref<192xf32>
  %x1 = memref.load %m[%c1] : memref<192xf32>
  %x2 = memref.load %m[%c63] : memref<192xf32>
  %x3 = memref.load %m[%c64] : memref<192xf32>
  %x4 = memref.load %m[%c127] : memref<192xf32>
  %x5 = memref.load %m[%c128] : memref<192xf32>
  %x6 = memref.load %m[%c191] : memref<192xf32>
  %v = vector.from_elements %x0, %x1, %x2, %x3, %x4, %x5, %x6 : vector<7xf32>
  return %v : vector<7xf32>
}
