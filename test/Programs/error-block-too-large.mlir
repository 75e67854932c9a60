// RUN: not gpumem-run --target=cpu %s 2>&1 | FileCheck %s --match-full-lines --strict-whitespace
// RUN: %if cuda-emu %{ not gpumem-run --target=cuda-emu %s 2>&1 | FileCheck %s --match-full-lines --strict-whitespace %}

// A gpu.launch with blocks of 32 x 33 x 1 = 1056 threads, more than the
// 1024 a GPU block may have. The sizes are constants, so the program is
// rejected when it is compiled, at the launch, and nothing runs.
// (error-block-too-large-dynamic.mlir has a block size known only at run
// time: the runtime stops the program at the launch.)

// CHECK:{{.*}}error-block-too-large.mlir:[[@LINE+8]]:3: error: 'gpu.launch' op asks for blocks of 32 x 33 x 1 = 1056 threads; a block has at most 1024
// CHECK-NOT:before

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
