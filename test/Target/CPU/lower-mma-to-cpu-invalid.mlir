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
    // expected-error @+1 {{'gpu.subgroup_mma_load_matrix' op uses a 1024x1024 matrix fragment; the cpu target takes fragments of 1 to 32 rows and columns, as tensor cores have them}}
    %x = gpu.subgroup_mma_load_matrix %a[%c0, %c0] {leadDimension = 1024 : index} : memref<1024x1024xf16> -> !gpu.mma_matrix<1024x1024xf16, "AOp">
    gpu.return
  }
}

// -----

// An empty fragment has no share for any lane.
gpu.module @kernels {
  gpu.func @empty(%a: memref<16x0xf32>) kernel {
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{'gpu.subgroup_mma_load_matrix' op uses a 16x0 matrix fragment; the cpu target takes fragments of 1 to 32 rows and columns, as tensor cores have them}}
    %x = gpu.subgroup_mma_load_matrix %a[%c0, %c0] {leadDimension = 8 : index} : memref<16x0xf32> -> !gpu.mma_matrix<16x0xf32, "AOp">
    gpu.return
  }
}

// -----

// Each lane's share of an accumulator is a segment of one row; 24x24 has 18
// elements a lane, which do not divide its 24 columns.
gpu.module @kernels {
  gpu.func @odd(%c: memref<24x24xf32>) kernel {
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{'gpu.subgroup_mma_load_matrix' op uses a 24x24 accumulator fragment; on the cpu target each lane holds a segment of a row, so 32 must divide its elements and each lane's share its columns (16x16, 32x8, 8x32 and 8x8 do)}}
    %z = gpu.subgroup_mma_load_matrix %c[%c0, %c0] {leadDimension = 24 : index} : memref<24x24xf32> -> !gpu.mma_matrix<24x24xf32, "COp">
    gpu.return
  }
}

// -----

// A leading dimension whose products overflow the index arithmetic (a
// mutant of the fuzzer).
gpu.module @kernels {
  gpu.func @wide(%a: memref<16x16xf16>) kernel {
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{'gpu.subgroup_mma_load_matrix' op has leadDimension 9223372036854775807; the cpu target takes at most 2147483647}}
    %x = gpu.subgroup_mma_load_matrix %a[%c0, %c0] {leadDimension = 9223372036854775807 : index} : memref<16x16xf16> -> !gpu.mma_matrix<16x16xf16, "AOp">
    gpu.return
  }
}
