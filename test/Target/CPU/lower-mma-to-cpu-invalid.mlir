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
