// RUN: gpumem-opt %s --gpumem-hoist-workgroup-allocs --gpu-kernel-outlining --gpumem-hoist-workgroup-allocs --gpumem-plan-workgroup-memory=report=text 2>&1 | FileCheck %s

// A 3-stage cp.async ring allocated inside a region of the launch
// (scf.execute_region) and used only through subviews: after hoisting it
// is one buffer, live from the prologue's copies to the epilogue's read
// through the prologue's view, across the whole loop that rotates it.
// %pre, dead before it, shares its bytes; %post, allocated after the loop
// and used while the epilogue still reads the ring, does not.

// CHECK:      workgroup memory of kernel @main_kernel::@main_kernel
// CHECK-NEXT:   #    line
// CHECK-NEXT:   #0   [[#PRE:]]:12 512xf32 2048 16 0 0 {{.*}} #1
// CHECK-NEXT:   #1   [[#PRE+4]]:15 3x32x32xf16 6144 16 0 0 [[#PRE+5]]:13..[[#PRE+31]]:15 #0
// CHECK-NEXT:        3 stages x 2048 bytes, a ring the loop at [[#PRE+11]]:14 rotates
// CHECK-NEXT:   #2   [[#PRE+29]]:15 1024xf32 4096 16 0 6144 {{.*}} -
// CHECK-NEXT:   static: 10240 bytes planned, lower bound 10240, 12288 without reuse
// CHECK-NEXT:   barrier inserted at {{.*}}:[[#PRE+3]]:12

// CHECK-LABEL: gpu.func @main_kernel
// CHECK-SAME:    workgroup(%[[ARENA:.*]] : memref<10240xi8, #gpu.address_space<workgroup>>)
// CHECK:         memref.view %[[ARENA]][%c0{{.*}}][] {gpumem.shares_bytes = 1 : i32} : {{.*}} to memref<512xf32,
// CHECK:         memref.view %[[ARENA]][%c0{{.*}}][] {gpumem.shares_bytes = 2 : i32} : {{.*}} to memref<3x32x32xf16,
// CHECK:         memref.view %[[ARENA]][%c6144][] : {{.*}} to memref<1024xf32,
// CHECK:         memref.load
// CHECK-NEXT:    gpu.barrier
// CHECK-NEXT:    scf.execute_region

func.func @main(%a: memref<128x128xf16>, %out: memref<128xf32>) {
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %f0 = arith.constant 0.0 : f32
    %pre = memref.alloca() : memref<512xf32, #gpu.address_space<workgroup>>
    memref.store %f0, %pre[%tx] : memref<512xf32, #gpu.address_space<workgroup>>
    %p = memref.load %pre[%c0] : memref<512xf32, #gpu.address_space<workgroup>>
    %acc = scf.execute_region -> f32 {
      %ring = memref.alloca() : memref<3x32x32xf16, #gpu.address_space<workgroup>>
      %s0 = memref.subview %ring[0, 0, 0] [1, 32, 32] [1, 1, 1] : memref<3x32x32xf16, #gpu.address_space<workgroup>> to memref<32x32xf16, strided<[32, 1]>, #gpu.address_space<workgroup>>
      %t0 = nvgpu.device_async_copy %a[%tx, %c0], %s0[%tx, %c0], 8 : memref<128x128xf16> to memref<32x32xf16, strided<[32, 1]>, #gpu.address_space<workgroup>>
      %g0 = nvgpu.device_async_create_group %t0
      %s1 = memref.subview %ring[1, 0, 0] [1, 32, 32] [1, 1, 1] : memref<3x32x32xf16, #gpu.address_space<workgroup>> to memref<32x32xf16, strided<[32, 1], offset: 1024>, #gpu.address_space<workgroup>>
      %t1 = nvgpu.device_async_copy %a[%tx, %c32], %s1[%tx, %c0], 8 : memref<128x128xf16> to memref<32x32xf16, strided<[32, 1], offset: 1024>, #gpu.address_space<workgroup>>
      %g1 = nvgpu.device_async_create_group %t1
      %sum = scf.for %k = %c0 to %c4 step %c1 iter_args(%in = %p) -> (f32) {
        %k2 = arith.addi %k, %c2 : index
        %next = arith.remui %k2, %c3 : index
        %col = arith.muli %k2, %c32 : index
        %dst = memref.subview %ring[%next, 0, 0] [1, 32, 32] [1, 1, 1] : memref<3x32x32xf16, #gpu.address_space<workgroup>> to memref<32x32xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
        %t = nvgpu.device_async_copy %a[%tx, %col], %dst[%tx, %c0], 8 : memref<128x128xf16> to memref<32x32xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
        %g = nvgpu.device_async_create_group %t
        nvgpu.device_async_wait %g {numGroups = 2 : i32}
        gpu.barrier
        %stage = arith.remui %k, %c3 : index
        %cur = memref.subview %ring[%stage, 0, 0] [1, 32, 32] [1, 1, 1] : memref<3x32x32xf16, #gpu.address_space<workgroup>> to memref<32x32xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
        %frag = nvgpu.ldmatrix %cur[%tx, %c0] {numTiles = 4 : i32, transpose = false} : memref<32x32xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>> -> vector<4x2xf16>
        %e = vector.extract %frag[0, 0] : f16 from vector<4x2xf16>
        %ef = arith.extf %e : f16 to f32
        %n = arith.addf %in, %ef : f32
        gpu.barrier
        scf.yield %n : f32
      }
      %post = memref.alloca() : memref<1024xf32, #gpu.address_space<workgroup>>
      memref.store %sum, %post[%tx] : memref<1024xf32, #gpu.address_space<workgroup>>
      %last = memref.load %s1[%tx, %c0] : memref<32x32xf16, strided<[32, 1], offset: 1024>, #gpu.address_space<workgroup>>
      %lf = arith.extf %last : f16 to f32
      %r = memref.load %post[%c0] : memref<1024xf32, #gpu.address_space<workgroup>>
      %v = arith.addf %r, %lf : f32
      scf.yield %v : f32
    }
    memref.store %acc, %out[%tx] : memref<128xf32>
    gpu.terminator
  }
  return
}
