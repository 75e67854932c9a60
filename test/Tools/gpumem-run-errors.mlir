// Every gpumem-run error is one message: option errors read
// "gpumem-run: error: ..." and exit with 2 (test/Tools/option-errors.test),
// the others exit with 1.

// RUN: not gpumem-run --target=tpu %s 2>&1 | FileCheck %s --check-prefix=TARGET
// TARGET: gpumem-run: error: unknown --target 'tpu'; expected cpu, cuda, cuda-emu, rocm, rocm-emu, vulkan or auto

// RUN: not gpumem-run --target=cpu --subgroup-size=8 %s 2>&1 | FileCheck %s --check-prefix=SUBGROUP
// SUBGROUP: gpumem-run: error: --subgroup-size=8 is for --target=vulkan; the cpu target's warps have 32 lanes

// RUN: not gpumem-run --target=vulkan --sanitize %s 2>&1 | FileCheck %s --check-prefix=SANITIZE-TARGET
// SANITIZE-TARGET: gpumem-run: error: --sanitize runs on the cpu, cuda-emu and rocm-emu targets (memcheck on cuda too), not vulkan; use --target=cpu
// RUN: not gpumem-run --target=cuda --sanitize=memcheck,racecheck %s 2>&1 | FileCheck %s --check-prefix=SANITIZE-CUDA
// SANITIZE-CUDA: gpumem-run: error: --target=cuda checks memcheck only, in the device code; racecheck, initcheck and synccheck run on the cpu, cuda-emu and rocm-emu targets: use --sanitize=memcheck, or --target=cuda-emu
// RUN: not gpumem-run --target=cpu --sanitize=memcheck --sanitize-device-log %s 2>&1 | FileCheck %s --check-prefix=DEVICE-LOG-TARGET
// DEVICE-LOG-TARGET: gpumem-run: error: --sanitize-device-log is for --target=cuda-emu (the cuda target always reports so), not cpu
// RUN: not gpumem-run --target=cuda-emu --sanitize --sanitize-device-log %s 2>&1 | FileCheck %s --check-prefix=DEVICE-LOG-CHECKS
// DEVICE-LOG-CHECKS: gpumem-run: error: --sanitize-device-log is for --sanitize=memcheck, the check the device code makes itself
// RUN: not gpumem-run --target=cpu --sanitize=bounds %S/../Sanitizer/oob-row.mlir 2>&1 | FileCheck %s --check-prefix=SANITIZE-UNKNOWN
// SANITIZE-UNKNOWN: gpumem-run: error: unknown --sanitize check 'bounds'; expected memcheck, racecheck, initcheck or synccheck, comma-separated

// RUN: not gpumem-run --target=cpu -e nothing %s 2>&1 | FileCheck %s --check-prefix=ENTRY
// ENTRY: gpumem-run-errors.mlir:{{[0-9]+}}:1: error: the program has no function @nothing to run

// RUN: not gpumem-run --target=cpu -e takes_args %s 2>&1 | FileCheck %s --check-prefix=ARGS
// ARGS: error: the entry point @takes_args must take no arguments

// RUN: not gpumem-run --target=cpu --entry-point-result=f16 %s 2>&1 | FileCheck %s --check-prefix=RESULT
// RESULT: gpumem-run: error: unknown --entry-point-result 'f16'; expected void, i32, i64 or f32

// RUN: not gpumem-run --target=cpu %S/does-not-exist.mlir 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: gpumem-run: error: cannot open input file '{{.*}}does-not-exist.mlir': No such file or directory

// A compile error is located in the program, with its source line.
// RUN: not gpumem-run --target=cpu %S/Inputs/host-alloc.mlir 2>&1 | FileCheck %s --check-prefix=COMPILE
// COMPILE: host-alloc.mlir:2:8: error: 'memref.alloc' op allocates workgroup memory in host code
// COMPILE-NEXT: %b = memref.alloc()

// A dynamic workgroup size that differs between blocks: located at the
// allocation, with a note at the launch, and without the op's generic form.
// RUN: not gpumem-run --target=cpu %S/Inputs/block-dependent-size.mlir 2>&1 | FileCheck %s --check-prefix=BLOCKSIZE
// BLOCKSIZE: block-dependent-size.mlir:7:10: error: 'memref.alloca' op workgroup allocation size depends on the block id; the size must be the same for every thread and block of a launch, computable on the host before it
// BLOCKSIZE-NEXT: %a = memref.alloca(%n)
// BLOCKSIZE-NOT: see current operation
// BLOCKSIZE: block-dependent-size.mlir:4:3: note: size computed from here
// BLOCKSIZE-NOT: see current operation

// RUN: gpumem-run --target=cpu -e answer --entry-point-result=i32 %s | FileCheck %s --check-prefix=I32
// I32: 42

// The entry point's result type must match --entry-point-result.
// RUN: not gpumem-run --target=cpu -e answer %s 2>&1 | FileCheck %s --check-prefix=VOID
// VOID: gpumem-run-errors.mlir:{{[0-9]+}}:3: error: the entry point @answer returns i32, not void; run it with --entry-point-result=i32
// RUN: not gpumem-run --target=cpu -e answer --entry-point-result=f32 %s 2>&1 | FileCheck %s --check-prefix=F32
// F32: error: the entry point @answer returns i32, not f32; run it with --entry-point-result=i32
// RUN: not gpumem-run --target=cpu -e pair --entry-point-result=i64 %s 2>&1 | FileCheck %s --check-prefix=PAIR
// PAIR: error: the entry point @pair returns !llvm.struct<(i32, i32)>, not i64; gpumem-run runs entry points that return void, i32, i64 or f32

// A CPU name LLVM does not know is an error before anything compiles.
// RUN: not gpumem-run --target=cpu --cpu=skylakee %s 2>&1 | FileCheck %s --check-prefix=CPU
// RUN: not gpumem-compile --target=cpu --cpu=skylakee %s -o %t 2>&1 | FileCheck %s --check-prefix=CPU
// CPU: {{gpumem-(run|compile)}}: error: unknown --cpu 'skylakee' for this machine's target; for example x86-64, or host for this machine's CPU
// CPU-NOT: LLVM ERROR
// CPU-NOT: not a recognized processor

module {
  func.func @answer() -> i32 {
    %c = arith.constant 42 : i32
    return %c : i32
  }
  func.func @takes_args(%a: i32) {
    return
  }
  func.func @pair() -> (i32, i32) {
    %c = arith.constant 1 : i32
    return %c, %c : i32, i32
  }
}
