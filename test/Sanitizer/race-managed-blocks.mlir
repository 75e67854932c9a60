// racecheck, one planted bug: blocks count into one managed counter
// (gpu.alloc host_shared) with a plain load and store. Managed memory is
// checked like device memory, across blocks too; the host writes it
// directly, so its bytes count as written.
// RUN: env GPUMEM_CPU_THREADS=1 not gpumem-run --target=cpu --sanitize %s 2>&1 | FileCheck %s
// RUN: %if cuda-emu %{ env GPUMEM_CPU_THREADS=1 not gpumem-run --target=cuda-emu --sanitize %s 2>&1 | FileCheck %s %}
// CHECK: gpumem: sanitizer: race (read after write) on managed memory in kernel 'main_kernel', block (1,0,0): byte 0 of managed memory of 4 bytes (load from memref<1xi32>)
// CHECK-NEXT:   thread (0,0,0) reads it at {{.*}}race-managed-blocks.mlir:[[# @LINE + 16]]:10: %n = memref.load %count[%c0] : memref<1xi32>
// CHECK-NEXT:   thread (0,0,0) of block (0,0,0) wrote it at {{.*}}race-managed-blocks.mlir:[[# @LINE + 17]]:5: memref.store %m, %count[%c0] : memref<1xi32>, in another block of the same launch
// CHECK-NEXT:   allocated at {{.*}}race-managed-blocks.mlir:[[# @LINE + 9]]:12: %count = gpu.alloc host_shared () : memref<1xi32>
// CHECK-NOT: uninitialized
// CHECK: 4
// CHECK: gpumem: sanitizer: ERROR SUMMARY:
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0 : i32
  %count = gpu.alloc host_shared () : memref<1xi32>
  memref.store %zero, %count[%c0] : memref<1xi32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c4, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %one = arith.constant 1 : i32
    %n = memref.load %count[%c0] : memref<1xi32>
    %m = arith.addi %n, %one : i32
    memref.store %m, %count[%c0] : memref<1xi32>
    gpu.terminator
  }
  %total = memref.load %count[%c0] : memref<1xi32>
  vector.print %total : i32
  return
}
