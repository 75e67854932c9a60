// memcheck on tensor-core fragments: an A fragment loaded 8 rows past the top of
// a 16x16 buffer, and a C fragment stored there. Every lane reads the whole A
// fragment (one 256-element load, whose last element is 383); lanes 16..31 own
// the rows past the end of C. The accesses are reported and skipped. (The
// C tile stored overlaps the one loaded, so the lanes meet around the store,
// in the warp's order; the last lane is the first to store.) memcheck alone:
// the host never writes the buffers, so initcheck would report the loads
// too (uninit-host-registered.mlir has that bug on its own).
// RUN: not gpumem-run --target=cpu --sanitize=memcheck %s 2>&1 | FileCheck %s
// CHECK: gpumem: sanitizer: out-of-bounds vector load from memref<?xf16, strided<[1], offset: ?>> in kernel 'main_kernel', block (0,0,0) thread (0,0,0)
// CHECK-NEXT:   at {{.*}}oob-mma-fragments.mlir:[[# @LINE + 21]]:11: %fa = gpu.subgroup_mma_load_matrix %a[%c8, %c0]
// CHECK-NEXT:   index 383 of dimension 0 is outside 0..255
// CHECK: gpumem: sanitizer: out-of-bounds vector store to memref<?xf32, strided<[1], offset: ?>> in kernel 'main_kernel', block (0,0,0) thread (31,0,0)
// CHECK-NEXT:   at {{.*}}oob-mma-fragments.mlir:[[# @LINE + 27]]:5: gpu.subgroup_mma_store_matrix
// CHECK-NEXT:   index 376 of dimension 0 is outside 0..255
// CHECK: happened 32 times
// CHECK: happened 16 times
// CHECK: gpumem: sanitizer: ERROR SUMMARY: 48 errors
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %a = memref.alloc() : memref<16x16xf16>
  %c = memref.alloc() : memref<16x16xf32>
  %au = memref.cast %a : memref<16x16xf16> to memref<*xf16>
  %cu = memref.cast %c : memref<16x16xf32> to memref<*xf32>
  gpu.host_register %au : memref<*xf16>
  gpu.host_register %cu : memref<*xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %fa = gpu.subgroup_mma_load_matrix %a[%c8, %c0] {leadDimension = 16 : index}
        : memref<16x16xf16> -> !gpu.mma_matrix<16x16xf16, "AOp">
    %fb = gpu.subgroup_mma_load_matrix %a[%c0, %c0] {leadDimension = 16 : index}
        : memref<16x16xf16> -> !gpu.mma_matrix<16x16xf16, "BOp">
    %fc = gpu.subgroup_mma_load_matrix %c[%c0, %c0] {leadDimension = 16 : index}
        : memref<16x16xf32> -> !gpu.mma_matrix<16x16xf32, "COp">
    %fd = gpu.subgroup_mma_compute %fa, %fb, %fc
        : !gpu.mma_matrix<16x16xf16, "AOp">, !gpu.mma_matrix<16x16xf16, "BOp">
        -> !gpu.mma_matrix<16x16xf32, "COp">
    gpu.subgroup_mma_store_matrix %fd, %c[%c8, %c0] {leadDimension = 16 : index}
        : !gpu.mma_matrix<16x16xf32, "COp">, memref<16x16xf32>
    gpu.terminator
  }
  return
}
