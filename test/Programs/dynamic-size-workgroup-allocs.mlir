// RUN: gpumem-run --target=cpu %s | FileCheck %s --match-full-lines --strict-whitespace
// RUN: gpumem-run --target=cpu --check-dynamic-shared-bounds %s | FileCheck %s --match-full-lines --strict-whitespace

// Dynamic-size workgroup allocations packed into dynamic shared memory,
// after the launch's own dynamic bytes. The host loads n = 37 from memory
// (an odd count); 2 blocks of 64 threads; the launch asks for 20 bytes of
// its own, viewed as u: 5 x i32. The kernel allocates
//   a = alloca(n)   : i32 (148 bytes)
//   b = alloc(n)    : i64 (296 bytes: starts at a 16-byte boundary)
//   c = alloca(sx)  : f32 sized by the block size (64 x 4 bytes)
// plus a static st: 64 x i32. Thread t of block k writes st[t] = 10000k + t,
// c[t] = t + 0.25, and for t < n a[t] = 1000k + t, b[t] = 2^33 * (k + 1) + t,
// for t < 5 u[t] = 7k + t. After a barrier, thread 0 sums each buffer. Any
// overlap (with each other, with u, with st) changes a sum. It also
// reports that a and b start 16-byte aligned, that a starts at or after u's
// 20 bytes and b at or after a's end, and the size of the dynamic shared
// memory the kernel sees: its own 20 bytes (the launch passes 752).

// CHECK:block 0 sums: ( 666, 317827580570, 2032, 10, 2016 )
// CHECK-NEXT:block 1 sums: ( 37666, 635655160474, 2032, 45, 642016 )
// CHECK-NEXT:c sums: ( 2032, 2032 )
// CHECK-NEXT:aligned and apart: ( 1, 1, 1, 1 )
// CHECK-NEXT:dynamic bytes: 20

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c5 = arith.constant 5 : index
  %c64 = arith.constant 64 : index
  %user_bytes = arith.constant 20 : i32
  %c0_i64 = arith.constant 0 : i64
  %f0_f32 = arith.constant 0.0 : f32

  // n comes from memory.
  %cfg = memref.alloc() : memref<1xindex>
  %c37 = arith.constant 37 : index
  memref.store %c37, %cfg[%c0] : memref<1xindex>
  %n = memref.load %cfg[%c0] : memref<1xindex>

  %sums = memref.alloc() : memref<2x5xi64>
  %csum = memref.alloc() : memref<2xf32>
  %info = memref.alloc() : memref<5xi64>
  %sums_u = memref.cast %sums : memref<2x5xi64> to memref<*xi64>
  gpu.host_register %sums_u : memref<*xi64>
  %csum_u = memref.cast %csum : memref<2xf32> to memref<*xf32>
  gpu.host_register %csum_u : memref<*xf32>
  %info_u = memref.cast %info : memref<5xi64> to memref<*xi64>
  gpu.host_register %info_u : memref<*xi64>

  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1)
             dynamic_shared_memory_size %user_bytes {
    %dyn = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %u = memref.view %dyn[%c0][] : memref<?xi8, #gpu.address_space<workgroup>>
        to memref<5xi32, #gpu.address_space<workgroup>>
    %st = memref.alloca() : memref<64xi32, #gpu.address_space<workgroup>>
    %a = memref.alloca(%n) : memref<?xi32, #gpu.address_space<workgroup>>
    %b = memref.alloc(%n) : memref<?xi64, #gpu.address_space<workgroup>>
    %c = memref.alloca(%sx) : memref<?xf32, #gpu.address_space<workgroup>>

    %bxi = arith.index_cast %bx : index to i64
    %txi = arith.index_cast %tx : index to i64
    %k10000 = arith.constant 10000 : i64
    %st0 = arith.muli %bxi, %k10000 : i64
    %st1 = arith.addi %st0, %txi : i64
    %st2 = arith.trunci %st1 : i64 to i32
    memref.store %st2, %st[%tx] : memref<64xi32, #gpu.address_space<workgroup>>
    %txf = arith.uitofp %txi : i64 to f32
    %quarter = arith.constant 0.25 : f32
    %cv = arith.addf %txf, %quarter : f32
    memref.store %cv, %c[%tx] : memref<?xf32, #gpu.address_space<workgroup>>
    %in_n = arith.cmpi ult, %tx, %n : index
    scf.if %in_n {
      %k1000 = arith.constant 1000 : i64
      %a0 = arith.muli %bxi, %k1000 : i64
      %a1 = arith.addi %a0, %txi : i64
      %a2 = arith.trunci %a1 : i64 to i32
      memref.store %a2, %a[%tx] : memref<?xi32, #gpu.address_space<workgroup>>
      %one = arith.constant 1 : i64
      %big = arith.constant 8589934592 : i64
      %b0 = arith.addi %bxi, %one : i64
      %b1 = arith.muli %b0, %big : i64
      %b2 = arith.addi %b1, %txi : i64
      memref.store %b2, %b[%tx] : memref<?xi64, #gpu.address_space<workgroup>>
    }
    %in_u = arith.cmpi ult, %tx, %c5 : index
    scf.if %in_u {
      %k7 = arith.constant 7 : i64
      %u0 = arith.muli %bxi, %k7 : i64
      %u1 = arith.addi %u0, %txi : i64
      %u2 = arith.trunci %u1 : i64 to i32
      memref.store %u2, %u[%tx] : memref<5xi32, #gpu.address_space<workgroup>>
    }
    gpu.barrier

    %first = arith.cmpi eq, %tx, %c0 : index
    scf.if %first {
      %z = arith.constant 0 : i64
      %sa = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> (i64) {
        %v = memref.load %a[%i] : memref<?xi32, #gpu.address_space<workgroup>>
        %w = arith.extui %v : i32 to i64
        %r = arith.addi %acc, %w : i64
        scf.yield %r : i64
      }
      %sb = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> (i64) {
        %v = memref.load %b[%i] : memref<?xi64, #gpu.address_space<workgroup>>
        %r = arith.addi %acc, %v : i64
        scf.yield %r : i64
      }
      %sst = scf.for %i = %c0 to %c64 step %c1 iter_args(%acc = %z) -> (i64) {
        %v = memref.load %st[%i] : memref<64xi32, #gpu.address_space<workgroup>>
        %w = arith.extui %v : i32 to i64
        %r = arith.addi %acc, %w : i64
        scf.yield %r : i64
      }
      %su = scf.for %i = %c0 to %c5 step %c1 iter_args(%acc = %z) -> (i64) {
        %v = memref.load %u[%i] : memref<5xi32, #gpu.address_space<workgroup>>
        %w = arith.extui %v : i32 to i64
        %r = arith.addi %acc, %w : i64
        scf.yield %r : i64
      }
      %zf = arith.constant 0.0 : f32
      %sc = scf.for %i = %c0 to %sx step %c1 iter_args(%acc = %zf) -> (f32) {
        %v = memref.load %c[%i] : memref<?xf32, #gpu.address_space<workgroup>>
        %r = arith.addf %acc, %v : f32
        scf.yield %r : f32
      }
      // ( a, b, c as an integer, u, st ): c's sum is 2032, exact in f32.
      %sci = arith.fptoui %sc : f32 to i64
      memref.store %sa, %sums[%bx, %c0] : memref<2x5xi64>
      memref.store %sb, %sums[%bx, %c1] : memref<2x5xi64>
      memref.store %sci, %sums[%bx, %c2] : memref<2x5xi64>
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      memref.store %su, %sums[%bx, %c3] : memref<2x5xi64>
      memref.store %sst, %sums[%bx, %c4] : memref<2x5xi64>
      memref.store %sc, %csum[%bx] : memref<2xf32>

      %is0 = arith.cmpi eq, %bx, %c0 : index
      scf.if %is0 {
        %pd = memref.extract_aligned_pointer_as_index %dyn : memref<?xi8, #gpu.address_space<workgroup>> -> index
        %pa = memref.extract_aligned_pointer_as_index %a : memref<?xi32, #gpu.address_space<workgroup>> -> index
        %pb = memref.extract_aligned_pointer_as_index %b : memref<?xi64, #gpu.address_space<workgroup>> -> index
        %c15 = arith.constant 15 : index
        %c20 = arith.constant 20 : index
        %c4i = arith.constant 4 : index
        %ma = arith.andi %pa, %c15 : index
        %mb = arith.andi %pb, %c15 : index
        %al_a = arith.cmpi eq, %ma, %c0 : index
        %al_b = arith.cmpi eq, %mb, %c0 : index
        %u_end = arith.addi %pd, %c20 : index
        %a_after_u = arith.cmpi uge, %pa, %u_end : index
        %a_bytes = arith.muli %n, %c4i : index
        %a_end = arith.addi %pa, %a_bytes : index
        %b_after_a = arith.cmpi uge, %pb, %a_end : index
        %f0 = arith.extui %al_a : i1 to i64
        %f1 = arith.extui %al_b : i1 to i64
        %f2 = arith.extui %a_after_u : i1 to i64
        %f3 = arith.extui %b_after_a : i1 to i64
        memref.store %f0, %info[%c0] : memref<5xi64>
        memref.store %f1, %info[%c1] : memref<5xi64>
        memref.store %f2, %info[%c2] : memref<5xi64>
        %c3b = arith.constant 3 : index
        memref.store %f3, %info[%c3b] : memref<5xi64>
        %d = memref.dim %dyn, %c0 : memref<?xi8, #gpu.address_space<workgroup>>
        %di = arith.index_cast %d : index to i64
        %c4b = arith.constant 4 : index
        memref.store %di, %info[%c4b] : memref<5xi64>
      }
    }
    gpu.terminator
  }

  %s0 = vector.transfer_read %sums[%c0, %c0], %c0_i64 : memref<2x5xi64>, vector<5xi64>
  %s1 = vector.transfer_read %sums[%c1, %c0], %c0_i64 : memref<2x5xi64>, vector<5xi64>
  vector.print str "block 0 sums: "
  vector.print %s0 : vector<5xi64>
  vector.print str "block 1 sums: "
  vector.print %s1 : vector<5xi64>
  %cs = vector.transfer_read %csum[%c0], %f0_f32 : memref<2xf32>, vector<2xf32>
  vector.print str "c sums: "
  vector.print %cs : vector<2xf32>
  %flags = vector.transfer_read %info[%c0], %c0_i64 : memref<5xi64>, vector<4xi64>
  vector.print str "aligned and apart: "
  vector.print %flags : vector<4xi64>
  %c4 = arith.constant 4 : index
  %bytes = memref.load %info[%c4] : memref<5xi64>
  vector.print str "dynamic bytes: "
  vector.print %bytes : i64

  gpu.host_unregister %sums_u : memref<*xi64>
  gpu.host_unregister %csum_u : memref<*xf32>
  gpu.host_unregister %info_u : memref<*xi64>
  memref.dealloc %sums : memref<2x5xi64>
  memref.dealloc %csum : memref<2xf32>
  memref.dealloc %info : memref<5xi64>
  memref.dealloc %cfg : memref<1xindex>
  return
}
