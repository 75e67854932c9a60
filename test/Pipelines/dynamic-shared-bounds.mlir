// Both pipelines stop at a view past the launch's dynamic shared memory,
// located at the view, before anything runs.
// RUN: not gpumem-opt %s --gpumem-cpu-pipeline -o /dev/null 2>&1 | FileCheck %s
// RUN: not gpumem-opt %s --gpumem-cuda-pipeline="chip=sm_90 format=isa" -o /dev/null 2>&1 | FileCheck %s
// RUN: not gpumem-run --target=cpu %s 2>&1 | FileCheck %s

// CHECK: dynamic-shared-bounds.mlir:[[@LINE+10]]:10: error: 'memref.view' op reads bytes [256, 1280) of dynamic shared memory, but the launch passes only 1024 bytes

func.func @main() {
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  %bytes = arith.constant 1024 : i32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1)
             dynamic_shared_memory_size %bytes {
    %dyn = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %v = memref.view %dyn[%c256][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
    %f = arith.constant 1.0 : f32
    %c0 = arith.constant 0 : index
    memref.store %f, %v[%c0] : memref<256xf32, #gpu.address_space<workgroup>>
    gpu.terminator
  }
  return
}
