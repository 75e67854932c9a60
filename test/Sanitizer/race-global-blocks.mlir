// racecheck, one planted bug: every block adds its partial sum to the total with a plain load and store.
// One worker, so that the blocks run in order and the first report is the same each time.
// RUN: env GPUMEM_CPU_THREADS=1 not gpumem-run --target=cpu --sanitize=racecheck %s 2>&1 | FileCheck %s
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c32 = arith.constant 32 : index
  %zero = arith.constant 0 : i32
  %total = gpu.alloc () : memref<1xi32>
  gpu.memset %total, %zero : memref<1xi32>, i32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c4, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %first = arith.cmpi eq, %tx, %c0 : index
    scf.if %first {
      // Should be memref.atomic_rmw addi.
      %old = memref.load %total[%c0] : memref<1xi32>
      %c32i = arith.constant 32 : i32
      %new = arith.addi %old, %c32i : i32
      memref.store %new, %total[%c0] : memref<1xi32>
    }
    gpu.terminator
  }
  %host = memref.alloc() : memref<1xi32>
  gpu.memcpy %host, %total : memref<1xi32>, memref<1xi32>
  %v = memref.load %host[%c0] : memref<1xi32>
  vector.print %v : i32
  return
}

// CHECK: gpumem: sanitizer: race (read after write) on device memory in kernel 'main_kernel', block (1,0,0): byte 0 of device memory of 4 bytes (load from memref<1xi32>)
// CHECK-NEXT:   thread (0,0,0) reads it at {{.*}}race-global-blocks.mlir:17:14: %old = memref.load %total[%c0] : memref<1xi32>
// CHECK-NEXT:   thread (0,0,0) of block (0,0,0) wrote it at {{.*}}race-global-blocks.mlir:20:7: memref.store %new, %total[%c0] : memref<1xi32>, in another block of the same launch
// CHECK-NEXT:   allocated at {{.*}}race-global-blocks.mlir:10:12: %total = gpu.alloc () : memref<1xi32>
// CHECK-NEXT: gpumem: sanitizer: race (write after write) on device memory in kernel 'main_kernel', block (1,0,0): byte 0 of device memory of 4 bytes (store to memref<1xi32>)
// CHECK-NEXT:   thread (0,0,0) writes it at {{.*}}race-global-blocks.mlir:20:7: memref.store %new, %total[%c0] : memref<1xi32>
// CHECK-NEXT:   thread (0,0,0) of block (0,0,0) wrote it at {{.*}}race-global-blocks.mlir:20:7: memref.store %new, %total[%c0] : memref<1xi32>, in another block of the same launch
// CHECK-NEXT:   allocated at {{.*}}race-global-blocks.mlir:10:12: %total = gpu.alloc () : memref<1xi32>
// CHECK-NEXT: 128
// CHECK-NEXT: gpumem: sanitizer: the race (read after write) on device memory at {{.*}}race-global-blocks.mlir:17:14 happened 3 times
// CHECK-NEXT: gpumem: sanitizer: the race (write after write) on device memory at {{.*}}race-global-blocks.mlir:20:7 happened 3 times
// CHECK-NEXT: gpumem: sanitizer: ERROR SUMMARY: 6 errors
