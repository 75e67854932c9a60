// RUN: gpumem-opt %s -split-input-file -pass-pipeline='builtin.module(gpu.module(gpumem-lower-gpu-to-cpu-abi))' -verify-diagnostics

// A fragment may flow through scf only, not through a call.
gpu.module @kernels {
  // expected-error @+1 {{'func.func' op carries a !gpu.mma_matrix or async token value, which the cpu target supports only in scf.for, scf.if and scf.while}}
  func.func @use(%m: !gpu.mma_matrix<16x16xf32, "COp">) {
    return
  }
  gpu.func @call() kernel {
    %zero = arith.constant 0.0 : f32
    %m = gpu.subgroup_mma_constant_matrix %zero : !gpu.mma_matrix<16x16xf32, "COp">
    func.call @use(%m) : (!gpu.mma_matrix<16x16xf32, "COp">) -> ()
    gpu.return
  }
}

// -----

// The per-lane elements of a fragment depend on a layout the cpu target does
// not promise.
gpu.module @kernels {
  gpu.func @thread_local(%out: memref<1xf32>) kernel {
    %c0 = arith.constant 0 : index
    %zero = arith.constant 0.0 : f32
    %m = gpu.subgroup_mma_constant_matrix %zero : !gpu.mma_matrix<16x16xf32, "COp">
    // expected-error @+1 {{'gpu.subgroup_mma_extract_thread_local' op carries a !gpu.mma_matrix or async token value, which the cpu target supports only in scf.for, scf.if and scf.while}}
    %v = gpu.subgroup_mma_extract_thread_local %m[%c0] : !gpu.mma_matrix<16x16xf32, "COp"> -> f32
    memref.store %v, %out[%c0] : memref<1xf32>
    gpu.return
  }
}

// -----

// A fragment far larger than any tensor core's (a mutant of the fuzzer made
// this one) would be a vector of a million elements in every lane.
gpu.module @kernels {
  gpu.func @huge(%a: memref<1024x1024xf16>) kernel {
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{'gpu.subgroup_mma_load_matrix' op uses a 1024x1024 matrix fragment; the cpu target takes fragments of at most 64x64 (tensor cores' are 32x32 at most)}}
    %x = gpu.subgroup_mma_load_matrix %a[%c0, %c0] {leadDimension = 1024 : index} : memref<1024x1024xf16> -> !gpu.mma_matrix<1024x1024xf16, "AOp">
    gpu.return
  }
}
