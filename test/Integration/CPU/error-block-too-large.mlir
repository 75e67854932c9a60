// RUN: not gpumem-run --target=cpu %s 2>&1 | FileCheck %s --match-full-lines --strict-whitespace

// A gpu.launch with blocks of 32 x 33 x 1 = 1056 threads, more than the
// 1024 a GPU block may have. The program stops at the launch with an error
// naming the kernel and the block shape, the kernel body never runs, and
// the exit status is non-zero. (error-block-too-large-dynamic.mlir has the
// same with a block size known only at run time.)

// CHECK:before
// CHECK-NEXT:gpumem: error: kernel 'main_kernel': a block of 32 x 33 x 1 = 1056 threads exceeds the limit of 1024
// CHECK-NOT:{{.}}

func.func @main() {
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c33 = arith.constant 33 : index
  vector.print str "before\n"
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c33, %sz = %c1) {
    gpu.printf "kernel ran\n"
    gpu.terminator
  }
  vector.print str "not reached\n"
  return
}
