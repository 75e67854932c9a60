/*===----------------------------------------------------------------------===*
 * The contract between kernels compiled for gpumem's `cpu` target and the
 * CPU runtime (libgpumem_cpu_runtime.so). Plain C, no dependencies: the
 * compiler mirrors these layouts as LLVM struct types, the runtime includes
 * this header.
 *
 * A CPU gpu.module is serialized as a host shared object. It exports one
 * symbol, GPUMEM_CPU_MODULE_SYMBOL, a GPUMemCPUModule that lists its
 * kernels. The runtime loads the object from memory (memfd_create + dlopen),
 * finds the kernel by name and runs blocks on worker threads. Compiled code
 * calls back into the runtime only through ctx->services, so the object's
 * undefined symbols are libc's and libm's only (printf; math functions, for
 * which the object lists libm.so.6 as needed). The object has no DT_SONAME:
 * dlopen would merge two modules with the same one.
 *
 * Fiber stacks are GPUMEM_CPU_STACK_SIZE bytes (64 KiB by default) with a
 * guard below; a kernel whose frames exceed that overflows into the guard
 * and is reported. Large private arrays belong in memref.alloca of modest
 * size.
 *
 * Every function of a CPU gpu.module takes the thread's GPUMemThreadContext
 * as its last argument. Kernels are entered through GPUMemCPUKernel:
 *   - runThread(params, ctx): runs one thread; ctx->threadId is set by the
 *     runtime. Kernels with needsFibers run one fiber per thread this way.
 *   - runBlocks(params, ctx, first, last): runs the blocks whose linear
 *     ids (x fastest, over ctx->gridDim) are first..last-1, one after the
 *     other, and every thread of each in a loop, x fastest. It sets
 *     ctx->blockId (before each block starts, so that a fault names it)
 *     and ctx->threadId itself. Only for kernels without barriers or warp
 *     operations (needsFibers == 0); null otherwise. One call for many
 *     blocks keeps the runtime's per-block cost out of small blocks.
 * `params` is the array mgpuLaunchKernel receives: params[i] points to the
 * i-th kernel argument after memref descriptors are expanded (allocated
 * pointer, aligned pointer, offset, sizes..., strides...).
 *===----------------------------------------------------------------------===*/

#ifndef GPUMEM_RUNTIME_CPUKERNELABI_H
#define GPUMEM_RUNTIME_CPUKERNELABI_H

#include "gpumem/Runtime/Limits.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define GPUMEM_CPU_ABI_VERSION 12
#define GPUMEM_CPU_MODULE_SYMBOL "__gpumem_cpu_module"
/* Lanes of a warp: a kernel's warps have GPUMEM_WARP_SIZE lanes (NVIDIA's,
 * and the default) unless its GPUMemCPUKernel::warpSize asks for
 * GPUMEM_MAX_WARP_SIZE (the 64-lane wavefronts of AMD's gfx9 chips). A
 * thread's lane is its linear thread id in the block modulo the kernel's
 * warp size, its warp the quotient. */
#define GPUMEM_WARP_SIZE 32
#define GPUMEM_MAX_WARP_SIZE 64
/* Workgroup memory of a block at most, static and dynamic, on the cpu
 * target: the largest NVIDIA GPU's (Limits.h), so that a program that runs
 * there fits a GPU. Static sizes over it are a compile-time error, dynamic
 * ones the runtime's. */
#define GPUMEM_CPU_MAX_SHARED_BYTES_PER_BLOCK GPUMEM_MAX_SHARED_BYTES_PER_BLOCK
/* Alignment the runtime guarantees for the dynamic part of the workgroup
 * arena at least (the compiler rounds the static bytes up to what the
 * module's dynamic shared memory asks). */
#define GPUMEM_SHARED_ALIGNMENT GPUMEM_WORKGROUP_ALIGNMENT
/* Alignment of the arena itself: the most a workgroup buffer may ask for. */
#define GPUMEM_ARENA_ALIGNMENT GPUMEM_MAX_WORKGROUP_ALIGNMENT

typedef struct GPUMemThreadContext GPUMemThreadContext;

/* gpu.shuffle modes, with gpu::ShuffleMode's values (DOWN is 1, UP is 2). */
enum GPUMemShuffleMode {
  GPUMEM_SHUFFLE_XOR = 0,
  GPUMEM_SHUFFLE_DOWN = 1,
  GPUMEM_SHUFFLE_UP = 2,
  GPUMEM_SHUFFLE_IDX = 3
};

/* Runtime services compiled code calls through ctx->services. `location` is
 * "file:line:col" of the op in the source program. */
typedef struct GPUMemRuntimeServices {
  /* gpu.barrier: returns once every thread of the block reached it. A
   * thread that returns from the kernel while others wait at a barrier, or
   * threads waiting at different barriers, stop the program with an error
   * naming the kernel and the barrier's location. */
  void (*barrier)(GPUMemThreadContext *ctx, const char *location);
  /* gpu.shuffle, as MLIR specifies it: `value` holds the 32- or 64-bit
   * value in its low bits. Lanes are linear thread ids modulo the kernel's
   * warp size (32 unless GPUMemCPUKernel::warpSize says 64); only the first
   * `width` (1..warp size) lanes of the warp take part. The offset counts
   * modulo the warp size, as PTX's shfl does modulo 32; the source lane
   * is lane ^ offset (xor), lane - offset (up), lane + offset (down) or
   * offset (idx). The result is the source lane's value and *valid is 1,
   * or, when the caller or the source is not among the first `width`
   * lanes, is beyond the block's last thread, or has returned, the
   * caller's own value and *valid is 0. Every live lane of the first
   * `width` must reach the same shuffle (with the same width); the other
   * lanes of the warp need not (docs/cpu-runtime.md). */
  uint64_t (*shuffle)(GPUMemThreadContext *ctx, uint64_t value, int32_t offset,
                      int32_t width, int32_t mode, int32_t *valid,
                      const char *location);
  /* cf.assert failed, with the place CUDA's __assertfail takes (upstream's
   * NVVM lowering of cf.assert finds file, line and function the same
   * way). Prints CUDA's line for the thread, "file:line: function: block:
   * [x,y,z], thread: [x,y,z] Assertion `message` failed.", and stops the
   * thread; the launch's other threads go on, and the launch fails once
   * they are done. Does not return. A kernel that may assert must not
   * have a runBlocks: a failing thread there stops the program at once. */
  void (*assertFail)(GPUMemThreadContext *ctx, const char *message,
                     const char *file, uint32_t line, const char *function);

  /* The services below are PTX's, for the cuda-emu target, which runs the
   * NVVM form of a kernel (docs/cuda-emu.md). */

  /* bar.sync / barrier.sync `id`, `count`: with count < 0 every thread of
   * the block takes part (then it is `barrier`); else the barrier `id`
   * (0..15) completes when `count` threads (a multiple of the kernel's warp
   * size) arrived; a warp counts as its size once its live lanes arrived. */
  void (*barrierSync)(GPUMemThreadContext *ctx, int32_t id, int32_t count,
                      const char *location);
  /* A warp-synchronous operation (GPUMemWarpOp) over the lanes of
   * `memberMask`, bit l for lane l of the caller's warp (lanes 0..63; a
   * caller with a 32-bit mask zero-extends it), which must hold the
   * caller's lane and only lanes that exist and have not exited; every lane
   * of it must reach the same operation with the same mask
   * (compute-sanitizer's synccheck). `value` is the lane's operand in its
   * low bits, `b` and `c` PTX's operands of shfl.sync; *pred receives the
   * predicate result (shfl.sync's validity, match.sync.all's). Returns the
   * operation's result: for VOTE_BALLOT, MATCH_ANY and MATCH_ALL a mask of
   * lanes like memberMask, all 64 bits of it in a 64-lane warp.
   *
   * In a kernel with 32-lane warps the operations are PTX's (the shuffles
   * with shfl.sync's clamp and segment mask in c). In a kernel with 64-lane
   * warps (GPUMemCPUKernel::warpSize 64) shuffles have no clamp or segment
   * mask: c is ignored, b counts modulo 64, and the source lane is b (IDX),
   * lane ^ b (BFLY), lane - b (UP, valid when >= 0) or lane + b (DOWN,
   * valid when <= 63); vote, redux and match combine up to 64 lanes. */
  uint64_t (*warpSync)(GPUMemThreadContext *ctx, int32_t op,
                       uint64_t memberMask, uint64_t value, int32_t b,
                       int32_t c, int32_t *pred, const char *location);
  /* CUDA's vprintf: `format` and the argument buffer the NVVM lowering
   * packs (each argument at its natural alignment, floats as doubles). */
  int32_t (*vprintf)(GPUMemThreadContext *ctx, const char *format,
                     const void *arguments);
  /* CUDA's __assertfail: as assertFail, but the launch then fails the way
   * the cuda runtime reports a kernel that trapped. Does not return. */
  void (*cudaAssertFail)(GPUMemThreadContext *ctx, const char *message,
                         const char *file, uint32_t line, const char *function);

  /* The services below are for kernels that run as coroutines
   * (GPUMemCPUKernel::startCoroutine). Such a kernel calls barrier,
   * barrierSync and warpSync as usual, but they return at once, and the
   * kernel suspends right after each; warpSync's result is read after the
   * resumption with warpSyncResult. */
  /* `bytes` of memory, 64-byte aligned, for the calling thread's coroutine
   * frame; valid until the thread returns. */
  void *(*coroutineFrame)(GPUMemThreadContext *ctx, int64_t bytes);
  /* The result (and *pred) of the caller's last warpSync. */
  uint64_t (*warpSyncResult)(GPUMemThreadContext *ctx, int32_t *pred);
  /* The thread returns from the kernel: called before its final suspend. */
  void (*coroutineReturned)(GPUMemThreadContext *ctx);

  /* --sanitize=memcheck (gpumem-sanitize-memory-accesses): the access
   * `what` ("store to memref<4xf32>") at `location` has index `index` in
   * dimension `dim` of size `size`, out of bounds; the access is skipped.
   * `base` is the memref's aligned pointer, which the report names the
   * buffer by. The runtime reports it (once per site, then counts) and the
   * program fails at its end. `dim` -1: the indices are inside the view,
   * but the view (made by memref.reinterpret_cast) lies outside the buffer
   * of `size` elements it was made from, whose element `index` it
   * reaches. */
  void (*accessError)(GPUMemThreadContext *ctx, const char *what,
                      const char *location, int64_t dim, int64_t index,
                      int64_t size, const void *base);
  /* --sanitize=racecheck,initcheck: the thread accesses `bytes` bytes of
   * workgroup memory at `address` (GPUMemSharedAccess flags: what it does
   * and which checks to make); `what` and `location` as for accessError.
   * Called before the access; reports races and uninitialized reads. */
  void (*sharedAccess)(GPUMemThreadContext *ctx, const void *address,
                       int64_t bytes, int32_t flags, const char *what,
                       const char *location);
  /* --sanitize=memcheck: memref argument `argument` of the kernel at
   * `location` points at `pointer`; when that is device memory already
   * freed, the runtime sets ctx->freedArguments, and the thread's accesses
   * of device memory then ask addressAccess, which reports the use after
   * free at the access. */
  void (*argumentCheck)(GPUMemThreadContext *ctx, const void *pointer,
                        int64_t argument, const char *location);
  /* --sanitize=racecheck,initcheck: as sharedAccess, for an access of any
   * other memory space; the runtime checks those in device memory
   * (mgpuMemAlloc without host sharing) and ignores the rest. */
  void (*deviceAccess)(GPUMemThreadContext *ctx, const void *address,
                       int64_t bytes, int32_t flags, const char *what,
                       const char *location);
  /* --sanitize on cuda-emu, whose kernels have pointers, not memrefs: any
   * load, store or atomic, `what` as "load of 4 bytes" (or the memref
   * access's words, "load from memref<4xf32>", for one the memref checks
   * saw); on the cpu target, device accesses once ctx->freedArguments is
   * set. The runtime finds
   * what the address is (the block's shared memory, an allocation of
   * device memory, the redzone after one, freed memory) and checks it
   * (GPUMEM_ACCESS_CHECK_BOUNDS: out of bounds and use after free; races
   * and uninitialized reads as sharedAccess and deviceAccess). */
  void (*addressAccess)(GPUMemThreadContext *ctx, const void *address,
                        int64_t bytes, int32_t flags, const char *what,
                        const char *location);
  /* --sanitize=racecheck: a block-wide function (runBlocks, thread-loop
   * fission) passed the place of a barrier; every thread of the block has
   * reached it, and the next barrier phase starts. */
  void (*blockPhase)(GPUMemThreadContext *ctx);

  /* PTX's asynchronous copies (cuda-emu). `queue` is the calling thread's
   * record of its copies in flight: GPUMEM_ASYNC_COPY_QUEUE_BYTES, 8-byte
   * aligned, zeroed when the thread starts. cp.async records a copy of
   * `bytes` bytes from `src` to `dst`, of which the first `srcBytes` are
   * read and the rest zero-filled; nothing is written until a wait asks
   * for the copy's group (runtime/cpu/PTXAsyncCopies.cpp). */
  void (*asyncCopy)(GPUMemThreadContext *ctx, void *queue, void *dst,
                    const void *src, int32_t bytes, int32_t srcBytes);
  /* cp.async.commit_group: the copies recorded since the last commit (or
   * none) become the thread's newest group. */
  void (*asyncCopyCommit)(GPUMemThreadContext *ctx, void *queue);
  /* cp.async.wait_group `groups`: every copy of all but the `groups` most
   * recent groups is done; with groups < 0 (wait_all) every copy. */
  void (*asyncCopyWait)(GPUMemThreadContext *ctx, void *queue, int32_t groups);

  /* nvgpu's asynchronous copies on the cpu target: as asyncCopy,
   * asyncCopyCommit and asyncCopyWait, but the runtime keeps the calling
   * thread's queue (thread-loop fission runs a block's threads on one
   * stack), and a copy names its `location` for --sanitize: racecheck
   * reports an access of its destination, or a write of its source, before
   * the wait that performs it; at the wait its bytes count as read and
   * written there (racecheck, initcheck). */
  void (*asyncCopyIssue)(GPUMemThreadContext *ctx, void *dst, const void *src,
                         int32_t bytes, int32_t srcBytes, const char *location);
  void (*asyncCopyGroup)(GPUMemThreadContext *ctx);
  void (*asyncCopyWaitGroups)(GPUMemThreadContext *ctx, int32_t groups);

  /* --sanitize=memcheck: the integer division or remainder `what`
   * ("arith.divsi of i32") at `location` has a divisor of 0 (`overflow`
   * 0) or divides the smallest signed value by -1 (`overflow` 1), which
   * traps on a CPU and gives an unspecified value on a GPU; the division
   * is made by 1 instead. Reported like accessError. */
  void (*divisionError)(GPUMemThreadContext *ctx, int32_t overflow,
                        const char *what, const char *location);
} GPUMemRuntimeServices;

/* Bytes of a thread's queue of asynchronous copies (services->asyncCopy). */
#define GPUMEM_ASYNC_COPY_QUEUE_BYTES 2064

/* The flags of services->sharedAccess and deviceAccess. */
enum GPUMemSharedAccess {
  GPUMEM_SHARED_READ = 1,
  GPUMEM_SHARED_WRITE = 2,
  GPUMEM_SHARED_ATOMIC = 4, /* with READ and WRITE: races only with plain
                               accesses, which are not tracked yet: none;
                               initcheck checks it as a read */
  GPUMEM_SHARED_CHECK_RACES = 8,
  GPUMEM_SHARED_CHECK_INIT = 16,
  GPUMEM_ACCESS_CHECK_BOUNDS = 32 /* addressAccess only */
};
/* sharedAccess: bits from GPUMEM_SHARED_BUFFER_SHIFT up of the flags hold
 * the number of the planned workgroup buffer the access goes through when
 * the planner gave it bytes of another buffer (gpumem.shares_bytes, from
 * 1; 0: none or not known). initcheck takes a byte written through another
 * such buffer as not written. */
#define GPUMEM_SHARED_BUFFER_SHIFT 16

/* The operations of services->warpSync. */
enum GPUMemWarpOp {
  GPUMEM_WARP_SHFL_BFLY = 0, /* shfl.sync with PTX's clamp and segment mask */
  GPUMEM_WARP_SHFL_UP = 1,
  GPUMEM_WARP_SHFL_DOWN = 2,
  GPUMEM_WARP_SHFL_IDX = 3,
  GPUMEM_WARP_VOTE_ALL = 4, /* vote.sync: value is the predicate */
  GPUMEM_WARP_VOTE_ANY = 5,
  GPUMEM_WARP_VOTE_UNI = 6,
  GPUMEM_WARP_VOTE_BALLOT = 7,
  GPUMEM_WARP_REDUX_ADD = 8, /* redux.sync on 32-bit integers */
  GPUMEM_WARP_REDUX_MIN = 9,
  GPUMEM_WARP_REDUX_MAX = 10,
  GPUMEM_WARP_REDUX_UMIN = 11,
  GPUMEM_WARP_REDUX_UMAX = 12,
  GPUMEM_WARP_REDUX_AND = 13,
  GPUMEM_WARP_REDUX_OR = 14,
  GPUMEM_WARP_REDUX_XOR = 15,
  GPUMEM_WARP_MATCH_ANY = 16, /* match.sync on 32- or 64-bit values */
  GPUMEM_WARP_MATCH_ALL = 17,
  GPUMEM_WARP_SYNC = 18,  /* bar.warp.sync */
  GPUMEM_WARP_MATRIX = 19 /* wmma, mma.sync, ldmatrix over the full warp:
                             value is the lane's record, b the descriptor
                             (gpumem/Runtime/PTXMatrix.h) */
};

/* One thread's view of its launch. Field offsets are part of the ABI. */
struct GPUMemThreadContext {
  int64_t threadId[3];        /*   0 */
  int64_t blockId[3];         /*  24 */
  int64_t blockDim[3];        /*  48 */
  int64_t gridDim[3];         /*  72 */
  char *sharedMemory;         /*  96: the block's arena; static workgroup
                                       memory at its start */
  char *dynamicSharedMemory;  /* 104: gpu.dynamic_shared_memory, after the
                                       static part, 16-byte aligned */
  int64_t dynamicSharedBytes; /* 112: the launch's dynamic size */
  const GPUMemRuntimeServices *services; /* 120 */
  void *scheduler;                       /* 128: runtime-private */
  const char *kernelName;                /* 136 */
  const char *barrierAt;                 /* 144: set by a barriersOnly coroutine
                                                  kernel before it suspends at a
                                                  barrier: the barrier's location */
  int64_t freedArguments;                /* 152: --sanitize (cpu target):
                                                  nonzero once
                                                  argumentCheck found a memref
                                                  argument in freed memory; the
                                                  thread's device accesses then
                                                  ask addressAccess */
};

/* One kernel of a CPU gpu.module. */
typedef struct GPUMemCPUKernel {
  const char *name;
  void (*runThread)(void **params, GPUMemThreadContext *ctx);
  void (*runBlocks)(void **params, GPUMemThreadContext *ctx, int64_t first,
                    int64_t last);
  int64_t staticSharedBytes; /* arena bytes the kernel needs statically */
  int32_t needsFibers;       /* barrier or warp operation reachable */
  int32_t numParams;         /* entries of `params` */
  /* cuda-emu: the emulated chip ("sm_90") and its shared memory per block;
   * launches are checked against it with the cuda runtime's messages.
   * Null and 0 on the cpu target. */
  const char *emulatedChip;
  int64_t maxSharedBytesPerBlock;
  /* Kernels with barriers or warp operations may run each thread as a
   * stackless coroutine instead of a fiber (cheaper to switch):
   * startCoroutine(params, ctx) runs the thread up to its first suspension
   * and returns its handle, resumeCoroutine(handle) runs it to the next.
   * Null when the kernel runs on fibers. */
  void *(*startCoroutine)(void **params, GPUMemThreadContext *ctx);
  void (*resumeCoroutine)(void *handle);
  /* A coroutine kernel whose only synchronization is the block-wide
   * barrier: it calls no service there, but sets ctx->barrierAt and
   * suspends; the runtime checks that all threads wait at one barrier. */
  int32_t barriersOnly;
  /* The --sanitize checks the kernel was compiled with (GPUMemCheck
   * flags). memcheck, racecheck and initcheck are compiled into the code;
   * the runtime makes synccheck's itself. */
  int32_t checks;
  /* paramBytes[i]: the bytes params[i] points to, so that an asynchronous
   * launch can copy its arguments (as cuLaunchKernel does). Null when the
   * kernel has no parameters. */
  const int32_t *paramBytes;
  /* The kernel's known_block_size (x, y, z), which its code was
   * specialized for, or on cuda-emu its PTX .reqntid: launches of another
   * block size are refused. All 0 when the kernel runs with any block
   * size. */
  int32_t knownBlockSize[3];
  /* cuda-emu: the kernel's PTX .maxntid, as the number of threads (the
   * product of its dimensions); a launch of a larger block fails as it
   * does on CUDA. 0 when the kernel has none. */
  int32_t maxThreadsPerBlock;
  /* Lanes of the kernel's warps: GPUMEM_WARP_SIZE (32) or
   * GPUMEM_MAX_WARP_SIZE (64); 0 means 32. Lane and warp ids, warpSync's
   * member masks, gpu.shuffle's widths and bar.sync's counts are in warps
   * of this size. */
  int32_t warpSize;
  /* 0: PTX's warp operations, over a member mask every lane of which must
   * reach them (above). Otherwise AMD's EXEC mask (rocm-emu): a warpSync
   * runs over the lanes of the warp that reach it, the active set, and
   * completes once every other live lane of the warp waits elsewhere (at
   * a barrier, a named barrier, another warp operation) or has returned;
   * a lane that returns or reaches a barrier while others wait at a warp
   * operation is no error. memberMask must hold the caller's lane and only
   * lanes that exist; the active set is the arrived lanes of it. Over the
   * active set: VOTE_BALLOT has bits of active lanes only, VOTE_ALL, ANY
   * and UNI, REDUX and MATCH combine active lanes; a shuffle whose source
   * lane is valid but not active reads 0 with *pred 0 (as ds_bpermute
   * reads an inactive lane), an invalid one the caller's own value with
   * *pred 0. When lanes of a warp wait at different warp operations and
   * no other lane can reach them any more, the one at the earliest
   * location (line, then column) completes first, as the op inside a
   * branch runs before the one after it where the lanes reconverge. */
  int32_t warpOpsOverArrivedLanes;
  /* cuda-emu with the cuda target's device-side memcheck: the module's
   * GPUMemDeviceSanitizerLog (DeviceSanitizerLog.h), which the runtime
   * reads and clears after each launch. Null otherwise. */
  void *deviceSanitizerLog;
} GPUMemCPUKernel;

/* The flags of GPUMemCPUKernel::checks. */
enum GPUMemCheck {
  GPUMEM_CHECK_MEMCHECK = 1,
  GPUMEM_CHECK_RACECHECK = 2,
  GPUMEM_CHECK_INITCHECK = 4,
  /* Barriers every thread of the block reaches, shuffles every lane of
   * the segment reaches: a divergent one is reported and the launch goes
   * on as a GPU would, where without the check the program stops. */
  GPUMEM_CHECK_SYNCCHECK = 8
};

/* The object's exported GPUMEM_CPU_MODULE_SYMBOL. */
typedef struct GPUMemCPUModule {
  int32_t abiVersion; /* GPUMEM_CPU_ABI_VERSION */
  int32_t numKernels;
  const GPUMemCPUKernel *kernels;
} GPUMemCPUModule;

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* GPUMEM_RUNTIME_CPUKERNELABI_H */
