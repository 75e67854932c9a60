// A kernel compiled for subgroups of one size does not run, silently wrong,
// on a device whose subgroups differ: the runtime refuses the launch.
// REQUIRES: vulkan
// RUN: not gpumem-run --target=vulkan %s 2>&1 | FileCheck %s
// (The tools compile for 32-lane subgroups; lavapipe's have as many lanes
// as the CPU's vector registers hold 32-bit values: 4, 8 or 16.)
// RUN: not gpumem-opt %s --gpumem-vulkan-pipeline=subgroup-size=3 2>&1 | FileCheck %s --check-prefix=OPTION
// CHECK: gpumem: error: kernel 'main_kernel' was compiled for subgroups of 32 threads, but this device's subgroups have {{[0-9]+}} (compile with --subgroup-size={{[0-9]+}}, the pipeline option subgroup-size, and shuffle widths to match)
// CHECK-NEXT: gpumem: note: in the launch at {{.*}}subgroup-size-mismatch.mlir:[[@LINE+8]]:3
// OPTION: error: subgroup-size 3 is not a power of two from 1 to 128
func.func @main() {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %out = memref.alloc() : memref<4xi32>
  %u = memref.cast %out : memref<4xi32> to memref<*xi32>
  gpu.host_register %u : memref<*xi32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    %lane = gpu.lane_id
    %l = arith.index_cast %lane : index to i32
    memref.store %l, %out[%tx] : memref<4xi32>
    gpu.terminator
  }
  return
}
