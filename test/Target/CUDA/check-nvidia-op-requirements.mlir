// RUN: gpumem-opt %s -split-input-file --pass-pipeline="builtin.module(gpu.module(gpumem-check-nvidia-op-requirements))" -verify-diagnostics

// Each op against the chip and PTX version of its gpu.module's #nvvm.target:
// one case per requirement, and the same ops on a chip that has them.

// tf32 matrices need sm_80 (NVPTX: "Cannot select ... wmma.m16n16k8.mma ...
// tf32" on sm_75).
gpu.module @tf32 [#nvvm.target<chip = "sm_75">] {
  gpu.func @k(%a: memref<16x8xf32>, %b: memref<8x16xf32>, %c: memref<16x16xf32>) kernel {
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{'gpu.subgroup_mma_load_matrix' op needs sm_80 or newer for an A matrix of 16x8 tf32; the target chip is sm_75}}
    %x = gpu.subgroup_mma_load_matrix %a[%c0, %c0] {leadDimension = 8 : index} : memref<16x8xf32> -> !gpu.mma_matrix<16x8xf32, "AOp">
    // expected-error @+1 {{'gpu.subgroup_mma_load_matrix' op needs sm_80 or newer for a B matrix of 8x16 tf32; the target chip is sm_75}}
    %y = gpu.subgroup_mma_load_matrix %b[%c0, %c0] {leadDimension = 16 : index} : memref<8x16xf32> -> !gpu.mma_matrix<8x16xf32, "BOp">
    %z = gpu.subgroup_mma_load_matrix %c[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf32> -> !gpu.mma_matrix<16x16xf32, "COp">
    // expected-error @+1 {{'gpu.subgroup_mma_compute' op needs sm_80 or newer for m16n16k8 tf32 matrices; the target chip is sm_75}}
    %r = gpu.subgroup_mma_compute %x, %y, %z : !gpu.mma_matrix<16x8xf32, "AOp">, !gpu.mma_matrix<8x16xf32, "BOp"> -> !gpu.mma_matrix<16x16xf32, "COp">
    gpu.subgroup_mma_store_matrix %r, %c[%c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xf32, "COp">, memref<16x16xf32>
    gpu.return
  }
}

// -----

// f64 matrices need sm_80 too.
gpu.module @f64 [#nvvm.target<chip = "sm_75">] {
  gpu.func @k(%c: memref<8x8xf64>) kernel {
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{'gpu.subgroup_mma_load_matrix' op needs sm_80 or newer for a C matrix of 8x8 f64; the target chip is sm_75}}
    %z = gpu.subgroup_mma_load_matrix %c[%c0, %c0] {leadDimension = 8 : index} : memref<8x8xf64> -> !gpu.mma_matrix<8x8xf64, "COp">
    // expected-error @+1 {{'gpu.subgroup_mma_store_matrix' op needs sm_80 or newer for a C matrix of 8x8 f64; the target chip is sm_75}}
    gpu.subgroup_mma_store_matrix %z, %c[%c0, %c0] {leadDimension = 8 : index} : !gpu.mma_matrix<8x8xf64, "COp">, memref<8x8xf64>
    gpu.return
  }
}

// -----

// s8 and u8 matrices need sm_72 ...
gpu.module @s8 [#nvvm.target<chip = "sm_70", features = "+ptx63">] {
  gpu.func @k(%a: memref<16x16xi8>, %c: memref<16x16xi32>) kernel {
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{'gpu.subgroup_mma_load_matrix' op needs sm_72 or newer for an A matrix of 16x16 s8; the target chip is sm_70}}
    %x = gpu.subgroup_mma_load_matrix %a[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xi8> -> !gpu.mma_matrix<16x16xsi8, "AOp">
    // expected-error @+1 {{'gpu.subgroup_mma_load_matrix' op needs sm_72 or newer for a B matrix of 16x16 u8; the target chip is sm_70}}
    %y = gpu.subgroup_mma_load_matrix %a[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xi8> -> !gpu.mma_matrix<16x16xui8, "BOp">
    gpu.return
  }
}

// -----

// ... and PTX 6.3, newer than sm_72's minimum.
gpu.module @s8_ptx [#nvvm.target<chip = "sm_72", features = "+ptx61">] {
  gpu.func @k(%c: memref<16x16xi32>) kernel {
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{'gpu.subgroup_mma_load_matrix' op needs PTX 6.3 or later for a C matrix of 16x16 s32; the target is sm_72 with PTX 6.1 (features=+ptx63 raises it)}}
    %z = gpu.subgroup_mma_load_matrix %c[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xi32> -> !gpu.mma_matrix<16x16xi32, "COp">
    gpu.return
  }
}

// -----

// f16 runs on sm_70, but its 32x8 and 8x32 shapes need PTX 6.1, and no
// +ptxNN means the chip's minimum (PTX 6.0 for sm_70).
gpu.module @f16_ptx [#nvvm.target<chip = "sm_70">] {
  gpu.func @k(%c: memref<32x8xf16>) kernel {
    %c0 = arith.constant 0 : index
    %f = arith.constant 0.0 : f16
    // expected-error @+1 {{'gpu.subgroup_mma_constant_matrix' op needs PTX 6.1 or later for a C matrix of 32x8 f16; the target is sm_70 with PTX 6.0 (features=+ptx61 raises it)}}
    %z = gpu.subgroup_mma_constant_matrix %f : !gpu.mma_matrix<32x8xf16, "COp">
    gpu.return
  }
}

// -----

// Shapes and types no NVIDIA tensor core has, or that upstream's lowering
// does not take (its s8 fragments of 32x8 and 8x32 shapes have the wrong
// number of registers), on a chip that has the rest.
gpu.module @shapes [#nvvm.target<chip = "sm_90">] {
  gpu.func @k(%a: memref<32x16xi8>, %h: memref<16x16xf16>, %c: memref<16x16xf32>) kernel {
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{'gpu.subgroup_mma_load_matrix' op has an A matrix of 32x16 s8, a shape gpumem's NVIDIA tensor-core lowering does not take; s8 A matrices may be 16x16}}
    %x = gpu.subgroup_mma_load_matrix %a[%c0, %c0] {leadDimension = 16 : index} : memref<32x16xi8> -> !gpu.mma_matrix<32x16xsi8, "AOp">
    // expected-error @+1 {{'gpu.subgroup_mma_load_matrix' op has an A matrix of 16x8 f16, a shape gpumem's NVIDIA tensor-core lowering does not take; f16 A matrices may be 16x16, 32x16 or 8x16}}
    %y = gpu.subgroup_mma_load_matrix %h[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf16> -> !gpu.mma_matrix<16x8xf16, "AOp">
    // expected-error @+1 {{'gpu.subgroup_mma_load_matrix' op has an A matrix of s32, which no NVIDIA tensor-core instruction takes}}
    %i = gpu.subgroup_mma_load_matrix %c[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf32> -> !gpu.mma_matrix<16x16xi32, "AOp">
    gpu.return
  }
}

// -----

gpu.module @compute [#nvvm.target<chip = "sm_90">] {
  gpu.func @mixed(%x: !gpu.mma_matrix<16x16xsi8, "AOp">, %y: !gpu.mma_matrix<16x16xui8, "BOp">, %z: !gpu.mma_matrix<16x16xi32, "COp">) {
    // expected-error @+1 {{'gpu.subgroup_mma_compute' op multiplies s8 by u8 matrices; NVIDIA tensor cores take A and B matrices of one element type}}
    %r = gpu.subgroup_mma_compute %x, %y, %z : !gpu.mma_matrix<16x16xsi8, "AOp">, !gpu.mma_matrix<16x16xui8, "BOp"> -> !gpu.mma_matrix<16x16xi32, "COp">
    gpu.return
  }
  gpu.func @tf32_in_f16(%x: !gpu.mma_matrix<16x8xf32, "AOp">, %y: !gpu.mma_matrix<8x16xf32, "BOp">, %z: !gpu.mma_matrix<16x16xf16, "COp">) {
    // expected-error @+1 {{'gpu.subgroup_mma_compute' op accumulates tf32 products in f16, which NVIDIA tensor cores do not; they take f32}}
    %r = gpu.subgroup_mma_compute %x, %y, %z : !gpu.mma_matrix<16x8xf32, "AOp">, !gpu.mma_matrix<8x16xf32, "BOp"> -> !gpu.mma_matrix<16x16xf16, "COp">
    gpu.return
  }
  gpu.func @s8_32x8(%x: !gpu.mma_matrix<32x16xsi8, "AOp">, %y: !gpu.mma_matrix<16x8xsi8, "BOp">, %z: !gpu.mma_matrix<32x8xi32, "COp">) {
    // expected-error @+1 {{'gpu.subgroup_mma_compute' op multiplies m32n8k16 s8 matrices, which upstream's NVVM lowering does not take; s8 matrices take m16n16k16}}
    %r = gpu.subgroup_mma_compute %x, %y, %z : !gpu.mma_matrix<32x16xsi8, "AOp">, !gpu.mma_matrix<16x8xsi8, "BOp"> -> !gpu.mma_matrix<32x8xi32, "COp">
    gpu.return
  }
}

// -----

// nvgpu's warp-level mma by shape: m16n8k16 f16 is sm_80, m16n8k8 f16 is
// sm_75 with PTX 6.5; ldmatrix is sm_75 and PTX 6.5.
gpu.module @mma_sync [#nvvm.target<chip = "sm_75">] {
  gpu.func @k16(%a: vector<4x2xf16>, %b: vector<2x2xf16>, %c: vector<2x2xf32>) -> vector<2x2xf32> {
    // expected-error @+1 {{'nvgpu.mma.sync' op needs sm_80 or newer for m16n8k16 f16 matrices; the target chip is sm_75}}
    %d = nvgpu.mma.sync (%a, %b, %c) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
    gpu.return %d : vector<2x2xf32>
  }
  gpu.func @k8(%a: vector<2x2xf16>, %b: vector<1x2xf16>, %c: vector<2x2xf16>) -> vector<2x2xf16> {
    // expected-error @+1 {{'nvgpu.mma.sync' op needs PTX 6.5 or later for m16n8k8 f16 matrices; the target is sm_75 with PTX 6.3 (features=+ptx65 raises it)}}
    %d = nvgpu.mma.sync (%a, %b, %c) {mmaShape = [16, 8, 8]} : (vector<2x2xf16>, vector<1x2xf16>, vector<2x2xf16>) -> vector<2x2xf16>
    gpu.return %d : vector<2x2xf16>
  }
  gpu.func @ldmatrix(%s: memref<128x128xf16, 3>) -> vector<4x2xf16> {
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{'nvgpu.ldmatrix' op needs PTX 6.5 or later; the target is sm_75 with PTX 6.3 (features=+ptx65 raises it)}}
    %a = nvgpu.ldmatrix %s[%c0, %c0] {transpose = false, numTiles = 4 : i32} : memref<128x128xf16, 3> -> vector<4x2xf16>
    gpu.return %a : vector<4x2xf16>
  }
}

// -----

// Sparse mma is emitted as inline PTX, which ptxas rejects below PTX 7.1.
gpu.module @mma_sp [#nvvm.target<chip = "sm_80", features = "+ptx70">] {
  gpu.func @k(%a: vector<2x2xf16>, %b: vector<2x2xf16>, %c: vector<2x2xf16>, %s: vector<2xi16>) -> vector<2x2xf16> {
    // expected-error @+1 {{'nvgpu.mma.sp.sync' op needs PTX 7.1 or later; the target is sm_80 with PTX 7.0 (features=+ptx71 raises it)}}
    %d = nvgpu.mma.sp.sync (%a, %b, %c) metadata(%s) {mmaShape = [16, 8, 16]} : (vector<2x2xf16>, vector<2x2xf16>, vector<2x2xf16>) -> vector<2x2xf16>
    gpu.return %d : vector<2x2xf16>
  }
}

// -----

// Asynchronous copies and mbarriers are sm_80.
!barrier = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
gpu.module @async [#nvvm.target<chip = "sm_75">] {
  gpu.func @k(%src: memref<128xf32>) workgroup(%dst: memref<128xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %n = arith.constant 32 : index
    // expected-error @+1 {{'nvgpu.device_async_copy' op needs sm_80 or newer; the target chip is sm_75}}
    %0 = nvgpu.device_async_copy %src[%c0], %dst[%c0], 4 : memref<128xf32> to memref<128xf32, 3>
    // expected-error @+1 {{'nvgpu.device_async_create_group' op needs sm_80 or newer; the target chip is sm_75}}
    %1 = nvgpu.device_async_create_group %0
    // expected-error @+1 {{'nvgpu.device_async_wait' op needs sm_80 or newer; the target chip is sm_75}}
    nvgpu.device_async_wait %1 { numGroups = 1 : i32 }
    %b = nvgpu.mbarrier.create -> !barrier
    // expected-error @+1 {{'nvgpu.mbarrier.init' op needs sm_80 or newer; the target chip is sm_75}}
    nvgpu.mbarrier.init %b[%c0], %n : !barrier
    // expected-error @+1 {{'nvvm.cp.async.commit.group' op needs sm_80 or newer; the target chip is sm_75}}
    nvvm.cp.async.commit.group
    gpu.return
  }
}

// -----

// Transaction counts, parity waits, TMA and proxy fences are sm_90; all but
// parity waits also need PTX 8.0, newer than sm_90's minimum (7.8).
!barrier = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
!map = !nvgpu.tensormap.descriptor<tensor = memref<128xf32, 3>, swizzle = none, l2promo = none, oob = nan, interleave = none>
gpu.module @hopper_ptx [#nvvm.target<chip = "sm_90">] {
  gpu.func @k(%t: !map) workgroup(%buf: memref<128xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %n = arith.constant 32 : index
    %p = arith.constant false
    %b = nvgpu.mbarrier.create -> !barrier
    nvgpu.mbarrier.init %b[%c0], %n : !barrier
    // expected-error @+1 {{'nvgpu.mbarrier.arrive.expect_tx' op needs PTX 8.0 or later; the target is sm_90 with PTX 7.8 (features=+ptx80 raises it)}}
    nvgpu.mbarrier.arrive.expect_tx %b[%c0], %n : !barrier
    nvgpu.mbarrier.try_wait.parity %b[%c0], %p, %n : !barrier
    // expected-error @+1 {{'nvgpu.tma.async.load' op needs PTX 8.0 or later; the target is sm_90 with PTX 7.8 (features=+ptx80 raises it)}}
    nvgpu.tma.async.load %t[%c0], %b[%c0] to %buf : !map, !barrier -> memref<128xf32, 3>
    // expected-error @+1 {{'nvvm.fence.proxy' op needs PTX 8.0 or later; the target is sm_90 with PTX 7.8 (features=+ptx80 raises it)}}
    nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
    gpu.return
  }
}

// -----

!barrier = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
gpu.module @hopper [#nvvm.target<chip = "sm_89">] {
  gpu.func @k() kernel {
    %c0 = arith.constant 0 : index
    %n = arith.constant 32 : index
    %p = arith.constant false
    %b = nvgpu.mbarrier.create -> !barrier
    nvgpu.mbarrier.init %b[%c0], %n : !barrier
    // expected-error @+1 {{'nvgpu.mbarrier.try_wait.parity' op needs sm_90 or newer; the target chip is sm_89}}
    nvgpu.mbarrier.try_wait.parity %b[%c0], %p, %n : !barrier
    gpu.return
  }
}

// -----

// Warpgroup instructions exist on sm_90a only.
gpu.module @sm90a [#nvvm.target<chip = "sm_90", features = "+ptx80">] {
  gpu.func @k() kernel {
    // expected-error @+1 {{'nvvm.setmaxregister' op needs sm_90a (the arch-specific features of sm_90); the target chip is sm_90}}
    nvvm.setmaxregister increase 232
    gpu.return
  }
}

// -----

// NVVM's tensor-core ops written directly follow the same table.
gpu.module @nvvm [#nvvm.target<chip = "sm_75">] {
  llvm.func @w(%p: !llvm.ptr, %s: i32) {
    // expected-error @+1 {{'nvvm.wmma.load' op needs sm_80 or newer for m16n16k8 tf32 matrices; the target chip is sm_75}}
    %0 = nvvm.wmma.load %p, %s {eltype = #nvvm.mma_type<tf32>, frag = #nvvm.mma_frag<a>, k = 8 : i32, layout = #nvvm.mma_layout<row>, m = 16 : i32, n = 16 : i32} : (!llvm.ptr) -> !llvm.struct<(i32, i32, i32, i32)>
    llvm.return
  }
  llvm.func @m(%a: vector<2xf16>, %c: f32) -> !llvm.struct<(f32, f32, f32, f32)> {
    // expected-error @+1 {{'nvvm.mma.sync' op needs sm_80 or newer for m16n8k16 f16 matrices; the target chip is sm_75}}
    %d = nvvm.mma.sync A[%a, %a, %a, %a] B[%a, %a] C[%c, %c, %c, %c] {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, multiplicandAPtxType = #nvvm.mma_type<f16>, multiplicandBPtxType = #nvvm.mma_type<f16>, shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (vector<2xf16>, vector<2xf16>, f32) -> !llvm.struct<(f32, f32, f32, f32)>
    llvm.return %d : !llvm.struct<(f32, f32, f32, f32)>
  }
}

// -----

// The same ops on chips and PTX versions that have them, and a gpu.module
// with no NVVM target: no error.
!barrier = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
gpu.module @ampere [#nvvm.target<chip = "sm_80", features = "+ptx71">] {
  gpu.func @k(%a: memref<16x8xf32>, %c: memref<8x8xf64>, %src: memref<128xf32>) workgroup(%dst: memref<128xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %n = arith.constant 32 : index
    %x = gpu.subgroup_mma_load_matrix %a[%c0, %c0] {leadDimension = 8 : index} : memref<16x8xf32> -> !gpu.mma_matrix<16x8xf32, "AOp">
    %z = gpu.subgroup_mma_load_matrix %c[%c0, %c0] {leadDimension = 8 : index} : memref<8x8xf64> -> !gpu.mma_matrix<8x8xf64, "COp">
    %0 = nvgpu.device_async_copy %src[%c0], %dst[%c0], 4 : memref<128xf32> to memref<128xf32, 3>
    %b = nvgpu.mbarrier.create -> !barrier
    nvgpu.mbarrier.init %b[%c0], %n : !barrier
    gpu.return
  }
  gpu.func @sp(%a: vector<2x2xf16>, %b: vector<2x2xf16>, %c: vector<2x2xf16>, %s: vector<2xi16>) -> vector<2x2xf16> {
    %d = nvgpu.mma.sp.sync (%a, %b, %c) metadata(%s) {mmaShape = [16, 8, 16]} : (vector<2x2xf16>, vector<2x2xf16>, vector<2x2xf16>) -> vector<2x2xf16>
    gpu.return %d : vector<2x2xf16>
  }
}
gpu.module @turing_s8 [#nvvm.target<chip = "sm_72", features = "+ptx63">] {
  gpu.func @k(%c: memref<16x16xi32>) kernel {
    %c0 = arith.constant 0 : index
    %z = gpu.subgroup_mma_load_matrix %c[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xi32> -> !gpu.mma_matrix<16x16xi32, "COp">
    gpu.return
  }
}
gpu.module @no_target {
  gpu.func @k(%a: memref<16x8xf32>) kernel {
    %c0 = arith.constant 0 : index
    %x = gpu.subgroup_mma_load_matrix %a[%c0, %c0] {leadDimension = 8 : index} : memref<16x8xf32> -> !gpu.mma_matrix<16x8xf32, "AOp">
    gpu.return
  }
}
gpu.module @hopper_a [#nvvm.target<chip = "sm_90a", features = "+ptx80">] {
  gpu.func @k() kernel {
    nvvm.setmaxregister increase 232
    nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
    gpu.return
  }
}

// -----

// A device function that takes a matrix no tensor-core fragment holds: its
// empty register struct crashed NVPTX's argument lowering.
gpu.module @fragment_argument [#nvvm.target<chip = "sm_90">] {
  // expected-error @+1 {{'gpu.func' op has an A matrix of 1x1 s8, a shape gpumem's NVIDIA tensor-core lowering does not take}}
  gpu.func @takes(%x: !gpu.mma_matrix<1x1xsi8, "AOp">) {
    gpu.return
  }
}
