// RUN: gpumem-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(gpu.module(gpumem-lower-nvvm-to-cpu))'

// What the cuda-emu target cannot run is a located error naming the op.

gpu.module @clock [#nvvm.target<chip = "sm_90">] {
  llvm.func @k() attributes {gpu.kernel, nvvm.kernel} {
    // expected-error @+1 {{'nvvm.read.ptx.sreg.clock64' op has no lowering on the cuda-emu target, which runs the NVVM form of kernels on the CPU}}
    %t = nvvm.read.ptx.sreg.clock64 : i64
    llvm.return
  }
}

// -----

gpu.module @asm [#nvvm.target<chip = "sm_90">] {
  llvm.func @k() attributes {gpu.kernel, nvvm.kernel} {
    // expected-error @+1 {{'llvm.inline_asm' op (inline PTX) cannot run on the cuda-emu target}}
    %r = llvm.inline_asm has_side_effects "mov.u32 $0, %clock;", "=r" : () -> i32
    llvm.return
  }
}

// -----

gpu.module @extern [#nvvm.target<chip = "sm_90">] {
  llvm.func @__nv_cyl_bessel_i0f(f32) -> f32
  llvm.func @k(%x: f32) attributes {gpu.kernel, nvvm.kernel} {
    // expected-error @+1 {{calls '__nv_cyl_bessel_i0f', which the cuda-emu target does not provide (it provides libdevice's math functions, malloc, free, vprintf and __assertfail)}}
    %r = llvm.call @__nv_cyl_bessel_i0f(%x) : (f32) -> f32
    llvm.return
  }
}

// -----

// A libdevice helper declared with another signature than libdevice's.
gpu.module @helper [#nvvm.target<chip = "sm_90">] {
  // expected-error @+1 {{'llvm.func' op does not have the signature of '__nv_rsqrtf' in its GPU library}}
  llvm.func @__nv_rsqrtf(f64) -> f32
  llvm.func @k(%x: f64) attributes {gpu.kernel, nvvm.kernel} {
    %r = llvm.call @__nv_rsqrtf(%x) : (f64) -> f32
    llvm.return
  }
}

// -----

gpu.module @indirect [#nvvm.target<chip = "sm_90">] {
  llvm.func @k(%f: !llvm.ptr) attributes {gpu.kernel, nvvm.kernel} {
    // expected-error @+1 {{'llvm.call' op is an indirect call, which the cuda-emu target does not support}}
    llvm.call %f() : !llvm.ptr, () -> ()
    llvm.return
  }
}

// -----

gpu.module @address [#nvvm.target<chip = "sm_90">] {
  llvm.func @f() {
    llvm.return
  }
  llvm.func @k() attributes {gpu.kernel, nvvm.kernel} {
    // expected-error @+1 {{'llvm.mlir.addressof' op takes the address of function 'f', which the cuda-emu target does not support}}
    %f = llvm.mlir.addressof @f : !llvm.ptr
    llvm.return
  }
}

// -----

gpu.module @intrinsic [#nvvm.target<chip = "sm_90">] {
  llvm.func @k() attributes {gpu.kernel, nvvm.kernel} {
    // expected-error @+1 {{'llvm.call_intrinsic' op calls 'llvm.nvvm.read.ptx.sreg.smid', which has no lowering on the cuda-emu target}}
    %r = llvm.call_intrinsic "llvm.nvvm.read.ptx.sreg.smid"() : () -> i32
    llvm.return
  }
}

// -----

gpu.module @barrier_red [#nvvm.target<chip = "sm_90">] {
  llvm.func @k(%p: i32) attributes {gpu.kernel, nvvm.kernel} {
    // expected-error @+1 {{'nvvm.barrier' op with a reduction (barrier.red) has no lowering on the cuda-emu target}}
    %r = nvvm.barrier #nvvm.reduction<popc> %p -> i32
    llvm.return
  }
}

// -----

gpu.module @aligned [#nvvm.target<chip = "sm_90">] {
  // expected-error @+1 {{'llvm.mlir.global' op asks for an alignment of 2048 bytes; the cuda-emu target aligns shared memory to at most 1024}}
  llvm.mlir.global internal @big() {addr_space = 3 : i32, alignment = 2048 : i64} : !llvm.array<4 x f32>
  llvm.func @k() attributes {gpu.kernel, nvvm.kernel} {
    llvm.return
  }
}

// -----

gpu.module @local [#nvvm.target<chip = "sm_90">] {
  // expected-error @+1 {{'llvm.mlir.global' op is a .local variable, which the cuda-emu target does not support}}
  llvm.mlir.global internal @scratch() {addr_space = 5 : i32} : !llvm.array<4 x f32>
  llvm.func @k() attributes {gpu.kernel, nvvm.kernel} {
    llvm.return
  }
}

// -----

// expected-error @+1 {{'gpu.module' op uses 300000 bytes of static shared memory; sm_90 allows 232448 per block}}
gpu.module @too_much [#nvvm.target<chip = "sm_90">] {
  llvm.mlir.global internal @big() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<300000 x i8>
  llvm.func @k() attributes {gpu.kernel, nvvm.kernel} {
    llvm.return
  }
}

// -----

gpu.module @bodiless [#nvvm.target<chip = "sm_90">] {
  // expected-error @+1 {{'llvm.func' op is a kernel without a body}}
  llvm.func @k() attributes {gpu.kernel, nvvm.kernel}
}
