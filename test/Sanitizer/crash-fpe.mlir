// An integer division by zero in a kernel traps on the CPU (a GPU gives an
// unspecified value): reported as the kernel's crash, with its block. The
// divisor comes from memory, so the compiler cannot fold the division.
// RUN: not gpumem-run --target=cpu %s 2>&1 | FileCheck %s
// CHECK: gpumem: error: kernel 'main_kernel' crashed (SIGFPE: integer division by zero or overflow) in block (0,0,0){{$}}
// CHECK-NEXT: gpumem: note: in the launch at {{.*}}crash-fpe.mlir:[[@LINE+20]]:3
// CHECK-NEXT: gpumem: note: run again with --sanitize
// Under --sanitize (memcheck) the division is checked: the divisor of
// thread 3 is reported at its line, the division made by 1 instead, and
// the run goes on, the same on every target that runs kernels on host cores.
// RUN: not gpumem-run --target=cpu --sanitize %s 2>&1 | FileCheck %s --check-prefix=CHECKED
// RUN: %if cuda-emu %{ not gpumem-run --target=cuda-emu --sanitize %s 2>&1 | FileCheck %s --check-prefix=CHECKED %}
// RUN: %if rocm-emu %{ not gpumem-run --target=rocm-emu --chip=gfx90a --sanitize=memcheck %s 2>&1 | FileCheck %s --check-prefix=CHECKED %}
// CHECKED: gpumem: sanitizer: integer division by zero in kernel 'main_kernel', block (0,0,0) thread (3,0,0)
// CHECKED-NEXT:   at {{.*}}crash-fpe.mlir:[[@LINE+16]]:10: %q = arith.divsi %c3, %d : i32
// CHECKED-NEXT:   arith.divsi of i32: the divisor is 0, which traps on a CPU and gives an unspecified value on a GPU; the division was made by 1 instead
// CHECKED-NEXT: gpumem: sanitizer: ERROR SUMMARY: 1 error
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %buf = gpu.alloc () : memref<4xi32>
  %three = memref.alloc() : memref<1xi32>
  %c3_host = arith.constant 3 : i32
  memref.store %c3_host, %three[%c0] : memref<1xi32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    %t = arith.index_cast %tx : index to i32
    %c3 = memref.load %three[%c0] : memref<1xi32>
    %d = arith.subi %t, %c3 : i32
    %q = arith.divsi %c3, %d : i32
    memref.store %q, %buf[%tx] : memref<4xi32>
    gpu.terminator
  }
  return
}
