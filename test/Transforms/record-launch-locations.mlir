// RUN: gpumem-opt %s --gpumem-record-launch-locations | FileCheck %s
// RUN: gpumem-opt %s --gpumem-record-launch-locations=memory-calls=true | FileCheck %s --check-prefix=MEMORY

// Each launch in host code is preceded by a call of gpumemLaunchLocation
// with "file:line:col"; one string per distinct location. Memory calls are
// left alone unless memory-calls is set.
// CHECK-DAG: llvm.func @gpumemLaunchLocation(!llvm.ptr)
// CHECK-DAG: llvm.mlir.global private constant @[[AT:.*]]("{{.*}}record-launch-locations.mlir:[[@LINE+23]]:5\00")
// CHECK-LABEL: func.func @main
// CHECK-NOT: llvm.call
// CHECK: %[[P:.*]] = llvm.mlir.addressof @[[AT]]
// CHECK-NEXT: llvm.call @gpumemLaunchLocation(%[[P]])
// CHECK-NEXT: gpu.launch_func @kernels::@k

// MEMORY-DAG: llvm.func @gpumemMemoryCallLocation(!llvm.ptr)
// MEMORY-LABEL: func.func @main
// MEMORY: llvm.call @gpumemMemoryCallLocation
// MEMORY-NEXT: gpu.alloc
// MEMORY: llvm.call @gpumemMemoryCallLocation
// MEMORY-NEXT: gpu.memset
// MEMORY: llvm.call @gpumemLaunchLocation
// MEMORY-NEXT: gpu.launch_func
// MEMORY: llvm.call @gpumemMemoryCallLocation
// MEMORY-NEXT: gpu.dealloc
module attributes {gpu.container_module} {
  func.func @main() {
    %c1 = arith.constant 1 : index
    %zero = arith.constant 0.0 : f32
    %m = gpu.alloc () : memref<4xf32>
    gpu.memset %m, %zero : memref<4xf32>, f32
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<4xf32>)
    gpu.dealloc %m : memref<4xf32>
    return
  }
  gpu.module @kernels {
    gpu.func @k(%m: memref<4xf32>) kernel {
      gpu.return
    }
  }
}
