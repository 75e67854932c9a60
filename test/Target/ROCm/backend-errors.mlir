// Device code written in ROCDL reaches the AMDGPU backend as written, so
// what the backend cannot compile is checked first where gpumem knows it
// (a ballot narrower than the wavefront, tensor-core fragments, which it
// has no lowering for), and anything else the backend
// stops on is still one located error and exit status 1, never an
// `LLVM ERROR`, a stack dump or an abort.

// RUN: gpumem-opt %s -split-input-file -verify-diagnostics --gpumem-attach-rocdl-target="chip=gfx90a"

// The last net, at the gpu.module: a 3-element vector of f16 the backend's
// type legalizer cannot widen for readfirstlane.
// RUN: not gpumem-opt %S/Inputs/readfirstlane-v3f16.mlir --gpumem-rocm-pipeline="chip=gfx1100 format=isa" 2>&1 | FileCheck %s --check-prefix=NET
// RUN: not gpumem-compile --target=rocm --chip=gfx1100 %S/Inputs/readfirstlane-v3f16.mlir -o %t 2>&1 | FileCheck %s --check-prefix=NET
// NET: readfirstlane-v3f16.mlir:4:1: error: LLVM's code generator stopped in gpu-module-to-binary: Do not know how to widen the result of this operator!; gpumem's checks let this device code through, a gpumem bug worth reporting with the input
// NET-NOT: LLVM ERROR
// NET-NOT: Stack dump

gpu.module @wave64 {
  llvm.func @k(%out: !llvm.ptr, %p: i1) attributes {gpu.kernel, rocdl.kernel} {
    // expected-error @below {{'rocdl.ballot' op returns 'i32', one bit for each of 32 lanes, but gfx90a runs wavefronts of 64 lanes here; make it i64}}
    %d = rocdl.ballot %p : i32
    llvm.store %d, %out : i32, !llvm.ptr
    llvm.return
  }
}

// -----

// Wider than the wavefront is fine: the high bits are zero.
gpu.module @wide {
  llvm.func @k(%out: !llvm.ptr, %p: i1) attributes {gpu.kernel, rocdl.kernel} {
    %d = rocdl.ballot %p : i64
    llvm.store %d, %out : i64, !llvm.ptr
    llvm.return
  }
}

// -----

// Tensor-core fragments have no ROCDL lowering (rocm and rocm-emu).
gpu.module @fragments {
  gpu.func @k(%a: memref<16x16xf16>) kernel {
    %c0 = arith.constant 0 : index
    // expected-error @below {{'gpu.subgroup_mma_load_matrix' op is a tensor-core fragment op, which the rocm target cannot run: AMD's matrix cores take fragments of their own (the amdgpu dialect's mfma and wmma ops), and MLIR's ROCDL lowering has no pattern for these; the cuda, cuda-emu and cpu targets run it}}
    %x = gpu.subgroup_mma_load_matrix %a[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf16> -> !gpu.mma_matrix<16x16xf16, "AOp">
    gpu.return
  }
}
