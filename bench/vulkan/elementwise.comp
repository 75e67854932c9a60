// y = a * x + y over 2^22 floats, 256 threads per block, one element per
// thread, no barrier (bench/cpu/elementwise.mlir).
#version 450
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) readonly buffer X { float x[]; };
layout(set = 0, binding = 1) buffer Y { float y[]; };
layout(push_constant) uniform Push { float a; };

void main() {
  uint i = gl_WorkGroupID.x * 256 + gl_LocalInvocationID.x;
  y[i] = a * x[i] + y[i];
}
