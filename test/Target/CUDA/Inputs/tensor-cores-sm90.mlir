// What sm_90 adds, with PTX 8.0: mbarrier transaction counts and parity
// waits, and the async-proxy fence.
!barrier = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
gpu.module @hopper {
  gpu.func @k() kernel {
    %c0 = arith.constant 0 : index
    %n = arith.constant 32 : index
    %p = arith.constant false
    %b = nvgpu.mbarrier.create -> !barrier
    nvgpu.mbarrier.init %b[%c0], %n : !barrier
    nvgpu.mbarrier.arrive.expect_tx %b[%c0], %n : !barrier
    nvgpu.mbarrier.try_wait.parity %b[%c0], %p, %n : !barrier
    nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
    gpu.return
  }
}
