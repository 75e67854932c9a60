// Without --sanitize, a kernel's store past the end of device memory (here
// a buffer of 0 bytes) lands in the guard after the allocation's own
// mapping and is reported as the kernel's crash, naming the buffer, how far
// past its end and where it was allocated, on every target that runs
// device code on CPU cores: never the host heap corrupted (which once made
// such a program exit 0, abort in glibc or hang, by chance). Thread 0's
// store at index 0 lands in the allocation's own padding; thread 1's,
// 20000 bytes on, faults.
// RUN: not gpumem-run --target=cpu %s 2>&1 | FileCheck %s --check-prefixes=CHECK,CPU
// RUN: %if cuda-emu %{ not gpumem-run --target=cuda-emu %s 2>&1 | FileCheck %s --check-prefixes=CHECK,EMU %}
// RUN: not gpumem-run --target=rocm-emu %s 2>&1 | FileCheck %s --check-prefixes=CHECK,EMU
// CPU: gpumem: error: kernel 'main_kernel' crashed (SIGSEGV: invalid memory access at 0x{{[0-9a-f]+}}, 20000 bytes past the end of device memory of 0 bytes, allocated at {{.*}}crash-device-store-past-end.mlir:[[@LINE+8]]:8) in block (0,0,0){{$}}
// EMU: gpumem: error: kernel 'main_kernel' crashed (SIGSEGV: invalid memory access at 0x{{[0-9a-f]+}}, 20000 bytes past the end of device memory of 0 bytes, allocated at {{.*}}crash-device-store-past-end.mlir:[[@LINE+7]]:8) in block (0,0,0) thread (1,0,0)
// CHECK-NEXT: gpumem: note: in the launch at {{.*}}crash-device-store-past-end.mlir:[[@LINE+8]]:3
// CHECK-NEXT: gpumem: note: run again with --sanitize to find the access or operation that caused it
// CHECK-NOT: PLEASE
func.func @main() {
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %d = gpu.alloc() : memref<0xf32>
  %e = gpu.alloc() : memref<16xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %k = arith.constant 5000 : index
    %i = arith.muli %tx, %k : index
    %v = arith.constant 1.0 : f32
    memref.store %v, %d[%i] : memref<0xf32>
    gpu.terminator
  }
  gpu.dealloc %d : memref<0xf32>
  gpu.dealloc %e : memref<16xf32>
  return
}
