// RUN: gpumem-opt %s -split-input-file --pass-pipeline="builtin.module(gpu.module(gpumem-lower-mma-elementwise-for-nvvm))" -verify-diagnostics
// The whole NVIDIA pipeline reports the op's place and stops, no crash:
// RUN: not gpumem-opt %s -split-input-file --gpumem-cuda-pipeline="chip=sm_90 format=isa" 2>&1 | FileCheck %s
// RUN: not gpumem-opt %s -split-input-file --gpumem-cuda-emu-pipeline 2>&1 | FileCheck %s
// CHECK: lower-mma-elementwise-for-nvvm-invalid.mlir:[[@LINE+9]]:10: error: 'gpu.subgroup_mma_elementwise' op addf takes 2 matrices, got 1
// CHECK-COUNT-8: error: 'gpu.subgroup_mma_elementwise' op
// CHECK-NOT: {{Stack dump|LLVM ERROR}}

// What the verifier leaves open and no NVIDIA fragment can do.

gpu.module @m {
  gpu.func @one_operand(%x: !gpu.mma_matrix<16x16xf16, "COp">) -> !gpu.mma_matrix<16x16xf16, "COp"> {
    // expected-error @+1 {{'gpu.subgroup_mma_elementwise' op addf takes 2 matrices, got 1}}
    %y = gpu.subgroup_mma_elementwise addf %x : (!gpu.mma_matrix<16x16xf16, "COp">) -> !gpu.mma_matrix<16x16xf16, "COp">
    gpu.return %y : !gpu.mma_matrix<16x16xf16, "COp">
  }
}

// -----

gpu.module @m {
  gpu.func @no_operand() -> !gpu.mma_matrix<16x16xf16, "COp"> {
    // expected-error @+1 {{'gpu.subgroup_mma_elementwise' op negatef takes 1 matrix, got 0}}
    %y = gpu.subgroup_mma_elementwise negatef : () -> !gpu.mma_matrix<16x16xf16, "COp">
    gpu.return %y : !gpu.mma_matrix<16x16xf16, "COp">
  }
}

// -----

gpu.module @m {
  gpu.func @float_kind_on_integers(%x: !gpu.mma_matrix<16x16xi32, "COp">) -> !gpu.mma_matrix<16x16xi32, "COp"> {
    // expected-error @+1 {{'gpu.subgroup_mma_elementwise' op maxf needs floating-point matrices, got '!gpu.mma_matrix<16x16xi32, "COp">'}}
    %y = gpu.subgroup_mma_elementwise maxf %x, %x : (!gpu.mma_matrix<16x16xi32, "COp">, !gpu.mma_matrix<16x16xi32, "COp">) -> !gpu.mma_matrix<16x16xi32, "COp">
    gpu.return %y : !gpu.mma_matrix<16x16xi32, "COp">
  }
}

// -----

gpu.module @m {
  gpu.func @integer_kind_on_floats(%x: !gpu.mma_matrix<16x16xf16, "AOp">) -> !gpu.mma_matrix<16x16xf16, "AOp"> {
    // expected-error @+1 {{'gpu.subgroup_mma_elementwise' op negates needs integer matrices, got '!gpu.mma_matrix<16x16xf16, "AOp">'}}
    %y = gpu.subgroup_mma_elementwise negates %x : (!gpu.mma_matrix<16x16xf16, "AOp">) -> !gpu.mma_matrix<16x16xf16, "AOp">
    gpu.return %y : !gpu.mma_matrix<16x16xf16, "AOp">
  }
}

// -----

gpu.module @m {
  gpu.func @other_result_type(%x: !gpu.mma_matrix<16x16xf16, "COp">) -> !gpu.mma_matrix<16x16xf32, "COp"> {
    // expected-error @+1 {{'gpu.subgroup_mma_elementwise' op mulf gives the operands' type '!gpu.mma_matrix<16x16xf16, "COp">', not '!gpu.mma_matrix<16x16xf32, "COp">'}}
    %y = gpu.subgroup_mma_elementwise mulf %x, %x : (!gpu.mma_matrix<16x16xf16, "COp">, !gpu.mma_matrix<16x16xf16, "COp">) -> !gpu.mma_matrix<16x16xf32, "COp">
    gpu.return %y : !gpu.mma_matrix<16x16xf32, "COp">
  }
}

// -----

gpu.module @m {
  gpu.func @extf_narrower(%x: !gpu.mma_matrix<16x16xf32, "COp">) -> !gpu.mma_matrix<16x16xf16, "COp"> {
    // expected-error @+1 {{'gpu.subgroup_mma_elementwise' op extf needs a wider floating-point matrix of the same shape and operand as '!gpu.mma_matrix<16x16xf32, "COp">', got '!gpu.mma_matrix<16x16xf16, "COp">'}}
    %y = gpu.subgroup_mma_elementwise extf %x : (!gpu.mma_matrix<16x16xf32, "COp">) -> !gpu.mma_matrix<16x16xf16, "COp">
    gpu.return %y : !gpu.mma_matrix<16x16xf16, "COp">
  }
}

// -----

gpu.module @m {
  gpu.func @extf_other_operand(%x: !gpu.mma_matrix<16x16xf16, "COp">) -> !gpu.mma_matrix<16x16xf32, "AOp"> {
    // expected-error @+1 {{'gpu.subgroup_mma_elementwise' op extf needs a wider floating-point matrix of the same shape and operand as '!gpu.mma_matrix<16x16xf16, "COp">', got '!gpu.mma_matrix<16x16xf32, "AOp">'}}
    %y = gpu.subgroup_mma_elementwise extf %x : (!gpu.mma_matrix<16x16xf16, "COp">) -> !gpu.mma_matrix<16x16xf32, "AOp">
    gpu.return %y : !gpu.mma_matrix<16x16xf32, "AOp">
  }
}

// -----

// An f16 A fragment holds 16 halves per thread, a tf32 one 4 floats.
gpu.module @m {
  gpu.func @extf_a(%x: !gpu.mma_matrix<16x16xf16, "AOp">) -> !gpu.mma_matrix<16x16xf32, "AOp"> {
    // expected-error @+1 {{'gpu.subgroup_mma_elementwise' op extf from '!gpu.mma_matrix<16x16xf16, "AOp">' to '!gpu.mma_matrix<16x16xf32, "AOp">' has no NVIDIA lowering: a thread holds 16 elements of one and 4 of the other}}
    %y = gpu.subgroup_mma_elementwise extf %x : (!gpu.mma_matrix<16x16xf16, "AOp">) -> !gpu.mma_matrix<16x16xf32, "AOp">
    gpu.return %y : !gpu.mma_matrix<16x16xf32, "AOp">
  }
}

// -----

// NVIDIA has no accumulator of bytes.
gpu.module @m {
  gpu.func @byte_accumulator(%x: !gpu.mma_matrix<16x16xui8, "COp">) -> !gpu.mma_matrix<16x16xui8, "COp"> {
    // expected-error @+1 {{'gpu.subgroup_mma_elementwise' op has no NVIDIA register fragment for '!gpu.mma_matrix<16x16xui8, "COp">'}}
    %y = gpu.subgroup_mma_elementwise addi %x, %x : (!gpu.mma_matrix<16x16xui8, "COp">, !gpu.mma_matrix<16x16xui8, "COp">) -> !gpu.mma_matrix<16x16xui8, "COp">
    gpu.return %y : !gpu.mma_matrix<16x16xui8, "COp">
  }
}
