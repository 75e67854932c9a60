// Without --sanitize, a kernel that faults on the cpu target is reported as
// the kernel's crash, with the block that faulted (and the thread, where
// threads run one by one: cuda-emu; the cpu target runs this block as one
// vectorized loop) and the launch, never as a bare "Segmentation fault" or
// LLVM's crash banner. Only the last block of the 2x2 grid faults; with one
// worker, the cpu target runs all four blocks in one call, which steps the
// block id through x and carries into y. (The address is past the
// canonical ones, where the kernel reports none: "(nil)".)
// RUN: not gpumem-run --target=cpu %s 2>&1 | FileCheck %s --check-prefixes=CHECK,CPU
// RUN: env GPUMEM_CPU_THREADS=1 not gpumem-run --target=cpu %s 2>&1 | FileCheck %s --check-prefixes=CHECK,CPU
// RUN: %if cuda-emu %{ not gpumem-run --target=cuda-emu %s 2>&1 | FileCheck %s --check-prefixes=CHECK,EMU %}
// CPU: gpumem: error: kernel 'main_kernel' crashed (SIGSEGV: invalid memory access at {{0x[0-9a-f]+|\(nil\)}}) in block (1,1,0){{$}}
// EMU: gpumem: error: kernel 'main_kernel' crashed (SIGSEGV: invalid memory access at {{0x[0-9a-f]+|\(nil\)}}) in block (1,1,0) thread (1,0,0)
// CHECK-NEXT: gpumem: note: in the launch at {{.*}}crash-segv.mlir:[[@LINE+9]]:3
// CHECK-NEXT: gpumem: note: run again with --sanitize to find the access or operation that caused it
// CHECK-NOT: PLEASE
func.func @main() {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %big = arith.constant 100000000000 : index
  %buf = gpu.alloc () : memref<4xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c2, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    %f = arith.constant 1.0 : f32
    %i = arith.muli %tx, %big : index
    %k = arith.muli %i, %bx : index
    %j = arith.muli %k, %by : index
    memref.store %f, %buf[%j] : memref<4xf32>
    gpu.terminator
  }
  return
}
