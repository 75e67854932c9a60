// gpumem-attach-vulkan-target refuses, at their op, what no SPIR-V lowering
// takes: tensor-core fragments (SPIR-V has cooperative matrices only, an
// extension lavapipe lacks), device code of NVIDIA's or AMD's dialects, and
// atomics on 64-bit elements.
// RUN: gpumem-opt %s -split-input-file -verify-diagnostics --gpumem-attach-vulkan-target

gpu.module @fragments {
  gpu.func @k(%a: memref<16x16xf16>) kernel {
    %c0 = arith.constant 0 : index
    // expected-error @below {{'gpu.subgroup_mma_load_matrix' op is a tensor-core fragment op, which the vulkan target cannot run: SPIR-V has them only as cooperative matrices (VK_KHR_cooperative_matrix), which the vulkan target does not use and Mesa's lavapipe does not have; the cuda, cuda-emu and cpu targets run it}}
    %x = gpu.subgroup_mma_load_matrix %a[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf16> -> !gpu.mma_matrix<16x16xf16, "AOp">
    gpu.return
  }
}

// -----

gpu.module @async_copy {
  gpu.func @k(%a: memref<16xf32>) kernel {
    %c0 = arith.constant 0 : index
    %s = memref.alloca() : memref<16xf32, #gpu.address_space<workgroup>>
    // expected-error @below {{'nvgpu.device_async_copy' op is NVIDIA device code, which the vulkan pipeline cannot compile}}
    %t = nvgpu.device_async_copy %a[%c0], %s[%c0], 4 : memref<16xf32> to memref<16xf32, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

gpu.module @rocdl {
  llvm.func @k(%out: !llvm.ptr) attributes {gpu.kernel} {
    // expected-error @below {{'rocdl.wavefrontsize' op is AMD device code, which the vulkan pipeline cannot compile}}
    %size = rocdl.wavefrontsize : i32
    llvm.store %size, %out : i32, !llvm.ptr
    llvm.return
  }
}

// -----

// Atomics on 64-bit elements need Int64Atomics, which the target
// environment does not declare (spirv-val refused the module before).
gpu.module @wide_atomics {
  gpu.func @k(%totals: memref<2xi64>, %sums: memref<2xf64>) kernel {
    %c0 = arith.constant 0 : index
    %one = arith.constant 1 : i64
    // expected-error @below {{'memref.atomic_rmw' op updates 'i64' elements atomically, which needs SPIR-V's Int64Atomics capability (VK_KHR_shader_atomic_int64); the vulkan target does not use it yet, the cpu, cuda-emu, rocm-emu, cuda and rocm targets run it}}
    %old = memref.atomic_rmw addi %one, %totals[%c0] : (i64, memref<2xi64>) -> i64
    gpu.return
  }
}

// -----

gpu.module @wide_float_atomics {
  gpu.func @k(%sums: memref<2xf64>) kernel {
    %c0 = arith.constant 0 : index
    %x = arith.constant 1.5 : f64
    // expected-error @below {{'memref.atomic_rmw' op updates 'f64' elements atomically}}
    %old = memref.atomic_rmw addf %x, %sums[%c0] : (f64, memref<2xf64>) -> f64
    gpu.return
  }
}
