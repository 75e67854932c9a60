// The kernel of the bandwidth benchmark (bench/cuda/bandwidth-bench.cpp):
// y = 3 x + y over f32 vectors, one element per thread, 256 threads per
// block, compiled by gpumem's own pipeline. It reads 2 and writes 1 float
// per element: bandwidth-bound on every GPU.
//
// Built by bench/cuda/build.sh:
//   gpumem-opt bandwidth.mlir --gpumem-cuda-pipeline="chip=sm_90 format=bin"
//   gpumem-objects extract OUT.mlir DIR   -> DIR/gpumem_bandwidth.sm_90.cubin
//
// Parameters: x and y, each memref<?xf32> expanded as (allocated ptr,
// aligned ptr, i64 offset, i64 size, i64 stride): 10 in all.
module attributes {gpu.container_module} {
gpu.module @gpumem_bandwidth {
  gpu.func @axpy(%x: memref<?xf32>, %y: memref<?xf32>) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c256 = arith.constant 256 : index
    %a = arith.constant 3.0 : f32
    %bx = gpu.block_id x
    %tx = gpu.thread_id x
    %base = arith.muli %bx, %c256 : index
    %i = arith.addi %base, %tx : index
    %n = memref.dim %x, %c0 : memref<?xf32>
    %inside = arith.cmpi ult, %i, %n : index
    scf.if %inside {
      %xv = memref.load %x[%i] : memref<?xf32>
      %yv = memref.load %y[%i] : memref<?xf32>
      %ax = arith.mulf %a, %xv fastmath<contract> : f32
      %r = arith.addf %ax, %yv fastmath<contract> : f32
      memref.store %r, %y[%i] : memref<?xf32>
    }
    gpu.return
  }
}
}
