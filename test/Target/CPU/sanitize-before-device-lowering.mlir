// RUN: gpumem-opt %s -split-input-file -pass-pipeline='builtin.module(gpu.module(gpumem-sanitize-memory-accesses{checks=memcheck,racecheck before-device-lowering=true}))' -mlir-print-debuginfo | FileCheck %s

// Before a GPU dialect's lowering (cuda-emu, rocm-emu) the services are
// calls of __gpumem_sanitizer_* declarations in LLVM dialect, which NVVM's
// and ROCDL's conversions leave alone and the lowering to host code binds
// to the thread context's services. Workgroup addresses are LDS/shared
// pointers (address space 3); every other address a plain pointer. An
// access the checks saw keeps its location, marked for the checks by
// address, with the access's words for its reports.
// CHECK-DAG: llvm.func @__gpumem_sanitizer_accessErrorShared(!llvm.ptr, !llvm.ptr, i64, i64, i64, !llvm.ptr<3>)
// CHECK-DAG: llvm.func @__gpumem_sanitizer_sharedAccess(!llvm.ptr<3>, i64, i32, !llvm.ptr, !llvm.ptr)
// CHECK-DAG: llvm.func @__gpumem_sanitizer_accessError(!llvm.ptr, !llvm.ptr, i64, i64, i64, !llvm.ptr)
// CHECK-DAG: llvm.func @__gpumem_sanitizer_deviceAccess(!llvm.ptr, i64, i32, !llvm.ptr, !llvm.ptr)
// CHECK-LABEL: gpu.func @k(
// CHECK: scf.if
// CHECK: llvm.call @__gpumem_sanitizer_sharedAccess(
// CHECK: memref.load %{{.*}} : memref<32xf32, #gpu.address_space<workgroup>> loc(#[[SHARED:.*]])
// CHECK: llvm.call @__gpumem_sanitizer_accessErrorShared(
// CHECK: scf.if
// CHECK: llvm.call @__gpumem_sanitizer_deviceAccess(
// CHECK: memref.store %{{.*}} : memref<32xf32> loc(#[[DEVICE:.*]])
// CHECK: llvm.call @__gpumem_sanitizer_accessError(
// CHECK-DAG: #[[SHARED]] = loc(fused<{gpumem.checked_by_memref = "load from memref<32xf32, #gpu.address_space<workgroup>>"}>[#{{.*}}])
// CHECK-DAG: #[[DEVICE]] = loc(fused<{gpumem.checked_by_memref = "store to memref<32xf32>"}>[#{{.*}}])
gpu.module @kernels {
  gpu.func @k(%out: memref<32xf32>, %i: index)
      workgroup(%tile: memref<32xf32, #gpu.address_space<workgroup>>) kernel {
    %v = memref.load %tile[%i] : memref<32xf32, #gpu.address_space<workgroup>>
    memref.store %v, %out[%i] : memref<32xf32>
    gpu.return
  }
}

// -----

// Device functions (func.func) are instrumented the same way; a private
// alloca's accesses get bounds checks only.
// CHECK-LABEL: func.func @f(
// CHECK: memref.alloca
// CHECK: scf.if
// CHECK-NOT: sharedAccess
// CHECK-NOT: deviceAccess
// CHECK: memref.store
// CHECK: llvm.call @__gpumem_sanitizer_accessError(
gpu.module @kernels {
  func.func @f(%i: index, %x: f32) {
    %a = memref.alloca() : memref<4xf32>
    memref.store %x, %a[%i] : memref<4xf32>
    return
  }
}

// -----

// An access through a buffer the plan gave another one's bytes names the
// buffer's number (gpumem.shares_bytes) in the flags' high bits, through
// views and casts: 1 << 16 | racecheck | read = 65545, 2 << 16 | racecheck |
// write = 131082. A memref that does not lead to such a view passes none.
// CHECK-LABEL: gpu.func @numbered(
// CHECK: %[[READ:.*]] = arith.constant 65545 : i32
// CHECK: llvm.call @__gpumem_sanitizer_sharedAccess(%{{.*}}, %{{.*}}, %[[READ]],
// CHECK: %[[WRITE:.*]] = arith.constant 131082 : i32
// CHECK: llvm.call @__gpumem_sanitizer_sharedAccess(%{{.*}}, %{{.*}}, %[[WRITE]],
// CHECK: %[[PLAIN:.*]] = arith.constant 10 : i32
// CHECK: llvm.call @__gpumem_sanitizer_sharedAccess(%{{.*}}, %{{.*}}, %[[PLAIN]],
gpu.module @kernels {
  gpu.func @numbered(%i: index, %other: memref<16xf32, #gpu.address_space<workgroup>>)
      workgroup(%arena: memref<64xi8, #gpu.address_space<workgroup>>) kernel {
    %c0 = arith.constant 0 : index
    %a = memref.view %arena[%c0][] {gpumem.shares_bytes = 1 : i32} : memref<64xi8, #gpu.address_space<workgroup>> to memref<16xf32, #gpu.address_space<workgroup>>
    %b = memref.view %arena[%c0][] {gpumem.shares_bytes = 2 : i32} : memref<64xi8, #gpu.address_space<workgroup>> to memref<4x4xf32, #gpu.address_space<workgroup>>
    %a3 = memref.memory_space_cast %a : memref<16xf32, #gpu.address_space<workgroup>> to memref<16xf32, 3>
    %v = memref.load %a3[%i] : memref<16xf32, 3>
    %row = memref.subview %b[1, 0] [1, 4] [1, 1] : memref<4x4xf32, #gpu.address_space<workgroup>> to memref<4xf32, strided<[1], offset: 4>, #gpu.address_space<workgroup>>
    memref.store %v, %row[%i] : memref<4xf32, strided<[1], offset: 4>, #gpu.address_space<workgroup>>
    memref.store %v, %other[%i] : memref<16xf32, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

// memcheck checks scalar integer divisions: a divisor of 0, or (signed)
// the smallest value by -1, becomes 1 and is reported through
// divisionError with whether it overflowed; unsigned ones check for 0.
// CHECK-DAG: llvm.func @__gpumem_sanitizer_divisionError(i32, !llvm.ptr, !llvm.ptr)
// CHECK-LABEL: gpu.func @divide(
// CHECK: %[[ZERO:.*]] = arith.cmpi eq, %[[D:.*]], %c0_i32 : i32
// CHECK: %[[MIN:.*]] = arith.cmpi eq, %{{.*}}, %c-2147483648_i32 : i32
// CHECK: %[[NEG:.*]] = arith.cmpi eq, %[[D]], %c-1_i32 : i32
// CHECK: %[[OVER:.*]] = arith.andi %[[MIN]], %[[NEG]] : i1
// CHECK: %[[BAD:.*]] = arith.ori %[[ZERO]], %[[OVER]] : i1
// CHECK: %[[SAFE:.*]] = arith.select %[[BAD]], %c1_i32, %[[D]] : i32
// CHECK: scf.if %[[BAD]] {
// CHECK:   llvm.call @__gpumem_sanitizer_divisionError(
// CHECK: }
// CHECK: arith.divsi %{{.*}}, %[[SAFE]] : i32
// CHECK: %[[UZERO:.*]] = arith.cmpi eq, %[[U:.*]], %c0 : index
// CHECK-NOT: arith.andi
// CHECK: %[[USAFE:.*]] = arith.select %[[UZERO]], %c1, %[[U]] : index
// CHECK: arith.remui %{{.*}}, %[[USAFE]] : index
gpu.module @kernels {
  gpu.func @divide(%n: i32, %d: i32, %i: index, %u: index, %out: memref<2xi32>) kernel {
    %q = arith.divsi %n, %d : i32
    %r = arith.remui %i, %u : index
    %c0 = arith.constant 0 : index
    memref.store %q, %out[%c0] : memref<2xi32>
    gpu.return
  }
}

// -----

// A constant divisor that is neither 0 nor (signed) -1 is not checked.
// CHECK-LABEL: gpu.func @constant_divisor(
// CHECK-NOT: divisionError
// CHECK: arith.divsi %{{.*}}, %c3_i32 : i32
// CHECK: arith.divui %{{.*}}, %c-1_i32 : i32
gpu.module @kernels {
  gpu.func @constant_divisor(%n: i32, %out: memref<2xi32>) kernel {
    %c3 = arith.constant 3 : i32
    %m1 = arith.constant -1 : i32
    %q = arith.divsi %n, %c3 : i32
    %u = arith.divui %n, %m1 : i32
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    memref.store %q, %out[%c0] : memref<2xi32>
    memref.store %u, %out[%c1] : memref<2xi32>
    gpu.return
  }
}

// -----

// A memref.cast of an unranked argument: the access is checked against the
// cast's shape (the argument itself has no extent to check against).
// CHECK-LABEL: gpu.func @unranked_source(
// CHECK: %[[CAST:.*]] = memref.cast %{{.*}} : memref<*xf32> to memref<4xf32>
// CHECK: %[[DIM:.*]] = memref.dim %[[CAST]]
// CHECK: %[[IN:.*]] = arith.cmpi ult, %{{.*}}, %[[DIM]]
// CHECK: scf.if %[[IN]]
// CHECK: memref.store %{{.*}}, %[[CAST]]
gpu.module @kernels {
  gpu.func @unranked_source(%a: memref<*xf32>, %f: f32) kernel {
    %tx = gpu.thread_id x
    %r = memref.cast %a : memref<*xf32> to memref<4xf32>
    memref.store %f, %r[%tx] : memref<4xf32>
    gpu.return
  }
}
