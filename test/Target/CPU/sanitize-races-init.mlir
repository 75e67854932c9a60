// RUN: gpumem-opt %s -pass-pipeline='builtin.module(gpu.module(gpumem-lower-gpu-to-cpu-abi,gpumem-sanitize-memory-accesses{checks=racecheck,initcheck,synccheck}))' | FileCheck %s

// With racecheck and initcheck, a workgroup access first calls the
// sharedAccess service (offset 88 of the services), any other access but
// those of the thread's own memory deviceAccess (offset 104), each with the
// address, the bytes, the flags (read 1, write 2, check races 8, check init
// 16) and the access's description and location. The checks are recorded in
// the kernel table (racecheck 2 + initcheck 4 + synccheck 8).
// CHECK: gpu.module @kernels attributes {gpumem.cpu_kernels = [{checks = 14 : i32
// CHECK-LABEL: func.func private @__gpumem_kernel_k(
// CHECK-SAME: %[[G:.*]]: memref<16xf32>, %{{.*}}: index, %[[CTX:.*]]: !llvm.ptr)
// CHECK: %[[WG:.*]] = memref.alloca() : memref<16xf32, #gpu.address_space<workgroup>>
// CHECK: %[[FOUR:.*]] = arith.constant 4 : i64
// CHECK: %[[READ:.*]] = arith.constant 25 : i32
// CHECK: llvm.getelementptr %{{.*}}[104]
// CHECK: llvm.call %{{.*}}(%[[CTX]], %{{.*}}, %[[FOUR]], %[[READ]], %{{.*}}, %{{.*}})
// CHECK: memref.load %[[G]]
// CHECK: arith.constant 26 : i32
// CHECK: llvm.getelementptr %{{.*}}[88]
// CHECK: llvm.call
// CHECK: memref.store %{{.*}}, %[[WG]]
// CHECK-NOT: llvm.call
// CHECK: memref.store %{{.*}}, %{{.*}} : memref<4xf32>
gpu.module @kernels {
  gpu.func @k(%g: memref<16xf32>, %i: index) kernel {
    %wg = memref.alloca() : memref<16xf32, #gpu.address_space<workgroup>>
    %v = memref.load %g[%i] : memref<16xf32>
    memref.store %v, %wg[%i] : memref<16xf32, #gpu.address_space<workgroup>>
    %own = memref.alloca() : memref<4xf32>
    %c0 = arith.constant 0 : index
    memref.store %v, %own[%c0] : memref<4xf32>
    gpu.return
  }
}
