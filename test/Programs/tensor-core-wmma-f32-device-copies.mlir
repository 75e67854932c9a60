// RUN: gpumem-run --target=cpu %s | FileCheck %s --match-full-lines --strict-whitespace
// RUN: %if cuda-emu %{ gpumem-run --target=cuda-emu %s | FileCheck %s --match-full-lines --strict-whitespace %}
// RUN: %if cuda-emu %{ gpumem-run --target=cuda-emu --sanitize %s | FileCheck %s --match-full-lines --strict-whitespace %}

// The counterpart of upstream's TensorCore/wmma-matmul-f32-bare-ptr test:
// the same 16x16x16 matmul of f16 inputs into an f32 accumulator on one
// warp, with statically shaped memrefs that reach the device through
// gpu.alloc and gpu.memcpy on an async token chain instead of
// host-registered memory. (Upstream's test is about its bare-pointer
// calling convention; gpumem's kernels take their own ABI, so what is left
// to test is the program.) A is all ones and C starts at zero, so every
// element of C = A * A + C is 16, as on the GPU.

// CHECK:( 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16 )
// CHECK-COUNT-15:( 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16 )
// CHECK-NEXT:sum: 4096

func.func @main() {
  %h0 = memref.alloc() : memref<16x16xf16>
  %hout = memref.alloc() : memref<16x16xf32>
  %one = arith.constant 1.0 : f16
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  scf.for %i = %c0 to %c16 step %c1 {
    scf.for %j = %c0 to %c16 step %c1 {
      memref.store %one, %h0[%i, %j] : memref<16x16xf16>
      memref.store %zero, %hout[%i, %j] : memref<16x16xf32>
    }
  }

  %t0 = gpu.wait async
  %d0, %t1 = gpu.alloc async [%t0] () : memref<16x16xf16>
  %dout, %t2 = gpu.alloc async [%t1] () : memref<16x16xf32>
  %t3 = gpu.memcpy async [%t2] %d0, %h0 : memref<16x16xf16>, memref<16x16xf16>
  %t4 = gpu.memcpy async [%t3] %dout, %hout : memref<16x16xf32>, memref<16x16xf32>
  %t5 = gpu.launch async [%t4]
      blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
      threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %a = gpu.subgroup_mma_load_matrix %d0[%c0, %c0] {leadDimension = 16 : index}
        : memref<16x16xf16> -> !gpu.mma_matrix<16x16xf16, "AOp">
    %b = gpu.subgroup_mma_load_matrix %d0[%c0, %c0] {leadDimension = 16 : index}
        : memref<16x16xf16> -> !gpu.mma_matrix<16x16xf16, "BOp">
    %c = gpu.subgroup_mma_load_matrix %dout[%c0, %c0] {leadDimension = 16 : index}
        : memref<16x16xf32> -> !gpu.mma_matrix<16x16xf32, "COp">
    %d = gpu.subgroup_mma_compute %a, %b, %c
        : !gpu.mma_matrix<16x16xf16, "AOp">, !gpu.mma_matrix<16x16xf16, "BOp">
        -> !gpu.mma_matrix<16x16xf32, "COp">
    gpu.subgroup_mma_store_matrix %d, %dout[%c0, %c0] {leadDimension = 16 : index}
        : !gpu.mma_matrix<16x16xf32, "COp">, memref<16x16xf32>
    gpu.terminator
  }
  %t6 = gpu.memcpy async [%t5] %hout, %dout : memref<16x16xf32>, memref<16x16xf32>
  %t7 = gpu.dealloc async [%t6] %d0 : memref<16x16xf16>
  %t8 = gpu.dealloc async [%t7] %dout : memref<16x16xf32>
  gpu.wait [%t8]

  %sum = scf.for %i = %c0 to %c16 step %c1 iter_args(%s = %zero) -> f32 {
    %row = vector.transfer_read %hout[%i, %c0], %zero : memref<16x16xf32>, vector<16xf32>
    vector.print %row : vector<16xf32>
    %r = vector.reduction <add>, %row : vector<16xf32> into f32
    %n = arith.addf %s, %r : f32
    scf.yield %n : f32
  }
  vector.print str "sum: "
  vector.print %sum : f32
  memref.dealloc %h0 : memref<16x16xf16>
  memref.dealloc %hout : memref<16x16xf32>
  return
}
