// RUN: not gpumem-run --target=cuda-emu %s 2>&1 | FileCheck %s --match-full-lines --strict-whitespace
// RUN: not gpumem-compile --target=cuda-emu %s -o %t 2>&1 | FileCheck %s --match-full-lines --strict-whitespace

// Inline PTX cannot run on the CPU: a located compile error, nothing runs.

// CHECK:{{.*}}error-unsupported.mlir:[[@LINE+8]]:10: error: 'llvm.inline_asm' op (inline PTX) cannot run on the cuda-emu target
// CHECK-NOT:before

func.func @main() {
  %c1 = arith.constant 1 : index
  vector.print str "before\n"
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %r = llvm.inline_asm has_side_effects "mov.u32 $0, %clock;", "=r" : () -> i32
    gpu.terminator
  }
  return
}
