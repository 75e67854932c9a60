// RUN: gpumem-opt %s -split-input-file -pass-pipeline='builtin.module(gpu.module(gpumem-lower-warp-matrix-ops-to-shuffles,canonicalize,cse))' | FileCheck %s

// nvgpu.ldmatrix on the cpu target (decision 148): lane l loads its own
// elements at the row addresses of the lanes that own the rows, shuffled
// as i32 (gpu.shuffle idx, width 32). x1: row l/4 from lane l/4, elements
// 2(l%4) and 2(l%4)+1 of it; .trans x2: column l/4 of rows 2(l%4) and
// 2(l%4)+1 of matrix i, addressed by lanes 8i + 2(l%4) + h. Constant
// indices are the same in every lane and are not shuffled.

// CHECK-LABEL: gpu.func @ld(
// CHECK-SAME: %[[M:[^:]*]]: memref<16x16xf16, #gpu.address_space<workgroup>>, %[[ROW:[^:]*]]: index, %[[COL:[^:]*]]: index
// CHECK-DAG: %[[C32:.*]] = arith.constant 32 : i32
// CHECK: %[[LANE:.*]] = gpu.lane_id
// CHECK: %[[G:.*]] = arith.divui %[[LANE]], %c4
// CHECK: %[[T:.*]] = arith.remui %[[LANE]], %c4
// CHECK: %[[ROW32:.*]] = arith.index_cast %[[ROW]] : index to i32
// CHECK: %[[SRC:.*]] = arith.index_castui %[[G]] : index to i32
// CHECK: %[[R:.*]], %{{.*}} = gpu.shuffle  idx %[[ROW32]], %[[SRC]], %[[C32]] : i32
// CHECK: %[[RI:.*]] = arith.index_cast %[[R]] : i32 to index
// CHECK: %[[COL32:.*]] = arith.index_cast %[[COL]] : index to i32
// CHECK: %[[C:.*]], %{{.*}} = gpu.shuffle  idx %[[COL32]], %[[SRC]], %[[C32]] : i32
// CHECK: %[[CI:.*]] = arith.index_cast %[[C]] : i32 to index
// CHECK: %[[T2:.*]] = arith.muli %[[T]], %c2
// CHECK: %[[C0:.*]] = arith.addi %[[CI]], %[[T2]]
// CHECK: %[[E0:.*]] = memref.load %[[M]][%[[RI]], %[[C0]]]
// CHECK: %[[T21:.*]] = arith.addi %[[T2]], %c1
// CHECK: %[[C1:.*]] = arith.addi %[[CI]], %[[T21]]
// CHECK: %[[E1:.*]] = memref.load %[[M]][%[[RI]], %[[C1]]]
// Matrix 1 of the .trans load: rows addressed by lanes 8 + 2(l%4) + h.
// CHECK: %[[S8:.*]] = arith.addi %[[T2]], %c8
// CHECK: %[[S8I:.*]] = arith.index_castui %[[S8]] : index to i32
// CHECK: %[[R8:.*]], %{{.*}} = gpu.shuffle  idx %[[ROW32]], %[[S8I]], %[[C32]] : i32
// CHECK: %[[R8I:.*]] = arith.index_cast %[[R8]] : i32 to index
// CHECK: %[[E2:.*]] = memref.load %[[M]][%[[R8I]], %[[G]]]
// CHECK: %[[S9:.*]] = arith.addi %[[T2]], %c9
// CHECK: %[[S9I:.*]] = arith.index_castui %[[S9]] : index to i32
// CHECK: %[[R9:.*]], %{{.*}} = gpu.shuffle  idx %[[ROW32]], %[[S9I]], %[[C32]] : i32
// CHECK: %[[R9I:.*]] = arith.index_cast %[[R9]] : i32 to index
// CHECK: %[[E3:.*]] = memref.load %[[M]][%[[R9I]], %[[G]]]
// CHECK: vector.from_elements %[[E0]], %[[E1]] : vector<2xf16>
// CHECK: vector.from_elements %[[E2]], %[[E3]] : vector<2xf16>
// CHECK-NOT: nvgpu.ldmatrix

gpu.module @kernels {
  gpu.func @ld(%m: memref<16x16xf16, #gpu.address_space<workgroup>>, %row: index, %col: index, %out: memref<2x2xf16>) kernel {
    %c0 = arith.constant 0 : index
    %a = nvgpu.ldmatrix %m[%row, %col] {numTiles = 1 : i32, transpose = false} : memref<16x16xf16, #gpu.address_space<workgroup>> -> vector<1x2xf16>
    %b = nvgpu.ldmatrix %m[%row, %c0] {numTiles = 2 : i32, transpose = true} : memref<16x16xf16, #gpu.address_space<workgroup>> -> vector<2x2xf16>
    %x = vector.extract %a[0] : vector<2xf16> from vector<1x2xf16>
    vector.store %x, %out[%c0, %c0] : memref<2x2xf16>, vector<2xf16>
    %y = vector.extract %b[1] : vector<2xf16> from vector<2x2xf16>
    vector.store %y, %out[%c0, %c0] : memref<2x2xf16>, vector<2xf16>
    gpu.return
  }
}

// -----

// nvgpu.mma.sync m16n8k8, f16 x f16 -> f16: lane l's D elements are rows
// l/4 and l/4 + 8, columns 2(l%4) and 2(l%4)+1. Each f16x2 register of A's
// row l/4 + 8 (register 1) comes from lanes 4(l/4) + j, each of B's
// columns 2(l%4) + w from lanes 4(2(l%4) + w) + j (j < 4): 12 shuffles of
// i32 for the two elements stored. Products and sums are f32 in k order
// from C, and D is rounded to f16 once (as cuda-emu does).

// CHECK-LABEL: gpu.func @mma(
// CHECK-SAME: %[[A:[^:]*]]: vector<2x2xf16>, %[[B:[^:]*]]: vector<1x2xf16>, %[[C:[^:]*]]: vector<2x2xf16>
// CHECK: %[[A1:.*]] = vector.extract %[[A]][1] : vector<2xf16> from vector<2x2xf16>
// CHECK: %[[A1W:.*]] = vector.bitcast %[[A1]] : vector<2xf16> to vector<1xi32>
// CHECK: %[[A1I:.*]] = vector.extract %[[A1W]][0] : i32 from vector<1xi32>
// CHECK-COUNT-4: gpu.shuffle  idx %[[A1I]]
// CHECK: %[[B0:.*]] = vector.extract %[[B]][0] : vector<2xf16> from vector<1x2xf16>
// CHECK: %[[B0W:.*]] = vector.bitcast %[[B0]] : vector<2xf16> to vector<1xi32>
// CHECK: %[[B0I:.*]] = vector.extract %[[B0W]][0] : i32 from vector<1xi32>
// CHECK-COUNT-8: gpu.shuffle  idx %[[B0I]]
// CHECK-NOT: gpu.shuffle
// CHECK: %[[C2:.*]] = vector.extract %[[C]][1, 0] : f16 from vector<2x2xf16>
// CHECK: %[[ACC:.*]] = arith.extf %[[C2]] : f16 to f32
// CHECK: %[[P:.*]] = arith.mulf %{{.*}}, %{{.*}} : f32
// CHECK: arith.addf %[[ACC]], %[[P]] : f32
// CHECK-COUNT-7: arith.mulf
// CHECK: %[[D2:.*]] = arith.truncf %{{.*}} : f32 to f16
// CHECK: %[[C3:.*]] = vector.extract %[[C]][1, 1] : f16 from vector<2x2xf16>
// CHECK: arith.extf %[[C3]] : f16 to f32
// CHECK-COUNT-8: arith.mulf
// CHECK: %[[D3:.*]] = arith.truncf %{{.*}} : f32 to f16
// CHECK: vector.from_elements %[[D2]], %[[D3]] : vector<2xf16>
// CHECK-NOT: nvgpu.mma.sync

gpu.module @kernels {
  gpu.func @mma(%a: vector<2x2xf16>, %b: vector<1x2xf16>, %c: vector<2x2xf16>, %out: memref<2x2xf16>) kernel {
    %c0 = arith.constant 0 : index
    %d = nvgpu.mma.sync (%a, %b, %c) {mmaShape = [16, 8, 8]} : (vector<2x2xf16>, vector<1x2xf16>, vector<2x2xf16>) -> vector<2x2xf16>
    %x = vector.extract %d[1] : vector<2xf16> from vector<2x2xf16>
    vector.store %x, %out[%c0, %c0] : memref<2x2xf16>, vector<2xf16>
    gpu.return
  }
}

// -----

// tf32 (f32 operands with tf32Enabled): the inputs' low 13 mantissa bits
// are cleared before the f32 products, as cuda-emu's mma.sync does; f64
// uses fused multiply-adds; i8 (four to a register) sums exactly in i64
// and clamps to i32 (.satfinite).

// CHECK-LABEL: gpu.func @tf32(
// CHECK: %[[MASK:.*]] = arith.constant -8192 : i32
// CHECK: gpu.shuffle  idx %{{.*}} : f32
// CHECK: arith.bitcast %{{.*}} : f32 to i32
// CHECK: arith.andi %{{.*}}, %[[MASK]] : i32
// CHECK: arith.mulf
// CHECK-LABEL: gpu.func @f64(
// CHECK: gpu.shuffle  idx %{{.*}} : f64
// CHECK: math.fma
// CHECK-LABEL: gpu.func @s8(
// CHECK-DAG: %[[MIN:.*]] = arith.constant -2147483648 : i64
// CHECK-DAG: %[[MAX:.*]] = arith.constant 2147483647 : i64
// CHECK: vector.bitcast %{{.*}} : vector<4xi8> to vector<1xi32>
// CHECK: gpu.shuffle  idx %{{.*}} : i32
// CHECK: arith.extsi %{{.*}} : i8 to i64
// CHECK: arith.muli %{{.*}} : i64
// CHECK: arith.maxsi %{{.*}}, %[[MIN]] : i64
// CHECK: arith.minsi %{{.*}}, %[[MAX]] : i64
// CHECK: arith.trunci %{{.*}} : i64 to i32

gpu.module @kernels {
  gpu.func @tf32(%a: vector<2x1xf32>, %b: vector<1x1xf32>, %c: vector<2x2xf32>, %out: memref<2x2xf32>) kernel {
    %c0 = arith.constant 0 : index
    %d = nvgpu.mma.sync (%a, %b, %c) {mmaShape = [16, 8, 4], tf32Enabled} : (vector<2x1xf32>, vector<1x1xf32>, vector<2x2xf32>) -> vector<2x2xf32>
    %x = vector.extract %d[1] : vector<2xf32> from vector<2x2xf32>
    vector.store %x, %out[%c0, %c0] : memref<2x2xf32>, vector<2xf32>
    gpu.return
  }
  gpu.func @f64(%a: vector<1x1xf64>, %b: vector<1x1xf64>, %c: vector<1x2xf64>, %out: memref<2xf64>) kernel {
    %c0 = arith.constant 0 : index
    %d = nvgpu.mma.sync (%a, %b, %c) {mmaShape = [8, 8, 4]} : (vector<1x1xf64>, vector<1x1xf64>, vector<1x2xf64>) -> vector<1x2xf64>
    %x = vector.extract %d[0] : vector<2xf64> from vector<1x2xf64>
    vector.store %x, %out[%c0] : memref<2xf64>, vector<2xf64>
    gpu.return
  }
  gpu.func @s8(%a: vector<2x4xi8>, %b: vector<1x4xi8>, %c: vector<2x2xi32>, %out: memref<2xi32>) kernel {
    %c0 = arith.constant 0 : index
    %d = nvgpu.mma.sync (%a, %b, %c) {mmaShape = [16, 8, 16]} : (vector<2x4xi8>, vector<1x4xi8>, vector<2x2xi32>) -> vector<2x2xi32>
    %x = vector.extract %d[0] : vector<2xi32> from vector<2x2xi32>
    vector.store %x, %out[%c0] : memref<2xi32>, vector<2xi32>
    gpu.return
  }
}
