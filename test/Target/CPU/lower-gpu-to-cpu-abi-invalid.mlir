// RUN: gpumem-opt %s -split-input-file -pass-pipeline='builtin.module(gpu.module(gpumem-lower-gpu-to-cpu-abi))' -verify-diagnostics

gpu.module @kernels {
  gpu.func @cluster(%out: memref<4xindex>) kernel {
    // expected-error @+1 {{'gpu.cluster_id' op is not supported by the cpu target}}
    %c = gpu.cluster_id x
    %c0 = arith.constant 0 : index
    memref.store %c, %out[%c0] : memref<4xindex>
    gpu.return
  }
}

// -----

gpu.module @kernels {
  gpu.func @nvvm_intrinsic(%out: memref<4xi32>) kernel {
    // expected-error @+1 {{'nvvm.read.ptx.sreg.tid.x' op is not supported by the cpu target}}
    %t = nvvm.read.ptx.sreg.tid.x : i32
    %c0 = arith.constant 0 : index
    memref.store %t, %out[%c0] : memref<4xi32>
    gpu.return
  }
}

// -----

gpu.module @kernels {
  // expected-error @+1 {{'gpu.func' op has an argument of type 'memref<*xf32>', which the cpu target cannot pass to a kernel}}
  gpu.func @unranked(%data: memref<*xf32>) kernel {
    gpu.return
  }
}

// -----

gpu.module @kernels {
  // expected-error @+1 {{'gpu.func' op is a device function with attributions, which the cpu target does not support; allocate workgroup memory with memref.alloca instead}}
  gpu.func @helper() workgroup(%buf : memref<4xf32, 3>) {
    gpu.return
  }
}

// -----

gpu.module @kernels {
  // expected-error @+1 {{'memref.global' op workgroup globals on the cpu target must be uninitialized, of static shape and identity layout}}
  memref.global "private" @table : memref<2xf32, 3> = dense<[1.0, 2.0]>
}

// -----

gpu.module @kernels {
  // expected-error @+1 {{'gpu.func' op has an argument of type 'memref<4xf32, affine_map<(d0) -> (d0 floordiv 2)>>', whose layout is not strided; kernels take memrefs as strided descriptors (normalize the layout first, e.g. with --normalize-memrefs)}}
  gpu.func @not_strided(%m: memref<4xf32, affine_map<(d0) -> (d0 floordiv 2)>>) kernel {
    gpu.return
  }
}

// -----

gpu.module @kernels {
  gpu.func @inline_asm() kernel {
    // expected-error @+1 {{'llvm.inline_asm' op (inline assembly) is not supported by the cpu target}}
    %r = llvm.inline_asm has_side_effects "mov.u32 $0, %clock;", "=r" : () -> i32
    gpu.return
  }
}
