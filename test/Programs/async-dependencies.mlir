// RUN: gpumem-run --target=cpu %s | FileCheck %s --match-full-lines --strict-whitespace
// RUN: %if cuda-emu %{ gpumem-run --target=cuda-emu %s | FileCheck %s --match-full-lines --strict-whitespace %}
// RUN: %if vulkan %{ gpumem-run --target=vulkan %s | FileCheck %s --match-full-lines --strict-whitespace %}
// RUN: %if cuda %{ gpumem-run --target=cuda %s | FileCheck %s --match-full-lines --strict-whitespace %}

// Asynchronous ops with no dependency, or with several, are valid gpu
// dialect: the op may start once all its dependencies are done. Upstream's
// gpu-to-llvm lowers only ops with exactly one; gpumem gives each such op
// a stream that waits for all of them. An allocation with no dependency,
// a launch and a copy that each wait for two tokens, a fill with none and
// a free that waits for three; then a launch with none.

// CHECK:( 0, 1, 2, 3 )
// CHECK-NEXT:( 7, 7, 7, 7 )
// CHECK-NEXT:done
// CHECK-NOT:{{.}}
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %seven = arith.constant 7.0 : f32
  %h = memref.alloc() : memref<4xf32>
  %h2 = memref.alloc() : memref<4xf32>
  %a = gpu.wait async
  %b = gpu.wait async
  %m, %t1 = gpu.alloc async () : memref<4xf32>
  %n, %t2 = gpu.alloc async [%a] () : memref<4xf32>
  %t3 = gpu.launch async [%t1, %b] blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    %i = arith.index_cast %tx : index to i32
    %f = arith.sitofp %i : i32 to f32
    memref.store %f, %m[%tx] : memref<4xf32>
    gpu.terminator
  }
  %t4 = gpu.memcpy async [%t3, %b] %h, %m : memref<4xf32>, memref<4xf32>
  %t5 = gpu.memset async %n, %seven : memref<4xf32>, f32
  %t6 = gpu.memcpy async [%t5, %t2] %h2, %n : memref<4xf32>, memref<4xf32>
  %t7 = gpu.dealloc async [%t4, %t6, %a] %m : memref<4xf32>
  %t8 = gpu.dealloc async [%t6] %n : memref<4xf32>
  gpu.wait [%t7, %t8]
  %v = vector.transfer_read %h[%c0], %seven : memref<4xf32>, vector<4xf32>
  vector.print %v : vector<4xf32>
  %v2 = vector.transfer_read %h2[%c0], %seven : memref<4xf32>, vector<4xf32>
  vector.print %v2 : vector<4xf32>
  %t9 = gpu.launch async blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    gpu.terminator
  }
  gpu.wait [%t9]
  vector.print str "done\n"
  return
}
