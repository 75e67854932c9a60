// The programs in examples/ compile with gpumem-cuda-pipeline, and their
// workgroup memref.alloca become per-block .shared arrays of the exact size,
// with no per-thread stack buffer (__local_depot) anywhere in the PTX. With
// ptxas, the shared memory ptxas -v reports per kernel is checked too.
// This file holds only RUN and CHECK lines; the programs live in examples/.

// Transpose: one 16x17xf32 padded tile, 16 * 17 * 4 = 1088 bytes.
// RUN: gpumem-opt %gpumem_src_root/examples/transpose.mlir \
// RUN:     --gpumem-cuda-pipeline="chip=sm_90 format=isa" \
// RUN:   | gpumem-objects ptx - | FileCheck %s --check-prefix=TRANSPOSE
// RUN: %if ptxas %{ \
// RUN:   gpumem-opt %gpumem_src_root/examples/transpose.mlir \
// RUN:       --gpumem-cuda-pipeline="chip=sm_90 format=isa" \
// RUN:     | gpumem-objects smem - \
// RUN:     | FileCheck %s --check-prefix=TRANSPOSE-SMEM %}

// TRANSPOSE-NOT: __local_depot
// TRANSPOSE: .entry main_kernel(
// TRANSPOSE-NOT: __local_depot
// TRANSPOSE: {{^[[:space:]]*}}.shared .align {{[0-9]+}} .b8 {{[^[]+}}[1088];
// TRANSPOSE-NOT: {{^[[:space:]]*\.shared }}
// TRANSPOSE-NOT: __local_depot

// TRANSPOSE-SMEM: main_kernel::main_kernel: 1088 bytes shared memory (ptxas -v, sm_90)
// TRANSPOSE-SMEM-NOT: bytes shared memory

// Reduction: one 256xf32 buffer, 256 * 4 = 1024 bytes.
// RUN: gpumem-opt %gpumem_src_root/examples/reduction.mlir \
// RUN:     --gpumem-cuda-pipeline="chip=sm_90 format=isa" \
// RUN:   | gpumem-objects ptx - | FileCheck %s --check-prefix=REDUCTION
// RUN: %if ptxas %{ \
// RUN:   gpumem-opt %gpumem_src_root/examples/reduction.mlir \
// RUN:       --gpumem-cuda-pipeline="chip=sm_90 format=isa" \
// RUN:     | gpumem-objects smem - \
// RUN:     | FileCheck %s --check-prefix=REDUCTION-SMEM %}

// REDUCTION-NOT: __local_depot
// REDUCTION: .entry main_kernel(
// REDUCTION-NOT: __local_depot
// REDUCTION: {{^[[:space:]]*}}.shared .align {{[0-9]+}} .b8 {{[^[]+}}[1024];
// REDUCTION-NOT: {{^[[:space:]]*\.shared }}
// REDUCTION-NOT: __local_depot

// REDUCTION-SMEM: main_kernel::main_kernel: 1024 bytes shared memory (ptxas -v, sm_90)
// REDUCTION-SMEM-NOT: bytes shared memory

// Tiled matmul: two 16x16xf32 tiles allocated inside the K loop, hoisted to
// two arrays of 16 * 16 * 4 = 1024 bytes, 2048 bytes per block.
// RUN: gpumem-opt %gpumem_src_root/examples/tiled-matmul.mlir \
// RUN:     --gpumem-cuda-pipeline="chip=sm_90 format=isa" \
// RUN:   | gpumem-objects ptx - | FileCheck %s --check-prefix=MATMUL
// RUN: %if ptxas %{ \
// RUN:   gpumem-opt %gpumem_src_root/examples/tiled-matmul.mlir \
// RUN:       --gpumem-cuda-pipeline="chip=sm_90 format=isa" \
// RUN:     | gpumem-objects smem - \
// RUN:     | FileCheck %s --check-prefix=MATMUL-SMEM %}

// MATMUL-NOT: __local_depot
// MATMUL: .entry main_kernel(
// MATMUL-NOT: __local_depot
// MATMUL: {{^[[:space:]]*}}.shared .align {{[0-9]+}} .b8 {{[^[]+}}[1024];
// MATMUL-NOT: {{^[[:space:]]*\.shared }}
// MATMUL-NOT: __local_depot
// MATMUL: {{^[[:space:]]*}}.shared .align {{[0-9]+}} .b8 {{[^[]+}}[1024];
// MATMUL-NOT: {{^[[:space:]]*\.shared }}
// MATMUL-NOT: __local_depot

// MATMUL-SMEM: main_kernel::main_kernel: 2048 bytes shared memory (ptxas -v, sm_90)
// MATMUL-SMEM-NOT: bytes shared memory
