// Tree reduction in shared memory: the sum of 1024 f32 values with one block
// of 256 threads.
//
// What it shows: a plain `memref.alloca` in `#gpu.address_space<workgroup>`
// inside the `gpu.launch` body is one buffer for the whole block, and a
// `gpu.barrier` inside a loop (here an scf.while over the strides
// 128, 64, ..., 1) synchronizes the block on every step.
//
//   1. Thread t sums in[t], in[t+256], in[t+512], in[t+768] (coalesced) and
//      stores the partial sum to partial[t].
//   2. While stride > 0: threads t < stride add partial[t + stride] into
//      partial[t]; barrier; stride /= 2. After the step with stride 1,
//      partial[0] holds the sum of all 256 partial sums.
//   3. Thread 0 writes partial[0] to the result.
//
// Input in[i] = i, so the sum is 0 + 1 + ... + 1023 = 1023 * 1024 / 2 =
// 523776; every partial sum is an integer below 2^24, so the f32 result is
// exact whatever the order of additions. The program prints the GPU's sum
// and the same sum computed by a sequential loop on the host. Expected
// output (on every target):
//
//   gpu sum:  523776
//   host sum: 523776
//
// (Were the buffer per thread instead of per block, as upstream MLIR 22
// compiles this alloca, thread 0 would never see the other threads' partial
// sums: its own is only 0 + 256 + 512 + 768 = 1536.)
//
// Compile it and see the kernel's shared memory (ptxas -v: 256 * 4 = 1024
// bytes):
//
//   build/bin/gpumem-opt examples/reduction.mlir \
//       --gpumem-cuda-pipeline="chip=sm_90 format=isa" \
//     | build/bin/gpumem-objects smem -
//
// `build/bin/gpumem-objects ptx -` instead shows the PTX: one
// `.shared .align 16 .b8 ...[1024]` array and no `__local_depot`. The program
// has the shape of upstream MLIR's mlir/test/Integration/GPU/CUDA tests, so
// the pipeline's output also runs with a build of upstream's CUDA runtime
// (libmlir_cuda_runtime.so, which Debian does not ship) under mlir-runner.
// gpumem-run runs it on the cpu, cuda-emu and cuda targets.

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %c1024 = arith.constant 1024 : index
  %zero = arith.constant 0.0 : f32
  %minus1 = arith.constant -1.0 : f32

  // Host buffers: in[i] = i (exact in f32), result = -1.
  %in = memref.alloc() : memref<1024xf32>
  %result = memref.alloc() : memref<1xf32>
  scf.for %i = %c0 to %c1024 step %c1 {
    %ii = arith.index_cast %i : index to i64
    %v = arith.sitofp %ii : i64 to f32
    memref.store %v, %in[%i] : memref<1024xf32>
  }
  memref.store %minus1, %result[%c0] : memref<1xf32>

  // Make both buffers visible to the device.
  %in_u = memref.cast %in : memref<1024xf32> to memref<*xf32>
  gpu.host_register %in_u : memref<*xf32>
  %result_u = memref.cast %result : memref<1xf32> to memref<*xf32>
  gpu.host_register %result_u : memref<*xf32>

  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
    // One partial sum per thread, shared by the block.
    %partial = memref.alloca() : memref<256xf32, #gpu.address_space<workgroup>>

    // Step 1: in[tx] + in[tx + 256] + in[tx + 512] + in[tx + 768].
    %mine = scf.for %k = %c0 to %c1024 step %c256
        iter_args(%acc = %zero) -> (f32) {
      %idx = arith.addi %k, %tx : index
      %x = memref.load %in[%idx] : memref<1024xf32>
      %sum = arith.addf %acc, %x : f32
      scf.yield %sum : f32
    }
    memref.store %mine, %partial[%tx]
        : memref<256xf32, #gpu.address_space<workgroup>>
    gpu.barrier

    // Step 2: halve the number of active threads until one is left. Every
    // thread runs every iteration (the stride is the same for all), so all
    // 256 reach each barrier.
    %done = scf.while (%stride = %c128) : (index) -> index {
      %more = arith.cmpi ugt, %stride, %c0 : index
      scf.condition(%more) %stride : index
    } do {
    ^bb0(%s: index):
      %active = arith.cmpi ult, %tx, %s : index
      scf.if %active {
        %other = arith.addi %tx, %s : index
        %a = memref.load %partial[%tx]
            : memref<256xf32, #gpu.address_space<workgroup>>
        %b = memref.load %partial[%other]
            : memref<256xf32, #gpu.address_space<workgroup>>
        %ab = arith.addf %a, %b : f32
        memref.store %ab, %partial[%tx]
            : memref<256xf32, #gpu.address_space<workgroup>>
      }
      gpu.barrier
      %half = arith.shrui %s, %c1 : index
      scf.yield %half : index
    }

    // Step 3: thread 0 publishes the block's sum.
    %first = arith.cmpi eq, %tx, %c0 : index
    scf.if %first {
      %total = memref.load %partial[%c0]
          : memref<256xf32, #gpu.address_space<workgroup>>
      memref.store %total, %result[%c0] : memref<1xf32>
    }
    gpu.terminator
  }

  %gpu = memref.load %result[%c0] : memref<1xf32>
  vector.print str "gpu sum:  "
  vector.print %gpu : f32

  // The same sum, sequentially on the host.
  %host = scf.for %i = %c0 to %c1024 step %c1 iter_args(%acc = %zero) -> (f32) {
    %x = memref.load %in[%i] : memref<1024xf32>
    %sum = arith.addf %acc, %x : f32
    scf.yield %sum : f32
  }
  vector.print str "host sum: "
  vector.print %host : f32

  gpu.host_unregister %in_u : memref<*xf32>
  gpu.host_unregister %result_u : memref<*xf32>
  memref.dealloc %in : memref<1024xf32>
  memref.dealloc %result : memref<1xf32>
  return
}
