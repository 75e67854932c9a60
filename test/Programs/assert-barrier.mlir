// RUN: not env GPUMEM_CPU_THREADS=1 gpumem-run --target=cpu %s 2>&1 | FileCheck %s --check-prefixes=CHECK,CPU --match-full-lines --strict-whitespace
// RUN: %if cuda-emu %{ not env GPUMEM_CPU_THREADS=1 gpumem-run --target=cuda-emu %s 2>&1 | FileCheck %s --check-prefixes=CHECK,EMU --match-full-lines --strict-whitespace %}

// A thread that fails an assert before a barrier stops there; the barrier
// completes without it, and so does a shuffle of lanes 0..3 after it (the
// cpu target runs the threads as fibers, cuda-emu as coroutines). Thread 0
// reads what the stopped thread 40 stored before its assert. Threads 5 and 40 of both
// blocks fail. One worker keeps the blocks in order. Not on vulkan: a
// Vulkan thread cannot stop, so it would reach the barrier.

// CHECK:{{.*}}assert-barrier.mlir:[[#ASSERT:@LINE+29]]: (unknown): block: [0,0,0], thread: [5,0,0] Assertion `threads 5 and 40 fail` failed.
// CHECK-NEXT:{{.*}}assert-barrier.mlir:[[#ASSERT]]: (unknown): block: [0,0,0], thread: [40,0,0] Assertion `threads 5 and 40 fail` failed.
// CHECK-NEXT:block 0: past the barrier, tile[40] = 40, lane 1 got 0 (valid 1)
// CHECK-NEXT:{{.*}}assert-barrier.mlir:[[#ASSERT]]: (unknown): block: [1,0,0], thread: [5,0,0] Assertion `threads 5 and 40 fail` failed.
// CHECK-NEXT:{{.*}}assert-barrier.mlir:[[#ASSERT]]: (unknown): block: [1,0,0], thread: [40,0,0] Assertion `threads 5 and 40 fail` failed.
// CHECK-NEXT:block 1: past the barrier, tile[40] = 40, lane 1 got 0 (valid 1)
// CPU-NEXT:gpumem: error: kernel 'k': an assertion failed (the failing threads are listed above)
// EMU-NEXT:gpumem: error: cuStreamSynchronize failed: CUDA_ERROR_ASSERT: device-side assert triggered
// CHECK-NEXT:gpumem: note: in the launch at {{.*}}assert-barrier.mlir:[[#@LINE+50]]:5
// CHECK-NOT:{{.}}

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k() workgroup(%tile: memref<64xi32, #gpu.address_space<workgroup>>) kernel {
      %tx = gpu.thread_id x
      %bx = gpu.block_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c5 = arith.constant 5 : index
      %c40 = arith.constant 40 : index
      %one = arith.constant 1 : i32
      %width = arith.constant 4 : i32
      %x = arith.index_cast %tx : index to i32
      memref.store %x, %tile[%tx] : memref<64xi32, #gpu.address_space<workgroup>>
      %is5 = arith.cmpi eq, %tx, %c5 : index
      %is40 = arith.cmpi eq, %tx, %c40 : index
      %bad = arith.ori %is5, %is40 : i1
      %true = arith.constant true
      %ok = arith.xori %bad, %true : i1
      cf.assert %ok, "threads 5 and 40 fail"
      gpu.barrier
      %v = memref.load %tile[%c40] : memref<64xi32, #gpu.address_space<workgroup>>
      %lanes = arith.constant 4 : index
      %in_shuffle = arith.cmpi ult, %tx, %lanes : index
      scf.if %in_shuffle {
        %s, %valid = gpu.shuffle xor %x, %one, %width : i32
        %is1 = arith.cmpi eq, %tx, %c1 : index
        scf.if %is1 {
          memref.store %s, %tile[%c0] : memref<64xi32, #gpu.address_space<workgroup>>
          %valid32 = arith.extui %valid : i1 to i32
          memref.store %valid32, %tile[%c5] : memref<64xi32, #gpu.address_space<workgroup>>
        }
      }
      gpu.barrier
      %first = arith.cmpi eq, %tx, %c0 : index
      scf.if %first {
        %got = memref.load %tile[%c0] : memref<64xi32, #gpu.address_space<workgroup>>
        %valid4 = memref.load %tile[%c5] : memref<64xi32, #gpu.address_space<workgroup>>
        gpu.printf "block %lld: past the barrier, tile[40] = %d, lane 1 got %d (valid %d)\n", %bx, %v, %got, %valid4 : index, i32, i32, i32
      }
      gpu.return
    }
  }

  func.func @main() {
    %one = arith.constant 1 : index
    %two = arith.constant 2 : index
    %threads = arith.constant 64 : index
    gpu.launch_func @kernels::@k blocks in (%two, %one, %one) threads in (%threads, %one, %one)
    return
  }
}
