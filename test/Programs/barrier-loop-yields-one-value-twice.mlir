// RUN: gpumem-run --target=cpu %s | FileCheck %s --match-full-lines --strict-whitespace
// RUN: %if cuda-emu %{ gpumem-run --target=cuda-emu %s | FileCheck %s --match-full-lines --strict-whitespace %}
// RUN: %if vulkan %{ gpumem-run --target=vulkan %s | FileCheck %s --match-full-lines --strict-whitespace %}
// RUN: %if cuda %{ gpumem-run --target=cuda %s | FileCheck %s --match-full-lines --strict-whitespace %}

// A loop with barriers that yields one per-thread value for two carried
// values with different starts (p = 1 + tx, q = 1). Thread tx: step 0
// gives s = p + q = 2 + tx, step 1 gives s = s + s = 4 + 2tx, and it
// prints p + q = 8 + 4tx. The cpu target's thread-loop fission once kept
// both carried values in one array and printed ( 4, 7, 10, 13 ); it now
// leaves such a kernel to fibers.

// CHECK:( 8, 12, 16, 20 )
// CHECK-NOT:{{.}}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %out = memref.alloc() : memref<4xf32>
  %one = arith.constant 1.0 : f32
  scf.for %i = %c0 to %c4 step %c1 {
    memref.store %one, %out[%i] : memref<4xf32>
  }
  %u = memref.cast %out : memref<4xf32> to memref<*xf32>
  gpu.host_register %u : memref<*xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    %a = memref.alloca() : memref<4xf32, 3>
    %c2 = arith.constant 2 : index
    %v0f = memref.load %out[%tx] : memref<4xf32>
    %txi = arith.index_cast %tx : index to i32
    %txf = arith.sitofp %txi : i32 to f32
    %v0 = arith.addf %v0f, %txf : f32
    %r:2 = scf.for %i = %c0 to %c2 step %c1 iter_args(%p = %v0, %q = %one) -> (f32, f32) {
      memref.store %p, %a[%tx] : memref<4xf32, 3>
      gpu.barrier
      %w = memref.load %a[%tx] : memref<4xf32, 3>
      %s = arith.addf %w, %q : f32
      gpu.barrier
      scf.yield %s, %s : f32, f32
    }
    %t = arith.addf %r#0, %r#1 : f32
    memref.store %t, %out[%tx] : memref<4xf32>
    gpu.terminator
  }
  %v = vector.load %out[%c0] : memref<4xf32>, vector<4xf32>
  vector.print %v : vector<4xf32>
  return
}
