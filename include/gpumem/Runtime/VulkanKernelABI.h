/*===----------------------------------------------------------------------===*
 * The contract between kernels compiled for gpumem's `vulkan` target and the
 * Vulkan runtime (libgpumem_vulkan_runtime.so). Plain C, no dependencies:
 * the compiler writes these records, the runtime reads them.
 *
 * A vulkan gpu.module is serialized as one image: a GPUMemVulkanImage
 * header, one SPIR-V module (every kernel an entry point of the GLCompute
 * model, named as the gpu.func), then one record per kernel. All fields are
 * little-endian uint32_t; every record starts 4-byte aligned.
 *
 *   GPUMemVulkanImage          magic, version, kernelCount, spirvWords
 *   uint32_t spirv[spirvWords]
 *   kernelCount times:
 *     GPUMemVulkanKernel       nameBytes, paramCount, bindingCount,
 *                              pushConstantBytes, flags, staticSharedBytes
 *     char name[nameBytes]     not terminated, zero-padded to 4 bytes
 *     GPUMemVulkanParam params[paramCount]
 *   optionally (the image may end before it: no sites):
 *     uint32_t siteCount
 *     siteCount times:
 *       GPUMemVulkanSite       kind, argCount, textBytes, locationBytes
 *       uint32_t argKinds[argCount]      GPUMemVulkanArgKind
 *       char text[textBytes]             zero-padded to 4 bytes
 *       char location[locationBytes]     zero-padded to 4 bytes
 *
 * Kernel arguments. mgpuLaunchKernel receives `params`: params[i] points to
 * the i-th kernel argument after the host lowering expanded memref
 * descriptors (allocated pointer, aligned pointer, offset, sizes...,
 * strides...). Each has a GPUMemVulkanParam saying what the kernel wants of
 * it:
 *   - the aligned pointer of a memref is a storage buffer at descriptor set
 *     0, binding `binding`: the runtime binds the whole buffer holding that
 *     address, and remembers how many elements of `elementBytes` into the
 *     buffer the pointer is (it must be a whole number of elements);
 *   - the memref's offset becomes (that element count + offset) as a 32-bit
 *     value in the push constants at `pushOffset`: kernels index the buffer
 *     from its start;
 *   - sizes, strides and index scalars are 64-bit on the host and 32-bit
 *     in the push constants (a value that does not fit is an error);
 *   - other scalars are copied, `hostBytes` of them, zero-extended to
 *     `pushBytes` (an i1 is a 32-bit value in SPIR-V);
 *   - the allocated pointer is ignored.
 * The push constants start with the block size, three uint32_t at offset 0
 * (gpu.block_dim reads them), then the launch's dynamic shared-memory bytes
 * at GPUMEM_VULKAN_PUSH_DYNAMIC_SHARED_BYTES (memref.dim of
 * gpu.dynamic_shared_memory reads it); parameters follow from offset
 * GPUMEM_VULKAN_PUSH_PARAMS.
 *
 * Block size. The SPIR-V module's LocalSize of each entry point is a
 * placeholder; WorkgroupSize is a specialization-constant composite of
 * GPUMEM_VULKAN_SPEC_BLOCK_X/Y/Z, which the runtime sets to the launch's
 * block size when it creates the pipeline (pipelines are cached per kernel
 * and specialization).
 *
 * Dynamic workgroup memory. A kernel with the GPUMEM_VULKAN_DYNAMIC_SHARED
 * flag has one Workgroup array of 32-bit words whose length is the
 * specialization constant GPUMEM_VULKAN_SPEC_DYNAMIC_SHARED_WORDS; the
 * runtime sets it to the launch's dynamic shared-memory bytes / 4 (rounded
 * up, at least 1). Logical SPIR-V has no typed views of one byte buffer, so
 * the compiler addresses it in words (see docs/decisions.md).
 *
 * Diagnostics: gpu.printf and cf.assert. A kernel with the
 * GPUMEM_VULKAN_DIAGNOSTICS flag binds, at descriptor set 1 binding 0, a
 * buffer of 32-bit words the runtime provides per launch (zeroed, then
 * the capacity written at GPUMEM_VULKAN_DIAG_CAPACITY) and reads when the
 * launch has finished. Each gpu.printf or cf.assert of the module is a
 * site of the image's site table, numbered from 0:
 *   - a printf adds its record's word count to the cursor atomically and,
 *     when the record fits the capacity, writes the site number and its
 *     arguments (GPUMemVulkanArgKind, low word first) at
 *     GPUMEM_VULKAN_DIAG_RECORDS + the old cursor; else it counts a
 *     dropped record. The host prints the records in buffer order with the
 *     site's format, as CUDA's printf does;
 *   - a failed assert stores site + 1 at GPUMEM_VULKAN_DIAG_ASSERT by
 *     compare-and-swap from 0, and the thread that won writes its block
 *     and thread ids after it. The host reports the first failed assert
 *     (text: its message, location: file:line:col) and exits.
 * Stores that lose a race go to GPUMEM_VULKAN_DIAG_DISCARD, which nobody
 * reads, so the kernel needs no branches.
 *===----------------------------------------------------------------------===*/

#ifndef GPUMEM_RUNTIME_VULKANKERNELABI_H
#define GPUMEM_RUNTIME_VULKANKERNELABI_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define GPUMEM_VULKAN_ABI_VERSION 2
/* "GMVK" read as a little-endian uint32_t. */
#define GPUMEM_VULKAN_IMAGE_MAGIC 0x4b564d47u

#define GPUMEM_VULKAN_SPEC_BLOCK_X 0
#define GPUMEM_VULKAN_SPEC_BLOCK_Y 1
#define GPUMEM_VULKAN_SPEC_BLOCK_Z 2
#define GPUMEM_VULKAN_SPEC_DYNAMIC_SHARED_WORDS 3

/* Byte offset of the launch's dynamic shared-memory bytes (uint32_t) and
 * of the first parameter in the push constants. */
#define GPUMEM_VULKAN_PUSH_DYNAMIC_SHARED_BYTES 12
#define GPUMEM_VULKAN_PUSH_PARAMS 16

typedef struct GPUMemVulkanImage {
  uint32_t magic;   /* GPUMEM_VULKAN_IMAGE_MAGIC */
  uint32_t version; /* GPUMEM_VULKAN_ABI_VERSION */
  uint32_t kernelCount;
  uint32_t spirvWords;
} GPUMemVulkanImage;

enum GPUMemVulkanKernelFlags {
  /* The kernel has the dynamic workgroup array. */
  GPUMEM_VULKAN_DYNAMIC_SHARED = 1u << 0,
  /* The kernel binds the diagnostics buffer (printf, assert). */
  GPUMEM_VULKAN_DIAGNOSTICS = 1u << 1,
  /* Bits 8-15: the subgroup size the kernel's subgroup operations assume
   * (shuffle widths, reductions), 0 when it has none. The runtime refuses
   * to run it on a device whose subgroups differ. */
  GPUMEM_VULKAN_SUBGROUP_SIZE_MASK = 0xff00u
};
#define GPUMEM_VULKAN_SUBGROUP_SIZE_SHIFT 8

typedef struct GPUMemVulkanKernel {
  uint32_t nameBytes;
  uint32_t paramCount;        /* == the launch's paramsCount */
  uint32_t bindingCount;      /* storage buffers, bindings 0..count-1 */
  uint32_t pushConstantBytes; /* the whole block, block size included */
  uint32_t flags;             /* GPUMemVulkanKernelFlags */
  uint32_t staticSharedBytes; /* Workgroup memory besides the dynamic array */
} GPUMemVulkanKernel;

enum GPUMemVulkanParamKind {
  GPUMEM_VULKAN_PARAM_IGNORED = 0,       /* a memref's allocated pointer */
  GPUMEM_VULKAN_PARAM_BUFFER = 1,        /* a memref's aligned pointer */
  GPUMEM_VULKAN_PARAM_BUFFER_OFFSET = 2, /* the memref's offset (int64) */
  GPUMEM_VULKAN_PARAM_INDEX = 3,         /* size, stride or index (int64) */
  GPUMEM_VULKAN_PARAM_SCALAR = 4         /* copied as is */
};

typedef struct GPUMemVulkanParam {
  uint32_t kind;         /* GPUMemVulkanParamKind */
  uint32_t binding;      /* BUFFER, BUFFER_OFFSET: the buffer's binding */
  uint32_t elementBytes; /* BUFFER: the memref's element size */
  uint32_t pushOffset;   /* BUFFER_OFFSET, INDEX, SCALAR */
  uint32_t hostBytes;    /* SCALAR: bytes params[i] points to */
  uint32_t pushBytes;    /* SCALAR: bytes in the push constants (>= host) */
} GPUMemVulkanParam;

/* Word positions in the diagnostics buffer. */
#define GPUMEM_VULKAN_DIAG_CURSOR 0        /* record words claimed so far */
#define GPUMEM_VULKAN_DIAG_CAPACITY 1      /* record words that fit */
#define GPUMEM_VULKAN_DIAG_ASSERT 2        /* first failed assert's site + 1 */
#define GPUMEM_VULKAN_DIAG_ASSERT_BLOCK 3  /* its block id, 3 words */
#define GPUMEM_VULKAN_DIAG_ASSERT_THREAD 6 /* its thread id, 3 words */
#define GPUMEM_VULKAN_DIAG_DROPPED 9       /* printf records that did not fit */
#define GPUMEM_VULKAN_DIAG_DISCARD 15      /* where lost races store */
#define GPUMEM_VULKAN_DIAG_RECORDS 16      /* the first record word */

enum GPUMemVulkanSiteKind {
  GPUMEM_VULKAN_SITE_PRINTF = 1, /* text: the format */
  GPUMEM_VULKAN_SITE_ASSERT = 2  /* text: the message; location: the
                                    "file:line: function" CUDA's message
                                    names */
};

/* How a printf argument is stored and what the format reads. */
enum GPUMemVulkanArgKind {
  GPUMEM_VULKAN_ARG_INT32 = 1,          /* one word, an int */
  GPUMEM_VULKAN_ARG_INT32_AS_INT64 = 2, /* one word (index), a long long */
  GPUMEM_VULKAN_ARG_INT64 = 3,          /* two words, a long long */
  GPUMEM_VULKAN_ARG_FLOAT32 = 4,        /* one word, a double */
  GPUMEM_VULKAN_ARG_FLOAT64 = 5         /* two words, a double */
};

typedef struct GPUMemVulkanSite {
  uint32_t kind;          /* GPUMemVulkanSiteKind */
  uint32_t argCount;      /* PRINTF: its arguments; ASSERT: 0 */
  uint32_t textBytes;     /* not terminated */
  uint32_t locationBytes; /* "file:line:col", not terminated */
} GPUMemVulkanSite;

#ifdef __cplusplus
}
#endif

#endif /* GPUMEM_RUNTIME_VULKANKERNELABI_H */
