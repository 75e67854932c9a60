// RUN: gpumem-opt %s --gpu-module-to-binary -verify-diagnostics

// The vulkan target's serializer checks every SPIR-V module with
// SPIRV-Tools' validator before it is embedded: a module the validator
// rejects (here a 64-bit integer without the Int64 capability) is a
// located internal error at compile time, never a launch.
module attributes {gpu.container_module} {
  // expected-error @+2 {{internal error: the SPIR-V made for this gpu.module is invalid (spirv-val: Using a 64-bit integer type requires the Int64 capability}}
  // expected-error @+1 {{An error happened while serializing the module}}
  gpu.module @m [#gpumem.vulkan] attributes {gpumem.vulkan_kernels = {}} {
    spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], []> {
      spirv.func @k() "None" {
        %0 = spirv.Constant 1 : i64
        spirv.Return
      }
      spirv.EntryPoint "GLCompute" @k
      spirv.ExecutionMode @k "LocalSize", 1, 1, 1
    }
  }
}
