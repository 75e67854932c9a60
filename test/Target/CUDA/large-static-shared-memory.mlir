// A kernel with 64 KiB of static workgroup memory: over NVIDIA's 48 KiB
// static limit, which made ptxas fail ("uses too much shared data"). gpumem
// moves it into dynamic shared memory: no static .shared buffer is left,
// ptxas accepts the kernel (0 bytes static), and the launch asks for the
// 65536 bytes, which the CUDA runtime opts the kernel into.

// RUN: gpumem-opt %s --gpumem-cuda-pipeline="chip=sm_90 format=isa" | FileCheck %s --check-prefix=HOST
// RUN: gpumem-opt %s --gpumem-cuda-pipeline="chip=sm_90 format=isa" | gpumem-objects ptx - | FileCheck %s
// RUN: %if ptxas %{ gpumem-opt %s --gpumem-cuda-pipeline="chip=sm_90 format=isa" | gpumem-objects smem - | FileCheck %s --check-prefix=SMEM %}
// 64 KiB fits sm_86's 101376-byte maximum per block; 128 KiB does not and
// is a compile-time error.
// RUN: gpumem-opt %s --gpumem-cuda-pipeline="chip=sm_86 format=isa" -o /dev/null
// RUN: not gpumem-opt %S/Inputs/too-much-shared-memory.mlir --gpumem-cuda-pipeline="chip=sm_86 format=isa" 2>&1 | FileCheck %s --check-prefix=TOOMUCH

// HOST: %[[BYTES:.*]] = llvm.mlir.constant(65536 : i32) : i32
// HOST: gpu.launch_func @main_kernel::@main_kernel {{.*}} dynamic_shared_memory_size %[[BYTES]]

// CHECK: .extern .shared .align 16 .b8 __dynamic_shmem__0[];
// CHECK-NOT: .shared .align {{[0-9]+}} .b8 __wg

// SMEM: main_kernel::main_kernel: 0 bytes shared memory (ptxas -v, sm_90)

// TOOMUCH: too-much-shared-memory.mlir:4:3: error: 'gpu.func' op uses 131072 bytes of workgroup memory; sm_86 allows at most 101376 per block

func.func @main(%out: memref<16384xf32>) {
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
    %big = memref.alloca() : memref<16384xf32, 3>
    %v = memref.load %out[%tx] : memref<16384xf32>
    memref.store %v, %big[%tx] : memref<16384xf32, 3>
    gpu.barrier
    %c255 = arith.constant 255 : index
    %r = arith.subi %c255, %tx : index
    %w = memref.load %big[%r] : memref<16384xf32, 3>
    memref.store %w, %out[%tx] : memref<16384xf32>
    gpu.terminator
  }
  return
}
