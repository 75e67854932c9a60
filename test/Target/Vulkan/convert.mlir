// RUN: gpumem-opt %s --gpumem-convert-gpu-to-vulkan-spirv | FileCheck %s

// The kernel becomes a parameterless entry point: the push-constant block
// (block size at 0, 4 and 8, then the arguments at their offsets), a
// storage buffer at set 0 binding 0, a Workgroup variable for the
// attribution. The original kernel stays as an llvm.func stub for launches.
// CHECK-LABEL: gpu.module @m
// CHECK: spirv.module @__spv__m
// CHECK-DAG: spirv.GlobalVariable @__gpumem_push_k : !spirv.ptr<!spirv.struct<(i32 [0], i32 [4], i32 [8], i32 [16], i32 [20], i32 [24], f32 [28])>, PushConstant>
// CHECK-DAG: spirv.GlobalVariable @__gpumem_buffer_k_0 bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
// CHECK-DAG: spirv.GlobalVariable @__gpumem_workgroup_k_0 : !spirv.ptr<!spirv.struct<(!spirv.array<8 x f32>)>, Workgroup>
// CHECK: spirv.func @k() "None" attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [8, 1, 1]>}
// CHECK: spirv.ControlBarrier <Workgroup>, <Workgroup>, <AcquireRelease|WorkgroupMemory>
// CHECK: llvm.func @k() attributes {gpu.kernel}
// CHECK-NOT: gpu.func

// A block size known only at launch: no LocalSize (the serializer adds the
// WorkgroupSize specialization), gpu.block_dim reads push constant word 1.
// CHECK-LABEL: gpu.module @dynamic
// CHECK: spirv.func @k() "None" attributes {spirv.entry_point_abi = #spirv.entry_point_abi<>}
// CHECK: %[[ONE:.*]] = spirv.Constant 1 : i32
// CHECK: %[[WORD:.*]] = spirv.AccessChain %{{.*}}[%[[ONE]]] : !spirv.ptr<!spirv.struct<(i32 [0], i32 [4], i32 [8], i32 [16], i32 [20], i32 [24])>, PushConstant>, i32
// CHECK: spirv.Load "PushConstant" %[[WORD]] : i32
// gpu.printf and cf.assert write the diagnostics buffer (set 1, binding 0),
// a module-scope variable (a device function's are inlined first); the
// site table goes on the module, numbered as the conversion meets them:
// site 0 the printf (an i32 and an index: argument kinds 1 and 2), site 1
// the assert, located as CUDA's message names it ("file:line: function"). The kernel's record has flags 2 (GPUMEM_VULKAN_DIAGNOSTICS).
// CHECK-LABEL: gpu.module @diagnostics
// CHECK-SAME: gpumem.vulkan_kernels = {k = array<i32: 0, 20, 2, 0, 4, 0, 0, 16, 4, 4>}
// CHECK-SAME: gpumem.vulkan_sites = {{\[\[}}1 : i32, "x=%d i=%lld\0A", "{{.*}}convert.mlir:{{[0-9]+}}:{{[0-9]+}}", array<i32: 1, 2>], [2 : i32, "x is positive", "{{.*}}convert.mlir:{{[0-9]+}}: (unknown)", array<i32>{{\]\]}}
// CHECK: spirv.GlobalVariable @__gpumem_diagnostics bind(1, 0) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
// CHECK: spirv.func @k() "None"
// CHECK: spirv.mlir.addressof @__gpumem_diagnostics
// CHECK: %[[N:.*]] = spirv.Constant 3 : i32
// CHECK: %[[OLD:.*]] = spirv.AtomicIAdd <Device> <None> %{{.*}}, %[[N]] : !spirv.ptr<i32, StorageBuffer>
// CHECK: %[[END:.*]] = spirv.IAdd %[[OLD]], %{{.*}} : i32
// CHECK: %[[FITS:.*]] = spirv.ULessThanEqual %[[END]], %{{.*}} : i32
// CHECK-COUNT-3: spirv.Store "StorageBuffer"
// CHECK: spirv.mlir.addressof @__gpumem_diagnostics
// CHECK: %[[ZERO:.*]] = spirv.Constant 0 : i32
// CHECK: %[[SITE:.*]] = spirv.Constant 2 : i32
// CHECK: %[[MARK:.*]] = spirv.Select %{{.*}}, %[[ZERO]], %[[SITE]] : i1, i32
// CHECK: spirv.AtomicCompareExchange <Device> <None> <None> %{{.*}}, %[[MARK]], %[[ZERO]] : !spirv.ptr<i32, StorageBuffer>
// CHECK-NOT: spirv.FunctionCall
module attributes {gpu.container_module} {
  gpu.module @m [#gpumem.vulkan] attributes {spirv.target_env = #spirv.target_env<#spirv.vce<v1.3, [Shader], [SPV_KHR_storage_buffer_storage_class]>, api=Vulkan, #spirv.resource_limits<>>} {
    gpu.func @k(%a: memref<8xf32>, %s: f32)
        workgroup(%w: memref<8xf32, 3>)
        kernel attributes {known_block_size = array<i32: 8, 1, 1>} {
      %i = gpu.thread_id x
      %v = memref.load %a[%i] : memref<8xf32>
      %x = arith.mulf %v, %s : f32
      memref.store %x, %w[%i] : memref<8xf32, 3>
      gpu.barrier
      %y = memref.load %w[%i] : memref<8xf32, 3>
      memref.store %y, %a[%i] : memref<8xf32>
      gpu.return
    }
  }
  gpu.module @dynamic [#gpumem.vulkan] attributes {spirv.target_env = #spirv.target_env<#spirv.vce<v1.3, [Shader], [SPV_KHR_storage_buffer_storage_class]>, api=Vulkan, #spirv.resource_limits<>>} {
    gpu.func @k(%a: memref<?xi32>) kernel {
      %i = gpu.thread_id x
      %n = gpu.block_dim y
      %v = arith.index_cast %n : index to i32
      memref.store %v, %a[%i] : memref<?xi32>
      gpu.return
    }
  }
  gpu.module @diagnostics [#gpumem.vulkan] attributes {spirv.target_env = #spirv.target_env<#spirv.vce<v1.3, [Shader], [SPV_KHR_storage_buffer_storage_class]>, api=Vulkan, #spirv.resource_limits<>>} {
    func.func @check(%x: i32) {
      %c0 = arith.constant 0 : i32
      %ok = arith.cmpi sge, %x, %c0 : i32
      cf.assert %ok, "x is positive"
      return
    }
    gpu.func @k(%x: i32) kernel attributes {known_block_size = array<i32: 4, 1, 1>} {
      %i = gpu.thread_id x
      gpu.printf "x=%d i=%lld\n", %x, %i : i32, index
      func.call @check(%x) : (i32) -> ()
      gpu.return
    }
  }
}
