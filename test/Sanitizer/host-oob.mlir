// memcheck covers host code too: a host loop in @main that writes 32
// floats into an 8-element memref.alloc (which corrupted the host heap and
// aborted in glibc, with or without --sanitize), and a load past its end,
// are reported as a kernel's accesses are, "in host code", once per site
// with the count at exit; the accesses are skipped (the load gives 0) and
// the program fails. The same on every target that sanitizes.
// RUN: not gpumem-run --target=cpu --sanitize %s 2>&1 | FileCheck %s
// RUN: %if cuda-emu %{ not gpumem-run --target=cuda-emu --sanitize %s 2>&1 | FileCheck %s %}
// RUN: %if rocm-emu %{ not gpumem-run --target=rocm-emu --sanitize %s 2>&1 | FileCheck %s %}
// Without --sanitize nothing is checked in host code (the program is
// compiled as written).
// RUN: gpumem-opt %s --gpumem-cpu-pipeline | FileCheck %s --check-prefix=PLAIN
// PLAIN-NOT: gpumemMemHostAccessError

// CHECK: gpumem: sanitizer: out-of-bounds store to memref<8xf32> in host code
// CHECK-NEXT:   at {{.*}}host-oob.mlir:[[@LINE+15]]:5: memref.store %one, %m[%i] : memref<8xf32>
// CHECK-NEXT:   index 8 of dimension 0 is outside 0..7
// CHECK-NEXT: gpumem: sanitizer: out-of-bounds load from memref<8xf32> in host code
// CHECK-NEXT:   at {{.*}}host-oob.mlir:[[@LINE+14]]:8: %v = memref.load %m[%c32] : memref<8xf32>
// CHECK-NEXT:   index 32 of dimension 0 is outside 0..7
// CHECK-NEXT: 0
// CHECK-NEXT: gpumem: sanitizer: the out-of-bounds store to memref<8xf32> at {{.*}}host-oob.mlir:[[@LINE+9]]:5 happened 24 times
// CHECK-NEXT: gpumem: sanitizer: ERROR SUMMARY: 25 errors
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %m = memref.alloc() : memref<8xf32>
  %one = arith.constant 1.0 : f32
  scf.for %i = %c0 to %c32 step %c1 {
    memref.store %one, %m[%i] : memref<8xf32>
  }
  %v = memref.load %m[%c32] : memref<8xf32>
  vector.print %v : f32
  memref.dealloc %m : memref<8xf32>
  return
}
