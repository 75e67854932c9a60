// The rocm pipeline's default output is an HSA code object: an ELF shared
// object for EM_AMDGPU, linked by ld.lld, with the kernel descriptor
// symbol `<kernel>.kd` and the `amdhsa.kernels` metadata note that HIP's
// hipModuleLoadData reads. Math without an AMDGPU instruction (tanh:
// __ocml_tanh_f32), gpu.printf (__ockl_printf_*) and a block size not known
// at compile time (__ockl_get_local_size) are linked in from the ROCm
// device libraries, and nothing is left undefined (ld.lld --no-undefined).

// REQUIRES: ld.lld, rocm-device-libs
// RUN: gpumem-opt %s --gpumem-rocm-pipeline="chip=gfx90a" -o %t.gfx90a.mlir
// RUN: rm -rf %t.dir && mkdir %t.dir && gpumem-objects extract %t.gfx90a.mlir %t.dir | FileCheck %s --check-prefix=FILE
// RUN: llvm-readelf --file-header --dyn-symbols --notes %t.dir/main_kernel.gfx90a.hsaco | FileCheck %s --check-prefix=GFX90A
// RUN: llvm-objdump -d %t.dir/main_kernel.gfx90a.hsaco | FileCheck %s --check-prefix=CODE
// format=isa keeps AMDGPU assembly, with the device libraries in it.
// RUN: gpumem-opt %s --gpumem-rocm-pipeline="chip=gfx90a format=isa" | gpumem-objects ptx - | FileCheck %s --check-prefix=ISA

// FILE: main_kernel.gfx90a.hsaco

// GFX90A: Class: ELF64
// GFX90A: Type: DYN (Shared object file)
// GFX90A: Machine: EM_AMDGPU
// GFX90A: Flags: 0x{{[0-9a-f]+}}, gfx90a
// GFX90A: Symbol table '.dynsym'
// GFX90A-NOT: UND {{[_a-zA-Z]}}
// GFX90A-DAG: OBJECT {{.*}} main_kernel.kd
// GFX90A-DAG: FUNC {{.*}} main_kernel
// GFX90A: AMDGPU 0x{{[0-9a-f]+}} NT_AMDGPU_METADATA (AMDGPU Metadata)
// GFX90A: amdhsa.kernels:
// GFX90A: .max_flat_workgroup_size: 1024
// GFX90A: .name: main_kernel
// GFX90A: .symbol: main_kernel.kd
// GFX90A: .wavefront_size: 64
// GFX90A: amdhsa.target: amdgcn-amd-amdhsa--gfx90a
// GFX90A: amdhsa.version:
// GFX90A-NEXT: - 1
// GFX90A-NEXT: - 1

// CODE: file format elf64-amdgpu
// CODE-LABEL: <main_kernel>:
// CODE: v_exp_f32
// CODE: s_endpgm

// ISA: .amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
// ISA: .amdhsa_code_object_version 4
// gpu.printf's hostcall, from ockl.bc:
// ISA-LABEL: __ockl_hostcall_internal:
// ISA-LABEL: main_kernel:
// ISA: v_exp_f32
// ISA: .amdhsa_kernel main_kernel

func.func @main(%threads: index) {
  %c1 = arith.constant 1 : index
  %buf = gpu.alloc () : memref<1024xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %threads, %sy = %c1, %sz = %c1) {
    %bd = gpu.block_dim x
    %v = memref.load %buf[%tx] : memref<1024xf32>
    %e = math.exp %v : f32
    %t = math.tanh %e : f32
    %s = math.sqrt %t : f32
    memref.store %s, %buf[%tx] : memref<1024xf32>
    gpu.printf "thread %d of %d: %f\n", %tx, %bd, %s : index, index, f32
    gpu.terminator
  }
  return
}
