// The four kernels of bench/cpu/*.mlir in OpenCL C, for PoCL: the same
// sizes, work-group sizes, __local tiles and barriers, size_t indices as the
// gpu dialect's index.

__kernel void elementwise(__global const float *x, __global float *y,
                          float a) {
  size_t i = get_group_id(0) * 256 + get_local_id(0);
  y[i] = a * x[i] + y[i];
}

__kernel void reduction(__global const float *x, __global float *partial) {
  __local float tree[256];
  size_t tx = get_local_id(0), bx = get_group_id(0);
  size_t base = bx * 1024;
  float sum = 0.0f;
  for (size_t k = 0; k < 4; ++k)
    sum += x[base + k * 256 + tx];
  tree[tx] = sum;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t s = 128; s > 0; s /= 2) {
    if (tx < s)
      tree[tx] = tree[tx] + tree[tx + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (tx == 0)
    partial[bx] = tree[0];
}

__kernel void matmul(__global const float *a, __global const float *b,
                     __global float *c) {
  __local float ta[16][16];
  __local float tb[16][16];
  size_t tx = get_local_id(0), ty = get_local_id(1);
  size_t row = get_group_id(1) * 16 + ty, col = get_group_id(0) * 16 + tx;
  float sum = 0.0f;
  for (size_t kt = 0; kt < 16; ++kt) {
    ta[ty][tx] = a[row * 256 + kt * 16 + tx];
    tb[ty][tx] = b[(kt * 16 + ty) * 256 + col];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (size_t k = 0; k < 16; ++k)
      sum += ta[ty][k] * tb[k][tx];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  c[row * 256 + col] = sum;
}

__kernel void transpose(__global const float *in, __global float *out) {
  __local float tile[16][17];
  size_t tx = get_local_id(0), ty = get_local_id(1);
  size_t r0 = get_group_id(1) * 16, c0 = get_group_id(0) * 16;
  tile[ty][tx] = in[(r0 + ty) * 1024 + c0 + tx];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[(c0 + ty) * 1024 + r0 + tx] = tile[tx][ty];
}
