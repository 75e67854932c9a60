// racecheck, one planted bug: a tree reduction without a barrier between its steps.
// RUN: not gpumem-run --target=cpu --sanitize=racecheck %s 2>&1 | FileCheck %s
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %out = gpu.alloc () : memref<1xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %tile = memref.alloca() : memref<64xf32, #gpu.address_space<workgroup>>
    %one = arith.constant 1.0 : f32
    memref.store %one, %tile[%tx] : memref<64xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    // A tree sum whose steps have no barrier between them: step s reads
    // what step s-1 of another thread may not have written yet.
    %c32 = arith.constant 32 : index
    scf.for %s = %c0 to %c2 step %c1 {
      %half = arith.shrui %c32, %s : index
      %active = arith.cmpi ult, %tx, %half : index
      scf.if %active {
        %j = arith.addi %tx, %half : index
        %a = memref.load %tile[%tx] : memref<64xf32, #gpu.address_space<workgroup>>
        %b = memref.load %tile[%j] : memref<64xf32, #gpu.address_space<workgroup>>
        %s2 = arith.addf %a, %b : f32
        memref.store %s2, %tile[%tx] : memref<64xf32, #gpu.address_space<workgroup>>
      }
    }
    gpu.barrier
    %z = arith.cmpi eq, %tx, %c0 : index
    scf.if %z {
      %t = memref.load %tile[%c0] : memref<64xf32, #gpu.address_space<workgroup>>
      memref.store %t, %out[%c0] : memref<1xf32>
    }
    gpu.terminator
  }
  return
}

// CHECK: gpumem: sanitizer: race (write after read) on workgroup memory in kernel 'main_kernel', block (0,0,0): byte 64 (store to memref<64xf32, #gpu.address_space<workgroup>>)
// CHECK-NEXT:   thread (16,0,0) writes it at {{.*}}race-reduction-tree.mlir:26:9: memref.store %s2, %tile[%tx] : memref<64xf32, #gpu.address_space<workgroup>>
// CHECK-NEXT:   several threads read it at {{.*}}race-reduction-tree.mlir:23:14: %a = memref.load %tile[%tx] : memref<64xf32, #gpu.address_space<workgroup>>, with no barrier between
// CHECK-NEXT: gpumem: sanitizer: the race (write after read) on workgroup memory at {{.*}}race-reduction-tree.mlir:26:9 happened 16 times
// CHECK-NEXT: gpumem: sanitizer: ERROR SUMMARY: 16 errors
