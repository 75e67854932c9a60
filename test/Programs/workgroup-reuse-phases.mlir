// RUN: gpumem-run --target=cpu %s | FileCheck %s --match-full-lines --strict-whitespace
// RUN: gpumem-run --target=cpu --workgroup-reuse=false %s | FileCheck %s --match-full-lines --strict-whitespace
// RUN: gpumem-run --target=cpu --smem-report %s 2>&1 >/dev/null | FileCheck %s --check-prefix=REPORT
//
// Reuse is only safe with the barriers the planner inserts: without them
// the same program computes wrong values.
// RUN: gpumem-opt %s --gpumem-hoist-workgroup-allocs --gpu-kernel-outlining \
// RUN:   --gpumem-hoist-workgroup-allocs \
// RUN:   --gpumem-plan-workgroup-memory=barriers=false \
// RUN: | gpumem-run --target=cpu - | FileCheck %s --check-prefix=UNSAFE

// A kernel in four phases, each with a workgroup buffer of its own written
// where it is used, the way one writes phases by hand; none is live in
// another phase, so all four share the same 256 bytes. 4 blocks of 64
// threads; in[i] = (i mod 7) + 1.
//  1. %a: each thread reads its right neighbour's value.
//  2. %b: each thread reads its left neighbour's doubled value, so y = 2 *
//     in[i]. No barrier is written between phase 1's reads and phase 2's
//     writes: the planner inserts one (thread 63 reads a[0], which thread
//     0's write to b[0] would overwrite).
//  3. %c: a tree sum of y over the block in a loop (S, the block's sum),
//     again with no barrier before its first write.
//  4. %d: only in even blocks, inside a uniform scf.if with a barrier:
//     d[63 - t] = S + t, read back as d[t] = S + 63 - t.
// out[i] = y + S; out2[i] = S + 63 - t in even blocks, S in odd ones.

// CHECK:out:  ( 508, 510, 512, 508, 512, 514, 520 )
// CHECK-NEXT:out2: ( 569, 568, 567, 506, 508, 508, 512 )
// CHECK-NEXT:mismatches: 0

// The four buffers share bytes 0-255; barriers go before phase 2's first
// store, phase 3's first store and phase 4's scf.if.
// REPORT:workgroup memory of kernel @main_kernel::@main_kernel ({{.*}}workgroup-reuse-phases.mlir:[[#LAUNCH:]]:3), target cpu
// REPORT-NEXT:  #    line       buffer              bytes align  pad   offset  live (lines)     shares with
// REPORT-NEXT:  #0   [[#LAUNCH+10]]:10      64xi32                256    16    0        0  [[#LAUNCH+12]]:5..[[#LAUNCH+14]]:11      #1, #2, #3
// REPORT-NEXT:  #1   [[#LAUNCH+17]]:10      64xi32                256    16    0        0  [[#LAUNCH+19]]:5..[[#LAUNCH+21]]:10      #0, #2, #3
// REPORT-NEXT:  #2   [[#LAUNCH+24]]:10      64xi32                256    16    0        0  [[#LAUNCH+25]]:5..[[#LAUNCH+39]]:14     #0, #1, #3
// REPORT-NEXT:  #3   [[#LAUNCH+47]]:12     64xi32                256    16    0        0  [[#LAUNCH+51]]:7..[[#LAUNCH+53]]:13    #0, #1, #2
// REPORT-NEXT:  static: 256 bytes planned, lower bound 256, 1024 without reuse
// REPORT-NEXT:  barrier inserted at {{.*}}workgroup-reuse-phases.mlir:[[#LAUNCH+19]]:5
// REPORT-NEXT:  barrier inserted at {{.*}}workgroup-reuse-phases.mlir:[[#LAUNCH+25]]:5
// REPORT-NEXT:  barrier inserted at {{.*}}workgroup-reuse-phases.mlir:[[#LAUNCH+46]]:5
// REPORT-NOT: barrier inserted

// UNSAFE:mismatches: {{[1-9][0-9]*}}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c6 = arith.constant 6 : index
  %c7 = arith.constant 7 : index
  %c32 = arith.constant 32 : index
  %c63 = arith.constant 63 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  %i0 = arith.constant 0 : i32
  %i1 = arith.constant 1 : i32
  %i2 = arith.constant 2 : i32

  %in = memref.alloc() : memref<256xi32>
  %out = memref.alloc() : memref<256xi32>
  %out2 = memref.alloc() : memref<256xi32>
  scf.for %i = %c0 to %c256 step %c1 {
    %m = arith.remui %i, %c7 : index
    %mi = arith.index_cast %m : index to i32
    %v = arith.addi %mi, %i1 : i32
    memref.store %v, %in[%i] : memref<256xi32>
  }
  %in_u = memref.cast %in : memref<256xi32> to memref<*xi32>
  gpu.host_register %in_u : memref<*xi32>
  %out_u = memref.cast %out : memref<256xi32> to memref<*xi32>
  gpu.host_register %out_u : memref<*xi32>
  %out2_u = memref.cast %out2 : memref<256xi32> to memref<*xi32>
  gpu.host_register %out2_u : memref<*xi32>

  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c4, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %base = arith.muli %bx, %c64 : index
    %g = arith.addi %base, %tx : index
    %right = arith.addi %tx, %c1 : index
    %n = arith.andi %right, %c63 : index
    %left0 = arith.addi %tx, %c63 : index
    %p = arith.andi %left0, %c63 : index

    // Phase 1.
    %a = memref.alloca() : memref<64xi32, #gpu.address_space<workgroup>>
    %x0 = memref.load %in[%g] : memref<256xi32>
    memref.store %x0, %a[%tx] : memref<64xi32, #gpu.address_space<workgroup>>
    gpu.barrier
    %x1 = memref.load %a[%n] : memref<64xi32, #gpu.address_space<workgroup>>

    // Phase 2.
    %b = memref.alloca() : memref<64xi32, #gpu.address_space<workgroup>>
    %x2 = arith.muli %x1, %i2 : i32
    memref.store %x2, %b[%tx] : memref<64xi32, #gpu.address_space<workgroup>>
    gpu.barrier
    %y = memref.load %b[%p] : memref<64xi32, #gpu.address_space<workgroup>>

    // Phase 3.
    %c = memref.alloca() : memref<64xi32, #gpu.address_space<workgroup>>
    memref.store %y, %c[%tx] : memref<64xi32, #gpu.address_space<workgroup>>
    gpu.barrier
    scf.for %k = %c0 to %c6 step %c1 {
      %off = arith.shrui %c32, %k : index
      %low = arith.cmpi ult, %tx, %off : index
      scf.if %low {
        %o = arith.addi %tx, %off : index
        %u = memref.load %c[%o] : memref<64xi32, #gpu.address_space<workgroup>>
        %w = memref.load %c[%tx] : memref<64xi32, #gpu.address_space<workgroup>>
        %s = arith.addi %u, %w : i32
        memref.store %s, %c[%tx] : memref<64xi32, #gpu.address_space<workgroup>>
      }
      gpu.barrier
    }
    %total = memref.load %c[%c0] : memref<64xi32, #gpu.address_space<workgroup>>
    %r = arith.addi %y, %total : i32
    memref.store %r, %out[%g] : memref<256xi32>

    // Phase 4, in even blocks only: the branch is uniform.
    %parity = arith.andi %bx, %c1 : index
    %even = arith.cmpi eq, %parity, %c0 : index
    scf.if %even {
      %d = memref.alloca() : memref<64xi32, #gpu.address_space<workgroup>>
      %mirror = arith.subi %c63, %tx : index
      %txi = arith.index_cast %tx : index to i32
      %sv = arith.addi %total, %txi : i32
      memref.store %sv, %d[%mirror] : memref<64xi32, #gpu.address_space<workgroup>>
      gpu.barrier
      %dv = memref.load %d[%tx] : memref<64xi32, #gpu.address_space<workgroup>>
      memref.store %dv, %out2[%g] : memref<256xi32>
    } else {
      memref.store %total, %out2[%g] : memref<256xi32>
    }
    gpu.terminator
  }

  // Host: the same values, sequentially.
  %bad = scf.for %blk = %c0 to %c4 step %c1 iter_args(%nb = %i0) -> (i32) {
    %base = arith.muli %blk, %c64 : index
    %sum = scf.for %t = %c0 to %c64 step %c1 iter_args(%acc = %i0) -> (i32) {
      %i = arith.addi %base, %t : index
      %x = memref.load %in[%i] : memref<256xi32>
      %x2 = arith.muli %x, %i2 : i32
      %a2 = arith.addi %acc, %x2 : i32
      scf.yield %a2 : i32
    }
    %parity = arith.andi %blk, %c1 : index
    %even = arith.cmpi eq, %parity, %c0 : index
    %nb2 = scf.for %t = %c0 to %c64 step %c1 iter_args(%nt = %nb) -> (i32) {
      %i = arith.addi %base, %t : index
      %x = memref.load %in[%i] : memref<256xi32>
      %x2 = arith.muli %x, %i2 : i32
      %want = arith.addi %x2, %sum : i32
      %got = memref.load %out[%i] : memref<256xi32>
      %mt = arith.subi %c63, %t : index
      %mti = arith.index_cast %mt : index to i32
      %mirrored = arith.addi %sum, %mti : i32
      %want2 = arith.select %even, %mirrored, %sum : i32
      %got2 = memref.load %out2[%i] : memref<256xi32>
      %ne1 = arith.cmpi ne, %got, %want : i32
      %ne2 = arith.cmpi ne, %got2, %want2 : i32
      %ne = arith.ori %ne1, %ne2 : i1
      %inc = arith.extui %ne : i1 to i32
      %nt1 = arith.addi %nt, %inc : i32
      scf.yield %nt1 : i32
    }
    scf.yield %nb2 : i32
  }

  %ov = func.call @pick(%out) : (memref<256xi32>) -> vector<7xi32>
  %o2v = func.call @pick(%out2) : (memref<256xi32>) -> vector<7xi32>
  vector.print str "out:  "
  vector.print %ov : vector<7xi32>
  vector.print str "out2: "
  vector.print %o2v : vector<7xi32>
  vector.print str "mismatches: "
  vector.print %bad : i32

  gpu.host_unregister %in_u : memref<*xi32>
  gpu.host_unregister %out_u : memref<*xi32>
  gpu.host_unregister %out2_u : memref<*xi32>
  memref.dealloc %in : memref<256xi32>
  memref.dealloc %out : memref<256xi32>
  memref.dealloc %out2 : memref<256xi32>
  return
}

// Elements 0, 1, 2, 63, 64, 65 and 255.
func.func @pick(%m: memref<256xi32>) -> vector<7xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c63 = arith.constant 63 : index
  %c64 = arith.constant 64 : index
  %c65 = arith.constant 65 : index
  %c255 = arith.constant 255 : index
  %v0 = memref.load %m[%c0] : memref<256xi32>
  %v1 = memref.load %m[%c1] : memref<256xi32>
  %v2 = memref.load %m[%c2] : memref<256xi32>
  %v3 = memref.load %m[%c63] : memref<256xi32>
  %v4 = memref.load %m[%c64] : memref<256xi32>
  %v5 = memref.load %m[%c65] : memref<256xi32>
  %v6 = memref.load %m[%c255] : memref<256xi32>
  %v = vector.from_elements %v0, %v1, %v2, %v3, %v4, %v5, %v6 : vector<7xi32>
  return %v : vector<7xi32>
}
