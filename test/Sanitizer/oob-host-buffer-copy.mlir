// memcheck, one planted bug: a read one element past the end of a host
// buffer (a memref.alloc the kernel uses). Under --host-buffers=copy, the
// default, the kernel reads a device copy that gpumem-host-buffers-to-device
// allocates at the launch; the report names where the user allocated the
// buffer, the memref.alloc, not the launch.
// RUN: not gpumem-run --target=cpu --sanitize %s 2>&1 | FileCheck %s
// RUN: %if cuda-emu %{ not gpumem-run --target=cuda-emu --sanitize %s 2>&1 | FileCheck %s %}
func.func @main() {
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %in = memref.alloc() : memref<8xf32>
  %out = memref.alloc() : memref<8xf32>
  %f = arith.constant 1.0 : f32
  scf.for %i = %c1 to %c8 step %c1 {
    memref.store %f, %in[%i] : memref<8xf32>
  }
  %c0 = arith.constant 0 : index
  memref.store %f, %in[%c0] : memref<8xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1) {
    // Element tx + 1: past the end for the last thread.
    %next = arith.addi %tx, %c1 : index
    %v = memref.load %in[%next] : memref<8xf32>
    memref.store %v, %out[%tx] : memref<8xf32>
    gpu.terminator
  }
  %r = memref.load %out[%c0] : memref<8xf32>
  vector.print %r : f32
  memref.dealloc %in : memref<8xf32>
  memref.dealloc %out : memref<8xf32>
  return
}

// CHECK: gpumem: sanitizer: out-of-bounds load from memref<8xf32> in kernel 'main_kernel', block (0,0,0) thread (7,0,0)
// CHECK-NEXT:   at {{.*}}oob-host-buffer-copy.mlir:23:10: %v = memref.load %in[%next] : memref<8xf32>
// CHECK-NEXT:   index 8 of dimension 0 is outside 0..7
// CHECK-NEXT:   the memref views device memory of 32 bytes from byte 0, allocated at {{.*}}oob-host-buffer-copy.mlir:11:9: %in = memref.alloc() : memref<8xf32>

