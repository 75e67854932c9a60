// memcheck on a fragment load from device memory: an A fragment loaded 8 rows
// past the top of a 16x16 gpu.alloc buffer. The cpu target checks the memref
// (index 383 of the flattened 256 elements); cuda-emu checks each lane's
// elements by address, where the PTX ISA puts them, and finds the first
// that lies past the allocation's end (in its redzone). The program's
// other accesses are in bounds.
// RUN: not gpumem-run --target=cpu --sanitize=memcheck %s 2>&1 | FileCheck %s --check-prefix=CPU
// RUN: %if cuda-emu %{ not gpumem-run --target=cuda-emu --sanitize=memcheck %s 2>&1 | FileCheck %s --check-prefix=EMU %}
// CPU: gpumem: sanitizer: out-of-bounds vector load from memref<?xf16, strided<[1], offset: ?>> in kernel 'main_kernel', block (0,0,0) thread (0,0,0)
// CPU-NEXT: at {{.*}}oob-wmma-device-memory.mlir:[[# @LINE + 17]]:11: %fa = gpu.subgroup_mma_load_matrix %a[%c8, %c0]
// CPU-NEXT: index 383 of dimension 0 is outside 0..255
// EMU: gpumem: sanitizer: out-of-bounds wmma.load of 2 bytes in kernel 'main_kernel', block (0,0,0) thread ({{[0-9]+}},0,0)
// EMU-NEXT: at {{.*}}oob-wmma-device-memory.mlir:[[# @LINE + 14]]:11: %fa = gpu.subgroup_mma_load_matrix %a[%c8, %c0]
// EMU-NEXT: 0 bytes after the end of device memory of 512 bytes allocated at {{.*}}oob-wmma-device-memory.mlir:[[# @LINE + 8]]:8: %a = gpu.alloc () : memref<16x16xf16>
// EMU: gpumem: sanitizer: ERROR SUMMARY: 256 errors

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %a = gpu.alloc () : memref<16x16xf16>
  %c = gpu.alloc () : memref<16x16xf32>
  %f = arith.constant 1.0 : f16
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %fa = gpu.subgroup_mma_load_matrix %a[%c8, %c0] {leadDimension = 16 : index}
        : memref<16x16xf16> -> !gpu.mma_matrix<16x16xf16, "AOp">
    %fb = gpu.subgroup_mma_constant_matrix %f : !gpu.mma_matrix<16x16xf16, "BOp">
    %zero = arith.constant 0.0 : f32
    %fc = gpu.subgroup_mma_constant_matrix %zero : !gpu.mma_matrix<16x16xf32, "COp">
    %fd = gpu.subgroup_mma_compute %fa, %fb, %fc
        : !gpu.mma_matrix<16x16xf16, "AOp">, !gpu.mma_matrix<16x16xf16, "BOp">
        -> !gpu.mma_matrix<16x16xf32, "COp">
    gpu.subgroup_mma_store_matrix %fd, %c[%c0, %c0] {leadDimension = 16 : index}
        : !gpu.mma_matrix<16x16xf32, "COp">, memref<16x16xf32>
    gpu.terminator
  }
  gpu.dealloc %a : memref<16x16xf16>
  gpu.dealloc %c : memref<16x16xf32>
  return
}
