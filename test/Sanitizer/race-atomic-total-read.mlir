// racecheck, one planted bug: blocks add to a global total atomically, and each block also reads the total in the same launch to normalize by it.
// One worker, so that the blocks run in order and the first report is the same each time.
// RUN: env GPUMEM_CPU_THREADS=1 not gpumem-run --target=cpu --sanitize=racecheck %s 2>&1 | FileCheck %s
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c32 = arith.constant 32 : index
  %zero = arith.constant 0.0 : f32
  %total = gpu.alloc () : memref<1xf32>
  %share = gpu.alloc () : memref<3xf32>
  gpu.memset %total, %zero : memref<1xf32>, f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c3, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %leader = arith.cmpi eq, %tx, %c0 : index
    scf.if %leader {
      %b = arith.index_cast %bx : index to i32
      %part = arith.sitofp %b : i32 to f32
      %old = memref.atomic_rmw addf %part, %total[%c0] : (f32, memref<1xf32>) -> f32
      // The total is complete only when every block has added to it: this
      // belongs in a second kernel.
      %all = memref.load %total[%c0] : memref<1xf32>
      %s = arith.divf %part, %all : f32
      memref.store %s, %share[%bx] : memref<3xf32>
    }
    gpu.terminator
  }
  return
}

// CHECK: gpumem: sanitizer: race (atomic after read) on device memory in kernel 'main_kernel', block (1,0,0): byte 0 of device memory of 4 bytes (atomic update of memref<1xf32>)
// CHECK-NEXT:   thread (0,0,0) updates it atomically at {{.*}}race-atomic-total-read.mlir:19:14: %old = memref.atomic_rmw addf %part, %total[%c0] : (f32, memref<1xf32>) -> f32
// CHECK-NEXT:   thread (0,0,0) of block (0,0,0) read it at {{.*}}race-atomic-total-read.mlir:22:14: %all = memref.load %total[%c0] : memref<1xf32>, in another block of the same launch
// CHECK-NEXT:   allocated at {{.*}}race-atomic-total-read.mlir:10:12: %total = gpu.alloc () : memref<1xf32>
// CHECK-NEXT: gpumem: sanitizer: race (read after atomic) on device memory in kernel 'main_kernel', block (1,0,0): byte 0 of device memory of 4 bytes (load from memref<1xf32>)
// CHECK-NEXT:   thread (0,0,0) reads it at {{.*}}race-atomic-total-read.mlir:22:14: %all = memref.load %total[%c0] : memref<1xf32>
// CHECK-NEXT:   several blocks updated it atomically at {{.*}}race-atomic-total-read.mlir:19:14: %old = memref.atomic_rmw addf %part, %total[%c0] : (f32, memref<1xf32>) -> f32, in other blocks of the same launch
// CHECK-NEXT:   allocated at {{.*}}race-atomic-total-read.mlir:10:12: %total = gpu.alloc () : memref<1xf32>
// CHECK-NEXT: gpumem: sanitizer: the race (atomic after read) on device memory at {{.*}}race-atomic-total-read.mlir:19:14 happened 2 times
// CHECK-NEXT: gpumem: sanitizer: the race (read after atomic) on device memory at {{.*}}race-atomic-total-read.mlir:22:14 happened 2 times
// CHECK-NEXT: gpumem: sanitizer: ERROR SUMMARY: 4 errors
