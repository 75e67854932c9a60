// RUN: not gpumem-run --target=cuda-emu %s 2>&1 | FileCheck %s --check-prefixes=CHECK,EMU --match-full-lines --strict-whitespace
// RUN: %if cuda %{ not gpumem-run --target=cuda %s 2>&1 | FileCheck %s --check-prefixes=CHECK,CUDA --match-full-lines --strict-whitespace %}

// Upstream's NVVM lowering turns known_block_size into PTX's .maxntid, and
// CUDA refuses a launch of a larger block. cuda-emu does too: a block of
// 2 x 2 x 1 threads (4, the limit) runs, one of 8 threads fails with the
// cuda runtime's message, and the program stops there.

// CHECK:ran with 4 threads
// EMU-NEXT:gpumem: error: cuLaunchKernel failed for kernel 'k' (grid 1x1x1, block 8x1x1, 0 bytes of dynamic shared memory): CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES: too many resources requested for launch (the kernel's .maxntid allows at most 4 threads per block)
// CUDA-NEXT:gpumem: error: cuLaunchKernel failed for kernel 'k' (grid 1x1x1, block 8x1x1, 0 bytes of dynamic shared memory): CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES: too many resources requested for launch
// CHECK-NEXT:gpumem: note: in the launch at {{.*}}error-maxntid.mlir:[[@LINE+14]]:5
// CHECK-NOT:{{.}}
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k() kernel attributes {known_block_size = array<i32: 4, 1, 1>} {
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c8 = arith.constant 8 : index
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c2, %c2, %c1)
    vector.print str "ran with 4 threads\n"
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1)
    vector.print str "not reached\n"
    return
  }
}
