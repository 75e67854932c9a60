// The user's constants keep their place and location: the greedy driver
// does not gather constants into the entry block (which erased their
// locations, so that a later error about one had none).
// RUN: gpumem-opt %s -pass-pipeline='builtin.module(gpu.module(gpumem-lower-gpu-collectives))' -mlir-print-debuginfo -mlir-print-local-scope | FileCheck %s

// CHECK-LABEL: gpu.func @k
// CHECK: scf.if
// CHECK-NEXT: arith.constant 7 : index loc("{{.*}}lower-gpu-collectives-locations.mlir":[[@LINE+11]]:13)
// CHECK: arith.addi
// CHECK-SAME: loc("{{.*}}lower-gpu-collectives-locations.mlir":[[@LINE+11]]:12)
// CHECK-NOT: gpu.subgroup_size
// CHECK: gpu.return
gpu.module @kernels {
  gpu.func @k(%out: memref<4xindex>) kernel {
    %c0 = arith.constant 0 : index
    %tx = gpu.thread_id x
    %first = arith.cmpi eq, %tx, %c0 : index
    scf.if %first {
      %c7 = arith.constant 7 : index
      %n = gpu.subgroup_size : index
      %a = arith.addi %tx, %c7 : index
      %s = arith.addi %a, %n : index
      memref.store %s, %out[%tx] : memref<4xindex>
    }
    gpu.return
  }
}
