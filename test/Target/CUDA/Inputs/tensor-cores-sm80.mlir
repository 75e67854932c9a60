// What sm_80 adds at its minimum PTX (7.0): tf32, f64 and s8 wmma matrices,
// nvgpu's warp-level mma and ldmatrix, asynchronous copies and mbarriers.
!barrier = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
gpu.module @ampere {
  gpu.func @tf32(%a: memref<16x8xf32>, %b: memref<8x16xf32>, %c: memref<16x16xf32>) kernel {
    %c0 = arith.constant 0 : index
    %x = gpu.subgroup_mma_load_matrix %a[%c0, %c0] {leadDimension = 8 : index} : memref<16x8xf32> -> !gpu.mma_matrix<16x8xf32, "AOp">
    %y = gpu.subgroup_mma_load_matrix %b[%c0, %c0] {leadDimension = 16 : index} : memref<8x16xf32> -> !gpu.mma_matrix<8x16xf32, "BOp">
    %z = gpu.subgroup_mma_load_matrix %c[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf32> -> !gpu.mma_matrix<16x16xf32, "COp">
    %r = gpu.subgroup_mma_compute %x, %y, %z : !gpu.mma_matrix<16x8xf32, "AOp">, !gpu.mma_matrix<8x16xf32, "BOp"> -> !gpu.mma_matrix<16x16xf32, "COp">
    gpu.subgroup_mma_store_matrix %r, %c[%c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xf32, "COp">, memref<16x16xf32>
    gpu.return
  }
  gpu.func @f64(%a: memref<8x4xf64>, %b: memref<4x8xf64>, %c: memref<8x8xf64>) kernel {
    %c0 = arith.constant 0 : index
    %x = gpu.subgroup_mma_load_matrix %a[%c0, %c0] {leadDimension = 4 : index} : memref<8x4xf64> -> !gpu.mma_matrix<8x4xf64, "AOp">
    %y = gpu.subgroup_mma_load_matrix %b[%c0, %c0] {leadDimension = 8 : index} : memref<4x8xf64> -> !gpu.mma_matrix<4x8xf64, "BOp">
    %z = gpu.subgroup_mma_load_matrix %c[%c0, %c0] {leadDimension = 8 : index} : memref<8x8xf64> -> !gpu.mma_matrix<8x8xf64, "COp">
    %r = gpu.subgroup_mma_compute %x, %y, %z : !gpu.mma_matrix<8x4xf64, "AOp">, !gpu.mma_matrix<4x8xf64, "BOp"> -> !gpu.mma_matrix<8x8xf64, "COp">
    gpu.subgroup_mma_store_matrix %r, %c[%c0, %c0] {leadDimension = 8 : index} : !gpu.mma_matrix<8x8xf64, "COp">, memref<8x8xf64>
    gpu.return
  }
  gpu.func @s8(%a: memref<16x16xi8>, %c: memref<16x16xi32>) kernel {
    %c0 = arith.constant 0 : index
    %x = gpu.subgroup_mma_load_matrix %a[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xi8> -> !gpu.mma_matrix<16x16xsi8, "AOp">
    %y = gpu.subgroup_mma_load_matrix %a[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xi8> -> !gpu.mma_matrix<16x16xsi8, "BOp">
    %z = gpu.subgroup_mma_load_matrix %c[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xi32> -> !gpu.mma_matrix<16x16xi32, "COp">
    %r = gpu.subgroup_mma_compute %x, %y, %z : !gpu.mma_matrix<16x16xsi8, "AOp">, !gpu.mma_matrix<16x16xsi8, "BOp"> -> !gpu.mma_matrix<16x16xi32, "COp">
    gpu.subgroup_mma_store_matrix %r, %c[%c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xi32, "COp">, memref<16x16xi32>
    gpu.return
  }
  gpu.func @mma_sync(%o: memref<2xf32>) workgroup(%s: memref<128x128xf16, 3>) kernel {
    %c0 = arith.constant 0 : index
    %a = nvgpu.ldmatrix %s[%c0, %c0] {transpose = false, numTiles = 4 : i32} : memref<128x128xf16, 3> -> vector<4x2xf16>
    %b = arith.constant dense<1.0> : vector<2x2xf16>
    %c = arith.constant dense<0.0> : vector<2x2xf32>
    %d = nvgpu.mma.sync (%a, %b, %c) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
    %row = vector.extract %d[0] : vector<2xf32> from vector<2x2xf32>
    vector.store %row, %o[%c0] : memref<2xf32>, vector<2xf32>
    gpu.return
  }
  gpu.func @async(%src: memref<128xf32>, %o: memref<1xi1>) workgroup(%dst: memref<128xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %n = arith.constant 32 : index
    %0 = nvgpu.device_async_copy %src[%c0], %dst[%c0], 4 : memref<128xf32> to memref<128xf32, 3>
    %1 = nvgpu.device_async_create_group %0
    nvgpu.device_async_wait %1 { numGroups = 1 : i32 }
    %b = nvgpu.mbarrier.create -> !barrier
    nvgpu.mbarrier.init %b[%c0], %n : !barrier
    %t = nvgpu.mbarrier.arrive %b[%c0] : !barrier -> !nvgpu.mbarrier.token
    %done = nvgpu.mbarrier.test.wait %b[%c0], %t : !barrier, !nvgpu.mbarrier.token
    memref.store %done, %o[%c0] : memref<1xi1>
    gpu.return
  }
}
