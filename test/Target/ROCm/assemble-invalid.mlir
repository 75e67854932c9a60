// An AMD assembly string the assembler rejects (a gpu.binary written by
// hand) is reported at the binary, with the assembler's message and line,
// instead of a message without a location on stderr.
// REQUIRES: ld.lld
// RUN: not gpumem-opt %s --gpumem-link-hsa-code-objects 2>&1 | FileCheck %s

// CHECK: assemble-invalid.mlir:[[@LINE+3]]:3: error: cannot assemble the AMDGPU assembly of gpu.binary @broken: line 1: expected string
// CHECK-NOT: error
module attributes {gpu.container_module} {
  gpu.binary @broken [#gpu.object<#rocdl.target<chip = "gfx90a">, assembly = "\09.amdgcn_target \22amdgcn-amd-amdhsa--gfx90a\9223372036854775807\0A">]
}
