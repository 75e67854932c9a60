// RUN: gpumem-opt %s --pass-pipeline='builtin.module(gpu.module(gpumem-promote-printf-args-for-nvvm))' | FileCheck %s

// Integers narrower than 32 bits reach vprintf as 32-bit values: i1
// zero-extended, i8 and i16 sign-extended; wider integers, floats and
// indices are left alone.

// CHECK-LABEL: gpu.func @k
// CHECK-SAME: (%[[B:.*]]: i1, %[[C:.*]]: i8, %[[S:.*]]: i16, %[[I:.*]]: i32, %[[L:.*]]: i64, %[[F:.*]]: f32)
// CHECK-DAG: %[[BW:.*]] = arith.extui %[[B]] : i1 to i32
// CHECK-DAG: %[[CW:.*]] = arith.extsi %[[C]] : i8 to i32
// CHECK-DAG: %[[SW:.*]] = arith.extsi %[[S]] : i16 to i32
// CHECK: gpu.printf "%d %d %d %d %lld %f\0A", %[[BW]], %[[CW]], %[[SW]], %[[I]], %[[L]], %[[F]] : i32, i32, i32, i32, i64, f32
gpu.module @m {
  gpu.func @k(%b: i1, %c: i8, %s: i16, %i: i32, %l: i64, %f: f32) kernel {
    gpu.printf "%d %d %d %d %lld %f\n", %b, %c, %s, %i, %l, %f : i1, i8, i16, i32, i64, f32
    gpu.return
  }
}
