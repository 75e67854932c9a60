// RUN: not gpumem-run --target=cpu %s 2>&1 | FileCheck %s --match-full-lines --strict-whitespace
// RUN: %if cuda-emu %{ not gpumem-run --target=cuda-emu %s 2>&1 | FileCheck %s --check-prefix=EMU --match-full-lines --strict-whitespace %}
// EMU:before
// EMU-NEXT:gpumem: error: kernel 'main_kernel': a grid of 1 x 65536 x 1 blocks; the device allows grids of at most 2147483647 x 65535 x 65535 blocks
// EMU-NEXT:gpumem: note: in the launch at {{.*}}error-grid-too-large.mlir:[[@LINE+18]]:3

// A grid of 1 x 65536 x 1 blocks: y (and z) may be at most 65535 on a GPU,
// x at most 2^31 - 1. The size is known only at run time, so the runtime
// stops the program at the launch, as a GPU's would.

// CHECK:before
// CHECK-NEXT:gpumem: error: kernel 'main_kernel': a grid of 1 x 65536 x 1 blocks exceeds a GPU's limits: x at most 2147483647, y and z at most 65535
// CHECK-NEXT:gpumem: note: in the launch at {{.*}}error-grid-too-large.mlir:[[@LINE+10]]:3

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %rows = memref.alloc() : memref<1xindex>
  %big = arith.constant 65536 : index
  memref.store %big, %rows[%c0] : memref<1xindex>
  %n = memref.load %rows[%c0] : memref<1xindex>
  vector.print str "before\n"
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %n, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    gpu.printf "kernel ran\n"
    gpu.terminator
  }
  vector.print str "not reached\n"
  return
}
