// RUN: gpumem-opt %s --pass-pipeline='builtin.module(gpu.module(gpumem-prepare-vulkan-kernels))' | FileCheck %s

// A 2-D memref argument becomes a 1-D buffer (binding 0) and push-constant
// offset, sizes and strides; the access indexes the buffer at its base
// offset plus the linearized index; the workgroup attribution becomes 1-D.
// The records: 1 binding, 40 bytes of push constants, 64 bytes of
// workgroup memory; parameters IGNORED, BUFFER (4-byte elements),
// BUFFER_OFFSET at 16, INDEX at 20..32, SCALAR f32 at 36.
// CHECK-LABEL: gpu.module @m
// CHECK-SAME: gpumem.vulkan_kernels = {k = array<i32: 1, 40, 0, 64, 0, 0, 0, 0, 0, 0, 1, 0, 4, 0, 0, 0, 2, 0, 0, 16, 0, 0, 3, 0, 0, 20, 0, 0, 3, 0, 0, 24, 0, 0, 3, 0, 0, 28, 0, 0, 3, 0, 0, 32, 0, 0, 4, 0, 0, 36, 4, 4>}
// CHECK: gpu.func @k(%[[S:.*]]: f32 {gpumem.push_offset = 36 : i32}, %[[BUF:.*]]: memref<?xf32, #gpu.address_space<global>> {gpumem.binding = 0 : i32}, %[[OFF:.*]]: index {gpumem.push_offset = 16 : i32}, %{{.*}}: index {gpumem.push_offset = 20 : i32}, %{{.*}}: index {gpumem.push_offset = 24 : i32}, %[[STRIDE0:.*]]: index {gpumem.push_offset = 28 : i32}, %{{.*}}: index {gpumem.push_offset = 32 : i32})
// CHECK-SAME: workgroup(%[[WG:.*]] : memref<16xf32, #gpu.address_space<workgroup>>)
// CHECK-SAME: spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [4, 1, 1]>
// CHECK: %[[ROW:.*]] = arith.muli %[[I:.*]], %[[STRIDE0]]
// CHECK: %[[LIN:.*]] = arith.addi %[[OFF]], %{{.*}}
// CHECK: memref.load %[[BUF]][%[[LIN]]] : memref<?xf32, #gpu.address_space<global>>
// CHECK: memref.store %{{.*}}, %[[WG]][%{{.*}}] : memref<16xf32, #gpu.address_space<workgroup>>
gpu.module @m {
  gpu.func @k(%a: memref<?x?xf32, strided<[?, 1], offset: ?>>, %s: f32)
      workgroup(%w: memref<4x4xf32, #gpu.address_space<workgroup>>)
      kernel attributes {known_block_size = array<i32: 4, 1, 1>} {
    %i = gpu.thread_id x
    %v = memref.load %a[%i, %i] : memref<?x?xf32, strided<[?, 1], offset: ?>>
    %x = arith.addf %v, %s : f32
    memref.store %x, %w[%i, %i] : memref<4x4xf32, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// An alloca sized by a constant is static (a Function variable of 8 words);
// the view of it is indexed directly.
// CHECK-LABEL: gpu.module @constant_alloca
// CHECK: %[[A:.*]] = memref.alloca() : memref<8xi32, #gpu.address_space<private>>
// CHECK: memref.store %{{.*}}, %[[A]][%{{.*}}] : memref<8xi32, #gpu.address_space<private>>
gpu.module @constant_alloca {
  gpu.func @k(%out: memref<8xi32>) kernel attributes {known_block_size = array<i32: 8, 1, 1>} {
    %c8 = arith.constant 8 : index
    %i = gpu.thread_id x
    %a = memref.alloca(%c8) : memref<?xi32>
    %v = arith.constant 7 : i32
    memref.store %v, %a[%i] : memref<?xi32>
    %w = memref.load %a[%i] : memref<?xi32>
    memref.store %w, %out[%i] : memref<8xi32>
    gpu.return
  }
}

// Dynamic shared memory becomes a word array (the last workgroup
// attribution, named by gpumem.vulkan_dynamic_shared; the serializer sizes
// it by specialization); flags = 1 (GPUMEM_VULKAN_DYNAMIC_SHARED).
// memref.dim reads the launch's bytes from push offset 12. An f32 view at
// byte 16 is the words 4 + i, bitcast; an i64 view at byte 64 the words
// 16 + 2i and 17 + 2i, low word first. The static buffer (64 bytes) has the
// notional address 0 and the dynamic array 64.
// CHECK-LABEL: gpu.module @dynamic
// CHECK-SAME: gpumem.vulkan_kernels = {k = array<i32: 1, 28, 1, 64
// CHECK: gpu.func @k(%[[OUT:.*]]: memref<?xi64, #gpu.address_space<global>> {gpumem.binding = 0 : i32}, %{{.*}}: index {gpumem.push_offset = 16 : i32}, %{{.*}}: index {gpumem.push_offset = 20 : i32}, %{{.*}}: index {gpumem.push_offset = 24 : i32}, %[[BYTES:.*]]: index {gpumem.push_offset = 12 : i32})
// CHECK-SAME: workgroup(%[[ST:.*]] : memref<16xf32, #gpu.address_space<workgroup>>, %[[WORDS:.*]] : memref<1xi32, #gpu.address_space<workgroup>>)
// CHECK-SAME: gpumem.vulkan_dynamic_shared = 1 : i32
// CHECK-DAG: %[[C64:.*]] = arith.constant 64 : index
// CHECK-DAG: %[[C16:.*]] = arith.constant 16 : index
// CHECK: %[[W0:.*]] = arith.shrui %[[C16]], %{{.*}} : index
// CHECK: %[[W:.*]] = arith.addi %[[W0]], %{{.*}} : index
// CHECK: %[[BITS:.*]] = memref.load %[[WORDS]][%[[W]]] : memref<1xi32, #gpu.address_space<workgroup>>
// CHECK: arith.bitcast %[[BITS]] : i32 to f32
// CHECK: %[[D0:.*]] = arith.shrui %[[C64]], %{{.*}} : index
// CHECK: %[[D1:.*]] = arith.shli %{{.*}}, %{{.*}} : index
// CHECK: %[[D:.*]] = arith.addi %[[D0]], %[[D1]] : index
// CHECK: %[[HIGH:.*]] = arith.shrui %{{.*}}, %{{.*}} : i64
// CHECK: %[[LOW:.*]] = arith.trunci %{{.*}} : i64 to i32
// CHECK: memref.store %[[LOW]], %[[WORDS]][%[[D]]]
// CHECK: %[[DN:.*]] = arith.addi %[[D]], %{{.*}} : index
// CHECK: %[[HIGH32:.*]] = arith.trunci %[[HIGH]] : i64 to i32
// CHECK: memref.store %[[HIGH32]], %[[WORDS]][%[[DN]]]
// CHECK: %[[ADDR:.*]] = arith.constant 64 : index
// CHECK: arith.addi %[[ADDR]], %[[C64]] : index
// CHECK: arith.index_cast %[[BYTES]] : index to i64
gpu.module @dynamic {
  gpu.func @k(%out: memref<4xi64>)
      workgroup(%st: memref<16xf32, #gpu.address_space<workgroup>>)
      kernel attributes {known_block_size = array<i32: 4, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %c64 = arith.constant 64 : index
    %i = gpu.thread_id x
    %d = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %f = memref.view %d[%c16][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<4xf32, #gpu.address_space<workgroup>>
    %l = memref.view %d[%c64][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<4xi64, #gpu.address_space<workgroup>>
    %x = memref.load %f[%i] : memref<4xf32, #gpu.address_space<workgroup>>
    %xi = arith.fptosi %x : f32 to i64
    memref.store %xi, %l[%i] : memref<4xi64, #gpu.address_space<workgroup>>
    %p = memref.extract_aligned_pointer_as_index %l : memref<4xi64, #gpu.address_space<workgroup>> -> index
    %pi = arith.index_cast %p : index to i64
    %n = memref.dim %d, %c0 : memref<?xi8, #gpu.address_space<workgroup>>
    %ni = arith.index_cast %n : index to i64
    %s = arith.addi %pi, %ni : i64
    memref.store %s, %out[%i] : memref<4xi64>
    gpu.return
  }
}

// A float atomic needs a compare-and-swap on integers: the buffer it
// updates becomes i32, its load bitcasts, and the atomic's body sees and
// yields floats through bitcasts.
// CHECK-LABEL: gpu.module @float_atomic
// CHECK: gpu.func @k(%[[BUF:.*]]: memref<?xi32, #gpu.address_space<global>> {gpumem.binding = 0 : i32}
// CHECK: %[[BITS:.*]] = memref.load %[[BUF]][%{{.*}}] : memref<?xi32, #gpu.address_space<global>>
// CHECK: %[[X:.*]] = arith.bitcast %[[BITS]] : i32 to f32
// CHECK: %[[OLD:.*]] = memref.generic_atomic_rmw %[[BUF]][%{{.*}}] : memref<?xi32, #gpu.address_space<global>> {
// CHECK: ^bb0(%[[CUR:.*]]: i32):
// CHECK:   %[[CURF:.*]] = arith.bitcast %[[CUR]] : i32 to f32
// CHECK:   %[[SUM:.*]] = arith.addf %[[CURF]], %[[X]] : f32
// CHECK:   %[[SUMI:.*]] = arith.bitcast %[[SUM]] : f32 to i32
// CHECK:   memref.atomic_yield %[[SUMI]] : i32
// CHECK: arith.bitcast %[[OLD]] : i32 to f32
gpu.module @float_atomic {
  gpu.func @k(%a: memref<8xf32>) kernel attributes {known_block_size = array<i32: 8, 1, 1>} {
    %c0 = arith.constant 0 : index
    %i = gpu.thread_id x
    %x = memref.load %a[%i] : memref<8xf32>
    %old = memref.atomic_rmw addf %x, %a[%c0] : (f32, memref<8xf32>) -> f32
    memref.store %old, %a[%i] : memref<8xf32>
    gpu.return
  }
}

// A workgroup array of no elements (no access may touch it) gets one
// element: SPIR-V arrays are not empty.
// CHECK-LABEL: gpu.module @empty
// CHECK: memref.alloca() : memref<1xf32, 3>
gpu.module @empty {
  gpu.func @k(%out: memref<4xf32>) kernel attributes {known_block_size = array<i32: 4, 1, 1>} {
    %i = gpu.thread_id x
    %c0 = arith.constant 0 : index
    %none = memref.alloca() : memref<0x4xf32, 3>
    %v = memref.load %none[%c0, %i] : memref<0x4xf32, 3>
    memref.store %v, %out[%i] : memref<4xf32>
    gpu.return
  }
}

// A device function is inlined (its memref argument is then traced to the
// buffer) and erased; a vector built from scalars and written with
// vector.transfer_write becomes scalar stores, each guarded by the row's
// run-time length (the write is not known in bounds).
// CHECK-LABEL: gpu.module @vectors
// CHECK-NOT: func.func
// CHECK: gpu.func @k(%[[OUT:.*]]: memref<?xi32, #gpu.address_space<global>>
// CHECK-NOT: vector.
// CHECK: scf.if
// CHECK: memref.store %{{.*}}, %[[OUT]][%{{.*}}]
// CHECK: scf.if
// CHECK: memref.store %{{.*}}, %[[OUT]][%{{.*}}]
// CHECK-NOT: vector.
gpu.module @vectors {
  func.func @write_pair(%m: memref<4x?xi32>, %row: index, %a: index, %b: index) {
    %c0 = arith.constant 0 : index
    %v = vector.from_elements %a, %b : vector<2xindex>
    %vi = arith.index_cast %v : vector<2xindex> to vector<2xi32>
    vector.transfer_write %vi, %m[%row, %c0] {in_bounds = [false]} : vector<2xi32>, memref<4x?xi32>
    return
  }
  gpu.func @k(%out: memref<4x?xi32>) kernel attributes {known_block_size = array<i32: 4, 1, 1>} {
    %i = gpu.thread_id x
    %c7 = arith.constant 7 : index
    func.call @write_pair(%out, %i, %i, %c7) : (memref<4x?xi32>, index, index, index) -> ()
    gpu.return
  }
}

// gpu.all_reduce reduces through a workgroup array of one element per
// thread (4 here): store, barrier, a tree step per halving stride (2, 1),
// each followed by a barrier, then everyone reads element 0 and a last
// barrier; no subgroup operation, so no subgroup size in the record
// (flags 0).
// CHECK-LABEL: gpu.module @all_reduce
// CHECK-SAME: gpumem.vulkan_kernels = {k = array<i32: 1, 28, 0, 16
// CHECK: workgroup(%[[S:.*]] : memref<4xf32, #gpu.address_space<workgroup>>)
// CHECK: memref.store %{{.*}}, %[[S]][%{{.*}}]
// CHECK-NEXT: gpu.barrier
// CHECK: scf.if
// CHECK: arith.addf
// CHECK: gpu.barrier
// CHECK: scf.if
// CHECK: arith.addf
// CHECK: gpu.barrier
// CHECK: memref.load %[[S]][%{{.*}}]
// CHECK-NEXT: gpu.barrier
// CHECK-NOT: gpu.all_reduce
gpu.module @all_reduce {
  gpu.func @k(%out: memref<4xf32>) kernel attributes {known_block_size = array<i32: 4, 1, 1>} {
    %i = gpu.thread_id x
    %v = memref.load %out[%i] : memref<4xf32>
    %sum = gpu.all_reduce add %v uniform {} : (f32) -> f32
    memref.store %sum, %out[%i] : memref<4xf32>
    gpu.return
  }
}

// A device function of several blocks called inside a single-block region
// (scf.if) cannot be inlined there: the call stays, and so does the callee.
// CHECK-LABEL: gpu.module @multi_block_callee
// CHECK: func.func @f
// CHECK: scf.if
// CHECK: func.call @f
gpu.module @multi_block_callee {
  func.func @f(%c: i1, %x: i32) -> i32 {
    cf.cond_br %c, ^a, ^b
  ^a:
    return %x : i32
  ^b:
    %y = arith.addi %x, %x : i32
    return %y : i32
  }
  gpu.func @k(%out: memref<4xi32>, %c: i1, %d: i1) kernel attributes {known_block_size = array<i32: 4, 1, 1>} {
    %i = gpu.thread_id x
    scf.if %c {
      %v = memref.load %out[%i] : memref<4xi32>
      %r = func.call @f(%d, %v) : (i1, i32) -> i32
      memref.store %r, %out[%i] : memref<4xi32>
    }
    gpu.return
  }
}

// -----

// Every loop is followed by a check that it ran to its end: scf.for carries
// its next induction value, scf.while forwards its condition. After an
// scf.for with results its inits are selected where it ran no iteration
// (upstream's lowering would leave them unset).
// CHECK-LABEL: gpu.module @loops
gpu.module @loops attributes {spirv.target_env = #spirv.target_env<#spirv.vce<v1.3, [Shader], []>, #spirv.resource_limits<>>} {
  gpu.func @k(%n: index, %x: memref<4xi32>) kernel attributes {known_block_size = array<i32: 1, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %i0 = arith.constant 0 : i32
    %i1 = arith.constant 1 : i32
    // CHECK: %[[FOR:.*]]:2 = scf.for %[[IV:.*]] = %[[LB:.*]] to %[[UB:.*]] step %[[STEP:.*]] iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %[[LB]])
    // CHECK:   %[[NEXT:.*]] = arith.addi %[[IV]], %[[STEP]]
    // CHECK:   scf.yield %{{.*}}, %[[NEXT]]
    // CHECK: %[[RAN:.*]] = arith.cmpi slt, %[[LB]], %[[UB]]
    // CHECK: %[[SUM:.*]] = arith.select %[[RAN]], %[[FOR]]#0, %{{.*}} : i32
    // CHECK: %[[NEXTS:.*]] = arith.select %[[RAN]], %[[FOR]]#1, %[[LB]] : index
    // CHECK: %[[EARLY:.*]] = arith.cmpi slt, %[[NEXTS]], %[[UB]]
    // CHECK: %[[DONE:.*]] = arith.xori %[[EARLY]], %true
    // CHECK: cf.assert %[[DONE]], "the Vulkan device left this loop before its end
    %s = scf.for %i = %c0 to %n step %c1 iter_args(%a = %i0) -> (i32) {
      %b = arith.addi %a, %i1 : i32
      scf.yield %b : i32
    }
    // CHECK: %[[WHILE:.*]]:2 = scf.while
    // CHECK:   scf.condition(%[[C:.*]]) %{{.*}}, %[[C]] : i32, i1
    // CHECK: } do {
    // CHECK: ^bb0(%{{.*}}: i32, %{{.*}}: i1):
    // CHECK: %[[WDONE:.*]] = arith.xori %[[WHILE]]#1, %true
    // CHECK: cf.assert %[[WDONE]], "the Vulkan device left this loop before its end
    %w = scf.while (%v = %s) : (i32) -> i32 {
      %more = arith.cmpi slt, %v, %i1 : i32
      scf.condition(%more) %v : i32
    } do {
    ^bb0(%v: i32):
      %v1 = arith.addi %v, %i1 : i32
      scf.yield %v1 : i32
    }
    memref.store %w, %x[%c0] : memref<4xi32>
    gpu.return
  }
}

// Workgroup buffers chosen by arith.select (what scf.if becomes) are
// indices: a store runs in an scf.if per candidate, a load reads both and
// selects.
// CHECK-LABEL: gpu.module @choices
// CHECK: workgroup(%[[A:.*]] : memref<4xi32, 3>, %[[B:.*]] : memref<4xi32, 3>)
// CHECK: %[[WHICH:.*]] = arith.select %{{.*}}, %{{.*}}, %{{.*}} : index
// CHECK: %[[IS_A:.*]] = arith.cmpi eq, %[[WHICH]], %{{.*}} : index
// CHECK: scf.if %[[IS_A]] {
// CHECK:   memref.store %{{.*}}, %[[A]][
// CHECK: } else {
// CHECK:   memref.store %{{.*}}, %[[B]][
// CHECK: %[[LA:.*]] = memref.load %[[A]][
// CHECK: %[[LB:.*]] = memref.load %[[B]][
// CHECK: %[[IS_B:.*]] = arith.cmpi eq, %[[WHICH]], %{{.*}} : index
// CHECK: arith.select %[[IS_B]], %[[LB]], %[[LA]] : i32
gpu.module @choices attributes {spirv.target_env = #spirv.target_env<#spirv.vce<v1.3, [Shader], []>, #spirv.resource_limits<>>} {
  gpu.func @k(%c: i1, %x: memref<4xi32>) workgroup(%a: memref<4xi32, 3>, %b: memref<4xi32, 3>) kernel attributes {known_block_size = array<i32: 4, 1, 1>} {
    %c0 = arith.constant 0 : index
    %v = arith.constant 7 : i32
    %m = arith.select %c, %a, %b : memref<4xi32, 3>
    memref.store %v, %m[%c0] : memref<4xi32, 3>
    %l = memref.load %m[%c0] : memref<4xi32, 3>
    memref.store %l, %x[%c0] : memref<4xi32>
    gpu.return
  }
}
