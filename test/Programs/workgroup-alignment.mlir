// RUN: gpumem-run --target=cpu %s | FileCheck %s --match-full-lines --strict-whitespace
// RUN: gpumem-run --target=cpu --smem-report %s 2>&1 >/dev/null | FileCheck %s --check-prefix=REPORT

// Workgroup memory at the alignment the program asks for, in every form:
// static allocas, a dynamic-size alloca, a view of the launch's dynamic
// shared memory that assumes an alignment, and an alloca in a device
// function. One block of 32 threads, 64 bytes of the user's dynamic shared
// memory.
//  - %a, %b (phase 1) and %c, %d (phase 2) are live apart: the planner
//    lets them share bytes, each at its alignment; their data shows that
//    sharing clobbered nothing.
//  - %p, %e, %u and the device function's buffer have their addresses
//    taken: thread 0 prints each address modulo its alignment (all 0).

// CHECK:addresses modulo alignment: 0 0 0 0
// CHECK-NEXT:phase 1: 3 31 | phase 2: 200 6 | kept: 7 | dynamic: 62 30 | device: 31

// The static buffers at offsets that are multiples of their alignment, the
// most aligned first; phase 2's share phase 1's bytes. %p keeps bytes of
// its own, after them.
// REPORT:workgroup memory of kernel @main_kernel::@main_kernel ({{.*}}workgroup-alignment.mlir:[[#LAUNCH:]]:3), target cpu
// REPORT-NEXT:  #    line       buffer              bytes align  pad   offset  live (lines)     shares with
// REPORT-NEXT:  #0   [[#LAUNCH+21]]:10      3xi32                  12    16    0      128  {{.*}}  -
// REPORT-NEXT:  #1   [[#LAUNCH+22]]:10      32xi32                128    64    0        0  {{.*}}  #3
// REPORT-NEXT:  #2   [[#LAUNCH+36]]:10      5xi16                  10   256  116      256  {{.*}}  -
// REPORT-NEXT:  #3   [[#LAUNCH+37]]:10      7xi8                    7  1024    0        0  {{.*}}  #1
// REPORT-NEXT:  #4   [[#LAUNCH+58]]:10     8xi32                  32   512  246      512  whole kernel     -
// REPORT-NEXT:  #5   [[#LAUNCH+69]]:10     ?xi32                 dyn   512    -      dyn  whole kernel     -
// REPORT-NEXT:  #6   [[#LAUNCH+71]]:13     16xf32                dyn   128    -      dyn  whole kernel     -
// REPORT-NEXT:  static: 544 bytes planned, lower bound 176, 1568 without reuse

func.func private @device(%t: index) -> (index, i32) {
  %c0 = arith.constant 0 : index
  %c31 = arith.constant 31 : index
  %c128 = arith.constant 128 : index
  %g = memref.alloca() {alignment = 128 : i64} : memref<32xi32, #gpu.address_space<workgroup>>
  %ti = arith.index_cast %t : index to i32
  memref.store %ti, %g[%t] : memref<32xi32, #gpu.address_space<workgroup>>
  gpu.barrier
  %v = memref.load %g[%c0] : memref<32xi32, #gpu.address_space<workgroup>>
  %w = memref.load %g[%c31] : memref<32xi32, #gpu.address_space<workgroup>>
  %s = arith.addi %v, %w : i32
  %p = memref.extract_aligned_pointer_as_index %g : memref<32xi32, #gpu.address_space<workgroup>> -> index
  %m = arith.remui %p, %c128 : index
  return %m, %s : index, i32
}

func.func @main() {
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %bytes = arith.constant 64 : i32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1)
             dynamic_shared_memory_size %bytes {
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c5 = arith.constant 5 : index
    %c6 = arith.constant 6 : index
    %c7 = arith.constant 7 : index
    %c8 = arith.constant 8 : index
    %c14 = arith.constant 14 : index
    %c15 = arith.constant 15 : index
    %c31 = arith.constant 31 : index
    %c128 = arith.constant 128 : index
    %c512 = arith.constant 512 : index
    %is0 = arith.cmpi eq, %tx, %c0 : index
    %ti = arith.index_cast %tx : index to i32
    %n = gpu.block_dim x

    // Phase 1.
    %a = memref.alloca() : memref<3xi32, #gpu.address_space<workgroup>>
    %b = memref.alloca() {alignment = 64 : i64} : memref<32xi32, #gpu.address_space<workgroup>>
    %ina = arith.cmpi ult, %tx, %c2 : index
    scf.if %ina {
      %two = arith.constant 2 : i32
      %v = arith.addi %ti, %two : i32
      memref.store %v, %a[%tx] : memref<3xi32, #gpu.address_space<workgroup>>
    }
    memref.store %ti, %b[%tx] : memref<32xi32, #gpu.address_space<workgroup>>
    gpu.barrier
    %a1 = memref.load %a[%c1] : memref<3xi32, #gpu.address_space<workgroup>>
    %b31 = memref.load %b[%c31] : memref<32xi32, #gpu.address_space<workgroup>>
    gpu.barrier

    // Phase 2: shares phase 1's bytes.
    %c = memref.alloca() {alignment = 256 : i64} : memref<5xi16, #gpu.address_space<workgroup>>
    %d = memref.alloca() {alignment = 1024 : i64} : memref<7xi8, #gpu.address_space<workgroup>>
    %inc = arith.cmpi ult, %tx, %c4 : index
    scf.if %inc {
      %t16 = arith.index_cast %tx : index to i16
      %k = arith.constant 50 : i16
      %v = arith.muli %t16, %k : i16
      %v2 = arith.addi %v, %k : i16
      memref.store %v2, %c[%tx] : memref<5xi16, #gpu.address_space<workgroup>>
    }
    %ind = arith.cmpi ult, %tx, %c6 : index
    scf.if %ind {
      %t8 = arith.index_cast %tx : index to i8
      %one = arith.constant 1 : i8
      %v = arith.addi %t8, %one : i8
      memref.store %v, %d[%tx] : memref<7xi8, #gpu.address_space<workgroup>>
    }
    gpu.barrier
    %cv = memref.load %c[%c3] : memref<5xi16, #gpu.address_space<workgroup>>
    %dv = memref.load %d[%c5] : memref<7xi8, #gpu.address_space<workgroup>>

    // A buffer whose address is taken keeps bytes of its own.
    %p = memref.alloca() {alignment = 512 : i64} : memref<8xi32, #gpu.address_space<workgroup>>
    %inp = arith.cmpi ult, %tx, %c8 : index
    scf.if %inp {
      memref.store %ti, %p[%tx] : memref<8xi32, #gpu.address_space<workgroup>>
    }
    gpu.barrier
    %p7 = memref.load %p[%c7] : memref<8xi32, #gpu.address_space<workgroup>>
    %pp = memref.extract_aligned_pointer_as_index %p : memref<8xi32, #gpu.address_space<workgroup>> -> index
    %mp = arith.remui %pp, %c512 : index

    // Dynamic shared memory: a dynamic-size alloca and the user's bytes.
    %e = memref.alloca(%n) {alignment = 512 : i64} : memref<?xi32, #gpu.address_space<workgroup>>
    %raw = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %view = memref.view %raw[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<16xf32, #gpu.address_space<workgroup>>
    %u = memref.assume_alignment %view, 128 : memref<16xf32, #gpu.address_space<workgroup>>
    %t2 = arith.addi %ti, %ti : i32
    memref.store %t2, %e[%tx] : memref<?xi32, #gpu.address_space<workgroup>>
    %inu = arith.cmpi ult, %tx, %c15 : index
    scf.if %inu {
      %tf = arith.sitofp %t2 : i32 to f32
      %f2 = arith.constant 2.0 : f32
      %tf2 = arith.addf %tf, %f2 : f32
      memref.store %tf2, %u[%tx] : memref<16xf32, #gpu.address_space<workgroup>>
    }
    gpu.barrier
    %e31 = memref.load %e[%c31] : memref<?xi32, #gpu.address_space<workgroup>>
    %u14 = memref.load %u[%c14] : memref<16xf32, #gpu.address_space<workgroup>>
    %u14i = arith.fptosi %u14 : f32 to i32
    %pe = memref.extract_aligned_pointer_as_index %e : memref<?xi32, #gpu.address_space<workgroup>> -> index
    %pu = memref.extract_aligned_pointer_as_index %u : memref<16xf32, #gpu.address_space<workgroup>> -> index
    %me = arith.remui %pe, %c512 : index
    %mu = arith.remui %pu, %c128 : index

    %mg, %dev = func.call @device(%tx) : (index) -> (index, i32)
    scf.if %is0 {
      %mpe = arith.addi %mp, %me : index
      gpu.printf "addresses modulo alignment: %lu %lu %lu %lu\n", %mp, %me, %mu, %mg : index, index, index, index
      %cvi = arith.extui %cv : i16 to i32
      %dvi = arith.extui %dv : i8 to i32
      gpu.printf "phase 1: %d %d | phase 2: %d %d | kept: %d | dynamic: %d %d | device: %d\n", %a1, %b31, %cvi, %dvi, %p7, %e31, %u14i, %dev : i32, i32, i32, i32, i32, i32, i32, i32
    }
    gpu.terminator
  }
  return
}
