// RUN: gpumem-opt %s -split-input-file -pass-pipeline='builtin.module(gpu.module(gpumem-lower-gpu-to-cpu-abi))' | FileCheck %s --check-prefixes=CHECK,PART
// RUN: gpumem-opt %s -split-input-file -pass-pipeline='builtin.module(gpu.module(gpumem-lower-gpu-to-cpu-abi{whole-fragments}))' | FileCheck %s --check-prefixes=CHECK,WHOLE

// Fragments on the cpu target: a C fragment is the lane's 8 consecutive
// elements, lane * 8 .. lane * 8 + 7, an A fragment the row of A they need
// (one load of 16) and a B fragment their 8 columns of B (a load of 8 per
// row); with whole-fragments (--sanitize) A and B are the whole 16x16
// matrix in every lane (one load when its rows are contiguous). compute
// adds A[r][k] * B[k][c0:c0+8] for each k with 8-wide FMAs in f32. The
// kernel needs no fibers (it has a run_blocks wrapper).

// CHECK: gpu.module @kernels attributes {gpumem.cpu_kernels = [{name = "mma", needs_fibers = false
// CHECK-LABEL: func.func private @__gpumem_kernel_mma(
// CHECK: %[[BASE_A:.*]], %{{.*}}, %{{.*}}:2, %{{.*}}:2 = memref.extract_strided_metadata %arg0
// CHECK: %[[FLAT_A:.*]] = memref.reinterpret_cast %[[BASE_A]] to offset: [%{{.*}}], sizes: [%{{.*}}], strides: [1] : memref<f16> to memref<?xf16, strided<[1], offset: ?>>
// WHOLE: %[[A:.*]] = vector.load %[[FLAT_A]][%{{.*}}] : memref<?xf16, strided<[1], offset: ?>>, vector<256xf16>
// PART: %[[A:.*]] = vector.load %[[FLAT_A]][%{{.*}}] : memref<?xf16, strided<[1], offset: ?>>, vector<16xf16>
// PART-COUNT-16: vector.load %{{.*}} : memref<?xf16, strided<[1], offset: ?>>, vector<8xf16>
// CHECK: %[[FLAT_C:.*]] = memref.reinterpret_cast %{{.*}} : memref<f32> to memref<?xf32, strided<[1], offset: ?>>
// CHECK: arith.remui %{{.*}}, %c32
// CHECK: %[[C:.*]] = vector.load %[[FLAT_C]][%{{.*}}] : memref<?xf32, strided<[1], offset: ?>>, vector<8xf32>
// WHOLE: vector.extract_strided_slice %[[A]] {offsets = [240], sizes = [16], strides = [1]} : vector<256xf16> to vector<16xf16>
// WHOLE: arith.select %{{.*}} : vector<16xf16>
// WHOLE: arith.extf %{{.*}} : vector<16xf16> to vector<16xf32>
// PART: arith.extf %[[A]] : vector<16xf16> to vector<16xf32>
// CHECK: vector.broadcast %{{.*}} : f32 to vector<8xf32>
// WHOLE: vector.extract_strided_slice %{{.*}} {offsets = [8], sizes = [8], strides = [1]} : vector<256xf16> to vector<8xf16>
// PART: vector.extract_strided_slice %{{.*}} {offsets = [0], sizes = [8], strides = [1]} : vector<128xf16> to vector<8xf16>
// CHECK: arith.extf %{{.*}} : vector<8xf16> to vector<8xf32>
// CHECK: vector.fma %{{.*}}, %{{.*}}, %{{.*}} : vector<8xf32>
// CHECK-NOT: gpu.subgroup_mma
// CHECK: return
gpu.module @kernels {
  gpu.func @mma(%a: memref<16x16xf16>, %c: memref<16x16xf32>) kernel {
    %c0 = arith.constant 0 : index
    %fa = gpu.subgroup_mma_load_matrix %a[%c0, %c0] {leadDimension = 16 : index}
        : memref<16x16xf16> -> !gpu.mma_matrix<16x16xf16, "AOp">
    %fb = gpu.subgroup_mma_load_matrix %a[%c0, %c0] {leadDimension = 16 : index}
        : memref<16x16xf16> -> !gpu.mma_matrix<16x16xf16, "BOp">
    %fc = gpu.subgroup_mma_load_matrix %c[%c0, %c0] {leadDimension = 16 : index}
        : memref<16x16xf32> -> !gpu.mma_matrix<16x16xf32, "COp">
    %fd = gpu.subgroup_mma_compute %fa, %fb, %fc
        : !gpu.mma_matrix<16x16xf16, "AOp">, !gpu.mma_matrix<16x16xf16, "BOp">
        -> !gpu.mma_matrix<16x16xf32, "COp">
    gpu.subgroup_mma_store_matrix %fd, %c[%c0, %c0] {leadDimension = 16 : index}
        : !gpu.mma_matrix<16x16xf32, "COp">, memref<16x16xf32>
    gpu.return
  }
}

// -----

// A K loop carries the lane's share of the accumulator as a vector<8xf32>;
// constant_matrix is a splat and elementwise the arith op on the vectors.

// CHECK-LABEL: func.func private @__gpumem_kernel_k_loop(
// CHECK: %[[INIT:.*]] = vector.broadcast %{{.*}} : f32 to vector<8xf32>
// CHECK: %[[ACC:.*]] = scf.for %{{.*}} iter_args(%[[S:.*]] = %[[INIT]]) -> (vector<8xf32>) {
// CHECK:   %[[E:.*]] = arith.maximumf %[[S]], %[[S]] : vector<8xf32>
// CHECK:   scf.yield %[[E]] : vector<8xf32>
// CHECK: vector.store %[[ACC]], %{{.*}}[%{{.*}}] : memref<?xf32, strided<[1], offset: ?>>, vector<8xf32>
gpu.module @kernels {
  gpu.func @k_loop(%c: memref<16x16xf32>, %n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %zero = arith.constant 0.0 : f32
    %init = gpu.subgroup_mma_constant_matrix %zero : !gpu.mma_matrix<16x16xf32, "COp">
    %acc = scf.for %k = %c0 to %n step %c1
        iter_args(%s = %init) -> (!gpu.mma_matrix<16x16xf32, "COp">) {
      %e = gpu.subgroup_mma_elementwise maxf %s, %s
          : (!gpu.mma_matrix<16x16xf32, "COp">, !gpu.mma_matrix<16x16xf32, "COp">)
          -> !gpu.mma_matrix<16x16xf32, "COp">
      scf.yield %e : !gpu.mma_matrix<16x16xf32, "COp">
    }
    gpu.subgroup_mma_store_matrix %acc, %c[%c0, %c0] {leadDimension = 16 : index}
        : !gpu.mma_matrix<16x16xf32, "COp">, memref<16x16xf32>
    gpu.return
  }
}

// -----

// A transposed A fragment: the lane's row is a column in memory, 16 scalar
// loads; whole, its stored rows are A's columns, put in place by one
// shuffle. Integer compute: si8 sign-extends, ui8 zero-extends, i32 sums.

// CHECK-LABEL: func.func private @__gpumem_kernel_int(
// WHOLE: vector.load %{{.*}} : memref<?xi8, strided<[1], offset: ?>>, vector<16xi8>
// WHOLE: vector.shuffle
// PART-COUNT-16: memref.load %{{.*}} : memref<?xi8, strided<[1], offset: ?>>
// PART: vector.load %{{.*}} : memref<?xi8, strided<[1], offset: ?>>, vector<8xi8>
// CHECK: arith.extsi %{{.*}} : vector<16xi8> to vector<16xi32>
// CHECK: arith.extui %{{.*}} : vector<8xi8> to vector<8xi32>
// CHECK: arith.muli %{{.*}} : vector<8xi32>
// CHECK: arith.addi %{{.*}} : vector<8xi32>
gpu.module @kernels {
  gpu.func @int(%a: memref<16x32xi8>, %c: memref<16x16xi32>) kernel {
    %c0 = arith.constant 0 : index
    %fa = gpu.subgroup_mma_load_matrix %a[%c0, %c0] {leadDimension = 32 : index, transpose}
        : memref<16x32xi8> -> !gpu.mma_matrix<16x16xsi8, "AOp">
    %fb = gpu.subgroup_mma_load_matrix %a[%c0, %c0] {leadDimension = 32 : index}
        : memref<16x32xi8> -> !gpu.mma_matrix<16x16xui8, "BOp">
    %fc = gpu.subgroup_mma_load_matrix %c[%c0, %c0] {leadDimension = 16 : index}
        : memref<16x16xi32> -> !gpu.mma_matrix<16x16xi32, "COp">
    %fd = gpu.subgroup_mma_compute %fa, %fb, %fc
        : !gpu.mma_matrix<16x16xsi8, "AOp">, !gpu.mma_matrix<16x16xui8, "BOp">
        -> !gpu.mma_matrix<16x16xi32, "COp">
    gpu.subgroup_mma_store_matrix %fd, %c[%c0, %c0] {leadDimension = 16 : index}
        : !gpu.mma_matrix<16x16xi32, "COp">, memref<16x16xi32>
    gpu.return
  }
}

// -----

// Async copies copy when issued: a load and a store of the 8 elements, a
// masked load that zero-fills past src-elements; tokens become i32 and the
// group and wait ops go away.

// CHECK-LABEL: func.func private @__gpumem_kernel_copy(
// CHECK: %[[V:.*]] = vector.load %arg0[%{{.*}}] : memref<64xf16>, vector<8xf16>
// CHECK: vector.store %[[V]], %{{.*}}[%{{.*}}] : memref<64xf16, #gpu.address_space<workgroup>>, vector<8xf16>
// CHECK: %[[MASK:.*]] = vector.create_mask %arg1 : vector<8xi1>
// CHECK: %[[M:.*]] = vector.maskedload %arg0[%{{.*}}], %[[MASK]], %{{.*}} : memref<64xf16>, vector<8xi1>, vector<8xf16> into vector<8xf16>
// CHECK: vector.store %[[M]], %{{.*}}[%{{.*}}]
// CHECK-NOT: nvgpu.
// CHECK: return
gpu.module @kernels {
  gpu.func @copy(%src: memref<64xf16>, %n: index)
      workgroup(%dst: memref<64xf16, #gpu.address_space<workgroup>>) kernel {
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %t0 = nvgpu.device_async_copy %src[%c0], %dst[%c0], 8
        : memref<64xf16> to memref<64xf16, #gpu.address_space<workgroup>>
    %t1 = nvgpu.device_async_copy %src[%c8], %dst[%c8], 8, %n
        : memref<64xf16> to memref<64xf16, #gpu.address_space<workgroup>>
    %g = nvgpu.device_async_create_group %t0, %t1
    nvgpu.device_async_wait %g
    gpu.return
  }
}

// -----

// scf.if and scf.while carry fragments as their vectors.

// CHECK-LABEL: func.func private @__gpumem_kernel_k(
// CHECK: %[[IF:.*]] = scf.if %{{.*}} -> (vector<8xf32>) {
// CHECK: scf.while (%{{.*}} = %{{.*}}, %{{.*}} = %[[IF]]) : (index, vector<8xf32>) -> (index, vector<8xf32>)
// CHECK: scf.condition(%{{.*}}) %{{.*}}, %{{.*}} : index, vector<8xf32>
// CHECK: arith.addf %{{.*}}, %{{.*}} : vector<8xf32>
// CHECK-NOT: mma_matrix
gpu.module @kernels {
  gpu.func @k(%c: memref<16x16xf32>, %n: index, %p: i1) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %zero = arith.constant 0.0 : f32
    %one = arith.constant 1.0 : f32
    %z = gpu.subgroup_mma_constant_matrix %zero : !gpu.mma_matrix<16x16xf32, "COp">
    %o = gpu.subgroup_mma_constant_matrix %one : !gpu.mma_matrix<16x16xf32, "COp">
    %r = scf.if %p -> !gpu.mma_matrix<16x16xf32, "COp"> {
      scf.yield %z : !gpu.mma_matrix<16x16xf32, "COp">
    } else {
      scf.yield %o : !gpu.mma_matrix<16x16xf32, "COp">
    }
    %w:2 = scf.while (%i = %c0, %m = %r) : (index, !gpu.mma_matrix<16x16xf32, "COp">) -> (index, !gpu.mma_matrix<16x16xf32, "COp">) {
      %lt = arith.cmpi ult, %i, %n : index
      scf.condition(%lt) %i, %m : index, !gpu.mma_matrix<16x16xf32, "COp">
    } do {
    ^bb0(%i: index, %m: !gpu.mma_matrix<16x16xf32, "COp">):
      %e = gpu.subgroup_mma_elementwise addf %m, %o : (!gpu.mma_matrix<16x16xf32, "COp">, !gpu.mma_matrix<16x16xf32, "COp">) -> !gpu.mma_matrix<16x16xf32, "COp">
      %i1 = arith.addi %i, %c1 : index
      scf.yield %i1, %e : index, !gpu.mma_matrix<16x16xf32, "COp">
    }
    gpu.subgroup_mma_store_matrix %w#1, %c[%c0, %c0] {leadDimension = 16 : index}
        : !gpu.mma_matrix<16x16xf32, "COp">, memref<16x16xf32>
    gpu.return
  }
}
