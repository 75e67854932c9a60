// RUN: gpumem-opt %s --gpumem-plan-workgroup-memory | FileCheck %s
// RUN: gpumem-opt %s --gpumem-plan-workgroup-memory=report=text -o /dev/null 2>&1 | FileCheck %s --check-prefix=TEXT
// RUN: gpumem-opt %s --gpumem-plan-workgroup-memory="report=json report-file=%t.json" -o /dev/null
// RUN: FileCheck %s --check-prefix=JSON < %t.json

// Multi-stage buffers (decision 145): a ring of stages is one buffer, live
// from its first use to its last across the loop that rotates it, used
// through subviews, asynchronous copies, ldmatrix and tensor-core loads;
// the report shows its stages.

// @pipelined: a 3-stage cp.async ring. %pre is dead before the ring's first
// use and shares its bytes. %mid is used in the loop after the ring's last
// use of an iteration, and %post after the loop before the epilogue reads
// the ring through the view made in the prologue: neither may share the
// ring's bytes (they would if the ring's range ended with an iteration or
// with a view's first uses). No wait for every copy group follows the
// loop, so its last copies may still be writing the ring when the kernel
// ends: %tail, used after every other use of the ring, keeps its own bytes
// too.

// CHECK-LABEL: gpu.func @pipelined
// CHECK-SAME:    workgroup(%[[ARENA:.*]] : memref<10240xi8, #gpu.address_space<workgroup>>)
// CHECK:         memref.view %[[ARENA]][%[[PRE_AT:c0.*]]][] {gpumem.shares_bytes = 1 : i32} : memref<10240xi8, #gpu.address_space<workgroup>> to memref<512xf32,
// CHECK:         %[[RING:.*]] = memref.view %[[ARENA]][%[[RING_AT:c0.*]]][] {gpumem.shares_bytes = 2 : i32} : memref<10240xi8, #gpu.address_space<workgroup>> to memref<3x32x32xf16,
// CHECK:         memref.view %[[ARENA]][%c6144{{.*}}][] {gpumem.shares_bytes = 3 : i32} : memref<10240xi8, #gpu.address_space<workgroup>> to memref<256xf32,
// CHECK:         memref.view %[[ARENA]][%c6144{{.*}}][] {gpumem.shares_bytes = 4 : i32} : memref<10240xi8, #gpu.address_space<workgroup>> to memref<1024xf32,
// CHECK:         memref.view %[[ARENA]][%c6144{{.*}}][] {gpumem.shares_bytes = 5 : i32} : memref<10240xi8, #gpu.address_space<workgroup>> to memref<128xf32,
// CHECK:         memref.load
// CHECK-NEXT:    gpu.barrier
// CHECK-NEXT:    memref.subview
// CHECK:         scf.for
// CHECK:         scf.yield
// CHECK-NEXT:  }
// CHECK-NEXT:  gpu.barrier
// CHECK-NEXT:  memref.store

// @double_buffer: a 2-stage ring whose stage is an iter_arg toggled with
// arith.xori, read with gpu.subgroup_mma_load_matrix; the copy group's
// token is carried by the loop and the last copy is waited on after the
// loop (numGroups = 0: every group), so the ring stays live past %c's
// first use and %c keeps bytes of its own, while %after, used after that
// wait, shares the ring's bytes.

// CHECK-LABEL: gpu.func @double_buffer
// CHECK-SAME:    workgroup(%[[ARENA:.*]] : memref<2048xi8, #gpu.address_space<workgroup>>)
// CHECK:         memref.view %[[ARENA]][%c0{{.*}}][] {gpumem.shares_bytes = 1 : i32} : {{.*}} to memref<16x16xf32,
// CHECK:         memref.view %[[ARENA]][%c0{{.*}}][] {gpumem.shares_bytes = 2 : i32} : {{.*}} to memref<2x16x16xf16,
// CHECK:         memref.view %[[ARENA]][%c1024][] : {{.*}} to memref<16x16xf32,
// CHECK:         memref.view %[[ARENA]][%c0{{.*}}][] {gpumem.shares_bytes = 4 : i32} : {{.*}} to memref<64xf32,

// @tiles: 2-D tiles indexed by the reduction loop's induction variable
// (%tb[%k, %tx]) and by a remainder of the thread id are no rings.

// CHECK-LABEL: gpu.func @tiles
// CHECK-SAME:    workgroup(%{{.*}} : memref<16x16xf32, 3>, %{{.*}} : memref<16x16xf32, 3>, %{{.*}} : memref<2x16xf32, 3>)

// @wrapped: a 4-stage ring whose stage iter_arg wraps with arith.select,
// used only inside its loop. %scratch, used in each iteration after the
// ring's last use there, must not share its bytes: the stage written in
// one iteration is read in the next.

// CHECK-LABEL: gpu.func @wrapped
// CHECK-SAME:    workgroup(%{{.*}} : memref<4x64xf32, 3>, %{{.*}} : memref<64xf32, 3>)

// TEXT:      workgroup memory of kernel @stages::@pipelined
// TEXT-NEXT:   #    line       buffer              bytes align  pad   offset  live (lines)     shares with
// TEXT-NEXT:   #0   {{[0-9:]+}} 512xf32              2048    16    0        0  {{.*}} #1
// TEXT-NEXT:   #1   {{[0-9:]+}} 3x32x32xf16          6144    16    0        0  {{.*}} #0
// TEXT-NEXT:        3 stages x 2048 bytes, a ring the loop at [[#]]:12 rotates
// TEXT-NEXT:   #2   {{[0-9:]+}} 256xf32              1024    16    0     6144  {{.*}} #3, #4
// TEXT-NEXT:   #3   {{[0-9:]+}} 1024xf32             4096    16    0     6144  {{.*}} #2, #4
// TEXT-NEXT:   #4   {{[0-9:]+}} 128xf32               512    16    0     6144  {{.*}} #2, #3
// TEXT-NEXT:   static: 10240 bytes planned, lower bound 10240, 13824 without reuse
// TEXT:      workgroup memory of kernel @stages::@double_buffer
// TEXT-NEXT:   #    line
// TEXT-NEXT:   #0   {{[0-9:]+}} 16x16xf32            1024    16    0        0  {{.*}} #1, #3
// TEXT-NEXT:   #1   {{[0-9:]+}} 2x16x16xf16          1024    16    0        0  {{.*}} #0, #3
// TEXT-NEXT:        2 stages x 512 bytes, a ring the loop at [[#]]:14 rotates
// TEXT-NEXT:   #2   {{[0-9:]+}} 16x16xf32            1024    16    0     1024  {{.*}} -
// TEXT-NEXT:   #3   {{[0-9:]+}} 64xf32                256    16    0        0  {{.*}} #0, #1
// TEXT-NEXT:   static: 2048 bytes planned, lower bound 2048, 3328 without reuse
// TEXT:      workgroup memory of kernel @stages::@tiles
// TEXT-NEXT:   #    line
// TEXT-NEXT:   #0   {{[0-9:]+}} 16x16xf32
// TEXT-NEXT:   #1   {{[0-9:]+}} 16x16xf32
// TEXT-NEXT:   #2   {{[0-9:]+}} 2x16xf32
// TEXT-NEXT:   static:
// TEXT:      workgroup memory of kernel @stages::@wrapped
// TEXT-NEXT:   #    line
// TEXT-NEXT:   #0   {{[0-9:]+}} 4x64xf32             1024
// TEXT-NEXT:        4 stages x 256 bytes, a ring the loop at [[#]]:13 rotates
// TEXT-NEXT:   #1   {{[0-9:]+}} 64xf32                256    16    0     1024  {{.*}} -
// TEXT-NEXT:   static: 1280 bytes planned, lower bound 1280, 1280 without reuse (not planned: no two buffers can share bytes)

// JSON:      "kernel": "pipelined",
// JSON:        "type": "memref<512xf32, 3>",
// JSON:        "stages": 1,
// JSON:        "type": "memref<3x32x32xf16, 3>",
// JSON:        "stages": 3,
// JSON-NEXT:   "stage_loop": "{{.*}}plan-workgroup-memory-stages.mlir:[[#]]:12",
// JSON-NEXT:   "bytes": 6144,
// JSON-NEXT:   "stage_bytes": 2048,
// JSON:      "kernel": "double_buffer",
// JSON:        "type": "memref<2x16x16xf16, 3>",
// JSON:        "stages": 2,
// JSON:        "stage_bytes": 512,
// JSON:      "kernel": "tiles",
// JSON-NOT:  "stage_loop"
// JSON:      "kernel": "wrapped",
// JSON:        "stages": 4,

gpu.module @stages {
  gpu.func @pipelined(%a: memref<128x128xf16>, %out: memref<128xf32>, %tx: index, %v: f32)
      workgroup(%pre : memref<512xf32, 3>, %ring : memref<3x32x32xf16, 3>, %mid : memref<256xf32, 3>, %post : memref<1024xf32, 3>, %tail : memref<128xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c32 = arith.constant 32 : index
    memref.store %v, %pre[%tx] : memref<512xf32, 3>
    %p = memref.load %pre[%c0] : memref<512xf32, 3>
    %s0 = memref.subview %ring[0, 0, 0] [1, 32, 32] [1, 1, 1] : memref<3x32x32xf16, 3> to memref<32x32xf16, strided<[32, 1]>, 3>
    %t0 = nvgpu.device_async_copy %a[%tx, %c0], %s0[%tx, %c0], 8 : memref<128x128xf16> to memref<32x32xf16, strided<[32, 1]>, 3>
    %g0 = nvgpu.device_async_create_group %t0
    %s1 = memref.subview %ring[1, 0, 0] [1, 32, 32] [1, 1, 1] : memref<3x32x32xf16, 3> to memref<32x32xf16, strided<[32, 1], offset: 1024>, 3>
    %t1 = nvgpu.device_async_copy %a[%tx, %c32], %s1[%tx, %c0], 8 : memref<128x128xf16> to memref<32x32xf16, strided<[32, 1], offset: 1024>, 3>
    %g1 = nvgpu.device_async_create_group %t1
    %acc = scf.for %k = %c0 to %c4 step %c1 iter_args(%sum = %p) -> (f32) {
      %k2 = arith.addi %k, %c2 : index
      %next = arith.remui %k2, %c3 : index
      %col = arith.muli %k2, %c32 : index
      %dst = memref.subview %ring[%next, 0, 0] [1, 32, 32] [1, 1, 1] : memref<3x32x32xf16, 3> to memref<32x32xf16, strided<[32, 1], offset: ?>, 3>
      %t = nvgpu.device_async_copy %a[%tx, %col], %dst[%tx, %c0], 8 : memref<128x128xf16> to memref<32x32xf16, strided<[32, 1], offset: ?>, 3>
      %g = nvgpu.device_async_create_group %t
      nvgpu.device_async_wait %g {numGroups = 2 : i32}
      gpu.barrier
      %stage = arith.remui %k, %c3 : index
      %cur = memref.subview %ring[%stage, 0, 0] [1, 32, 32] [1, 1, 1] : memref<3x32x32xf16, 3> to memref<32x32xf16, strided<[32, 1], offset: ?>, 3>
      %frag = nvgpu.ldmatrix %cur[%tx, %c0] {numTiles = 4 : i32, transpose = false} : memref<32x32xf16, strided<[32, 1], offset: ?>, 3> -> vector<4x2xf16>
      %e = vector.extract %frag[0, 0] : f16 from vector<4x2xf16>
      %ef = arith.extf %e : f16 to f32
      memref.store %ef, %mid[%tx] : memref<256xf32, 3>
      %m = memref.load %mid[%c0] : memref<256xf32, 3>
      %n = arith.addf %sum, %m : f32
      gpu.barrier
      scf.yield %n : f32
    }
    memref.store %acc, %post[%tx] : memref<1024xf32, 3>
    %last = memref.load %s1[%tx, %c0] : memref<32x32xf16, strided<[32, 1], offset: 1024>, 3>
    %lf = arith.extf %last : f16 to f32
    %r = memref.load %post[%c0] : memref<1024xf32, 3>
    %sum2 = arith.addf %r, %lf : f32
    gpu.barrier
    memref.store %sum2, %tail[%tx] : memref<128xf32, 3>
    %z = memref.load %tail[%c0] : memref<128xf32, 3>
    memref.store %z, %out[%tx] : memref<128xf32>
    gpu.return
  }

  gpu.func @double_buffer(%a: memref<64x16xf16>, %out: memref<16x16xf32>, %row: index, %col: index, %v: f32)
      workgroup(%pre : memref<16x16xf32, 3>, %ring : memref<2x16x16xf16, 3>, %c : memref<16x16xf32, 3>, %after : memref<64xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    memref.store %v, %pre[%row, %col] : memref<16x16xf32, 3>
    %p = memref.load %pre[%col, %row] : memref<16x16xf32, 3>
    %t0 = nvgpu.device_async_copy %a[%row, %col], %ring[%c0, %row, %col], 8 : memref<64x16xf16> to memref<2x16x16xf16, 3>
    %g0 = nvgpu.device_async_create_group %t0
    %zero = gpu.subgroup_mma_constant_matrix %p : !gpu.mma_matrix<16x16xf32, "COp">
    %res:3 = scf.for %k = %c0 to %c4 step %c1 iter_args(%s = %c0, %tok = %g0, %acc = %zero) -> (index, !nvgpu.device.async.token, !gpu.mma_matrix<16x16xf32, "COp">) {
      %n = arith.xori %s, %c1 : index
      %k1 = arith.addi %k, %c1 : index
      %r1 = arith.muli %k1, %c16 : index
      %r2 = arith.addi %r1, %row : index
      %t = nvgpu.device_async_copy %a[%r2, %col], %ring[%n, %row, %col], 8 : memref<64x16xf16> to memref<2x16x16xf16, 3>
      %g = nvgpu.device_async_create_group %t
      nvgpu.device_async_wait %tok {numGroups = 1 : i32}
      gpu.barrier
      %fa = gpu.subgroup_mma_load_matrix %ring[%s, %c0, %c0] {leadDimension = 16 : index} : memref<2x16x16xf16, 3> -> !gpu.mma_matrix<16x16xf16, "AOp">
      %fb = gpu.subgroup_mma_load_matrix %ring[%s, %c0, %c0] {leadDimension = 16 : index} : memref<2x16x16xf16, 3> -> !gpu.mma_matrix<16x16xf16, "BOp">
      %d = gpu.subgroup_mma_compute %fa, %fb, %acc : !gpu.mma_matrix<16x16xf16, "AOp">, !gpu.mma_matrix<16x16xf16, "BOp"> -> !gpu.mma_matrix<16x16xf32, "COp">
      gpu.barrier
      scf.yield %n, %g, %d : index, !nvgpu.device.async.token, !gpu.mma_matrix<16x16xf32, "COp">
    }
    gpu.subgroup_mma_store_matrix %res#2, %c[%c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xf32, "COp">, memref<16x16xf32, 3>
    nvgpu.device_async_wait %res#1 {numGroups = 0 : i32}
    %x = memref.load %c[%row, %col] : memref<16x16xf32, 3>
    gpu.barrier
    memref.store %x, %after[%row] : memref<64xf32, 3>
    %y = memref.load %after[%col] : memref<64xf32, 3>
    memref.store %y, %out[%row, %col] : memref<16x16xf32>
    gpu.return
  }

  gpu.func @tiles(%a: memref<64x64xf32>, %out: memref<64x64xf32>, %tx: index, %ty: index)
      workgroup(%ta : memref<16x16xf32, 3>, %tb : memref<16x16xf32, 3>, %halves : memref<2x16xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    %f0 = arith.constant 0.0 : f32
    %sum = scf.for %kt = %c0 to %c4 step %c1 iter_args(%acc = %f0) -> (f32) {
      %x = memref.load %a[%ty, %kt] : memref<64x64xf32>
      memref.store %x, %ta[%ty, %tx] : memref<16x16xf32, 3>
      memref.store %x, %tb[%ty, %tx] : memref<16x16xf32, 3>
      %half = arith.remui %tx, %c2 : index
      memref.store %x, %halves[%half, %kt] : memref<2x16xf32, 3>
      gpu.barrier
      %part = scf.for %k = %c0 to %c16 step %c1 iter_args(%in = %acc) -> (f32) {
        %l = memref.load %ta[%ty, %k] : memref<16x16xf32, 3>
        %r = memref.load %tb[%k, %tx] : memref<16x16xf32, 3>
        %p = arith.mulf %l, %r : f32
        %s = arith.addf %in, %p : f32
        scf.yield %s : f32
      }
      gpu.barrier
      scf.yield %part : f32
    }
    memref.store %sum, %out[%ty, %tx] : memref<64x64xf32>
    gpu.return
  }

  gpu.func @wrapped(%out: memref<64xf32>, %tx: index, %v: f32)
      workgroup(%ring : memref<4x64xf32, 3>, %scratch : memref<64xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %last = scf.for %k = %c0 to %c8 step %c1 iter_args(%s = %c0) -> (index) {
      memref.store %v, %ring[%s, %tx] : memref<4x64xf32, 3>
      gpu.barrier
      %x = memref.load %ring[%s, %c0] : memref<4x64xf32, 3>
      memref.store %x, %scratch[%tx] : memref<64xf32, 3>
      %y = memref.load %scratch[%c0] : memref<64xf32, 3>
      memref.store %y, %out[%tx] : memref<64xf32>
      %inc = arith.addi %s, %c1 : index
      %wrap = arith.cmpi eq, %inc, %c4 : index
      %next = arith.select %wrap, %c0, %inc : index
      scf.yield %next : index
    }
    gpu.return
  }
}
