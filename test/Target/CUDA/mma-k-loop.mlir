// A tensor-core matmul whose K loop carries its accumulator (scf.for with a
// !gpu.mma_matrix iter_arg), and an f16 accumulator chosen by scf.if and
// carried by scf.while, compile to PTX with the wmma instructions inside the
// loops (gpumem-convert-scf-mma-types-for-nvvm; convert-nvgpu-to-nvvm
// failed on them before with "failed to legalize operation 'scf.for' that
// was explicitly marked illegal"), and ptxas accepts them for sm_90 and
// sm_80.

// RUN: gpumem-opt %s --gpumem-cuda-pipeline="chip=sm_90 format=isa" | gpumem-objects ptx - | FileCheck %s
// RUN: %if ptxas %{ gpumem-opt %s --gpumem-cuda-pipeline="chip=sm_90 format=bin" -o /dev/null %}
// RUN: %if ptxas %{ gpumem-opt %s --gpumem-cuda-pipeline="chip=sm_80 format=bin" -o /dev/null %}
// The same through gpumem-compile, host code and launch included.
// RUN: gpumem-compile --target=cuda %s -o %t

// The accumulator is loaded once, the K loop loads a tile of A and of B and
// multiplies them into it, and it is stored once after the loop.
// CHECK-LABEL: // gpu.binary @main_kernel (sm_90)
// CHECK:         wmma.load.c.sync.aligned.row.m16n16k16.f32 {{[{]}}[[C0:%r[0-9]+]],
// CHECK:       [[LOOP:\$L__BB[0-9_]+]]:
// CHECK-NEXT:    mov.b32
// CHECK-NEXT:    wmma.load.a.sync.aligned.row.m16n16k16.f16
// CHECK:         wmma.load.b.sync.aligned.row.m16n16k16.f16
// CHECK-NEXT:    wmma.mma.sync.aligned.row.row.m16n16k16.f32.f32
// CHECK-NEXT:      {[[C0]],
// CHECK-NEXT:      {
// CHECK-NEXT:      {
// CHECK-NEXT:      {[[C0]],
// CHECK:         @%p{{[0-9]+}} bra [[LOOP]];
// CHECK-NOT:     wmma.mma
// CHECK:         wmma.store.d.sync.aligned.row.m16n16k16.f32 {{.*}}{[[C0]],
// CHECK:         ret;

// The scf.if: a branch around the load of the accumulator (a zero matrix
// otherwise); the scf.while: the mma inside the loop.
// CHECK-LABEL: // gpu.binary @main_kernel_0 (sm_90)
// CHECK:         @%p{{[0-9]+}} bra [[SKIP:\$L__BB[0-9_]+]];
// CHECK-NEXT:    wmma.load.c.sync.aligned.row.m16n16k16.f16
// CHECK-NEXT:  [[SKIP]]:
// CHECK:       [[WHILE:\$L__BB[0-9_]+]]:
// CHECK-NEXT:    wmma.mma.sync.aligned.row.row.m16n16k16.f16.f16
// CHECK:         @%p{{[0-9]+}} bra [[WHILE]];
// CHECK:         wmma.store.d.sync.aligned.row.m16n16k16.f16

module attributes {gpu.container_module} {
func.func @main() {
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c256 = arith.constant 256 : index
  %a = memref.alloc(%c256) : memref<16x?xf16>
  %b = memref.alloc(%c256) : memref<?x16xf16>
  %c = memref.alloc() : memref<16x16xf32>
  %h = memref.alloc() : memref<16x16xf16>
  %k = memref.dim %a, %c1 : memref<16x?xf16>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %acc0 = gpu.subgroup_mma_load_matrix %c[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf32> -> !gpu.mma_matrix<16x16xf32, "COp">
    %acc = scf.for %kk = %c0 to %k step %c16 iter_args(%x = %acc0) -> (!gpu.mma_matrix<16x16xf32, "COp">) {
      %ta = gpu.subgroup_mma_load_matrix %a[%c0, %kk] {leadDimension = 256 : index} : memref<16x?xf16> -> !gpu.mma_matrix<16x16xf16, "AOp">
      %tb = gpu.subgroup_mma_load_matrix %b[%kk, %c0] {leadDimension = 16 : index} : memref<?x16xf16> -> !gpu.mma_matrix<16x16xf16, "BOp">
      %y = gpu.subgroup_mma_compute %ta, %tb, %x : !gpu.mma_matrix<16x16xf16, "AOp">, !gpu.mma_matrix<16x16xf16, "BOp"> -> !gpu.mma_matrix<16x16xf32, "COp">
      scf.yield %y : !gpu.mma_matrix<16x16xf32, "COp">
    }
    gpu.subgroup_mma_store_matrix %acc, %c[%c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xf32, "COp">, memref<16x16xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %c0 = arith.constant 0 : index
    %c3 = arith.constant 3 : index
    %one = arith.constant 1 : index
    %zero = arith.constant 0.0 : f16
    %ta = gpu.subgroup_mma_load_matrix %a[%c0, %c0] {leadDimension = 256 : index} : memref<16x?xf16> -> !gpu.mma_matrix<16x16xf16, "AOp">
    %tb = gpu.subgroup_mma_load_matrix %b[%c0, %c0] {leadDimension = 16 : index} : memref<?x16xf16> -> !gpu.mma_matrix<16x16xf16, "BOp">
    %first = arith.cmpi sgt, %k, %c3 : index
    %start = scf.if %first -> (!gpu.mma_matrix<16x16xf16, "COp">) {
      %m = gpu.subgroup_mma_load_matrix %h[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf16> -> !gpu.mma_matrix<16x16xf16, "COp">
      scf.yield %m : !gpu.mma_matrix<16x16xf16, "COp">
    } else {
      %z = gpu.subgroup_mma_constant_matrix %zero : !gpu.mma_matrix<16x16xf16, "COp">
      scf.yield %z : !gpu.mma_matrix<16x16xf16, "COp">
    }
    %r:2 = scf.while (%i = %c0, %acc = %start) : (index, !gpu.mma_matrix<16x16xf16, "COp">) -> (index, !gpu.mma_matrix<16x16xf16, "COp">) {
      %go = arith.cmpi slt, %i, %k : index
      scf.condition(%go) %i, %acc : index, !gpu.mma_matrix<16x16xf16, "COp">
    } do {
    ^bb0(%i: index, %acc: !gpu.mma_matrix<16x16xf16, "COp">):
      %y = gpu.subgroup_mma_compute %ta, %tb, %acc : !gpu.mma_matrix<16x16xf16, "AOp">, !gpu.mma_matrix<16x16xf16, "BOp"> -> !gpu.mma_matrix<16x16xf16, "COp">
      %i3 = arith.addi %i, %c3 : index
      scf.yield %i3, %y : index, !gpu.mma_matrix<16x16xf16, "COp">
    }
    gpu.subgroup_mma_store_matrix %r#1, %h[%c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xf16, "COp">, memref<16x16xf16>
    gpu.terminator
  }
  return
}
}
