//===----------------------------------------------------------------------===//
// The rocm target's passes around upstream's ROCDL lowering (AMD GPUs,
// workgroup memory in the LDS).
// docs/passes.md is generated from this file and its siblings.
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_TARGET_ROCM_PASSES
#define GPUMEM_TARGET_ROCM_PASSES

include "mlir/Pass/PassBase.td"

def GPUMemAttachROCDLTargetPass
    : Pass<"gpumem-attach-rocdl-target", "::mlir::ModuleOp"> {
  let summary = "Check an AMD chip, wavefront size and features, then attach "
                "a ROCDL target to every gpu.module";
  let description = [{
    Like upstream `rocdl-attach-target`, but checked against gpumem's AMD
    chip table (`include/gpumem/Support/AMDGPUTarget.h`) so that a bad
    combination is a located error, never a failure in the AMDGPU backend:

    * the chip must be one gpumem knows (gfx900 to gfx1100); a
      comma-separated list attaches one target per chip, in the table's
      order, for one binary of every listed chip (the chips must then
      share a wavefront size: the module is lowered once for all);
    * the wavefront size is the chip's (64 on gfx9, 32 on gfx10 and gfx11)
      unless `wavefront-size` asks for the other one, which only gfx10 and
      later can run; it becomes LLVM's `+wavefrontsize32` or
      `+wavefrontsize64` feature and, for wave32, the `no_wave64` flag the
      device libraries are chosen by;
    * `features` adds LLVM features, each `+name` or `-name`; a wavefront
      size there is an error (`wavefront-size` says it);
    * `opt-level` is 0 to 3;
    * nothing in a gpu.module may use a memory space AMD GPUs lack, and no
      workgroup allocation may be left for the backend, which would put it
      in private (scratch) memory.

    Errors are reported at the module's location, or at the op.

    Before:
    ```mlir
    gpu.module @kernels { ... }
    ```
    After (`chip=gfx1100`):
    ```mlir
    gpu.module @kernels [#rocdl.target<O = 3, chip = "gfx1100",
        features = "+wavefrontsize32", flags = {no_wave64}>] { ... }
    ```
  }];
  let dependentDialects = ["::mlir::ROCDL::ROCDLDialect"];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"gfx90a\"",
           "AMD chip, for example gfx90a, gfx942 or gfx1100, or several, "
           "comma separated">,
    Option<"wavefrontSize", "wavefront-size", "unsigned", /*default=*/"0",
           "Lanes of a wavefront, 32 or 64; 0: the chip's default">,
    Option<"features", "features", "std::string", /*default=*/"\"\"",
           "More LLVM target features, comma separated (+name or -name)">,
    Option<"optLevel", "opt-level", "unsigned", /*default=*/"3",
           "Optimization level of the AMDGPU backend, 0 to 3">,
  ];
}

def GPUMemReadDynamicSharedSizeROCDLPass
    : Pass<"gpumem-read-dynamic-shared-size-rocdl",
           "::mlir::gpu::GPUModuleOp"> {
  let summary = "Make memref.dim of gpu.dynamic_shared_memory read the "
                "launch's dynamic LDS size on AMD GPUs";
  let description = [{
    Upstream's ROCDL lowering builds the descriptor of
    `gpu.dynamic_shared_memory` with a size of 0, so `memref.dim` of it is
    0 on the GPU while the cpu target gives the launch's bytes. AMD GPUs
    have no register with the dynamic size; the HSA dispatch packet holds
    the workgroup's whole LDS allocation (`group_segment_size`, static plus
    dynamic bytes), and the dynamic region starts after the static LDS at
    the address of the dynamic buffer. Before the ROCDL lowering, every
    `memref.dim` whose source is a `gpu.dynamic_shared_memory` becomes the
    packet's size minus that address:

    ```mlir
    %n = memref.dim %dyn, %c0 : memref<?xi8, #gpu.address_space<workgroup>>
    // becomes
    %packet = llvm.call_intrinsic "llvm.amdgcn.dispatch.ptr"() : () -> !llvm.ptr<4>
    %field = llvm.getelementptr %packet[28] : (!llvm.ptr<4>) -> !llvm.ptr<4>, i8
    %total = llvm.load %field invariant : !llvm.ptr<4> -> i32
    %start = memref.extract_aligned_pointer_as_index %dyn : ... -> index
    %n = arith.subi (arith.index_castui %total), %start : index
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::memref::MemRefDialect"];
}

def GPUMemRewriteShufflesForROCDLPass
    : Pass<"gpumem-rewrite-shuffles-for-rocdl", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Give gpu.shuffle MLIR's meaning on AMD GPUs for every mode "
                "and width";
  let description = [{
    In MLIR's `gpu.shuffle` (and on gpumem's other targets) only the first
    `width` lanes take part, and lane k reads lane src (`k ^ offset`,
    `k + offset`, `k - offset` or `offset`), valid when `0 <= src < width`;
    otherwise it keeps its own value. Upstream's ROCDL lowering splits the
    wavefront into segments of `width` lanes and bounds src only by the end
    of the lane's segment: `up` comes back valid with another lane's value
    below the segment's start (lane 0 of `up 1` reads lane 63), and lanes
    at or past `width` shuffle among themselves. On a gpu.module with a
    `#rocdl.target`, before the ROCDL lowering, `up` shuffles and those
    whose width is not the constant wavefront size become an `idx` shuffle
    over the whole wavefront (which upstream lowers right) of a source lane
    computed and checked as MLIR says. Full-width `xor`, `down` and `idx`
    shuffles, where both meanings agree, stay for upstream's DPP and
    `ds_swizzle` forms.

    ```mlir
    %r, %v = gpu.shuffle up %x, %off, %c16 : f32
    // becomes (wave64)
    %lane = gpu.lane_id
    %src = arith.subi %lane32, (arith.andi %off, %c63)
    %v = (%lane32 < %c16) && (%src >= 0) && (%src < %c16)
    %s, %unused = gpu.shuffle idx %x, (arith.select %v, %src, %lane32), %c64 : f32
    %r = arith.select %v, %s, %x : f32
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::gpu::GPUDialect"];
}

def GPUMemPrivateAllocasForROCDLPass
    : Pass<"gpumem-private-allocas-for-rocdl", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Allocate device code's default-space memref.alloca in AMD "
                "private memory (address space 5)";
  let description = [{
    A default-space `memref.alloca` in a kernel is private memory. Upstream's
    ROCDL lowering keeps its address space 0, where AMDGPU allocates
    nothing (its data layout puts the stack in address space 5); with a
    size known only at run time the backend stops with `LLVM ERROR: Cannot
    select: dynamic_stackalloc`. Before the ROCDL lowering, this pass
    allocates every such buffer in `#gpu.address_space<private>` and casts
    it back to the type its users have:

    ```mlir
    %r = memref.alloca(%n) : memref<?xi32>
    // becomes
    %p = memref.alloca(%n) : memref<?xi32, #gpu.address_space<private>>
    %r = memref.memory_space_cast %p : memref<?xi32, #gpu.address_space<private>> to memref<?xi32>
    ```
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def GPUMemFinalizeROCDLKernelsPass
    : Pass<"gpumem-finalize-rocdl-kernels", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Make a ROCDL-lowered gpu.module's LDS globals and kernel "
                "bounds what gpumem's launches need";
  let description = [{
    After `convert-gpu-to-rocdl`, in one walk of the gpu.module:

    * the zero-size LDS global of `gpu.dynamic_shared_memory` gets external
      linkage, HIP's `extern __shared__` form, which the AMDGPU backend
      places after all static LDS and leaves out of the kernel's
      `group_segment_fixed_size`; it is aligned to what the module's views
      of dynamic shared memory ask for;
    * every LDS (address space 3) global is aligned to at least 16 bytes,
      as on the other targets, for vector accesses;
    * a kernel with no `rocdl.flat_work_group_size` (no known block size)
      gets `"1,1024"`: the ROCDL translation's default is `"1,256"`, and a
      launch of more than 256 threads per block would fail;
    * an `llvm.alloca` in address space 3, or one cast to it, is an error:
      the backend puts every alloca in private (scratch) memory, one copy
      per thread, which upstream's lowering of a workgroup `memref.alloca`
      would make silently.

    ```mlir
    llvm.mlir.global internal @__dynamic_shmem__0() {addr_space = 3 : i32} : !llvm.array<0 x i8>
    // becomes
    llvm.mlir.global external @__dynamic_shmem__0() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
    ```
  }];
  let dependentDialects = ["::mlir::ROCDL::ROCDLDialect"];
}

def GPUMemCheckROCmDeviceLibsPass
    : Pass<"gpumem-check-rocm-device-libs", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Check that the ROCm device libraries a ROCDL-lowered "
                "gpu.module calls are installed and know its chip";
  let description = [{
    After `convert-gpu-to-rocdl`, math functions become calls to ocml
    (`__ocml_*`), `gpu.printf` and block or grid sizes not known at compile
    time calls to ockl (`__ockl_*`), which `gpu-module-to-binary` links from
    the device libraries' bitcode (`<toolkit>/amdgcn/bitcode`). When the
    module declares any of them, this pass checks, before serialization,
    that the bitcode files are there and that the libraries know the
    chip: `oclc_isa_version_<N>.bc` exists for `gfxN` (the release Debian
    ships, 5.2, has none for gfx942, gfx950 or gfx1100). Each failure is an
    error at the first call of a library function, naming the file, the
    directory searched and the Debian package (`rocm-device-libs`).

    `toolkit` is the directory that holds `amdgcn/bitcode`; empty: the
    first of `$ROCM_PATH`, `/usr/lib/<multiarch>` and `/opt/rocm` that has
    it. Modules that call no library function pass unchanged.
  }];
  let options = [
    Option<"toolkit", "toolkit", "std::string", /*default=*/"\"\"",
           "Directory with amdgcn/bitcode; empty: search">,
  ];
}

def GPUMemLinkHSACodeObjectsPass
    : Pass<"gpumem-link-hsa-code-objects", "::mlir::ModuleOp"> {
  let summary = "Assemble the AMDGPU assembly of every gpu.binary object "
                "and link it into an HSA code object with ld.lld";
  let description = [{
    Runs after `gpu-module-to-binary{format=isa}`, which translates each
    gpu.module with its device libraries linked in and leaves AMDGPU
    assembly. For every object with a `#rocdl.target` in assembly form,
    the assembly becomes an ELF relocatable object (upstream's
    `ROCDL::assembleIsa`, LLVM's AMDGPU assembler) and `ld.lld -shared
    --no-undefined` links it into the HSA code object (ELF, `EM_AMDGPU`)
    that HIP's `hipModuleLoadData` loads; the object then holds it in
    `bin` form.

    ld.lld is `<toolkit>/llvm/bin/ld.lld` when `toolkit` names a ROCm
    installation that has one, else the ld.lld of the LLVM gpumem was
    built with (Debian package `lld-22`), else `ld.lld-22` or `ld.lld` on
    `$PATH`; `ld-lld` names one instead. Not finding it, or a failing link
    (an undefined symbol), is an error at the gpu.binary that names the
    Debian package or quotes ld.lld.

    ```mlir
    gpu.binary @kernels [#gpu.object<#rocdl.target<chip = "gfx90a">, assembly = "...">]
    // becomes
    gpu.binary @kernels [#gpu.object<#rocdl.target<chip = "gfx90a">, bin = "\7FELF...">]
    ```
  }];
  let dependentDialects = ["::mlir::ROCDL::ROCDLDialect"];
  let options = [
    Option<"toolkit", "toolkit", "std::string", /*default=*/"\"\"",
           "ROCm installation whose llvm/bin/ld.lld to use; empty: Debian's "
           "ld.lld">,
    Option<"ldLld", "ld-lld", "std::string", /*default=*/"\"\"",
           "The ld.lld to run; empty: search as above">,
  ];
}

def GPUMemPackAMDGPUBundlePass
    : Pass<"gpumem-pack-amdgpu-bundle", "::mlir::ModuleOp"> {
  let summary = "Pack the HSA code objects of a gpu.binary made for several "
                "AMD chips into one clang offload bundle";
  let description = [{
    Runs after `gpumem-link-hsa-code-objects`. A gpu.binary with HSA code
    objects (`bin` form) for more than one `#rocdl.target` gets one more
    object: a clang offload bundle (`__CLANG_OFFLOAD_BUNDLE__`, the "fat
    binary" HIP's `hipModuleLoadData` takes) with an empty host entry and
    one `hipv4-amdgcn-amd-amdhsa--<chip>` entry per code object, each at a
    4096-byte aligned offset, as clang-offload-bundler writes them. The
    binary's `#gpu.select_object` then embeds the bundle, so the program
    carries every chip's code, and the rocm runtime loads the entry for
    its device's `gcnArchName`; the code objects stay, for the register
    report and `gpumem-objects`. Binaries with one code object are left
    as they are.

    ```mlir
    gpu.binary @kernels [#gpu.object<#rocdl.target<chip = "gfx90a">, bin = "...">,
                         #gpu.object<#rocdl.target<chip = "gfx942">, bin = "...">]
    // becomes
    gpu.binary @kernels <#gpu.select_object<2>> [..., ...,
        #gpu.object<#rocdl.target<chip = "gfx942">, fatbin = "__CLANG_OFFLOAD_BUNDLE__...">]
    ```
  }];
  let dependentDialects = ["::mlir::ROCDL::ROCDLDialect"];
}

def GPUMemReportAMDGPURegistersPass
    : Pass<"gpumem-report-amdgpu-registers", "::mlir::ModuleOp"> {
  let summary = "Report each kernel's registers, LDS, scratch and its "
                "occupancy, read from the HSA code objects";
  let description = [{
    Completes `gpumem-plan-workgroup-memory`'s report on the rocm target
    once the code objects are linked: for every `gpu.binary` object with a
    `#rocdl.target` in `bin` form, the `amdhsa.kernels` metadata (the
    `NT_AMDGPU_METADATA` note, MessagePack) gives each kernel's LDS
    (`.group_segment_fixed_size`), VGPRs (`.vgpr_count`, which counts the
    AGPRs on gfx90a and later), AGPRs (`.agpr_count`, on chips that have
    them), SGPRs (`.sgpr_count`) and scratch bytes per lane
    (`.private_segment_fixed_size`), and the waves per SIMD that VGPRs,
    SGPRs and, when every launch of the kernel uses the same constant
    block size, the LDS allow (docs/rocm.md gives the rules):

    ```
    registers of kernel @m::@k on gfx90a (code object): 2 VGPRs, 0 AGPRs, 10 SGPRs, 32768 bytes LDS, 0 bytes scratch; occupancy 2 waves per SIMD (8 by VGPRs, 8 by SGPRs, 2 by LDS)
    ```

    The rocm pipeline runs it after linking when a report is asked for;
    objects in other forms are skipped.
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

#endif // GPUMEM_TARGET_ROCM_PASSES
