// Sum of 2^22 floats: each block of 256 threads adds 4 elements per thread
// (strided by 256), then halves a 256-float shared tree with a barrier per
// level, and thread 0 writes the block's sum (bench/cpu/reduction.mlir).
#version 450
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) readonly buffer X { float x[]; };
layout(set = 0, binding = 1) writeonly buffer Partial { float partial[]; };
shared float tree[256];

void main() {
  uint tx = gl_LocalInvocationID.x;
  uint base = gl_WorkGroupID.x * 1024;
  float sum = 0.0;
  for (uint k = 0; k < 4; ++k)
    sum += x[base + k * 256 + tx];
  tree[tx] = sum;
  barrier();
  for (uint s = 128; s > 0; s /= 2) {
    if (tx < s)
      tree[tx] = tree[tx] + tree[tx + s];
    barrier();
  }
  if (tx == 0)
    partial[gl_WorkGroupID.x] = tree[0];
}
