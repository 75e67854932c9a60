// memcheck, one planted bug: an off-by-one store through a view of dynamic shared memory.
// RUN: not gpumem-run --target=cpu --sanitize %s 2>&1 | FileCheck %s
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : i32
  %out = gpu.alloc () : memref<16xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c16, %sy = %c1, %sz = %c1)
             dynamic_shared_memory_size %c64 {
    %bytes = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    // 64 bytes of dynamic shared memory viewed as 16 floats; each thread
    // writes the element after its own (an off-by-one), the last one past
    // the view.
    %v = memref.view %bytes[%c0][%c16] : memref<?xi8, #gpu.address_space<workgroup>> to memref<?xf32, #gpu.address_space<workgroup>>
    %f = arith.constant 1.0 : f32
    %i = arith.addi %tx, %c1 : index
    memref.store %f, %v[%i] : memref<?xf32, #gpu.address_space<workgroup>>
    gpu.terminator
  }
  return
}

// CHECK: gpumem: sanitizer: out-of-bounds store to memref<?xf32, #gpu.address_space<workgroup>> in kernel 'main_kernel', block (0,0,0) thread (15,0,0)
// CHECK-NEXT:   at {{.*}}oob-dynamic-shared.mlir:19:5: memref.store %f, %v[%i] : memref<?xf32, #gpu.address_space<workgroup>>
// CHECK-NEXT:   index 16 of dimension 0 is outside 0..15
// CHECK-NEXT:   the memref views the block's workgroup memory from byte 0
// CHECK-NEXT: gpumem: sanitizer: ERROR SUMMARY: 1 error
