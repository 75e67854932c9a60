// Without --sanitize, a store far past a block's workgroup memory lands in
// a guard around the arena and is reported as the kernel's crash, with how
// far past the workgroup memory it was, instead of writing into the
// runtime's heap (which used to corrupt it: glibc aborted, then the process
// hung). The process ends by itself with exit code 1. Thread 0 stores 4 KiB
// past its 256 bytes of workgroup memory, at an index the host computes.
// RUN: not gpumem-run --target=cpu %s 2>&1 | FileCheck %s
// RUN: %if cuda-emu %{ not gpumem-run --target=cuda-emu %s 2>&1 | FileCheck %s %}
// CHECK: gpumem: error: kernel 'main_kernel' crashed (SIGSEGV: invalid memory access at 0x{{[0-9a-f]+}}, 4096 bytes past the block's 256 bytes of workgroup memory) in block (0,0,0)
// CHECK: gpumem: note: in the launch at {{.*}}crash-workgroup-overflow.mlir:[[@LINE+12]]:3
// CHECK-NEXT: gpumem: note: run again with --sanitize to find the access or operation that caused it
// CHECK-NOT: PLEASE
// CHECK-NOT: malloc
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %far = arith.constant 1088 : index
  %in = memref.alloc() : memref<1xindex>
  memref.store %far, %in[%c0] : memref<1xindex>
  %out = memref.alloc() : memref<32xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %k0 = arith.constant 0 : index
    %f = arith.constant 1.0 : f32
    %tile = memref.alloca() : memref<64xf32, #gpu.address_space<workgroup>>
    memref.store %f, %tile[%tx] : memref<64xf32, #gpu.address_space<workgroup>>
    %first = arith.cmpi eq, %tx, %k0 : index
    scf.if %first {
      %i = memref.load %in[%k0] : memref<1xindex>
      memref.store %f, %tile[%i] : memref<64xf32, #gpu.address_space<workgroup>>
    }
    gpu.barrier
    %v = memref.load %tile[%tx] : memref<64xf32, #gpu.address_space<workgroup>>
    memref.store %v, %out[%tx] : memref<32xf32>
    gpu.terminator
  }
  return
}
