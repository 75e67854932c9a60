// Every kind of gpu.subgroup_mma_elementwise on every fragment NVIDIA has
// compiles to PTX (gpumem-lower-mma-elementwise-for-nvvm): f16 and f32
// accumulators for the float kinds, extf from f16 to f32, s32 accumulators
// for the integer kinds, an f64 accumulator, and A/B fragments of f16, tf32
// and s8 (registers of two halves, tf32 bits, four bytes) feeding an mma.
// Upstream's lowering crashed on maxf/minf of f16 fragments and on subf,
// negatef, extf and the integer kinds. maxf/minf propagate NaN (setp.nan);
// ptxas accepts all of it for sm_90 and sm_80.

// RUN: gpumem-opt %s --gpumem-cuda-pipeline="chip=sm_90 format=isa" | gpumem-objects ptx - | FileCheck %s
// RUN: %if ptxas %{ gpumem-opt %s --gpumem-cuda-pipeline="chip=sm_90 format=bin" -o /dev/null %}
// RUN: %if ptxas %{ gpumem-opt %s --gpumem-cuda-pipeline="chip=sm_80 format=bin" -o /dev/null %}

gpu.module @kinds {
  // CHECK-LABEL: .entry addf_f16(
  // CHECK-COUNT-4: add.rn.f16x2
  // CHECK: wmma.store.d.sync.aligned.row.m16n16k16.f16
  gpu.func @addf_f16(%a: memref<16x16xf16>, %b: memref<16x16xf16>, %c: memref<16x16xf16>) kernel {
    %c0 = arith.constant 0 : index
    %x = gpu.subgroup_mma_load_matrix %a[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf16> -> !gpu.mma_matrix<16x16xf16, "COp">
    %y = gpu.subgroup_mma_load_matrix %b[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf16> -> !gpu.mma_matrix<16x16xf16, "COp">
    %z = gpu.subgroup_mma_elementwise addf %x, %y : (!gpu.mma_matrix<16x16xf16, "COp">, !gpu.mma_matrix<16x16xf16, "COp">) -> !gpu.mma_matrix<16x16xf16, "COp">
    gpu.subgroup_mma_store_matrix %z, %c[%c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xf16, "COp">, memref<16x16xf16>
    gpu.return
  }
  // CHECK-LABEL: .entry mulf_f16(
  // CHECK-COUNT-4: mul.rn.f16x2
  // CHECK: wmma.store.d.sync.aligned.row.m16n16k16.f16
  gpu.func @mulf_f16(%a: memref<16x16xf16>, %b: memref<16x16xf16>, %c: memref<16x16xf16>) kernel {
    %c0 = arith.constant 0 : index
    %x = gpu.subgroup_mma_load_matrix %a[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf16> -> !gpu.mma_matrix<16x16xf16, "COp">
    %y = gpu.subgroup_mma_load_matrix %b[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf16> -> !gpu.mma_matrix<16x16xf16, "COp">
    %z = gpu.subgroup_mma_elementwise mulf %x, %y : (!gpu.mma_matrix<16x16xf16, "COp">, !gpu.mma_matrix<16x16xf16, "COp">) -> !gpu.mma_matrix<16x16xf16, "COp">
    gpu.subgroup_mma_store_matrix %z, %c[%c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xf16, "COp">, memref<16x16xf16>
    gpu.return
  }
  // CHECK-LABEL: .entry subf_f16(
  // CHECK-COUNT-4: sub.rn.f16x2
  // CHECK: wmma.store.d.sync.aligned.row.m16n16k16.f16
  gpu.func @subf_f16(%a: memref<16x16xf16>, %b: memref<16x16xf16>, %c: memref<16x16xf16>) kernel {
    %c0 = arith.constant 0 : index
    %x = gpu.subgroup_mma_load_matrix %a[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf16> -> !gpu.mma_matrix<16x16xf16, "COp">
    %y = gpu.subgroup_mma_load_matrix %b[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf16> -> !gpu.mma_matrix<16x16xf16, "COp">
    %z = gpu.subgroup_mma_elementwise subf %x, %y : (!gpu.mma_matrix<16x16xf16, "COp">, !gpu.mma_matrix<16x16xf16, "COp">) -> !gpu.mma_matrix<16x16xf16, "COp">
    gpu.subgroup_mma_store_matrix %z, %c[%c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xf16, "COp">, memref<16x16xf16>
    gpu.return
  }
  // CHECK-LABEL: .entry maxf_f16(
  // CHECK: setp.le.f16x2
  // CHECK: setp.nan.f16x2
  // CHECK: wmma.store.d.sync.aligned.row.m16n16k16.f16
  gpu.func @maxf_f16(%a: memref<16x16xf16>, %b: memref<16x16xf16>, %c: memref<16x16xf16>) kernel {
    %c0 = arith.constant 0 : index
    %x = gpu.subgroup_mma_load_matrix %a[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf16> -> !gpu.mma_matrix<16x16xf16, "COp">
    %y = gpu.subgroup_mma_load_matrix %b[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf16> -> !gpu.mma_matrix<16x16xf16, "COp">
    %z = gpu.subgroup_mma_elementwise maxf %x, %y : (!gpu.mma_matrix<16x16xf16, "COp">, !gpu.mma_matrix<16x16xf16, "COp">) -> !gpu.mma_matrix<16x16xf16, "COp">
    gpu.subgroup_mma_store_matrix %z, %c[%c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xf16, "COp">, memref<16x16xf16>
    gpu.return
  }
  // CHECK-LABEL: .entry minf_f16(
  // CHECK: setp.ge.f16x2
  // CHECK: setp.nan.f16x2
  // CHECK: wmma.store.d.sync.aligned.row.m16n16k16.f16
  gpu.func @minf_f16(%a: memref<16x16xf16>, %b: memref<16x16xf16>, %c: memref<16x16xf16>) kernel {
    %c0 = arith.constant 0 : index
    %x = gpu.subgroup_mma_load_matrix %a[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf16> -> !gpu.mma_matrix<16x16xf16, "COp">
    %y = gpu.subgroup_mma_load_matrix %b[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf16> -> !gpu.mma_matrix<16x16xf16, "COp">
    %z = gpu.subgroup_mma_elementwise minf %x, %y : (!gpu.mma_matrix<16x16xf16, "COp">, !gpu.mma_matrix<16x16xf16, "COp">) -> !gpu.mma_matrix<16x16xf16, "COp">
    gpu.subgroup_mma_store_matrix %z, %c[%c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xf16, "COp">, memref<16x16xf16>
    gpu.return
  }
  // CHECK-LABEL: .entry divf_f16(
  // CHECK-COUNT-8: div.rn.f32
  // CHECK: wmma.store.d.sync.aligned.row.m16n16k16.f16
  gpu.func @divf_f16(%a: memref<16x16xf16>, %b: memref<16x16xf16>, %c: memref<16x16xf16>) kernel {
    %c0 = arith.constant 0 : index
    %x = gpu.subgroup_mma_load_matrix %a[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf16> -> !gpu.mma_matrix<16x16xf16, "COp">
    %y = gpu.subgroup_mma_load_matrix %b[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf16> -> !gpu.mma_matrix<16x16xf16, "COp">
    %z = gpu.subgroup_mma_elementwise divf %x, %y : (!gpu.mma_matrix<16x16xf16, "COp">, !gpu.mma_matrix<16x16xf16, "COp">) -> !gpu.mma_matrix<16x16xf16, "COp">
    gpu.subgroup_mma_store_matrix %z, %c[%c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xf16, "COp">, memref<16x16xf16>
    gpu.return
  }
  // CHECK-LABEL: .entry negatef_f16(
  // CHECK-COUNT-4: neg.f16x2
  // CHECK: wmma.store.d.sync.aligned.row.m16n16k16.f16
  gpu.func @negatef_f16(%a: memref<16x16xf16>, %b: memref<16x16xf16>, %c: memref<16x16xf16>) kernel {
    %c0 = arith.constant 0 : index
    %x = gpu.subgroup_mma_load_matrix %a[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf16> -> !gpu.mma_matrix<16x16xf16, "COp">
    %y = gpu.subgroup_mma_load_matrix %b[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf16> -> !gpu.mma_matrix<16x16xf16, "COp">
    %z = gpu.subgroup_mma_elementwise negatef %x : (!gpu.mma_matrix<16x16xf16, "COp">) -> !gpu.mma_matrix<16x16xf16, "COp">
    gpu.subgroup_mma_store_matrix %z, %c[%c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xf16, "COp">, memref<16x16xf16>
    gpu.return
  }
  // CHECK-LABEL: .entry addf_f32(
  // CHECK-COUNT-8: add.rn.f32
  // CHECK: wmma.store.d.sync.aligned.row.m16n16k16.f32
  gpu.func @addf_f32(%a: memref<16x16xf32>, %b: memref<16x16xf32>, %c: memref<16x16xf32>) kernel {
    %c0 = arith.constant 0 : index
    %x = gpu.subgroup_mma_load_matrix %a[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf32> -> !gpu.mma_matrix<16x16xf32, "COp">
    %y = gpu.subgroup_mma_load_matrix %b[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf32> -> !gpu.mma_matrix<16x16xf32, "COp">
    %z = gpu.subgroup_mma_elementwise addf %x, %y : (!gpu.mma_matrix<16x16xf32, "COp">, !gpu.mma_matrix<16x16xf32, "COp">) -> !gpu.mma_matrix<16x16xf32, "COp">
    gpu.subgroup_mma_store_matrix %z, %c[%c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xf32, "COp">, memref<16x16xf32>
    gpu.return
  }
  // CHECK-LABEL: .entry mulf_f32(
  // CHECK-COUNT-8: mul.rn.f32
  // CHECK: wmma.store.d.sync.aligned.row.m16n16k16.f32
  gpu.func @mulf_f32(%a: memref<16x16xf32>, %b: memref<16x16xf32>, %c: memref<16x16xf32>) kernel {
    %c0 = arith.constant 0 : index
    %x = gpu.subgroup_mma_load_matrix %a[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf32> -> !gpu.mma_matrix<16x16xf32, "COp">
    %y = gpu.subgroup_mma_load_matrix %b[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf32> -> !gpu.mma_matrix<16x16xf32, "COp">
    %z = gpu.subgroup_mma_elementwise mulf %x, %y : (!gpu.mma_matrix<16x16xf32, "COp">, !gpu.mma_matrix<16x16xf32, "COp">) -> !gpu.mma_matrix<16x16xf32, "COp">
    gpu.subgroup_mma_store_matrix %z, %c[%c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xf32, "COp">, memref<16x16xf32>
    gpu.return
  }
  // CHECK-LABEL: .entry subf_f32(
  // CHECK-COUNT-8: sub.rn.f32
  // CHECK: wmma.store.d.sync.aligned.row.m16n16k16.f32
  gpu.func @subf_f32(%a: memref<16x16xf32>, %b: memref<16x16xf32>, %c: memref<16x16xf32>) kernel {
    %c0 = arith.constant 0 : index
    %x = gpu.subgroup_mma_load_matrix %a[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf32> -> !gpu.mma_matrix<16x16xf32, "COp">
    %y = gpu.subgroup_mma_load_matrix %b[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf32> -> !gpu.mma_matrix<16x16xf32, "COp">
    %z = gpu.subgroup_mma_elementwise subf %x, %y : (!gpu.mma_matrix<16x16xf32, "COp">, !gpu.mma_matrix<16x16xf32, "COp">) -> !gpu.mma_matrix<16x16xf32, "COp">
    gpu.subgroup_mma_store_matrix %z, %c[%c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xf32, "COp">, memref<16x16xf32>
    gpu.return
  }
  // CHECK-LABEL: .entry maxf_f32(
  // CHECK-COUNT-8: setp.nan.f32
  // CHECK: wmma.store.d.sync.aligned.row.m16n16k16.f32
  gpu.func @maxf_f32(%a: memref<16x16xf32>, %b: memref<16x16xf32>, %c: memref<16x16xf32>) kernel {
    %c0 = arith.constant 0 : index
    %x = gpu.subgroup_mma_load_matrix %a[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf32> -> !gpu.mma_matrix<16x16xf32, "COp">
    %y = gpu.subgroup_mma_load_matrix %b[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf32> -> !gpu.mma_matrix<16x16xf32, "COp">
    %z = gpu.subgroup_mma_elementwise maxf %x, %y : (!gpu.mma_matrix<16x16xf32, "COp">, !gpu.mma_matrix<16x16xf32, "COp">) -> !gpu.mma_matrix<16x16xf32, "COp">
    gpu.subgroup_mma_store_matrix %z, %c[%c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xf32, "COp">, memref<16x16xf32>
    gpu.return
  }
  // CHECK-LABEL: .entry minf_f32(
  // CHECK-COUNT-8: setp.nan.f32
  // CHECK: wmma.store.d.sync.aligned.row.m16n16k16.f32
  gpu.func @minf_f32(%a: memref<16x16xf32>, %b: memref<16x16xf32>, %c: memref<16x16xf32>) kernel {
    %c0 = arith.constant 0 : index
    %x = gpu.subgroup_mma_load_matrix %a[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf32> -> !gpu.mma_matrix<16x16xf32, "COp">
    %y = gpu.subgroup_mma_load_matrix %b[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf32> -> !gpu.mma_matrix<16x16xf32, "COp">
    %z = gpu.subgroup_mma_elementwise minf %x, %y : (!gpu.mma_matrix<16x16xf32, "COp">, !gpu.mma_matrix<16x16xf32, "COp">) -> !gpu.mma_matrix<16x16xf32, "COp">
    gpu.subgroup_mma_store_matrix %z, %c[%c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xf32, "COp">, memref<16x16xf32>
    gpu.return
  }
  // CHECK-LABEL: .entry divf_f32(
  // CHECK-COUNT-8: div.rn.f32
  // CHECK: wmma.store.d.sync.aligned.row.m16n16k16.f32
  gpu.func @divf_f32(%a: memref<16x16xf32>, %b: memref<16x16xf32>, %c: memref<16x16xf32>) kernel {
    %c0 = arith.constant 0 : index
    %x = gpu.subgroup_mma_load_matrix %a[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf32> -> !gpu.mma_matrix<16x16xf32, "COp">
    %y = gpu.subgroup_mma_load_matrix %b[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf32> -> !gpu.mma_matrix<16x16xf32, "COp">
    %z = gpu.subgroup_mma_elementwise divf %x, %y : (!gpu.mma_matrix<16x16xf32, "COp">, !gpu.mma_matrix<16x16xf32, "COp">) -> !gpu.mma_matrix<16x16xf32, "COp">
    gpu.subgroup_mma_store_matrix %z, %c[%c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xf32, "COp">, memref<16x16xf32>
    gpu.return
  }
  // CHECK-LABEL: .entry negatef_f32(
  // CHECK-COUNT-8: neg.f32
  // CHECK: wmma.store.d.sync.aligned.row.m16n16k16.f32
  gpu.func @negatef_f32(%a: memref<16x16xf32>, %b: memref<16x16xf32>, %c: memref<16x16xf32>) kernel {
    %c0 = arith.constant 0 : index
    %x = gpu.subgroup_mma_load_matrix %a[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf32> -> !gpu.mma_matrix<16x16xf32, "COp">
    %y = gpu.subgroup_mma_load_matrix %b[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf32> -> !gpu.mma_matrix<16x16xf32, "COp">
    %z = gpu.subgroup_mma_elementwise negatef %x : (!gpu.mma_matrix<16x16xf32, "COp">) -> !gpu.mma_matrix<16x16xf32, "COp">
    gpu.subgroup_mma_store_matrix %z, %c[%c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xf32, "COp">, memref<16x16xf32>
    gpu.return
  }
  // CHECK-LABEL: .entry extf_f16(
  // CHECK: wmma.load.c.sync.aligned.row.m16n16k16.f16
  // CHECK-COUNT-8: cvt.f32.f16
  // CHECK: wmma.store.d.sync.aligned.row.m16n16k16.f32
  gpu.func @extf_f16(%a: memref<16x16xf16>, %b: memref<16x16xf16>, %c: memref<16x16xf32>) kernel {
    %c0 = arith.constant 0 : index
    %x = gpu.subgroup_mma_load_matrix %a[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf16> -> !gpu.mma_matrix<16x16xf16, "COp">
    %y = gpu.subgroup_mma_load_matrix %b[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf16> -> !gpu.mma_matrix<16x16xf16, "COp">
    %z = gpu.subgroup_mma_elementwise extf %x : (!gpu.mma_matrix<16x16xf16, "COp">) -> !gpu.mma_matrix<16x16xf32, "COp">
    gpu.subgroup_mma_store_matrix %z, %c[%c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xf32, "COp">, memref<16x16xf32>
    gpu.return
  }
  // CHECK-LABEL: .entry addi_i32(
  // CHECK-COUNT-8: add.s32
  // CHECK: wmma.store.d.sync.aligned.row.m16n16k16.s32
  gpu.func @addi_i32(%a: memref<16x16xi32>, %b: memref<16x16xi32>, %c: memref<16x16xi32>) kernel {
    %c0 = arith.constant 0 : index
    %x = gpu.subgroup_mma_load_matrix %a[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xi32> -> !gpu.mma_matrix<16x16xi32, "COp">
    %y = gpu.subgroup_mma_load_matrix %b[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xi32> -> !gpu.mma_matrix<16x16xi32, "COp">
    %z = gpu.subgroup_mma_elementwise addi %x, %y : (!gpu.mma_matrix<16x16xi32, "COp">, !gpu.mma_matrix<16x16xi32, "COp">) -> !gpu.mma_matrix<16x16xi32, "COp">
    gpu.subgroup_mma_store_matrix %z, %c[%c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xi32, "COp">, memref<16x16xi32>
    gpu.return
  }
  // CHECK-LABEL: .entry muli_i32(
  // CHECK-COUNT-8: mul.lo.s32
  // CHECK: wmma.store.d.sync.aligned.row.m16n16k16.s32
  gpu.func @muli_i32(%a: memref<16x16xi32>, %b: memref<16x16xi32>, %c: memref<16x16xi32>) kernel {
    %c0 = arith.constant 0 : index
    %x = gpu.subgroup_mma_load_matrix %a[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xi32> -> !gpu.mma_matrix<16x16xi32, "COp">
    %y = gpu.subgroup_mma_load_matrix %b[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xi32> -> !gpu.mma_matrix<16x16xi32, "COp">
    %z = gpu.subgroup_mma_elementwise muli %x, %y : (!gpu.mma_matrix<16x16xi32, "COp">, !gpu.mma_matrix<16x16xi32, "COp">) -> !gpu.mma_matrix<16x16xi32, "COp">
    gpu.subgroup_mma_store_matrix %z, %c[%c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xi32, "COp">, memref<16x16xi32>
    gpu.return
  }
  // CHECK-LABEL: .entry subi_i32(
  // CHECK-COUNT-8: sub.s32
  // CHECK: wmma.store.d.sync.aligned.row.m16n16k16.s32
  gpu.func @subi_i32(%a: memref<16x16xi32>, %b: memref<16x16xi32>, %c: memref<16x16xi32>) kernel {
    %c0 = arith.constant 0 : index
    %x = gpu.subgroup_mma_load_matrix %a[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xi32> -> !gpu.mma_matrix<16x16xi32, "COp">
    %y = gpu.subgroup_mma_load_matrix %b[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xi32> -> !gpu.mma_matrix<16x16xi32, "COp">
    %z = gpu.subgroup_mma_elementwise subi %x, %y : (!gpu.mma_matrix<16x16xi32, "COp">, !gpu.mma_matrix<16x16xi32, "COp">) -> !gpu.mma_matrix<16x16xi32, "COp">
    gpu.subgroup_mma_store_matrix %z, %c[%c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xi32, "COp">, memref<16x16xi32>
    gpu.return
  }
  // CHECK-LABEL: .entry divs_i32(
  // CHECK-COUNT-8: div.s32
  // CHECK: wmma.store.d.sync.aligned.row.m16n16k16.s32
  gpu.func @divs_i32(%a: memref<16x16xi32>, %b: memref<16x16xi32>, %c: memref<16x16xi32>) kernel {
    %c0 = arith.constant 0 : index
    %x = gpu.subgroup_mma_load_matrix %a[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xi32> -> !gpu.mma_matrix<16x16xi32, "COp">
    %y = gpu.subgroup_mma_load_matrix %b[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xi32> -> !gpu.mma_matrix<16x16xi32, "COp">
    %z = gpu.subgroup_mma_elementwise divs %x, %y : (!gpu.mma_matrix<16x16xi32, "COp">, !gpu.mma_matrix<16x16xi32, "COp">) -> !gpu.mma_matrix<16x16xi32, "COp">
    gpu.subgroup_mma_store_matrix %z, %c[%c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xi32, "COp">, memref<16x16xi32>
    gpu.return
  }
  // CHECK-LABEL: .entry divu_i32(
  // CHECK-COUNT-8: div.u32
  // CHECK: wmma.store.d.sync.aligned.row.m16n16k16.s32
  gpu.func @divu_i32(%a: memref<16x16xi32>, %b: memref<16x16xi32>, %c: memref<16x16xi32>) kernel {
    %c0 = arith.constant 0 : index
    %x = gpu.subgroup_mma_load_matrix %a[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xi32> -> !gpu.mma_matrix<16x16xi32, "COp">
    %y = gpu.subgroup_mma_load_matrix %b[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xi32> -> !gpu.mma_matrix<16x16xi32, "COp">
    %z = gpu.subgroup_mma_elementwise divu %x, %y : (!gpu.mma_matrix<16x16xi32, "COp">, !gpu.mma_matrix<16x16xi32, "COp">) -> !gpu.mma_matrix<16x16xi32, "COp">
    gpu.subgroup_mma_store_matrix %z, %c[%c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xi32, "COp">, memref<16x16xi32>
    gpu.return
  }
  // CHECK-LABEL: .entry negates_i32(
  // CHECK-COUNT-8: neg.s32
  // CHECK: wmma.store.d.sync.aligned.row.m16n16k16.s32
  gpu.func @negates_i32(%a: memref<16x16xi32>, %b: memref<16x16xi32>, %c: memref<16x16xi32>) kernel {
    %c0 = arith.constant 0 : index
    %x = gpu.subgroup_mma_load_matrix %a[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xi32> -> !gpu.mma_matrix<16x16xi32, "COp">
    %y = gpu.subgroup_mma_load_matrix %b[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xi32> -> !gpu.mma_matrix<16x16xi32, "COp">
    %z = gpu.subgroup_mma_elementwise negates %x : (!gpu.mma_matrix<16x16xi32, "COp">) -> !gpu.mma_matrix<16x16xi32, "COp">
    gpu.subgroup_mma_store_matrix %z, %c[%c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xi32, "COp">, memref<16x16xi32>
    gpu.return
  }
  // CHECK-LABEL: .entry maxf_f64(
  // CHECK-COUNT-2: setp.nan.f64
  // CHECK: wmma.store.d.sync.aligned.row.m8n8k4.f64
  gpu.func @maxf_f64(%a: memref<8x8xf64>, %b: memref<8x8xf64>, %c: memref<8x8xf64>) kernel {
    %c0 = arith.constant 0 : index
    %x = gpu.subgroup_mma_load_matrix %a[%c0, %c0] {leadDimension = 8 : index} : memref<8x8xf64> -> !gpu.mma_matrix<8x8xf64, "COp">
    %y = gpu.subgroup_mma_load_matrix %b[%c0, %c0] {leadDimension = 8 : index} : memref<8x8xf64> -> !gpu.mma_matrix<8x8xf64, "COp">
    %z = gpu.subgroup_mma_elementwise maxf %x, %y : (!gpu.mma_matrix<8x8xf64, "COp">, !gpu.mma_matrix<8x8xf64, "COp">) -> !gpu.mma_matrix<8x8xf64, "COp">
    gpu.subgroup_mma_store_matrix %z, %c[%c0, %c0] {leadDimension = 8 : index} : !gpu.mma_matrix<8x8xf64, "COp">, memref<8x8xf64>
    gpu.return
  }
  // CHECK-LABEL: .entry maxf_negatef_f16_ab(
  // CHECK: setp.nan.f16x2
  // CHECK-COUNT-8: neg.f16x2
  // CHECK: wmma.mma.sync.aligned.row.row.m16n16k16.f32.f32
  gpu.func @maxf_negatef_f16_ab(%a: memref<16x16xf16>, %b: memref<16x16xf16>, %c: memref<16x16xf32>) kernel {
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %x = gpu.subgroup_mma_load_matrix %a[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf16> -> !gpu.mma_matrix<16x16xf16, "AOp">
    %x2 = gpu.subgroup_mma_load_matrix %b[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf16> -> !gpu.mma_matrix<16x16xf16, "AOp">
    %y = gpu.subgroup_mma_load_matrix %b[%c8, %c0] {leadDimension = 16 : index} : memref<16x16xf16> -> !gpu.mma_matrix<16x16xf16, "BOp">
    %y2 = gpu.subgroup_mma_load_matrix %a[%c8, %c0] {leadDimension = 16 : index} : memref<16x16xf16> -> !gpu.mma_matrix<16x16xf16, "BOp">
    %acc = gpu.subgroup_mma_load_matrix %c[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf32> -> !gpu.mma_matrix<16x16xf32, "COp">
    %xa = gpu.subgroup_mma_elementwise maxf %x, %x2 : (!gpu.mma_matrix<16x16xf16, "AOp">, !gpu.mma_matrix<16x16xf16, "AOp">) -> !gpu.mma_matrix<16x16xf16, "AOp">
    %yb = gpu.subgroup_mma_elementwise negatef %y : (!gpu.mma_matrix<16x16xf16, "BOp">) -> !gpu.mma_matrix<16x16xf16, "BOp">
    %r = gpu.subgroup_mma_compute %xa, %yb, %acc : !gpu.mma_matrix<16x16xf16, "AOp">, !gpu.mma_matrix<16x16xf16, "BOp"> -> !gpu.mma_matrix<16x16xf32, "COp">
    gpu.subgroup_mma_store_matrix %r, %c[%c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xf32, "COp">, memref<16x16xf32>
    gpu.return
  }
  // CHECK-LABEL: .entry subf_minf_tf32_ab(
  // CHECK-COUNT-4: sub.rn.f32
  // CHECK-COUNT-4: setp.nan.f32
  // CHECK: wmma.mma.sync.aligned.row.row.m16n16k8.f32.tf32.tf32.f32
  gpu.func @subf_minf_tf32_ab(%a: memref<16x16xf32>, %b: memref<16x16xf32>, %c: memref<16x16xf32>) kernel {
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %x = gpu.subgroup_mma_load_matrix %a[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf32> -> !gpu.mma_matrix<16x8xf32, "AOp">
    %x2 = gpu.subgroup_mma_load_matrix %b[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf32> -> !gpu.mma_matrix<16x8xf32, "AOp">
    %y = gpu.subgroup_mma_load_matrix %b[%c8, %c0] {leadDimension = 16 : index} : memref<16x16xf32> -> !gpu.mma_matrix<8x16xf32, "BOp">
    %y2 = gpu.subgroup_mma_load_matrix %a[%c8, %c0] {leadDimension = 16 : index} : memref<16x16xf32> -> !gpu.mma_matrix<8x16xf32, "BOp">
    %acc = gpu.subgroup_mma_load_matrix %c[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf32> -> !gpu.mma_matrix<16x16xf32, "COp">
    %xa = gpu.subgroup_mma_elementwise subf %x, %x2 : (!gpu.mma_matrix<16x8xf32, "AOp">, !gpu.mma_matrix<16x8xf32, "AOp">) -> !gpu.mma_matrix<16x8xf32, "AOp">
    %yb = gpu.subgroup_mma_elementwise minf %y, %y2 : (!gpu.mma_matrix<8x16xf32, "BOp">, !gpu.mma_matrix<8x16xf32, "BOp">) -> !gpu.mma_matrix<8x16xf32, "BOp">
    %r = gpu.subgroup_mma_compute %xa, %yb, %acc : !gpu.mma_matrix<16x8xf32, "AOp">, !gpu.mma_matrix<8x16xf32, "BOp"> -> !gpu.mma_matrix<16x16xf32, "COp">
    gpu.subgroup_mma_store_matrix %r, %c[%c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xf32, "COp">, memref<16x16xf32>
    gpu.return
  }
  // CHECK-LABEL: .entry negates_divs_s8_ab(
  // CHECK: neg.s16
  // CHECK: div.s16
  // CHECK: wmma.mma.sync.aligned.row.row.m16n16k16.s32.s8.s8.s32
  gpu.func @negates_divs_s8_ab(%a: memref<16x16xi8>, %b: memref<16x16xi8>, %c: memref<16x16xi32>) kernel {
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %x = gpu.subgroup_mma_load_matrix %a[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xi8> -> !gpu.mma_matrix<16x16xsi8, "AOp">
    %x2 = gpu.subgroup_mma_load_matrix %b[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xi8> -> !gpu.mma_matrix<16x16xsi8, "AOp">
    %y = gpu.subgroup_mma_load_matrix %b[%c8, %c0] {leadDimension = 16 : index} : memref<16x16xi8> -> !gpu.mma_matrix<16x16xsi8, "BOp">
    %y2 = gpu.subgroup_mma_load_matrix %a[%c8, %c0] {leadDimension = 16 : index} : memref<16x16xi8> -> !gpu.mma_matrix<16x16xsi8, "BOp">
    %acc = gpu.subgroup_mma_load_matrix %c[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xi32> -> !gpu.mma_matrix<16x16xi32, "COp">
    %xa = gpu.subgroup_mma_elementwise negates %x : (!gpu.mma_matrix<16x16xsi8, "AOp">) -> !gpu.mma_matrix<16x16xsi8, "AOp">
    %yb = gpu.subgroup_mma_elementwise divs %y, %y2 : (!gpu.mma_matrix<16x16xsi8, "BOp">, !gpu.mma_matrix<16x16xsi8, "BOp">) -> !gpu.mma_matrix<16x16xsi8, "BOp">
    %r = gpu.subgroup_mma_compute %xa, %yb, %acc : !gpu.mma_matrix<16x16xsi8, "AOp">, !gpu.mma_matrix<16x16xsi8, "BOp"> -> !gpu.mma_matrix<16x16xi32, "COp">
    gpu.subgroup_mma_store_matrix %r, %c[%c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xi32, "COp">, memref<16x16xi32>
    gpu.return
  }
}
