// gpumem-link-hsa-code-objects: no ld.lld, or a link that fails, is an
// error at the gpu.binary that names the Debian package or quotes ld.lld,
// never a crash or a module without its code object; a symbol left
// undefined is such a failure (ld.lld --no-undefined), not a load failure
// on a GPU.

// RUN: gpumem-opt %s -split-input-file -verify-diagnostics --gpumem-link-hsa-code-objects="ld-lld=%t.nowhere/ld.lld"
// RUN: not gpumem-opt %s -split-input-file --gpumem-link-hsa-code-objects="ld-lld=/bin/false" 2>&1 | FileCheck %s --check-prefix=FAILS
// REQUIRES: ld.lld
// RUN: not gpumem-opt %s -split-input-file --gpumem-link-hsa-code-objects 2>&1 | FileCheck %s --check-prefix=LINK

// FAILS: link-hsa-code-objects-invalid.mlir:[[@LINE+5]]:1: error: cannot link the HSA code object of gpu.binary @kernels: /bin/false failed
// LINK: {{^}}module {
// LINK-NEXT: gpu.binary @kernels [#gpu.object<#rocdl.target<chip = "gfx90a">, bin = "\7FELF

// expected-error @below {{linking the HSA code object of gpu.binary @kernels needs ld.lld, which was not found at '}}
gpu.binary @kernels [#gpu.object<#rocdl.target<chip = "gfx90a">, assembly = "\09.amdgcn_target \22amdgcn-amd-amdhsa--gfx90a\22\0A">]

// -----

// LINK: link-hsa-code-objects-invalid.mlir:[[@LINE+3]]:1: error: cannot link the HSA code object of gpu.binary @undefined: {{.*}}ld.lld{{.*}} failed: ld.lld: error: undefined symbol: missing

// expected-error @below {{linking the HSA code object of gpu.binary @undefined needs ld.lld, which was not found at '}}
gpu.binary @undefined [#gpu.object<#rocdl.target<chip = "gfx90a">, assembly = "\09.amdgcn_target \22amdgcn-amd-amdhsa--gfx90a\22\0A\09.data\0A\09.quad missing\0A">]
