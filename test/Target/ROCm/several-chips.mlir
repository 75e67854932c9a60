// One gpu.module for several AMD chips (chip=gfx90a,gfx942, in any order):
// a #rocdl.target per chip in gpumem's chip order, one device lowering for
// all of them (so one wavefront size), an HSA code object per chip, and
// one clang offload bundle of them that the executable embeds; the rocm
// runtime loads the entry of its device's chip. The LDS limit is the
// smallest of the chips', the error naming that chip.

// RUN: gpumem-opt %s --gpumem-attach-rocdl-target="chip=gfx942,gfx90a" | FileCheck %s --check-prefix=ATTACH
// ATTACH: gpu.module @kernels [#rocdl.target<O = 3, chip = "gfx90a", features = "+wavefrontsize64", abi = "400">, #rocdl.target<O = 3, chip = "gfx942", features = "+wavefrontsize64", abi = "400">]

// format=isa: each chip's assembly, nothing packed.
// RUN: gpumem-opt %s --gpumem-rocm-pipeline="chip=gfx942,gfx90a format=isa" | gpumem-objects chips - | FileCheck %s --check-prefix=ISA
// ISA: kernels: gfx90a s,
// ISA-NEXT: kernels: gfx942 s,
// ISA-NOT: kernels

// RUN: %if ld.lld %{ gpumem-opt %s --gpumem-rocm-pipeline="chip=gfx942,gfx90a" -o %t.mlir %}
// RUN: %if ld.lld %{ gpumem-objects chips %t.mlir | FileCheck %s --check-prefix=BUNDLE %}
// RUN: %if ld.lld %{ FileCheck %s --check-prefix=SELECT < %t.mlir %}
// BUNDLE: kernels: gfx90a hsaco, [[A:[0-9]+]] bytes
// BUNDLE-NEXT: kernels: gfx942 hsaco, [[B:[0-9]+]] bytes
// BUNDLE-NEXT: kernels: gfx942 hipfb, {{[0-9]+}} bytes: gfx90a code object ([[A]] bytes), gfx942 code object ([[B]] bytes)
// SELECT: gpu.binary @kernels <#gpu.select_object<2 : i32>>

// Each entry is that chip's code object, as clang's own bundler reads it.
// RUN: %if ld.lld && clang-offload-bundler %{ rm -rf %t.dir && mkdir %t.dir && gpumem-objects extract %t.mlir %t.dir %}
// RUN: %if ld.lld && clang-offload-bundler %{ %clang-offload-bundler --list --type=o --input=%t.dir/kernels.gfx942.hipfb | FileCheck %s --check-prefix=LIST %}
// RUN: %if ld.lld && clang-offload-bundler %{ %clang-offload-bundler --unbundle --type=o --input=%t.dir/kernels.gfx942.hipfb --targets=hipv4-amdgcn-amd-amdhsa--gfx90a,hipv4-amdgcn-amd-amdhsa--gfx942 --output=%t.dir/a.hsaco --output=%t.dir/b.hsaco %}
// RUN: %if ld.lld && clang-offload-bundler %{ cmp %t.dir/a.hsaco %t.dir/kernels.gfx90a.hsaco %}
// RUN: %if ld.lld && clang-offload-bundler %{ cmp %t.dir/b.hsaco %t.dir/kernels.gfx942.hsaco %}
// LIST-DAG: hipv4-amdgcn-amd-amdhsa--gfx90a
// LIST-DAG: hipv4-amdgcn-amd-amdhsa--gfx942
// LIST-DAG: host-x86_64-unknown-linux-gnu-

// The executable embeds the bundle: gpumem-compile --chip takes the list.
// RUN: %if ld.lld %{ gpumem-compile --target=rocm --chip=gfx942,gfx90a %gpumem_src_root/examples/tiled-matmul.mlir -o %t.exe %}
// RUN: %if ld.lld %{ gpumem-objects chips %t.exe | FileCheck %s --check-prefix=EXE %}
// EXE: offload bundle at offset {{[0-9]+}}: gfx90a code object ({{[0-9]+}} bytes), gfx942 code object ({{[0-9]+}} bytes)
// EXE-NOT: bundle

// The report reads the registers of each chip's code object; the JSON
// report keeps the first chip's figures and every chip's under "chips".
// RUN: %if ld.lld %{ gpumem-opt %s --gpumem-rocm-pipeline="chip=gfx90a,gfx942 smem-report=text" -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPORT %}
// REPORT: workgroup memory of kernel @kernels::@scale ({{.*}}), target rocm gfx90a,gfx942
// REPORT: registers of kernel @kernels::@scale on gfx90a (code object)
// REPORT: registers of kernel @kernels::@scale on gfx942 (code object)
// RUN: %if ld.lld %{ gpumem-opt %s --gpumem-rocm-pipeline="chip=gfx90a,gfx942 smem-report=json smem-report-file=%t.json" -o /dev/null %}
// RUN: %if ld.lld %{ FileCheck %s --check-prefix=JSON < %t.json %}
// JSON: "chip": "gfx90a",
// JSON-NEXT: "chips": {
// JSON-NEXT: "gfx90a": {
// JSON: "gfx942": {

// Chips must share a wavefront size unless one is asked for; gfx1100 runs
// wave64 too.
// RUN: not gpumem-opt %s --gpumem-rocm-pipeline="chip=gfx90a,gfx1100 format=isa" 2>&1 | FileCheck %s --check-prefix=WAVES
// WAVES: error: chip=gfx90a,gfx1100 mixes wavefront sizes (gfx90a 64, gfx1100 32 lanes), and one binary's code is lowered for one; compile for 64 lanes, which every AMD chip runs (--wavefront-size=64 for gpumem-run and gpumem-compile, wavefront-size=64 for the pipeline and this pass), or build a binary per wavefront size
// RUN: gpumem-opt %s --gpumem-rocm-pipeline="chip=gfx90a,gfx1100 wavefront-size=64 format=isa" | gpumem-objects chips - | FileCheck %s --check-prefix=WAVE64
// WAVE64: kernels: gfx90a s,
// WAVE64-NEXT: kernels: gfx1100 s,
// RUN: not gpumem-opt %s --gpumem-attach-rocdl-target="chip=gfx1100,gfx90a wavefront-size=32" 2>&1 | FileCheck %s --check-prefix=WAVE32
// WAVE32: error: gfx90a runs wavefronts of 64 lanes only; wave32 needs gfx10 or later

// The LDS limit is the smallest chip's.
// RUN: not gpumem-opt %S/lds-limit.mlir -split-input-file --gpumem-rocm-pipeline="chip=gfx950,gfx90a format=isa" 2>&1 | FileCheck %s --check-prefix=LIMIT
// LIMIT: error: 'gpu.launch_func' op launches kernel 'main_kernel' with 70000 bytes of static workgroup memory; gfx90a allows at most 65536 bytes of LDS per workgroup (of the chips gfx90a,gfx950)

// rocm-emu runs one chip's code; an unknown chip is named.
// RUN: not gpumem-opt %s --gpumem-rocm-emu-pipeline="chip=gfx90a,gfx942" 2>&1 | FileCheck %s --check-prefix=EMU
// EMU: error: chip=gfx90a,gfx942 names several chips; the rocm-emu target plans for one (the rocm pipeline takes several)
// RUN: not gpumem-opt %s --gpumem-rocm-pipeline="chip=gfx90a,gfx999 format=isa" 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: error: unknown AMD chip 'gfx999'; gpumem knows

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @scale(%data: memref<256xf32>) kernel {
      %t = gpu.thread_id x
      %v = memref.load %data[%t] : memref<256xf32>
      %w = arith.addf %v, %v : f32
      memref.store %w, %data[%t] : memref<256xf32>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    %data = gpu.alloc () : memref<256xf32>
    gpu.launch_func @kernels::@scale blocks in (%c1, %c1, %c1)
        threads in (%c256, %c1, %c1) args(%data : memref<256xf32>)
    gpu.dealloc %data : memref<256xf32>
    return
  }
}
