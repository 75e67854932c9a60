// RUN: gpumem-opt %s --pass-pipeline="builtin.module(gpu.module(gpumem-lower-mma-elementwise-for-nvvm))" | FileCheck %s

// Each register of the fragment NVVM gives the matrix, seen as the elements
// it holds, gets the kind's arith op; unrealized casts stand between the
// matrix and its registers until the NVVM lowering folds them.

// Two halves per register: maximumf on vector<2xf16> (NaN propagates).
// CHECK-LABEL: gpu.func @maxf_f16(
// CHECK-SAME:    %[[A:[^:]*]]: !gpu.mma_matrix<16x16xf16, "COp">, %[[B:[^:]*]]: !gpu.mma_matrix
// CHECK:         %[[SA:.*]] = builtin.unrealized_conversion_cast %[[A]] : !gpu.mma_matrix<16x16xf16, "COp"> to !llvm.struct<(vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>)>
// CHECK:         %[[SB:.*]] = builtin.unrealized_conversion_cast %[[B]]
// CHECK:         %[[A0:.*]] = llvm.extractvalue %[[SA]][0]
// CHECK:         %[[B0:.*]] = llvm.extractvalue %[[SB]][0]
// CHECK:         %[[M0:.*]] = arith.maximumf %[[A0]], %[[B0]] : vector<2xf16>
// CHECK:         llvm.insertvalue %[[M0]], %{{.*}}[0]
// CHECK-COUNT-3: arith.maximumf %{{.*}}, %{{.*}} : vector<2xf16>
// CHECK:         %[[R:.*]] = llvm.insertvalue %{{.*}}[3]
// CHECK:         %[[M:.*]] = builtin.unrealized_conversion_cast %[[R]] : !llvm.struct<(vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>)> to !gpu.mma_matrix<16x16xf16, "COp">
// CHECK:         gpu.return %[[M]]
// CHECK-NOT:     gpu.subgroup_mma_elementwise

// tf32 bits in i32 registers: computed on as f32.
// CHECK-LABEL: gpu.func @subf_tf32(
// CHECK:         builtin.unrealized_conversion_cast %{{.*}} : !gpu.mma_matrix<16x8xf32, "AOp"> to !llvm.struct<(i32, i32, i32, i32)>
// CHECK:         %[[X:.*]] = llvm.bitcast %{{.*}} : i32 to f32
// CHECK:         %[[Y:.*]] = llvm.bitcast %{{.*}} : i32 to f32
// CHECK:         %[[D:.*]] = arith.subf %[[X]], %[[Y]] : f32
// CHECK:         llvm.bitcast %[[D]] : f32 to i32
// CHECK-COUNT-3: arith.subf

// Four signed bytes per register: 0 - x on vector<4xi8>.
// CHECK-LABEL: gpu.func @negates_s8(
// CHECK:         %[[V:.*]] = llvm.bitcast %{{.*}} : i32 to vector<4xi8>
// CHECK:         %[[Z:.*]] = arith.constant dense<0> : vector<4xi8>
// CHECK:         arith.subi %[[Z]], %[[V]] : vector<4xi8>

// One f32 per register, as the registers of an f32 accumulator.
// CHECK-LABEL: gpu.func @minf_f32(
// CHECK-COUNT-8: arith.minimumf %{{.*}}, %{{.*}} : f32

// extf: the halves in register order become the f32 registers in order.
// CHECK-LABEL: gpu.func @extf(
// CHECK:         %[[H0:.*]] = llvm.extractvalue %{{.*}}[0] : !llvm.struct<(vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>)>
// CHECK:         %[[E0:.*]] = vector.extract %[[H0]][0] : f16 from vector<2xf16>
// CHECK:         %[[F0:.*]] = arith.extf %[[E0]] : f16 to f32
// CHECK:         %[[E1:.*]] = vector.extract %[[H0]][1] : f16 from vector<2xf16>
// CHECK:         %[[F1:.*]] = arith.extf %[[E1]] : f16 to f32
// CHECK:         %[[H3:.*]] = llvm.extractvalue %{{.*}}[3]
// CHECK:         %[[E7:.*]] = vector.extract %[[H3]][1]
// CHECK:         %[[F7:.*]] = arith.extf %[[E7]] : f16 to f32
// CHECK:         llvm.insertvalue %[[F0]], %{{.*}}[0] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
// CHECK:         llvm.insertvalue %[[F1]], %{{.*}}[1]
// CHECK:         %[[R7:.*]] = llvm.insertvalue %[[F7]], %{{.*}}[7]
// CHECK:         builtin.unrealized_conversion_cast %[[R7]] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)> to !gpu.mma_matrix<16x16xf32, "COp">

gpu.module @m {
  gpu.func @maxf_f16(%a: !gpu.mma_matrix<16x16xf16, "COp">, %b: !gpu.mma_matrix<16x16xf16, "COp">) -> !gpu.mma_matrix<16x16xf16, "COp"> {
    %m = gpu.subgroup_mma_elementwise maxf %a, %b : (!gpu.mma_matrix<16x16xf16, "COp">, !gpu.mma_matrix<16x16xf16, "COp">) -> !gpu.mma_matrix<16x16xf16, "COp">
    gpu.return %m : !gpu.mma_matrix<16x16xf16, "COp">
  }
  gpu.func @subf_tf32(%a: !gpu.mma_matrix<16x8xf32, "AOp">, %b: !gpu.mma_matrix<16x8xf32, "AOp">) -> !gpu.mma_matrix<16x8xf32, "AOp"> {
    %m = gpu.subgroup_mma_elementwise subf %a, %b : (!gpu.mma_matrix<16x8xf32, "AOp">, !gpu.mma_matrix<16x8xf32, "AOp">) -> !gpu.mma_matrix<16x8xf32, "AOp">
    gpu.return %m : !gpu.mma_matrix<16x8xf32, "AOp">
  }
  gpu.func @negates_s8(%a: !gpu.mma_matrix<16x16xsi8, "BOp">) -> !gpu.mma_matrix<16x16xsi8, "BOp"> {
    %m = gpu.subgroup_mma_elementwise negates %a : (!gpu.mma_matrix<16x16xsi8, "BOp">) -> !gpu.mma_matrix<16x16xsi8, "BOp">
    gpu.return %m : !gpu.mma_matrix<16x16xsi8, "BOp">
  }
  gpu.func @minf_f32(%a: !gpu.mma_matrix<16x16xf32, "COp">, %b: !gpu.mma_matrix<16x16xf32, "COp">) -> !gpu.mma_matrix<16x16xf32, "COp"> {
    %m = gpu.subgroup_mma_elementwise minf %a, %b : (!gpu.mma_matrix<16x16xf32, "COp">, !gpu.mma_matrix<16x16xf32, "COp">) -> !gpu.mma_matrix<16x16xf32, "COp">
    gpu.return %m : !gpu.mma_matrix<16x16xf32, "COp">
  }
  gpu.func @extf(%a: !gpu.mma_matrix<16x16xf16, "COp">) -> !gpu.mma_matrix<16x16xf32, "COp"> {
    %m = gpu.subgroup_mma_elementwise extf %a : (!gpu.mma_matrix<16x16xf16, "COp">) -> !gpu.mma_matrix<16x16xf32, "COp">
    gpu.return %m : !gpu.mma_matrix<16x16xf32, "COp">
  }
}
