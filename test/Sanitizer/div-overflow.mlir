// memcheck, planted bugs: the smallest i32 divided by -1 (which traps on a
// CPU like a division by zero) and an unsigned remainder by an index that
// is 0 for thread 0. Each is reported at its line, made by 1 instead, and
// the kernel goes on; the program prints what the divisions gave.
// RUN: not gpumem-run --target=cpu --sanitize=memcheck %s 2>&1 | FileCheck %s
// RUN: %if cuda-emu %{ not gpumem-run --target=cuda-emu --sanitize %s 2>&1 | FileCheck %s %}
// RUN: %if rocm-emu %{ not gpumem-run --target=rocm-emu --chip=gfx1100 --sanitize %s 2>&1 | FileCheck %s %}
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %out = gpu.alloc host_shared () : memref<4xi32>
  %rest = gpu.alloc host_shared () : memref<4xindex>
  %in = gpu.alloc host_shared () : memref<2xi32>
  %min = arith.constant -2147483648 : i32
  %minus = arith.constant -1 : i32
  memref.store %min, %in[%c0] : memref<2xi32>
  memref.store %minus, %in[%c1] : memref<2xi32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    %a = memref.load %in[%c0] : memref<2xi32>
    %b = memref.load %in[%c1] : memref<2xi32>
    %q = arith.divsi %a, %b : i32
    memref.store %q, %out[%tx] : memref<4xi32>
    %r = arith.remui %c2, %tx : index
    memref.store %r, %rest[%tx] : memref<4xindex>
    gpu.terminator
  }
  %v0 = memref.load %out[%c0] : memref<4xi32>
  %r0 = memref.load %rest[%c0] : memref<4xindex>
  %r1 = memref.load %rest[%c1] : memref<4xindex>
  vector.print %v0 : i32
  vector.print %r0 : index
  vector.print %r1 : index
  return
}

// CHECK: gpumem: sanitizer: integer division overflow in kernel 'main_kernel', block (0,0,0) thread (0,0,0)
// CHECK-NEXT:   at {{.*}}div-overflow.mlir:24:10: %q = arith.divsi %a, %b : i32
// CHECK-NEXT:   arith.divsi of i32: the smallest signed value divided by -1, which traps on a CPU and gives an unspecified value on a GPU; the division was made by 1 instead
// CHECK: gpumem: sanitizer: integer division by zero in kernel 'main_kernel', block (0,0,0) thread (0,0,0)
// CHECK-NEXT:   at {{.*}}div-overflow.mlir:26:10: %r = arith.remui %c2, %tx : index
// CHECK-NEXT:   arith.remui of index: the divisor is 0, which traps on a CPU and gives an unspecified value on a GPU; the division was made by 1 instead
// CHECK: -2147483648
// CHECK-NEXT: 0
// CHECK-NEXT: 0
// CHECK-NEXT: gpumem: sanitizer: the integer division overflow at {{.*}}div-overflow.mlir:24:10 happened 4 times
// CHECK-NEXT: gpumem: sanitizer: ERROR SUMMARY: 5 errors
