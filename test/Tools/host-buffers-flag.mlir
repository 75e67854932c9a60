// --host-buffers of gpumem-run and gpumem-compile (docs/memory.md): copy by
// default, any mode gives the same output on the cpu target, an unknown
// mode is an error; the IR the tools compile shows the chosen mode.

// RUN: gpumem-run --target=cpu %s | FileCheck %s
// RUN: gpumem-run --target=cpu --host-buffers=none %s | FileCheck %s
// RUN: gpumem-run --target=cpu --host-buffers=managed %s | FileCheck %s
// RUN: gpumem-compile --target=cpu --host-buffers=register %s -o %t.exe
// RUN: %t.exe | FileCheck %s
// CHECK: ( 1, 3, 5, 7, 9, 11, 13, 15 )

// RUN: not gpumem-run --target=cpu --host-buffers=pinned %s 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not gpumem-compile --target=cpu --host-buffers=pinned %s -o %t.bad 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: error: unknown --host-buffers 'pinned'; expected copy, managed, register or none

// The pipelines' own default is none; host-buffers=copy adds the copies.
// RUN: gpumem-opt %s --gpumem-cpu-pipeline | FileCheck %s --check-prefix=NONE
// RUN: gpumem-opt %s --gpumem-cpu-pipeline=host-buffers=copy | FileCheck %s --check-prefix=COPY
// RUN: gpumem-opt %s --gpumem-cuda-pipeline="format=isa host-buffers=register" | FileCheck %s --check-prefix=REGISTER
// NONE-NOT: mgpuMemcpy
// NONE-NOT: mgpuMemHostRegister
// COPY: llvm.call @mgpuMemAlloc
// COPY: llvm.call @mgpuMemcpy
// COPY: gpu.launch_func
// COPY: llvm.call @mgpuMemcpy
// COPY: llvm.call @mgpuMemFree
// REGISTER: llvm.call @mgpuMemHostRegisterMemRef
// REGISTER: gpu.launch_func
// REGISTER: llvm.call @mgpuMemHostUnregisterMemRef

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %pad = arith.constant 0 : i32
  %a = memref.alloc() : memref<8xi32>
  scf.for %i = %c0 to %c8 step %c1 {
    %v = arith.index_cast %i : index to i32
    memref.store %v, %a[%i] : memref<8xi32>
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1) {
    %x = memref.load %a[%tx] : memref<8xi32>
    %x2 = arith.addi %x, %x : i32
    %one = arith.constant 1 : i32
    %y = arith.addi %x2, %one : i32
    memref.store %y, %a[%tx] : memref<8xi32>
    gpu.terminator
  }
  %v = vector.transfer_read %a[%c0], %pad {in_bounds = [true]} : memref<8xi32>, vector<8xi32>
  vector.print %v : vector<8xi32>
  memref.dealloc %a : memref<8xi32>
  return
}
