// RUN: gpumem-opt %s -split-input-file --pass-pipeline='builtin.module(gpu.module(gpumem-finalize-rocdl-kernels))' -verify-diagnostics | FileCheck %s

// The dynamic LDS global becomes external (after all static LDS) and
// aligned as the views of it ask (32 bytes here); static LDS globals are
// 16-byte aligned; a kernel without a known block size may be launched
// with up to 1024 threads, one with a known size keeps its bounds.

// CHECK-LABEL: gpu.module @m
// CHECK: llvm.mlir.global external @__dynamic_shmem__0() {addr_space = 3 : i32, alignment = 32 : i64} : !llvm.array<0 x i8>
// CHECK: llvm.mlir.global internal @__wg_k_0() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<64 x f32>
// CHECK: llvm.mlir.global internal @wide() {addr_space = 3 : i32, alignment = 64 : i64} : !llvm.array<4 x f32>
// CHECK: llvm.mlir.global internal @global() {addr_space = 1 : i32} : i32
// CHECK: llvm.func @k() attributes {gpu.kernel, rocdl.flat_work_group_size = "1,1024", rocdl.kernel}
// CHECK: llvm.func @known() attributes {gpu.kernel, rocdl.flat_work_group_size = "128,128", rocdl.kernel}
// CHECK: llvm.func @helper() {
module attributes {gpu.container_module} {
  gpu.module @m attributes {gpumem.dynamic_shared_alignment = 32 : i64} {
    llvm.mlir.global internal @__dynamic_shmem__0() {addr_space = 3 : i32} : !llvm.array<0 x i8>
    llvm.mlir.global internal @__wg_k_0() {addr_space = 3 : i32} : !llvm.array<64 x f32>
    llvm.mlir.global internal @wide() {addr_space = 3 : i32, alignment = 64 : i64} : !llvm.array<4 x f32>
    llvm.mlir.global internal @global() {addr_space = 1 : i32} : i32
    llvm.func @k() attributes {gpu.kernel, rocdl.kernel} {
      llvm.return
    }
    llvm.func @known() attributes {gpu.kernel, rocdl.flat_work_group_size = "128,128", rocdl.kernel} {
      llvm.return
    }
    llvm.func @helper() {
      llvm.return
    }
  }
}

// -----

// Upstream's lowering of a workgroup memref.alloca: a stack allocation,
// which AMD GPUs keep per thread in scratch memory.
module attributes {gpu.container_module} {
  gpu.module @m {
    llvm.func @k() attributes {gpu.kernel, rocdl.kernel} {
      %n = llvm.mlir.constant(64 : i64) : i64
      // expected-error @below {{'llvm.alloca' op makes workgroup memory of a stack allocation, which AMD GPUs place in private (address space 5) scratch memory, one copy per thread}}
      %a = llvm.alloca %n x f32 : (i64) -> !llvm.ptr<3>
      llvm.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    llvm.func @k() attributes {gpu.kernel, rocdl.kernel} {
      %n = llvm.mlir.constant(64 : i64) : i64
      %a = llvm.alloca %n x f32 : (i64) -> !llvm.ptr<5>
      // expected-error @below {{'llvm.addrspacecast' op makes workgroup memory of a stack allocation, which AMD GPUs place in private (address space 5) scratch memory, one copy per thread}}
      %c = llvm.addrspacecast %a : !llvm.ptr<5> to !llvm.ptr<3>
      llvm.return
    }
  }
}

// -----

// Flat workgroup sizes the AMDGPU backend cannot read are refused at the
// kernel (the backend's own error has no location).
gpu.module @m {
  // expected-error @below {{'llvm.func' op has rocdl.flat_work_group_size "-9223372036854775808,128"; AMD GPUs take "min,max" with 1 <= min <= max <= 1024}}
  llvm.func @known() attributes {gpu.kernel, rocdl.flat_work_group_size = "-9223372036854775808,128", rocdl.kernel} {
    llvm.return
  }
}
