// RUN: gpumem-opt %s --gpumem-integer-float-atomics | FileCheck %s

// A float generic atomic runs on an integer view of its memref, with the
// body between bitcasts; integer ones are left alone.
// CHECK-LABEL: func.func @float_max(
// CHECK-SAME: %[[M:.*]]: memref<4xf32, 3>, %[[I:.*]]: index, %[[X:.*]]: f32)
// CHECK: %[[VIEW:.*]] = builtin.unrealized_conversion_cast %[[M]] : memref<4xf32, 3> to memref<4xi32, 3>
// CHECK: %[[R:.*]] = memref.generic_atomic_rmw %[[VIEW]][%[[I]]] : memref<4xi32, 3> {
// CHECK: ^bb0(%[[OLDI:.*]]: i32):
// CHECK:   %[[OLD:.*]] = arith.bitcast %[[OLDI]] : i32 to f32
// CHECK:   %[[NEW:.*]] = arith.maximumf %[[OLD]], %[[X]] : f32
// CHECK:   %[[NEWI:.*]] = arith.bitcast %[[NEW]] : f32 to i32
// CHECK:   memref.atomic_yield %[[NEWI]] : i32
// CHECK: %[[F:.*]] = arith.bitcast %[[R]] : i32 to f32
// CHECK: return %[[F]] : f32
func.func @float_max(%m: memref<4xf32, 3>, %i: index, %x: f32) -> f32 {
  %r = memref.generic_atomic_rmw %m[%i] : memref<4xf32, 3> {
  ^bb0(%old: f32):
    %new = arith.maximumf %old, %x : f32
    memref.atomic_yield %new : f32
  }
  return %r : f32
}

// CHECK-LABEL: func.func @f64_and_f16(
// CHECK: builtin.unrealized_conversion_cast %{{.*}} : memref<?xf64> to memref<?xi64>
// CHECK: builtin.unrealized_conversion_cast %{{.*}} : memref<8xf16> to memref<8xi16>
func.func @f64_and_f16(%d: memref<?xf64>, %h: memref<8xf16>, %i: index) {
  %a = memref.generic_atomic_rmw %d[%i] : memref<?xf64> {
  ^bb0(%old: f64):
    memref.atomic_yield %old : f64
  }
  %b = memref.generic_atomic_rmw %h[%i] : memref<8xf16> {
  ^bb0(%old: f16):
    memref.atomic_yield %old : f16
  }
  return
}

// CHECK-LABEL: func.func @integer(
// CHECK-NOT: unrealized_conversion_cast
// CHECK: memref.generic_atomic_rmw %{{.*}} : memref<4xi32>
func.func @integer(%m: memref<4xi32>, %i: index) {
  %r = memref.generic_atomic_rmw %m[%i] : memref<4xi32> {
  ^bb0(%old: i32):
    memref.atomic_yield %old : i32
  }
  return
}
