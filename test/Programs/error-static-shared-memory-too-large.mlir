// RUN: not gpumem-run --target=cpu %s 2>&1 | FileCheck %s --check-prefixes=CHECK,CPU
// RUN: %if vulkan %{ not gpumem-run --target=vulkan %s 2>&1 | FileCheck %s --check-prefixes=CHECK,VULKAN %}
// RUN: %if cuda-emu %{ not gpumem-run --target=cuda-emu %s 2>&1 | FileCheck %s --check-prefix=EMU %}

// A 400 KB static workgroup buffer is more than a block may have on any
// target: the cpu target's 232448 bytes (sm_90's, as the cpu runtime
// enforces) or the vulkan target's max-shared-memory (32768 by default).
// Its size is known when the program is compiled, so the program is
// rejected then, at the launch, with a note at the buffer, and nothing runs.
// (error-shared-memory-too-large.mlir has a size known only at run time.)

// CPU:{{.*}}error-static-shared-memory-too-large.mlir:[[#@LINE+11]]:3: error: 'gpu.launch_func' op launches kernel 'main_kernel' with 409600 bytes of static workgroup memory; the cpu target allows at most 232448 per block
// VULKAN:{{.*}}error-static-shared-memory-too-large.mlir:[[#@LINE+10]]:3: error: 'gpu.launch_func' op launches kernel 'main_kernel' with 409600 bytes of static workgroup memory; the vulkan target allows at most 32768 per block (the pipeline's max-shared-memory)
// CHECK:{{.*}}error-static-shared-memory-too-large.mlir:[[#@LINE+11]]:10: note: the largest static workgroup buffer, 409600 bytes of 'memref<102400xf32, #gpu.address_space<workgroup>>'
// EMU:{{.*}}error-static-shared-memory-too-large.mlir:[[#@LINE+8]]:3: error: 'gpu.func' op uses 409600 bytes of workgroup memory; sm_90 allows at most 232448 per block
// CHECK-NOT:before
// EMU-NOT:before

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  vector.print str "before\n"
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %a = memref.alloca() : memref<102400xf32, #gpu.address_space<workgroup>>
    %z = arith.constant 0.0 : f32
    memref.store %z, %a[%tx] : memref<102400xf32, #gpu.address_space<workgroup>>
    gpu.terminator
  }
  vector.print str "not reached\n"
  return
}
