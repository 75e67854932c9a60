// RUN: not gpumem-run --target=cuda-emu %s 2>&1 | FileCheck %s --check-prefixes=CHECK,EMU --match-full-lines --strict-whitespace
// RUN: %if cuda %{ not gpumem-run --target=cuda %s 2>&1 | FileCheck %s --check-prefixes=CHECK,CUDA --match-full-lines --strict-whitespace %}

// A kernel with PTX's .reqntid (nvvm.reqntid on the gpu.func) runs only with
// blocks of exactly that size, on CUDA and on cuda-emu: 4 x 1 x 1 runs, 2 x
// 2 x 1 (as many threads, another shape) fails with the cuda runtime's
// message, and the program stops there.

// CHECK:ran with 4x1x1
// EMU-NEXT:gpumem: error: cuLaunchKernel failed for kernel 'k' (grid 1x1x1, block 2x2x1, 0 bytes of dynamic shared memory): CUDA_ERROR_INVALID_VALUE: invalid argument (the kernel's .reqntid requires blocks of 4x1x1)
// CUDA-NEXT:gpumem: error: cuLaunchKernel failed for kernel 'k' (grid 1x1x1, block 2x2x1, 0 bytes of dynamic shared memory): CUDA_ERROR_INVALID_VALUE: invalid argument
// CHECK-NEXT:gpumem: note: in the launch at {{.*}}error-reqntid.mlir:[[@LINE+14]]:5
// CHECK-NOT:{{.}}
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k() kernel attributes {nvvm.reqntid = array<i32: 4, 1, 1>} {
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1)
    vector.print str "ran with 4x1x1\n"
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c2, %c2, %c1)
    vector.print str "not reached\n"
    return
  }
}
