// RUN: gpumem-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(gpu.module(gpumem-lower-rocdl-to-cpu))'

// What the ROCDL ops' patterns cannot run is a located error naming the op.

gpu.module @swizzle_fft [#rocdl.target<chip = "gfx1100">] {
  llvm.func @k(%out: !llvm.ptr) attributes {gpu.kernel, rocdl.kernel} {
    %v = llvm.load %out : !llvm.ptr -> i32
    %fft = llvm.mlir.constant(0xE000 : i32) : i32
    // expected-error @+1 {{'rocdl.ds_swizzle' op with offset 0xE000 has no lowering on the rocm-emu target, which runs the bit-mask (offset < 0x8000) and quad-permute (0x80xx) modes}}
    %r = rocdl.ds_swizzle %v, %fft : (i32, i32) -> i32
    llvm.store %r, %out : i32, !llvm.ptr
    llvm.return
  }
}

// -----

gpu.module @swizzle_variable [#rocdl.target<chip = "gfx1100">] {
  llvm.func @k(%out: !llvm.ptr, %offset: i32) attributes {gpu.kernel, rocdl.kernel} {
    %v = llvm.load %out : !llvm.ptr -> i32
    // expected-error @+1 {{'rocdl.ds_swizzle' op needs a constant offset on the rocm-emu target (the instruction encodes it)}}
    %r = rocdl.ds_swizzle %v, %offset : (i32, i32) -> i32
    llvm.store %r, %out : i32, !llvm.ptr
    llvm.return
  }
}

// -----

gpu.module @readfirstlane_vector [#rocdl.target<chip = "gfx1100">] {
  llvm.func @k(%out: !llvm.ptr) attributes {gpu.kernel, rocdl.kernel} {
    %v = llvm.load %out : !llvm.ptr -> vector<4xi32>
    // expected-error @+1 {{'rocdl.readfirstlane' op on values of type 'vector<4xi32>' has no lowering on the rocm-emu target (integers, floats and pointers of up to 64 bits have)}}
    %r = rocdl.readfirstlane %v : vector<4xi32>
    llvm.store %r, %out : vector<4xi32>, !llvm.ptr
    llvm.return
  }
}

// -----

// A %s argument reaches HIP's printf as a string of its own, which
// gpu.printf cannot pass.
gpu.module @printf_string [#rocdl.target<chip = "gfx1100">] {
  llvm.mlir.global internal constant @printfFormat_0("%s\0A\00") {addr_space = 0 : i32}
  llvm.func @__ockl_printf_append_string_n(i64, !llvm.ptr, i64, i32) -> i64
  llvm.func @__ockl_printf_append_args(i64, i32, i64, i64, i64, i64, i64, i64, i64, i32) -> i64
  llvm.func @__ockl_printf_begin(i64) -> i64
  llvm.func @k(%arg0: i64) attributes {gpu.kernel, rocdl.kernel} {
    %0 = llvm.mlir.constant(0 : i64) : i64
    %1 = llvm.call @__ockl_printf_begin(%0) : (i64) -> i64
    %2 = llvm.mlir.addressof @printfFormat_0 : !llvm.ptr
    %3 = llvm.getelementptr %2[0, 0] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<4 x i8>
    %4 = llvm.mlir.constant(4 : i64) : i64
    %5 = llvm.mlir.constant(1 : i32) : i32
    %6 = llvm.mlir.constant(0 : i32) : i32
    %7 = llvm.call @__ockl_printf_append_string_n(%1, %3, %4, %6) : (i64, !llvm.ptr, i64, i32) -> i64
    // expected-error @+1 {{'llvm.call' op (HIP's printf) with a %s conversion has no lowering on the rocm-emu target}}
    %8 = llvm.call @__ockl_printf_append_args(%7, %5, %arg0, %0, %0, %0, %0, %0, %0, %5) : (i64, i32, i64, i64, i64, i64, i64, i64, i64, i32) -> i64
    llvm.return
  }
}

// -----

// A dynamic-size alloca outside private memory (address space 5), as
// upstream's ROCDL lowering makes one without gpumem-private-allocas-for-rocdl:
// the AMDGPU backend cannot select it, so the rocm target fails on it.
gpu.module @dynamic_generic_alloca [#rocdl.target<chip = "gfx90a">] {
  llvm.func @k(%n: i64, %out: !llvm.ptr) attributes {gpu.kernel, rocdl.kernel} {
    // expected-error @+1 {{'llvm.alloca' op of a dynamic size in address space 0 cannot run on the rocm-emu target: the AMDGPU backend allocates only private memory (address space 5) at run time}}
    %buffer = llvm.alloca %n x f32 : (i64) -> !llvm.ptr
    llvm.return
  }
}
