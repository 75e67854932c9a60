/*===----------------------------------------------------------------------===*
 * The limits gpumem's compiler and runtimes share, stated once. Plain C, no
 * dependencies, like the other headers of this folder.
 *
 * Launch limits: CUDA's for every NVIDIA GPU since sm_30, which every
 * target checks (a program that launches on one launches on all).
 * Shared memory: the most a block may use on the largest NVIDIA chip
 * gpumem knows (sm_90's opt-in maximum; lib/Support/NVIDIATarget.cpp has
 * each chip's). Alignment: what every workgroup buffer gets at least (16
 * bytes, for 128-bit vector accesses) and the most a program may ask for
 * (1024 bytes, what 128-byte TMA swizzles need; docs/workgroup-memory.md).
 * Subgroups: a power of two of lanes up to Vulkan's largest (128).
 *===----------------------------------------------------------------------===*/

#ifndef GPUMEM_RUNTIME_LIMITS_H
#define GPUMEM_RUNTIME_LIMITS_H

#define GPUMEM_MAX_THREADS_PER_BLOCK 1024
#define GPUMEM_MAX_BLOCK_DIM_X 1024
#define GPUMEM_MAX_BLOCK_DIM_Y 1024
#define GPUMEM_MAX_BLOCK_DIM_Z 64
#define GPUMEM_MAX_GRID_DIM_X 2147483647
#define GPUMEM_MAX_GRID_DIM_Y 65535
#define GPUMEM_MAX_GRID_DIM_Z 65535

#define GPUMEM_MAX_SHARED_BYTES_PER_BLOCK 232448

#define GPUMEM_MAX_SUBGROUP_SIZE 128

#define GPUMEM_WORKGROUP_ALIGNMENT 16
#define GPUMEM_MAX_WORKGROUP_ALIGNMENT 1024

#endif /* GPUMEM_RUNTIME_LIMITS_H */
