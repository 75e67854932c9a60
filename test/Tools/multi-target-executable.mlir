// One executable for four targets: gpumem-compile --target=cuda,rocm,vulkan,cpu
// compiles the program once per target and links the four copies into one
// executable, which needs none of the runtimes to start: it runs the first
// target whose device it finds (a GPU for cuda, rocm and vulkan; lavapipe,
// a Vulkan driver on the CPU, is not taken for one), so here it runs on
// cpu, and GPUMEM_TARGET makes it run another with the same output.

// RUN: gpumem-compile --target=cuda,rocm,vulkan,cpu %s -o %t.exe
// RUN: %t.exe | FileCheck %s --match-full-lines --strict-whitespace
// RUN: env GPUMEM_TARGET=cpu %t.exe | FileCheck %s --match-full-lines --strict-whitespace
// RUN: %if vulkan %{ env GPUMEM_TARGET=vulkan %t.exe | FileCheck %s --match-full-lines --strict-whitespace %}
// RUN: %if !cuda %{ %t.exe -v 2>&1 >/dev/null | FileCheck %s --check-prefix=PICK %}
// RUN: %if !cuda %{ env GPUMEM_TARGET=vulkan %t.exe -v 2>&1 >/dev/null | FileCheck %s --check-prefix=FORCED %}
// RUN: readelf -d %t.exe | FileCheck %s --check-prefix=NEEDED

// Errors at start: a name the executable does not have, a target whose
// device is not here, an argument other than -v, and no runnable target.
// RUN: env GPUMEM_TARGET=tpu not %t.exe 2>&1 | FileCheck %s --check-prefix=BAD-FORCE
// RUN: %if !cuda %{ env GPUMEM_TARGET=cuda not %t.exe 2>&1 | FileCheck %s --check-prefix=NO-CUDA %}
// RUN: not %t.exe --fast 2>&1 | FileCheck %s --check-prefix=ARG
// RUN: %if !cuda %{ gpumem-compile --target=cuda,rocm %s -o %t.gpus.exe %}
// RUN: %if !cuda %{ not %t.gpus.exe 2>&1 | FileCheck %s --check-prefix=NONE %}

// The emulators are targets like the others: a list of them runs the first.
// RUN: %if cuda-emu && rocm-emu %{ gpumem-compile --target=cuda-emu,rocm-emu %s -o %t.emu.exe %}
// RUN: %if cuda-emu && rocm-emu %{ %t.emu.exe -v 2>%t.emu.err | FileCheck %s --match-full-lines --strict-whitespace %}
// RUN: %if cuda-emu && rocm-emu %{ FileCheck %s --check-prefix=EMU < %t.emu.err %}
// RUN: %if cuda-emu && rocm-emu %{ env GPUMEM_TARGET=rocm-emu %t.emu.exe | FileCheck %s --match-full-lines --strict-whitespace %}

// gpumem-run runs the first target of a list that can run here.
// RUN: gpumem-run --target=cuda,rocm,cpu -v %s 2>%t.run.err | FileCheck %s --match-full-lines --strict-whitespace
// RUN: %if !cuda %{ FileCheck %s --check-prefix=JIT < %t.run.err %}

// CHECK:( 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 16, 15, 14, 13 )
// CHECK-NEXT:( 38, 37, 36, 35, 34, 33, 32, 31, 30, 29, 28, 27, 26, 25, 24, 23 )
// CHECK-NOT:{{.}}

// PICK: gpumem: not cuda: no CUDA
// PICK-NEXT: gpumem: not rocm: no {{HIP runtime|AMD GPU}} found
// PICK-NEXT: gpumem: not vulkan: {{.*}}
// PICK-NEXT: gpumem: target cpu ({{[0-9]+}} CPU cores)
// PICK-NOT: gpumem

// FORCED: gpumem: target vulkan (Vulkan {{.*}}), forced by GPUMEM_TARGET

// NEEDED-NOT: libgpumem_cpu_runtime
// NEEDED-NOT: libgpumem_cuda_runtime
// NEEDED-NOT: libgpumem_rocm_runtime
// NEEDED-NOT: libgpumem_vulkan_runtime
// NEEDED-NOT: libMLIR
// NEEDED: (NEEDED) Shared library: [libgpumem_runner_utils.so]
// NEEDED-NOT: libgpumem_{{.*}}_runtime

// BAD-FORCE: gpumem: error: GPUMEM_TARGET=tpu is not a target of this executable, which has cuda, rocm, vulkan and cpu
// NO-CUDA: gpumem: error: GPUMEM_TARGET=cuda cannot run here: no CUDA
// ARG: gpumem: error: unknown argument '--fast'; the only one is -v (say which target runs)
// NONE: gpumem: error: none of this executable's targets can run here (-v says why)

// EMU: gpumem: target cuda-emu ({{[0-9]+}} CPU cores)

// JIT-NOT: gpumem: target cuda
// JIT: gpumem: target cpu

// Each block reverses its 16 values through workgroup memory after a
// barrier, and adds 10 times its block index plus 13.
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c15 = arith.constant 15 : index
  %c16 = arith.constant 16 : index
  %out = memref.alloc() : memref<2x16xi32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c16, %sy = %c1, %sz = %c1) {
    %tile = memref.alloca() : memref<16xi32, #gpu.address_space<workgroup>>
    %t = arith.index_cast %tx : index to i32
    memref.store %t, %tile[%tx] : memref<16xi32, #gpu.address_space<workgroup>>
    gpu.barrier
    %mirror = arith.subi %c15, %tx : index
    %v = memref.load %tile[%mirror] : memref<16xi32, #gpu.address_space<workgroup>>
    %b = arith.index_cast %bx : index to i32
    %ten = arith.constant 10 : i32
    %thirteen = arith.constant 13 : i32
    %b10 = arith.muli %b, %ten : i32
    %off = arith.addi %b10, %thirteen : i32
    %r = arith.addi %v, %off : i32
    memref.store %r, %out[%bx, %tx] : memref<2x16xi32>
    gpu.terminator
  }
  %pad = arith.constant 0 : i32
  %row0 = vector.transfer_read %out[%c0, %c0], %pad : memref<2x16xi32>, vector<16xi32>
  %row1 = vector.transfer_read %out[%c1, %c0], %pad : memref<2x16xi32>, vector<16xi32>
  vector.print %row0 : vector<16xi32>
  vector.print %row1 : vector<16xi32>
  return
}
