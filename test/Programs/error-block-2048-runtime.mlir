// RUN: not gpumem-run --target=cpu %s 2>&1 | FileCheck %s --check-prefixes=CHECK,CPU --match-full-lines --strict-whitespace
// RUN: %if cuda-emu %{ not gpumem-run --target=cuda-emu %s 2>&1 | FileCheck %s --check-prefixes=CHECK,EMU --match-full-lines --strict-whitespace %}
// RUN: %if vulkan %{ not gpumem-run --target=vulkan %s 2>&1 | FileCheck %s --check-prefixes=CHECK,VULKAN --match-full-lines --strict-whitespace %}

// A block of 64 x 32 x 1 = 2048 threads whose x size the host reads from
// memory, so only the runtime sees it: each target stops the program at the
// launch with an error naming the limit exceeded (the cpu target's and a
// GPU's 1024 threads per block; the Vulkan device's own limit, which
// lavapipe gives as 1024) and the launch's line, and the kernel never runs.

// CHECK:before
// CPU-NEXT:gpumem: error: kernel 'main_kernel': a block of 64 x 32 x 1 = 2048 threads; the cpu target allows at most 1024 threads per block
// EMU-NEXT:gpumem: error: kernel 'main_kernel': a block of 64 x 32 x 1 = 2048 threads; the device allows at most 1024 threads per block
// VULKAN-NEXT:gpumem: error: kernel 'main_kernel': a block of 64 x 32 x 1 = 2048 threads exceeds the device's maxComputeWorkGroupInvocations of {{[0-9]+}}
// CHECK-NEXT:gpumem: note: in the launch at {{.*}}error-block-2048-runtime.mlir:[[@LINE+12]]:3
// CHECK-NOT:{{.}}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %cfg = memref.alloc() : memref<1xindex>
  %c64 = arith.constant 64 : index
  memref.store %c64, %cfg[%c0] : memref<1xindex>
  %n = memref.load %cfg[%c0] : memref<1xindex>
  vector.print str "before\n"
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %n, %sy = %c32, %sz = %c1) {
    gpu.printf "kernel ran\n"
    gpu.terminator
  }
  vector.print str "not reached\n"
  memref.dealloc %cfg : memref<1xindex>
  return
}
