// RUN: gpumem-opt %s --gpumem-attach-rocdl-target="chip=gfx90a" -verify-diagnostics -o /dev/null

// A function the gpu.module only declares cannot be defined anywhere: the
// code object is linked alone (the AMDGPU backend aborted on this call,
// whose memref argument lives on the stack). The device libraries' own
// functions may be declared.
module attributes {gpu.container_module} {
  gpu.module @m {
    func.func private @use(memref<4xi32, #gpu.address_space<workgroup>>)
    func.func private @__ocml_sin_f32(f32) -> f32
    gpu.func @k(%x: f32, %out: memref<1xf32>) kernel {
      %c0 = arith.constant 0 : index
      %d = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %w = memref.view %d[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<4xi32, #gpu.address_space<workgroup>>
      %s = func.call @__ocml_sin_f32(%x) : (f32) -> f32
      memref.store %s, %out[%c0] : memref<1xf32>
      // expected-error @+1 {{'func.call' op calls @use, which the gpu.module declares but does not define; AMD device code is linked with the ROCm device libraries only (__ocml_*, __ockl_*)}}
      func.call @use(%w) : (memref<4xi32, #gpu.address_space<workgroup>>) -> ()
      gpu.return
    }
  }
}
