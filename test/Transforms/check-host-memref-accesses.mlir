// RUN: gpumem-opt %s --gpumem-check-host-memref-accesses | FileCheck %s

// Host code's accesses run only inside their memref; each dimension is
// compared unsigned (a negative index is huge), the last one of a vector
// access with the vector's last element, and the first failing dimension
// is reported. Device code (a gpu.module) is left to the kernels' checks.

// CHECK-LABEL: func.func @host
// CHECK-SAME: (%[[M:.*]]: memref<4x8xf32>, %[[I:.*]]: index, %[[J:.*]]: index)
func.func @host(%m: memref<4x8xf32>, %i: index, %j: index) -> vector<4xf32> {
  // CHECK: %[[LAST:.*]] = arith.addi %[[J]], %c3
  // CHECK: %[[D1:.*]] = memref.dim %[[M]], %c1
  // CHECK: arith.cmpi ult, %[[LAST]], %[[D1]]
  // CHECK: %[[D0:.*]] = memref.dim %[[M]], %c0
  // CHECK: arith.cmpi ult, %[[I]], %[[D0]]
  // CHECK: %[[V:.*]] = scf.if %{{.*}} -> (vector<4xf32>) {
  // CHECK:   vector.load %[[M]][%[[I]], %[[J]]]
  // CHECK: } else {
  // CHECK:   llvm.call @gpumemMemHostAccessError
  // CHECK:   arith.constant dense<0.000000e+00> : vector<4xf32>
  %v = vector.load %m[%i, %j] : memref<4x8xf32>, vector<4xf32>
  // CHECK: scf.if
  // CHECK:   memref.store
  // CHECK: } else {
  // CHECK:   llvm.call @gpumemMemHostAccessError
  %f = arith.constant 1.0 : f32
  memref.store %f, %m[%i, %j] : memref<4x8xf32>
  return %v : vector<4xf32>
}

// CHECK-LABEL: gpu.module @device
// CHECK-NOT: gpumemMemHostAccessError
gpu.module @device {
  gpu.func @k(%m: memref<8xf32>, %i: index) kernel {
    %v = memref.load %m[%i] : memref<8xf32>
    gpu.return
  }
}
