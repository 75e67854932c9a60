// RUN: gpumem-opt %s -split-input-file -verify-diagnostics -pass-pipeline='builtin.module(gpu.module(gpumem-lower-warp-matrix-ops-to-shuffles))'

// Shapes and types the rewrite does not implement are errors at the op
// (decision 148): here int4 mma.sync (m16n8k64).

gpu.module @kernels {
  gpu.func @int4(%a: vector<4x8xi4>, %b: vector<2x8xi4>, %c: vector<2x2xi32>, %out: memref<2x2xi32>) kernel {
    %c0 = arith.constant 0 : index
    // expected-error @below {{'nvgpu.mma.sync' op of 'vector<4x8xi4>' x 'vector<2x8xi4>' -> 'vector<2x2xi32>' (mmaShape [16, 8, 64]) is not supported by the cpu target (f16 m16n8k16/m16n8k8, tf32 m16n8k8/m16n8k4, f64 m8n8k4, s8 m16n8k32/m16n8k16)}}
    %d = nvgpu.mma.sync (%a, %b, %c) {mmaShape = [16, 8, 64]} : (vector<4x8xi4>, vector<2x8xi4>, vector<2x2xi32>) -> vector<2x2xi32>
    %x = vector.extract %d[0] : vector<2xi32> from vector<2x2xi32>
    vector.store %x, %out[%c0, %c0] : memref<2x2xi32>, vector<2xi32>
    gpu.return
  }
}

// -----

// ldmatrix rows must be contiguous in the memref's last dimension.

gpu.module @kernels {
  gpu.func @strided(%m: memref<16x16xf16, strided<[1, 16]>, #gpu.address_space<workgroup>>, %row: index, %out: memref<2xf16>) kernel {
    %c0 = arith.constant 0 : index
    // expected-error @below {{'nvgpu.ldmatrix' op from a memref whose last dimension is not contiguous is not supported by the cpu target}}
    %a = nvgpu.ldmatrix %m[%row, %c0] {numTiles = 1 : i32, transpose = false} : memref<16x16xf16, strided<[1, 16]>, #gpu.address_space<workgroup>> -> vector<1x2xf16>
    %x = vector.extract %a[0] : vector<2xf16> from vector<1x2xf16>
    vector.store %x, %out[%c0] : memref<2xf16>, vector<2xf16>
    gpu.return
  }
}
