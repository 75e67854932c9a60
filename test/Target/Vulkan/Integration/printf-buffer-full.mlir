// A launch prints more than the 1 MiB printf buffer holds: the records
// that fit are printed (each of this kernel's records is 2 words, so
// exactly 262128 / 2 = 131064 of them), the rest are dropped and counted in
// a warning on stderr; the program goes on.
// REQUIRES: vulkan
// RUN: gpumem-run --target=vulkan %s 2>&1 >/dev/null | FileCheck %s
// RUN: gpumem-run --target=vulkan %s 2>/dev/null | FileCheck %s --check-prefix=OUT
// CHECK: gpumem: warning: kernel 'main_kernel': 22536 printf records did not fit its 1048576-byte printf buffer and were dropped
// CHECK-NOT: error
// OUT-COUNT-131064: {{^[0-9]+$}}
// OUT-NEXT: done
// OUT-NOT: {{.}}
func.func @main() {
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
    %c0 = arith.constant 0 : index
    %c600 = arith.constant 600 : index
    scf.for %i = %c0 to %c600 step %c1 {
      %v = arith.index_cast %i : index to i32
      gpu.printf "%d\n", %v : i32
    }
    gpu.terminator
  }
  vector.print str "done\n"
  return
}
