// RUN: gpumem-opt %s --pass-pipeline='builtin.module(gpu.module(gpumem-private-allocas-for-rocdl))' | FileCheck %s
// RUN: gpumem-opt %s --pass-pipeline='builtin.module(gpu.module(gpumem-private-allocas-for-rocdl,convert-gpu-to-rocdl{chipset=gfx90a}))' | FileCheck %s --check-prefix=ROCDL

// Default-space allocas (static or not) are allocated in private memory
// and cast back; private and workgroup ones stay as they are.

// CHECK-LABEL: gpu.func @k
// CHECK: %[[P:.*]] = memref.alloca() {alignment = 16 : i64} : memref<16xi32, #gpu.address_space<private>>
// CHECK: %[[PC:.*]] = memref.memory_space_cast %[[P]] : memref<16xi32, #gpu.address_space<private>> to memref<16xi32>
// CHECK: %[[R:.*]] = memref.alloca(%{{.*}}) : memref<?xi32, #gpu.address_space<private>>
// CHECK: %[[RC:.*]] = memref.memory_space_cast %[[R]] : memref<?xi32, #gpu.address_space<private>> to memref<?xi32>
// CHECK: memref.alloca() : memref<4xi32, 5>
// CHECK: memref.store %{{.*}}, %[[PC]]
// CHECK: memref.store %{{.*}}, %[[RC]]

// Every alloca is in address space 5 after the ROCDL lowering.
// ROCDL-LABEL: llvm.func @k
// ROCDL-COUNT-3: llvm.alloca {{.*}} -> !llvm.ptr<5>
// ROCDL-NOT: llvm.alloca
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%out: memref<64xi32>, %n: index) kernel {
      %tx = gpu.thread_id x
      %c1 = arith.constant 1 : i32
      %p = memref.alloca() {alignment = 16 : i64} : memref<16xi32>
      %r = memref.alloca(%n) : memref<?xi32>
      %q = memref.alloca() : memref<4xi32, 5>
      memref.store %c1, %p[%tx] : memref<16xi32>
      memref.store %c1, %r[%tx] : memref<?xi32>
      memref.store %c1, %q[%tx] : memref<4xi32, 5>
      gpu.return
    }
  }
}
