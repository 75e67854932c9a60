// memcheck, one planted bug: an off-by-one loop storing a fifth element into a private array of four.
// RUN: not gpumem-run --target=cpu --sanitize %s 2>&1 | FileCheck %s
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %out = gpu.alloc () : memref<4xi32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %scratch = memref.alloca() : memref<4xi32, #gpu.address_space<private>>
    // An off-by-one loop bound writes a fifth element.
    scf.for %i = %c0 to %c5 step %c1 {
      %v = arith.index_cast %i : index to i32
      memref.store %v, %scratch[%i] : memref<4xi32, #gpu.address_space<private>>
    }
    %r = memref.load %scratch[%c0] : memref<4xi32, #gpu.address_space<private>>
    memref.store %r, %out[%c0] : memref<4xi32>
    gpu.terminator
  }
  return
}

// CHECK: gpumem: sanitizer: out-of-bounds store to memref<4xi32, #gpu.address_space<private>> in kernel 'main_kernel', block (0,0,0) thread (0,0,0)
// CHECK-NEXT:   at {{.*}}oob-private.mlir:14:7: memref.store %v, %scratch[%i] : memref<4xi32, #gpu.address_space<private>>
// CHECK-NEXT:   index 4 of dimension 0 is outside 0..3
// CHECK-NEXT: gpumem: sanitizer: ERROR SUMMARY: 1 error
