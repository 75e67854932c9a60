// RUN: not gpumem-run --target=cpu %s 2>&1 | FileCheck %s --check-prefixes=CHECK,CPU --implicit-check-not='after the failing assert'
// RUN: not env GPUMEM_CPU_THREADS=1 gpumem-run --target=cpu %s 2>&1 | FileCheck %s --check-prefixes=CHECK,CPU --implicit-check-not='after the failing assert'
// RUN: %if cuda-emu %{ not gpumem-run --target=cuda-emu %s 2>&1 | FileCheck %s --check-prefixes=CHECK,EMU --implicit-check-not='after the failing assert' %}

// A failed cf.assert behaves as on CUDA (upstream's CUDA integration test
// of cf.assert, in other words). Both threads pass the first assert and
// print, then both fail the second: each prints CUDA's line and stops, so
// neither prints after it, and the program fails once the launch is done.
// The failing assert's location is a call site inside a call site around a
// named location: CUDA's line names the innermost callee's file, line and
// function, as upstream's NVVM lowering finds them. The order of the two
// threads' lines is the runtime's, hence CHECK-DAG.

// CHECK-DAG: thread 0: after the passing assert
// CHECK-DAG: thread 1: after the passing assert
// CHECK-DAG: inner.cc:7: inner_function: block: [0,0,0], thread: [0,0,0] Assertion `this one fails` failed.
// CHECK-DAG: inner.cc:7: inner_function: block: [0,0,0], thread: [1,0,0] Assertion `this one fails` failed.
// CPU: gpumem: error: kernel 'check': an assertion failed (the failing threads are listed above)
// EMU: gpumem: error: cuStreamSynchronize failed: CUDA_ERROR_ASSERT: device-side assert triggered

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @check(%fails: i1, %passes: i1) kernel {
      %tx = gpu.thread_id x
      cf.assert %passes, "this one passes"
      gpu.printf "thread %lld: after the passing assert\n", %tx : index
      cf.assert %fails, "this one fails" loc(callsite(callsite("inner_function"("inner.cc":7:9) at "middle.cc":10:8) at "outer.cc":11:12))
      gpu.printf "thread %lld: after the failing assert\n", %tx : index
      gpu.return
    }
  }

  func.func @main() {
    %one = arith.constant 1 : index
    %two = arith.constant 2 : index
    %false = arith.constant false
    %true = arith.constant true
    gpu.launch_func @kernels::@check blocks in (%one, %one, %one)
        threads in (%two, %one, %one) args(%false : i1, %true : i1)
    return
  }
}
