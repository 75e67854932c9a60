// C = A x B for 256x256 floats: 16x16 blocks, one C element per thread;
// per K step both 16x16 tiles are loaded into shared memory, barrier,
// 16 multiply-adds, barrier (bench/cpu/matmul.mlir).
#version 450
layout(local_size_x = 16, local_size_y = 16) in;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) readonly buffer B { float b[]; };
layout(set = 0, binding = 2) writeonly buffer C { float c[]; };
shared float ta[16][16];
shared float tb[16][16];

void main() {
  uint tx = gl_LocalInvocationID.x, ty = gl_LocalInvocationID.y;
  uint row = gl_WorkGroupID.y * 16 + ty;
  uint col = gl_WorkGroupID.x * 16 + tx;
  float sum = 0.0;
  for (uint kt = 0; kt < 16; ++kt) {
    ta[ty][tx] = a[row * 256 + kt * 16 + tx];
    tb[ty][tx] = b[(kt * 16 + ty) * 256 + col];
    barrier();
    for (uint k = 0; k < 16; ++k)
      sum = sum + ta[ty][k] * tb[k][tx];
    barrier();
  }
  c[row * 256 + col] = sum;
}
