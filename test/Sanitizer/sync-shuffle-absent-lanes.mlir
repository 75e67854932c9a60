// synccheck, one planted bug: a warp reduction inside a branch that half of the warp skips.
// Without --sanitize a lane reading a missing lane gets its own value back
// (invalid), so the sum of 20 ones silently comes out as 32; synccheck
// reports each shuffle.
// RUN: gpumem-run --target=cpu %s 2>&1 | FileCheck %s --check-prefix=SILENT
// RUN: not gpumem-run --target=cpu --sanitize=synccheck %s 2>&1 | FileCheck %s
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c20 = arith.constant 20 : index
  %c32 = arith.constant 32 : index
  %out = gpu.alloc host_shared () : memref<32xi32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %one = arith.constant 1 : i32
    %active = arith.cmpi ult, %tx, %c20 : index
    // Only lanes 0..19 have work; the butterfly still needs all 32.
    scf.if %active {
      %w = arith.constant 32 : i32
      %o1 = arith.constant 1 : i32
      %o2 = arith.constant 2 : i32
      %o4 = arith.constant 4 : i32
      %o8 = arith.constant 8 : i32
      %o16 = arith.constant 16 : i32
      %s1, %v1 = gpu.shuffle xor %one, %o1, %w : i32
      %a1 = arith.addi %one, %s1 : i32
      %s2, %v2 = gpu.shuffle xor %a1, %o2, %w : i32
      %a2 = arith.addi %a1, %s2 : i32
      %s4, %v4 = gpu.shuffle xor %a2, %o4, %w : i32
      %a4 = arith.addi %a2, %s4 : i32
      %s8, %v8 = gpu.shuffle xor %a4, %o8, %w : i32
      %a8 = arith.addi %a4, %s8 : i32
      %s16, %v16 = gpu.shuffle xor %a8, %o16, %w : i32
      %a16 = arith.addi %a8, %s16 : i32
      memref.store %a16, %out[%tx] : memref<32xi32>
    }
    gpu.terminator
  }
  %total = memref.load %out[%c0] : memref<32xi32>
  vector.print %total : i32
  return
}

// SILENT: 32

// CHECK: gpumem: sanitizer: shuffle with absent lanes in kernel 'main_kernel', block (0,0,0) thread (0,0,0)
// CHECK-NEXT:   at {{.*}}sync-shuffle-absent-lanes.mlir:25:18: %s1, %v1 = gpu.shuffle xor %one, %o1, %w : i32
// CHECK-NEXT:   lane 20 (thread (20,0,0)) and 11 other lanes of the shuffle's segment returned from the kernel without reaching it
// CHECK:        at {{.*}}sync-shuffle-absent-lanes.mlir:33:20: %s16, %v16 = gpu.shuffle xor %a8, %o16, %w : i32
// CHECK-NEXT:   lane 20 (thread (20,0,0)) and 11 other lanes of the shuffle's segment returned from the kernel without reaching it
// CHECK-NEXT: 32
// CHECK-NEXT: gpumem: sanitizer: ERROR SUMMARY: 5 errors
