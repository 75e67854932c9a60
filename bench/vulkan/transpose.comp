// Transpose of a 1024x1024 float matrix: 16x16 blocks, each stages its tile
// in a padded 16x17 shared array, one barrier, and writes it transposed
// (bench/cpu/transpose.mlir).
#version 450
layout(local_size_x = 16, local_size_y = 16) in;
layout(set = 0, binding = 0) readonly buffer In { float src[]; };
layout(set = 0, binding = 1) writeonly buffer Out { float dst[]; };
shared float tile[16][17];

void main() {
  uint tx = gl_LocalInvocationID.x, ty = gl_LocalInvocationID.y;
  uint r0 = gl_WorkGroupID.y * 16, c0 = gl_WorkGroupID.x * 16;
  tile[ty][tx] = src[(r0 + ty) * 1024 + c0 + tx];
  barrier();
  dst[(c0 + ty) * 1024 + r0 + tx] = tile[tx][ty];
}
