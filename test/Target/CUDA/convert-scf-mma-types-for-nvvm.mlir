// RUN: gpumem-opt %s --pass-pipeline="builtin.module(gpu.module(gpumem-convert-scf-mma-types-for-nvvm))" | FileCheck %s

// scf.for, scf.if and scf.while that carry !gpu.mma_matrix values carry the
// struct of registers NVVM gives the matrix; unrealized casts stand between
// them and the mma ops, which stay as they are. Loops stay loops, and scf
// ops with no matrix are left alone.

// CHECK-LABEL: gpu.func @k_loop(
// CHECK-SAME:    %[[C:[^:]*]]: !gpu.mma_matrix<16x16xf32, "COp">, %[[A:[^:]*]]: !gpu.mma_matrix<16x16xf16, "AOp">, %[[B:[^:]*]]: !gpu.mma_matrix<16x16xf16, "BOp">
// CHECK:         %[[C0:.*]] = builtin.unrealized_conversion_cast %[[C]] : !gpu.mma_matrix<16x16xf32, "COp"> to !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
// CHECK:         %[[ACC:.*]] = scf.for %{{.*}} iter_args(%[[X:.*]] = %[[C0]]) -> (!llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>) {
// CHECK:           %[[XM:.*]] = builtin.unrealized_conversion_cast %[[X]] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)> to !gpu.mma_matrix<16x16xf32, "COp">
// CHECK:           %[[Y:.*]] = gpu.subgroup_mma_compute %[[A]], %[[B]], %[[XM]]
// CHECK:           %[[YS:.*]] = builtin.unrealized_conversion_cast %[[Y]] : !gpu.mma_matrix<16x16xf32, "COp"> to !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
// CHECK:           scf.yield %[[YS]] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
// CHECK:         %[[R:.*]] = scf.if %{{.*}} -> (!llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>) {
// CHECK:           scf.yield %[[ACC]]
// CHECK:         } else {
// CHECK:           scf.yield %[[C0]]
// CHECK:         %[[RM:.*]] = builtin.unrealized_conversion_cast %[[R]] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)> to !gpu.mma_matrix<16x16xf32, "COp">
// CHECK:         gpu.return %[[RM]]
gpu.module @m {
  gpu.func @k_loop(%c: !gpu.mma_matrix<16x16xf32, "COp">, %a: !gpu.mma_matrix<16x16xf16, "AOp">, %b: !gpu.mma_matrix<16x16xf16, "BOp">, %n: index, %flag: i1) -> !gpu.mma_matrix<16x16xf32, "COp"> {
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %acc = scf.for %k = %c0 to %n step %c16 iter_args(%x = %c) -> (!gpu.mma_matrix<16x16xf32, "COp">) {
      %y = gpu.subgroup_mma_compute %a, %b, %x : !gpu.mma_matrix<16x16xf16, "AOp">, !gpu.mma_matrix<16x16xf16, "BOp"> -> !gpu.mma_matrix<16x16xf32, "COp">
      scf.yield %y : !gpu.mma_matrix<16x16xf32, "COp">
    }
    %r = scf.if %flag -> (!gpu.mma_matrix<16x16xf32, "COp">) {
      scf.yield %acc : !gpu.mma_matrix<16x16xf32, "COp">
    } else {
      scf.yield %c : !gpu.mma_matrix<16x16xf32, "COp">
    }
    gpu.return %r : !gpu.mma_matrix<16x16xf32, "COp">
  }

  // A while loop that carries an index and an f16 accumulator.
  // CHECK-LABEL: gpu.func @while_loop(
  // CHECK:         %[[W:.*]]:2 = scf.while (%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) : (index, !llvm.struct<(vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>)>) -> (index, !llvm.struct<(vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>)>)
  // CHECK:           scf.condition(%{{.*}}) %{{.*}}, %{{.*}} : index, !llvm.struct<(vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>)>
  // CHECK:         } do {
  // CHECK:           builtin.unrealized_conversion_cast %{{.*}} : !llvm.struct<(vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>)> to !gpu.mma_matrix<16x16xf16, "COp">
  // CHECK:           gpu.subgroup_mma_compute
  // CHECK:         builtin.unrealized_conversion_cast %[[W]]#1 : !llvm.struct<(vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>)> to !gpu.mma_matrix<16x16xf16, "COp">
  gpu.func @while_loop(%c: !gpu.mma_matrix<16x16xf16, "COp">, %a: !gpu.mma_matrix<16x16xf16, "AOp">, %b: !gpu.mma_matrix<16x16xf16, "BOp">, %n: index) -> !gpu.mma_matrix<16x16xf16, "COp"> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %r:2 = scf.while (%i = %c0, %acc = %c) : (index, !gpu.mma_matrix<16x16xf16, "COp">) -> (index, !gpu.mma_matrix<16x16xf16, "COp">) {
      %go = arith.cmpi slt, %i, %n : index
      scf.condition(%go) %i, %acc : index, !gpu.mma_matrix<16x16xf16, "COp">
    } do {
    ^bb0(%i: index, %acc: !gpu.mma_matrix<16x16xf16, "COp">):
      %y = gpu.subgroup_mma_compute %a, %b, %acc : !gpu.mma_matrix<16x16xf16, "AOp">, !gpu.mma_matrix<16x16xf16, "BOp"> -> !gpu.mma_matrix<16x16xf16, "COp">
      %i1 = arith.addi %i, %c1 : index
      scf.yield %i1, %y : index, !gpu.mma_matrix<16x16xf16, "COp">
    }
    gpu.return %r#1 : !gpu.mma_matrix<16x16xf16, "COp">
  }

  // CHECK-LABEL: gpu.func @no_matrix(
  // CHECK:         scf.for {{.*}} -> (index) {
  // CHECK-NOT:     unrealized_conversion_cast
  gpu.func @no_matrix(%n: index) -> index {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %s = scf.for %i = %c0 to %n step %c1 iter_args(%x = %c0) -> (index) {
      %y = arith.addi %x, %i : index
      scf.yield %y : index
    }
    gpu.return %s : index
  }
}
