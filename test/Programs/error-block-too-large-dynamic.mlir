// RUN: not gpumem-run --target=cpu %s 2>&1 | FileCheck %s --match-full-lines --strict-whitespace
// RUN: %if cuda-emu %{ not gpumem-run --target=cuda-emu %s 2>&1 | FileCheck %s --check-prefix=EMU --match-full-lines --strict-whitespace %}
// EMU:before
// EMU-NEXT:gpumem: error: kernel 'launch_kernel': a block of 32 x 33 x 1 = 1056 threads; the device allows at most 1024 threads per block
// EMU-NEXT:gpumem: note: in the launch at {{.*}}error-block-too-large-dynamic.mlir:[[@LINE+28]]:3
// EMU-NOT:{{.}}

// A block of 32 x 33 x 1 = 1056 threads, more than the 1024 a GPU block may
// have, whose y size is a function argument (known only at run time): the
// launch fails with an error naming the kernel (outlined from @launch) and
// the block shape, the kernel does not run (it would print), and the
// program exits with a non-zero status.

// CHECK:before
// CHECK-NEXT:gpumem: error: kernel 'launch_kernel': a block of 32 x 33 x 1 = 1056 threads; the cpu target allows at most 1024 threads per block
// CHECK-NEXT:gpumem: note: in the launch at {{.*}}error-block-too-large-dynamic.mlir:[[@LINE+17]]:3
// CHECK-NOT:{{.}}

func.func @main() {
  %c33 = arith.constant 33 : index
  vector.print str "before\n"
  call @launch(%c33) : (index) -> ()
  vector.print str "not reached\n"
  return
}

func.func @launch(%ny: index) {
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %flag = memref.alloc() : memref<1xi32>
  %flag_u = memref.cast %flag : memref<1xi32> to memref<*xi32>
  gpu.host_register %flag_u : memref<*xi32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %ny, %sz = %c1) {
    %c0 = arith.constant 0 : index
    %one = arith.constant 1 : i32
    memref.store %one, %flag[%c0] : memref<1xi32>
    gpu.printf "kernel ran\n"
    gpu.terminator
  }
  return
}
