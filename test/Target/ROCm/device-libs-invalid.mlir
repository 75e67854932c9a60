// A kernel that calls the ROCm device libraries (math through ocml) is a
// located error, before serialization, when the libraries are not found
// or the installed release has no oclc_isa_version file for the chip
// (Debian's 5.2 has none for gfx942, gfx950 and gfx1100); each names the
// file and the Debian package.

// RUN: not gpumem-opt %s --gpumem-rocm-pipeline="chip=gfx90a toolkit=%t.nowhere" 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: %if device-libs-lack-gfx1100 %{ not gpumem-opt %s --gpumem-rocm-pipeline="chip=gfx1100" 2>&1 | FileCheck %s --check-prefix=GFX1100 %}
// RUN: %if device-libs-lack-gfx942 %{ not gpumem-opt %s --gpumem-rocm-pipeline="chip=gfx942" 2>&1 | FileCheck %s --check-prefix=GFX942 %}
// Of several chips, each must be known (gfx90a is, gfx942 is not).
// RUN: %if device-libs-lack-gfx942 %{ not gpumem-opt %s --gpumem-rocm-pipeline="chip=gfx90a,gfx942" 2>&1 | FileCheck %s --check-prefix=GFX942 %}

// MISSING: device-libs-invalid.mlir:[[@LINE+11]]:10: error: '__ocml_tanh_f32' comes from the ROCm device libraries, which are not installed: no amdgcn/bitcode/ocml.bc in '{{.*}}.nowhere' (Debian package rocm-device-libs)
// GFX1100: device-libs-invalid.mlir:[[@LINE+10]]:10: error: '__ocml_tanh_f32' comes from the ROCm device libraries, and those in '{{.*}}amdgcn/bitcode' do not know gfx1100: there is no oclc_isa_version_1100.bc (Debian package rocm-device-libs; a release that supports gfx1100 is needed)
// GFX942: device-libs-invalid.mlir:[[@LINE+9]]:10: error: '__ocml_tanh_f32' comes from the ROCm device libraries, and those in '{{.*}}amdgcn/bitcode' do not know gfx942: there is no oclc_isa_version_942.bc

func.func @main() {
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %buf = gpu.alloc () : memref<64xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %v = memref.load %buf[%tx] : memref<64xf32>
    %e = math.tanh %v : f32
    memref.store %e, %buf[%tx] : memref<64xf32>
    gpu.terminator
  }
  return
}
