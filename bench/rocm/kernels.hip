// The hipcc side of the static rocm comparison (bench/rocm/hipcc-compare.sh):
// the kernels of bench/cuda/kernels.mlir written as ordinary HIP C++, line
// for line the CUDA C++ of bench/cuda/kernels.cu (int indices, raw
// pointers, static __shared__ arrays, which hipcc places in LDS). Same
// tiling, same LDS bytes (matmul 2048, reduce 1024, transpose 1088), same
// block size: __launch_bounds__ gives the bound gpumem derives from
// known_block_size. extern "C" keeps the names unmangled. Compiled by
//   hipcc --offload-arch=gfx90a -O3 --cuda-device-only -S kernels.hip
// No AMD GPU is needed: only the device assembly is read.
#include <hip/hip_runtime.h>

#define MATMUL_N 1024
#define TILE 16
#define REDUCE_THREADS 256
#define REDUCE_PER_BLOCK 1024
#define TRANSPOSE_N 4096

// C = A x B, 1024^3 f32. Grid 64x64, block 16x16; 2 x 1024 bytes of LDS
// tiles, two barriers per K step.
extern "C" __global__ void __launch_bounds__(TILE * TILE)
    matmul(const float *a, const float *b, float *c) {
  __shared__ float ta[TILE][TILE];
  __shared__ float tb[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty;
  int col = blockIdx.x * TILE + tx;
  float sum = 0.0f;
  for (int kt = 0; kt < MATMUL_N / TILE; ++kt) {
    ta[ty][tx] = a[row * MATMUL_N + kt * TILE + tx];
    tb[ty][tx] = b[(kt * TILE + ty) * MATMUL_N + col];
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      sum += ta[ty][k] * tb[k][tx];
    __syncthreads();
  }
  c[row * MATMUL_N + col] = sum;
}

// Partial sums of 2^24 floats: block b sums x[1024 b, 1024 b + 1024) with 4
// coalesced loads per thread, then a 256-float LDS tree (1024 bytes).
extern "C" __global__ void __launch_bounds__(REDUCE_THREADS)
    reduce(const float *x, float *partial) {
  __shared__ float tree[REDUCE_THREADS];
  int tx = threadIdx.x;
  int base = blockIdx.x * REDUCE_PER_BLOCK;
  float sum = 0.0f;
  for (int k = 0; k < REDUCE_PER_BLOCK / REDUCE_THREADS; ++k)
    sum += x[base + k * REDUCE_THREADS + tx];
  tree[tx] = sum;
  __syncthreads();
  for (int s = REDUCE_THREADS / 2; s > 0; s >>= 1) {
    if (tx < s)
      tree[tx] += tree[tx + s];
    __syncthreads();
  }
  if (tx == 0)
    partial[blockIdx.x] = tree[0];
}

// out = in^T, 4096^2 f32. Grid 256x256, block 16x16, a 16x17 padded tile
// (1088 bytes), one barrier.
extern "C" __global__ void __launch_bounds__(TILE * TILE)
    transpose(const float *in, float *out) {
  __shared__ float tile[TILE][TILE + 1];
  int tx = threadIdx.x, ty = threadIdx.y;
  int r0 = blockIdx.y * TILE, c0 = blockIdx.x * TILE;
  tile[ty][tx] = in[(r0 + ty) * TRANSPOSE_N + c0 + tx];
  __syncthreads();
  out[(c0 + ty) * TRANSPOSE_N + r0 + tx] = tile[tx][ty];
}

// y = 3 x + y, one element per thread, 256 threads per block: the kernel of
// bench/cuda/bandwidth.mlir (no LDS). n is the memref's size there.
extern "C" __global__ void __launch_bounds__(256)
    axpy(const float *x, float *y, long n) {
  long i = (long)blockIdx.x * 256 + threadIdx.x;
  if ((unsigned long)i < (unsigned long)n)
    y[i] = 3.0f * x[i] + y[i];
}
