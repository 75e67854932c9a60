//===----------------------------------------------------------------------===//
// The cuda target's passes around upstream's NVVM lowering (cuda-emu runs
// the same NVVM form), run by runtime/cuda.
// docs/passes.md is generated from this file and its siblings.
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_TARGET_CUDA_PASSES
#define GPUMEM_TARGET_CUDA_PASSES

include "mlir/Pass/PassBase.td"

def GPUMemAttachNVVMTargetPass
    : Pass<"gpumem-attach-nvvm-target", "::mlir::ModuleOp"> {
  let summary = "Check an NVIDIA chip, PTX features and output format, then "
                "attach an NVVM target to every gpu.module";
  let description = [{
    Like upstream `nvvm-attach-target`, but it never lets a bad combination
    reach the NVPTX backend or ptxas, where it would end in `LLVM ERROR` or a
    tool failure:

    * the chip must be one gpumem knows (sm_70 to sm_120, see
      `docs/targets.md`);
    * `features` defaults to the chip's minimum PTX version; an explicit
      `+ptxNN` below that minimum, or above what LLVM 22 emits, is an error;
    * when the output format needs ptxas (`bin`, `fatbin`), ptxas must exist,
      accept the chip (CUDA 13 dropped sm_70 and sm_72), and accept the PTX
      version.

    Errors are reported at the module's location.

    Before:
    ```mlir
    gpu.module @kernels { ... }
    ```
    After (`chip=sm_90`):
    ```mlir
    gpu.module @kernels [#nvvm.target<O = 3, chip = "sm_90", features = "+ptx78">] { ... }
    ```
  }];
  let dependentDialects = ["::mlir::NVVM::NVVMDialect"];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"sm_90\"",
           "NVIDIA chip, for example sm_80 or sm_90, or several, "
           "comma-separated: a target for each, oldest first">,
    Option<"features", "features", "std::string", /*default=*/"\"\"",
           "PTX features such as +ptx80; empty: the chip's minimum PTX version">,
    Option<"format", "format", "::gpumem::BinaryFormat",
           /*default=*/"::gpumem::BinaryFormat::ISA",
           "Output format the binary will have: isa, bin or fatbin",
           [{::llvm::cl::values(
             clEnumValN(::gpumem::BinaryFormat::ISA, "isa", "PTX"),
             clEnumValN(::gpumem::BinaryFormat::Bin, "bin", "cubin"),
             clEnumValN(::gpumem::BinaryFormat::Fatbin, "fatbin",
                        "fatbin"))}]>,
    Option<"toolkit", "toolkit", "std::string", /*default=*/"\"\"",
           "CUDA toolkit root holding bin/ptxas; empty: search the usual places">,
    Option<"optLevel", "opt-level", "unsigned", /*default=*/"3",
           "Optimization level of the NVPTX backend, 0 to 3">,
  ];
}

def GPUMemCheckNVIDIAOpRequirementsPass
    : Pass<"gpumem-check-nvidia-op-requirements", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Check tensor-core, asynchronous-copy, barrier and NVVM ops "
                "against the chip and PTX version of the gpu.module's NVVM "
                "target";
  let description = [{
    LLVM's NVPTX backend aborts with `LLVM ERROR: Cannot select: intrinsic
    ...` on an instruction the target chip or PTX version lacks (a tf32
    `gpu.subgroup_mma_compute` for sm_75, `nvgpu.device_async_copy` for
    sm_75, `nvgpu.mbarrier.arrive.expect_tx` with sm_90's default PTX 7.8),
    and instructions upstream emits as inline PTX (`nvgpu.mma.sp.sync`,
    `nvgpu.mbarrier.try_wait.parity`) only fail in ptxas or the driver. On
    a gpu.module with an `#nvvm.target`, before any lowering, this pass
    checks each op against one table of what NVIDIA chips offer (PTX ISA,
    as LLVM 22's NVPTX backend selects it):

    * `gpu.subgroup_mma_*` (wmma): the element types and shape of each
      matrix, and the chip and PTX version they need (f16 sm_70, s8/u8
      sm_72 and PTX 6.3, tf32 and f64 sm_80); shapes and types no NVIDIA
      tensor core has, or that upstream's lowering does not take, are
      errors too;
    * `nvgpu.mma.sync` by shape and element type, `nvgpu.mma.sp.sync`,
      `nvgpu.ldmatrix`, the `nvgpu.device_async_*` copies (sm_80), the
      `nvgpu.mbarrier.*` ops (sm_80; transaction counts and parity waits
      sm_90), `nvgpu.tma.*` (sm_90, PTX 8.0), `nvgpu.warpgroup.mma`
      (sm_90a);
    * `nvvm.*` ops written directly (`nvvm.wmma.*`, `nvvm.mma.sync`,
      `nvvm.cp.async.*`, `nvvm.mbarrier.*`, ...): the same table; the NVVM
      ops that declare a minimum SM themselves are checked by the
      gpu.module verifier once the target is attached.

    A failed requirement is an error at the op that names it and the
    target, for example `'gpu.subgroup_mma_compute' op needs sm_80 or newer
    for m16n16k8 tf32 matrices; the target chip is sm_75`, or for PTX
    `'gpu.subgroup_mma_load_matrix' op needs PTX 6.1 or later for an A
    matrix of 32x16 f16; the target is sm_70 with PTX 6.0 (features=+ptx61
    raises it)`. gpu.modules without an NVVM target are left alone.
  }];
}

def GPUMemMoveLargeSharedToDynamicPass
    : Pass<"gpumem-move-large-shared-to-dynamic", "::mlir::ModuleOp"> {
  let summary = "Move the workgroup attributions of kernels over the 48 KiB "
                "static limit into dynamic shared memory";
  let description = [{
    NVIDIA GPUs allow at most 48 KiB of static shared memory per kernel;
    ptxas rejects more (`uses too much shared data`). Up to the chip's
    per-block maximum (232448 bytes on sm_90) is available as dynamic shared
    memory once the kernel opts in, which gpumem's CUDA runtime does when a
    launch asks for it. For every outlined kernel whose workgroup
    attributions add up to more than 48 KiB (each 16-byte aligned), this
    pass replaces them by views of `gpu.dynamic_shared_memory` at the same
    offsets and makes every `gpu.launch_func` of the kernel pass that many
    bytes as its dynamic shared memory size. More than the chip's maximum is
    an error naming the kernel, the bytes and the limit.

    The kernel's own dynamic shared memory (`gpu.dynamic_shared_memory`
    written by the user, or dynamic-size buffers packed there by
    `gpumem-pack-dynamic-workgroup-allocs`) moves up: it becomes a view that
    starts after the moved buffers (at a 16-byte boundary) and whose size is
    what the launch passed, and the launch passes the moved bytes on top.
    When the total is known only at run time, the CUDA runtime reports a
    launch over the device's maximum, naming the kernel.

    Before:
    ```mlir
    gpu.func @k() workgroup(%big : memref<16384xf32, 3>) kernel { ... }
    gpu.launch_func @m::@k blocks in (...) threads in (...)
    ```
    After:
    ```mlir
    gpu.func @k() kernel {
      %dyn = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %view = memref.view %dyn[%c0][] : ... to memref<16384xf32, #gpu.address_space<workgroup>>
      %big = memref.memory_space_cast %view : ... to memref<16384xf32, 3>
      ...
    }
    gpu.launch_func @m::@k blocks in (...) threads in (...) dynamic_shared_memory_size %c65536_i32
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::memref::MemRefDialect"];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"sm_90\"",
           "NVIDIA chip whose per-block shared memory maximum applies, or "
           "several, comma-separated: each one's">,
  ];
}

def GPUMemLowerMMAElementwiseForNVVMPass
    : Pass<"gpumem-lower-mma-elementwise-for-nvvm", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Lower gpu.subgroup_mma_elementwise to arithmetic on the "
                "registers of its NVIDIA fragment";
  let description = [{
    Upstream's NVVM lowering of `gpu.subgroup_mma_elementwise` crashes for
    `maxf`/`minf` on f16 fragments (a NaN constant of the wrong type),
    computes `llvm.fadd` on the i32 registers of tf32 fragments, and stops
    at an unreachable for `subf`, `negatef`, `extf` and the integer kinds.
    Before the NVVM lowering, this pass rewrites every such op into the
    kind's `arith` op on each register of the struct NVVM gives the matrix
    (`convertMMAToLLVMType`), the register seen as the elements it holds
    (`vector<2xf16>`, tf32 bits as `f32`, four bytes as `vector<4xi8>`).
    `maxf` and `minf` are `arith.maximumf` and `arith.minimumf` (NaN
    propagates). `extf` maps the source's elements, in register order, to
    the result's (the f16 and f32 accumulators of one shape hold the same
    number). What no NVIDIA fragment can do is a located error: a kind on
    the wrong element type, the wrong number of operands, a result type
    other than the operands' (for `extf`: a wider float of the same shape
    and operand, with as many elements per thread), a matrix with no
    register fragment.

    ```mlir
    %m = gpu.subgroup_mma_elementwise maxf %a, %b : (!gpu.mma_matrix<16x16xf16, "COp">,
        !gpu.mma_matrix<16x16xf16, "COp">) -> !gpu.mma_matrix<16x16xf16, "COp">
    // becomes, for each of the 4 registers i
    %sa = builtin.unrealized_conversion_cast %a : !gpu.mma_matrix<16x16xf16, "COp">
        to !llvm.struct<(vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>)>
    %ai = llvm.extractvalue %sa[i] : !llvm.struct<(vector<2xf16>, ...)>
    %mi = arith.maximumf %ai, %bi : vector<2xf16>
    %r = llvm.insertvalue %mi, %r0[i] : !llvm.struct<(vector<2xf16>, ...)>
    %m = builtin.unrealized_conversion_cast %r : !llvm.struct<(...)>
        to !gpu.mma_matrix<16x16xf16, "COp">
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::vector::VectorDialect"];
}

def GPUMemConvertSCFMMATypesForNVVMPass
    : Pass<"gpumem-convert-scf-mma-types-for-nvvm",
           "::mlir::gpu::GPUModuleOp"> {
  let summary = "Make scf ops that carry !gpu.mma_matrix values carry the "
                "LLVM struct NVVM gives them";
  let description = [{
    Upstream's `convert-nvgpu-to-nvvm`, the first step of the NVIDIA device
    lowering, converts `scf.for`, `scf.if` and `scf.while` structurally with
    a type converter that does not know `!gpu.mma_matrix`, so a K loop that
    carries its tensor-core accumulator fails with "failed to legalize
    operation 'scf.for' that was explicitly marked illegal". Before it, this
    pass runs upstream's scf structural type conversion with a converter
    that maps every `!gpu.mma_matrix` to the struct of registers
    `convert-gpu-to-nvvm` will give it, with unrealized casts around; the
    loops stay loops, and the casts fold away once the mma ops are
    converted.

    ```mlir
    %acc = scf.for %k = %c0 to %n step %c16 iter_args(%x = %c)
        -> (!gpu.mma_matrix<16x16xf32, "COp">) { ... }
    // becomes
    %s = builtin.unrealized_conversion_cast %c : !gpu.mma_matrix<16x16xf32, "COp">
        to !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
    %r = scf.for %k = %c0 to %n step %c16 iter_args(%y = %s)
        -> (!llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>) {
      %x = builtin.unrealized_conversion_cast %y : ... to !gpu.mma_matrix<16x16xf32, "COp">
      ...
    }
    %acc = builtin.unrealized_conversion_cast %r : ... to !gpu.mma_matrix<16x16xf32, "COp">
    ```
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::scf::SCFDialect"];
}

def GPUMemReadDynamicSharedSizeNVVMPass
    : Pass<"gpumem-read-dynamic-shared-size-nvvm", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Make memref.dim of gpu.dynamic_shared_memory read the "
                "launch's size on NVIDIA GPUs";
  let description = [{
    Upstream's NVVM lowering gives the descriptor of
    `gpu.dynamic_shared_memory` a size of 0, so `memref.dim` of it is 0 on
    the GPU (the cpu target gives the launch's bytes). Before the NVVM
    lowering, this pass replaces every `memref.dim` of a
    `gpu.dynamic_shared_memory` by a read of PTX's `%dynamic_smem_size`
    register, the bytes the launch passed.

    ```mlir
    %n = memref.dim %dyn, %c0 : memref<?xi8, #gpu.address_space<workgroup>>
    // becomes
    %r = llvm.call_intrinsic "llvm.nvvm.read.ptx.sreg.dynamic_smem_size"() : () -> i32
    %n = arith.index_castui %r : i32 to index
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::LLVM::LLVMDialect"];
}

def GPUMemRewriteShuffleUpForNVVMPass
    : Pass<"gpumem-rewrite-shuffle-up-for-nvvm", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Give gpu.shuffle up its MLIR meaning on NVIDIA GPUs for "
                "widths below 32";
  let description = [{
    Upstream's NVVM lowering of `gpu.shuffle up` passes `32 - width` as the
    clamp of `shfl.sync.up`, so with a width below 32 lane `k` is valid only
    when `k - offset >= 32 - width` (lane 5 of a width-16 `up 2` gets its
    own value, marked invalid, instead of lane 3's). Before the NVVM
    lowering, this pass rewrites every `up` into an `idx` shuffle from lane
    `lane_id - (offset & 31)`, valid when that lane exists (at least 0 and,
    as for every mode, below the width), with the caller's own value when
    invalid, as PTX gives.

    ```mlir
    %r, %v = gpu.shuffle up %x, %off, %w : f32
    // becomes
    %lane = gpu.lane_id
    %src = arith.subi %lane_i32, (%off & 31) : i32
    %r0, %v0 = gpu.shuffle idx %x, %src, %w : f32
    %v = arith.andi %v0, (%src >= 0) : i1
    %r = arith.select %v, %r0, %x : f32
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::gpu::GPUDialect"];
}

def GPUMemPromotePrintfArgsForNVVMPass
    : Pass<"gpumem-promote-printf-args-for-nvvm", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Widen gpu.printf's small integer arguments to 32 bits, as "
                "CUDA's printf reads them";
  let description = [{
    Upstream's NVVM lowering of `gpu.printf` packs the arguments into
    `vprintf`'s buffer at their own width and natural alignment (an `i8`
    takes one byte), but CUDA's printf reads every `%d`, `%u`, `%x` or
    `%c` argument as 4 bytes at 4-byte alignment, as C's default argument
    promotions would have passed it. So `gpu.printf "%d %d" %a, %b : i8, i16`
    prints garbage on a GPU. Before the NVVM lowering, this pass widens every
    integer argument narrower than 32 bits to `i32`: `i1` with zeros (it
    prints 0 or 1), the others with their sign, as the cpu target does.

    ```mlir
    gpu.printf "%d %d\n", %flag, %small : i1, i8
    // becomes
    %0 = arith.extui %flag : i1 to i32
    %1 = arith.extsi %small : i8 to i32
    gpu.printf "%d %d\n", %0, %1 : i32, i32
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def GPUMemFinalizeNVVMSharedMemoryPass
    : Pass<"gpumem-finalize-nvvm-shared-memory", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Dynamic shared memory after the static buffers, and every "
                "shared buffer aligned to 16 bytes, in an NVVM-lowered "
                "gpu.module";
  let description = [{
    Runs on the gpu.module after convert-gpu-to-nvvm, on the
    `llvm.mlir.global`s in the workgroup address space (3):

    * Upstream lowers `gpu.dynamic_shared_memory` to an *internal* zero-size
      global. ptxas turns that into a 1-byte static `.shared` variable: the
      dynamic data then lands on top of the static shared buffers. An
      *external* zero-size array is CUDA's `extern __shared__`
      (`.extern .shared .align 16 .b8 name[];`), which the hardware places
      after all static shared memory. Zero-size workgroup globals get
      external linkage.
    * Every workgroup global (attributions, workgroup globals of device
      functions) is aligned to at least 16 bytes, so vectorized accesses of
      up to 128 bits stay legal whatever the element type.

    Before:
    ```mlir
    llvm.mlir.global internal @__dynamic_shmem__0() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
    llvm.mlir.global internal @__wg_k_0() {addr_space = 3 : i32} : !llvm.array<64 x f32>
    ```
    After:
    ```mlir
    llvm.mlir.global external @__dynamic_shmem__0() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
    llvm.mlir.global internal @__wg_k_0() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<64 x f32>
    ```
  }];
}

def GPUMemDefineNVVMSanitizerLogPass
    : Pass<"gpumem-define-nvvm-sanitizer-log", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Give --sanitize=memcheck's report functions device bodies "
                "that write a log in global memory, for code that runs on "
                "an NVIDIA GPU";
  let description = [{
    The memref checks (`gpumem-sanitize-memory-accesses` with
    `before-device-lowering`) call external functions where an access is
    out of bounds or a division would trap: `__gpumem_sanitizer_accessError`,
    `__gpumem_sanitizer_accessErrorShared`, `__gpumem_sanitizer_divisionError`.
    On cuda-emu and rocm-emu the device lowering binds them to the runtime's
    services. On the GPU there is no runtime to call: this pass defines them
    in the gpu.module. Each records the error in the global
    `__gpumem_sanitizer_log`, laid out as
    `include/gpumem/Runtime/DeviceSanitizerLog.h` says: a record per site
    (the addresses of its two strings), with its strings copied, the number
    of times it erred, and the smallest block and thread that erred there.
    The runtime reads the log after each launch and reports every record
    with the words of the CPU-executed targets.

    racecheck and initcheck need the runtime's shadow of every byte and
    stay on the CPU-executed targets: a call of `__gpumem_sanitizer_sharedAccess`
    or `__gpumem_sanitizer_deviceAccess` is an error at the call's location.

    Before:
    ```mlir
    llvm.func @__gpumem_sanitizer_accessError(!llvm.ptr, !llvm.ptr, i64, i64, i64, !llvm.ptr)
    ```
    After:
    ```mlir
    llvm.mlir.global external @__gpumem_sanitizer_log() {addr_space = 1 : i32, alignment = 8 : i64} : !llvm.struct<...>
    llvm.func @__gpumem_sanitizer_accessError(%what: !llvm.ptr, ...) {
      ... llvm.call @__gpumem_sanitizer_record(...)
    }
    ```
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::NVVM::NVVMDialect"];
}

def GPUMemReportNVIDIARegistersPass
    : Pass<"gpumem-report-nvidia-registers", "::mlir::ModuleOp"> {
  let summary = "Report each kernel's registers and its occupancy with "
                "them, read from the cubins ptxas made";
  let description = [{
    Completes `gpumem-plan-workgroup-memory`'s report on the cuda target
    once ptxas has run: for every `gpu.binary` object in cubin form
    (`format=bin`), the registers per thread of each kernel (the
    `EIATTR_REGCOUNT` entries of the cubin's `.nv.info` section) and its
    static shared memory (its `.nv.shared.<kernel>` section, less the
    runtime's reserved bytes), and, when every launch of the kernel uses
    the same constant block size, the blocks per SM that registers, shared
    memory, threads and the SM's block limit allow together:

    ```
    registers of kernel @m::@k on sm_90 (ptxas): 40 per thread, 4096 bytes static shared memory; occupancy 8 blocks per SM (12 by registers, 45 by shared memory, 8 by threads)
    ```

    The cuda pipeline runs it after serialization when a report is asked
    for; objects in other forms are skipped.
  }];
  let options = [
    Option<"report", "report", "::gpumem::ReportFormat",
           /*default=*/"::gpumem::ReportFormat::Text",
           "text, or json: added to the kernels of the JSON report in "
           "report-file, or one JSON object per kernel on stderr",
           [{::llvm::cl::values(
             clEnumValN(::gpumem::ReportFormat::None, "", "no report"),
             clEnumValN(::gpumem::ReportFormat::Text, "text", "text"),
             clEnumValN(::gpumem::ReportFormat::JSON, "json", "JSON"))}]>,
    Option<"reportFile", "report-file", "std::string", /*default=*/"\"-\"",
           "The report file (text is appended), or - for stderr">,
  ];
}

def GPUMemPackNVIDIAFatbinPass
    : Pass<"gpumem-pack-nvidia-fatbin", "::mlir::ModuleOp"> {
  let summary = "Serialize each gpu.module compiled for several NVIDIA chips "
                "into one fatbin: a cubin per chip and the newest chip's PTX";
  let description = [{
    A gpu.module with several `#nvvm.target`s (the cuda pipeline's
    `chip=sm_80,sm_90`) is serialized by each target's own serializer, as
    `gpu-module-to-binary` would: a cubin per chip (ptxas), and the PTX of
    the newest chip, which the driver compiles for chips newer than any
    listed (nvcc's `-gencode arch=compute_NN,code=compute_NN`). `fatbinary`
    of the same toolkit packs them into one fatbin, which the driver's
    `cuModuleLoadData` picks from: the cubin of the device's chip, else the
    PTX. The gpu.binary keeps every cubin and the PTX as objects beside the
    fatbin (for `--smem-report`'s registers per chip and for
    `gpumem-objects`), and its `#gpu.select_object` embeds only the fatbin:

    ```mlir
    gpu.module @m [#nvvm.target<chip = "sm_80", features = "+ptx70">,
                   #nvvm.target<chip = "sm_90", features = "+ptx78">] { ... }
    ```
    becomes
    ```mlir
    gpu.binary @m <#gpu.select_object<3 : i32>> [
      #gpu.object<#nvvm.target<chip = "sm_80", ...>, bin = "...">,
      #gpu.object<#nvvm.target<chip = "sm_90", ...>, bin = "...">,
      #gpu.object<#nvvm.target<chip = "sm_90", ...>, assembly = "...">,
      #gpu.object<#nvvm.target<chip = "sm_90", ...>, "...">]
    ```
    Modules with one target are left to `gpu-module-to-binary`. A failure
    of ptxas or fatbinary is an error at the module, with their message.
  }];
  let options = [
    Option<"toolkit", "toolkit", "std::string", /*default=*/"\"\"",
           "CUDA toolkit root holding bin/ptxas and bin/fatbinary; empty: "
           "$CUDA_HOME, $CUDA_PATH, /usr/local/cuda, then $PATH">,
  ];
}

#endif // GPUMEM_TARGET_CUDA_PASSES
