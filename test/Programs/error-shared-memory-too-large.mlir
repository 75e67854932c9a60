// RUN: not gpumem-run --target=cpu %s 2>&1 | FileCheck %s --match-full-lines --strict-whitespace
// RUN: %if cuda-emu %{ not gpumem-run --target=cuda-emu %s 2>&1 | FileCheck %s --check-prefix=EMU --match-full-lines --strict-whitespace %}
// EMU:gpumem: error: kernel 'main_kernel' asks for 240000 bytes of shared memory (0 static + 240000 dynamic); the device allows at most 232448 per block
// EMU-NEXT:gpumem: note: in the launch at {{.*}}error-shared-memory-too-large.mlir:[[@LINE+19]]:3
// EMU-NOT:{{.}}

// A dynamic-size workgroup buffer of 60000 f32 (240000 bytes, a size the
// host computes at run time) is more shared memory than any NVIDIA GPU
// gives a block (232448 bytes on sm_90). The cpu target refuses the launch
// as a GPU would, instead of giving the block a buffer no GPU could.

// CHECK:gpumem: error: kernel 'main_kernel': a block needs 240000 bytes of shared memory (0 static, 240000 dynamic); the cpu target allows at most 232448, like the largest NVIDIA GPU (sm_90)
// CHECK-NEXT:gpumem: note: in the launch at {{.*}}error-shared-memory-too-large.mlir:[[@LINE+10]]:3
// CHECK-NOT:{{.}}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cfg = memref.alloc() : memref<1xindex>
  %c60000 = arith.constant 60000 : index
  memref.store %c60000, %cfg[%c0] : memref<1xindex>
  %n = memref.load %cfg[%c0] : memref<1xindex>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %a = memref.alloca(%n) : memref<?xf32, #gpu.address_space<workgroup>>
    %z = arith.constant 0.0 : f32
    memref.store %z, %a[%tx] : memref<?xf32, #gpu.address_space<workgroup>>
    gpu.terminator
  }
  vector.print str "never printed\n"
  memref.dealloc %cfg : memref<1xindex>
  return
}
