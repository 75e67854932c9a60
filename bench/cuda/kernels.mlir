// The kernels of the CUDA benchmarks (bench/cuda/run.sh), written the gpumem
// way: a gpu.module of gpu.func kernels, each workgroup buffer a
// `memref.alloca` in address space 3 inside the kernel body (gpumem hoists
// it to a workgroup attribution, i.e. a static .shared array). Static
// shapes, so that every index computation folds to constants. The same
// computations as CUDA C++ are in kernels.cu; kernel-bench.cpp launches both.
//
// Built by bench/cuda/build.sh:
//   gpumem-opt kernels.mlir --gpumem-cuda-pipeline="chip=sm_90 format=bin"
//   gpumem-objects extract OUT.mlir DIR   -> DIR/gpumem_bench.sm_90.cubin
//
// Each memref argument becomes (allocated ptr, aligned ptr, i64 offset,
// i64 size x rank, i64 stride x rank) kernel parameters.
module attributes {gpu.container_module} {
gpu.module @gpumem_bench {

  // C = A x B, 1024x1024x1024 f32. Grid 64x64, block 16x16; each K step
  // stages a 16x16 tile of A and of B in shared memory (2 x 1024 bytes),
  // with a barrier after the loads and one after the products.
  gpu.func @matmul(%a: memref<1024x1024xf32>, %b: memref<1024x1024xf32>,
                   %c: memref<1024x1024xf32>) kernel
      attributes {known_block_size = array<i32: 16, 16, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %tiles = arith.constant 64 : index
    %bx = gpu.block_id x
    %by = gpu.block_id y
    %tx = gpu.thread_id x
    %ty = gpu.thread_id y
    %row0 = arith.muli %by, %c16 : index
    %row = arith.addi %row0, %ty : index
    %col0 = arith.muli %bx, %c16 : index
    %col = arith.addi %col0, %tx : index
    %zero = arith.constant 0.0 : f32
    %acc = scf.for %kt = %c0 to %tiles step %c1 iter_args(%sum = %zero) -> f32 {
      %ta = memref.alloca() : memref<16x16xf32, 3>
      %tb = memref.alloca() : memref<16x16xf32, 3>
      %k0 = arith.muli %kt, %c16 : index
      %ka = arith.addi %k0, %tx : index
      %kb = arith.addi %k0, %ty : index
      %va = memref.load %a[%row, %ka] : memref<1024x1024xf32>
      %vb = memref.load %b[%kb, %col] : memref<1024x1024xf32>
      memref.store %va, %ta[%ty, %tx] : memref<16x16xf32, 3>
      memref.store %vb, %tb[%ty, %tx] : memref<16x16xf32, 3>
      gpu.barrier
      %part = scf.for %k = %c0 to %c16 step %c1 iter_args(%s = %sum) -> f32 {
        %x = memref.load %ta[%ty, %k] : memref<16x16xf32, 3>
        %y = memref.load %tb[%k, %tx] : memref<16x16xf32, 3>
        %p = arith.mulf %x, %y fastmath<contract> : f32
        %s2 = arith.addf %s, %p fastmath<contract> : f32
        scf.yield %s2 : f32
      }
      gpu.barrier
      scf.yield %part : f32
    }
    memref.store %acc, %c[%row, %col] : memref<1024x1024xf32>
    gpu.return
  }

  // Partial sums of 2^24 floats: 16384 blocks of 256 threads, each block
  // sums 1024 consecutive elements (4 coalesced loads per thread), then a
  // shared tree of 256 floats (1024 bytes), one barrier per level.
  gpu.func @reduce(%x: memref<16777216xf32>, %partial: memref<16384xf32>) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c256 = arith.constant 256 : index
    %c1024 = arith.constant 1024 : index
    %bx = gpu.block_id x
    %tx = gpu.thread_id x
    %tree = memref.alloca() : memref<256xf32, 3>
    %base = arith.muli %bx, %c1024 : index
    %zero = arith.constant 0.0 : f32
    %sum = scf.for %k = %c0 to %c4 step %c1 iter_args(%acc = %zero) -> f32 {
      %off = arith.muli %k, %c256 : index
      %j0 = arith.addi %base, %off : index
      %j = arith.addi %j0, %tx : index
      %v = memref.load %x[%j] : memref<16777216xf32>
      %a = arith.addf %acc, %v : f32
      scf.yield %a : f32
    }
    memref.store %sum, %tree[%tx] : memref<256xf32, 3>
    gpu.barrier
    // for (s = 128; s > 0; s >>= 1): 8 levels.
    %c8 = arith.constant 8 : index
    %c128 = arith.constant 128 : index
    scf.for %level = %c0 to %c8 step %c1 {
      %s = arith.shrui %c128, %level : index
      %active = arith.cmpi ult, %tx, %s : index
      scf.if %active {
        %o = arith.addi %tx, %s : index
        %l = memref.load %tree[%tx] : memref<256xf32, 3>
        %h = memref.load %tree[%o] : memref<256xf32, 3>
        %t = arith.addf %l, %h : f32
        memref.store %t, %tree[%tx] : memref<256xf32, 3>
      }
      gpu.barrier
    }
    %first = arith.cmpi eq, %tx, %c0 : index
    scf.if %first {
      %t = memref.load %tree[%c0] : memref<256xf32, 3>
      memref.store %t, %partial[%bx] : memref<16384xf32>
    }
    gpu.return
  }

  // out = in^T for 4096x4096 f32. Grid 256x256, block 16x16; a 16x17 shared
  // tile (1088 bytes, padded against bank conflicts), one barrier.
  gpu.func @transpose(%in: memref<4096x4096xf32>, %out: memref<4096x4096xf32>) kernel
      attributes {known_block_size = array<i32: 16, 16, 1>} {
    %c16 = arith.constant 16 : index
    %bx = gpu.block_id x
    %by = gpu.block_id y
    %tx = gpu.thread_id x
    %ty = gpu.thread_id y
    %tile = memref.alloca() : memref<16x17xf32, 3>
    %r0 = arith.muli %by, %c16 : index
    %c0i = arith.muli %bx, %c16 : index
    %row = arith.addi %r0, %ty : index
    %col = arith.addi %c0i, %tx : index
    %v = memref.load %in[%row, %col] : memref<4096x4096xf32>
    memref.store %v, %tile[%ty, %tx] : memref<16x17xf32, 3>
    gpu.barrier
    %orow = arith.addi %c0i, %ty : index
    %ocol = arith.addi %r0, %tx : index
    %w = memref.load %tile[%tx, %ty] : memref<16x17xf32, 3>
    memref.store %w, %out[%orow, %ocol] : memref<4096x4096xf32>
    gpu.return
  }
}
}
