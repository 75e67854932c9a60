// --sanitize=memcheck on the cuda target: the memref checks are compiled
// into the PTX and report through the log in global memory that the cuda
// runtime reads after the launch (gpumem-define-nvvm-sanitizer-log).
// RUN: gpumem-opt %s --gpumem-cuda-pipeline="chip=sm_90 format=isa sanitize=memcheck" | gpumem-objects ptx - | FileCheck %s
// RUN: gpumem-opt %s --gpumem-cuda-pipeline="chip=sm_90 format=isa" | gpumem-objects ptx - | FileCheck %s --check-prefix=PLAIN
// The host code names each allocation's line, for the reports.
// RUN: gpumem-opt %s --gpumem-cuda-pipeline="chip=sm_90 format=isa sanitize=memcheck" | FileCheck %s --check-prefix=HOST
// RUN: gpumem-opt %s --gpumem-cuda-pipeline="chip=sm_90 format=isa" | FileCheck %s --check-prefix=PLAIN
// ptxas takes it, for the oldest and the newest chip.
// RUN: %if ptxas %{ gpumem-opt %s --gpumem-cuda-pipeline="chip=sm_90 format=bin sanitize=memcheck" -o /dev/null %}
// RUN: %if ptxas %{ gpumem-opt %s --gpumem-cuda-pipeline="chip=sm_75 format=bin sanitize=memcheck" -o /dev/null %}
// racecheck's shadows are the runtime's: refused where the pass meets them.
// RUN: not gpumem-opt %s --gpumem-cuda-pipeline="chip=sm_90 format=isa sanitize=racecheck" -o /dev/null 2>&1 | FileCheck %s --check-prefix=RACECHECK

// CHECK: .visible .global .align 8 .b8 __gpumem_sanitizer_log[28680];
// CHECK: .func __gpumem_sanitizer_record(
// CHECK: atom.global.min.u64
// CHECK: .visible .entry main_kernel(
// One compare and branch before the load; out of bounds, the record
// function is called instead and the load yields 0.
// CHECK: setp.gt.u64 [[OUT:%p[0-9]+]], %rd{{[0-9]+}}, 7;
// CHECK-NEXT: @[[OUT]] bra [[REPORT:\$L__BB[0-9_]+]];
// CHECK: ld.global.b32
// CHECK: [[REPORT]]:
// CHECK: call.uni __gpumem_sanitizer_record,
// CHECK: mov.b32 %r{{[0-9]+}}, 0f00000000;

// HOST: llvm.call @gpumemMemoryCallLocation
// HOST: llvm.call @mgpuMemAlloc

// PLAIN-NOT: __gpumem_sanitizer
// PLAIN-NOT: gpumemMemoryCallLocation

// RACECHECK: sanitizer-log.mlir:[[@LINE+9]]:10: error: --sanitize=racecheck and initcheck keep a shadow of every byte in the runtime: they run on the cpu, cuda-emu and rocm-emu targets, not in device code (__gpumem_sanitizer_deviceAccess)
func.func @main() {
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %in = gpu.alloc () : memref<8xf32>
  %out = gpu.alloc () : memref<8xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1) {
    %next = arith.addi %tx, %c1 : index
    %v = memref.load %in[%next] : memref<8xf32>
    memref.store %v, %out[%tx] : memref<8xf32>
    gpu.terminator
  }
  return
}
