// RUN: not gpumem-run --target=cuda-emu %s 2>&1 | FileCheck %s --match-full-lines --strict-whitespace
// RUN: not gpumem-compile --target=cuda-emu %s -o %t 2>&1 | FileCheck %s --match-full-lines --strict-whitespace

// cuda-emu runs the tensor-core instructions of f16, bf16, tf32, f64 and
// 8-bit integer matrices; a warp-level mma on 4-bit integers (mma.sync
// m16n8k64 .s4) has no lowering there yet: a located compile error at the
// op, nothing runs.

// CHECK:{{.*}}error-mma-unsupported.mlir:[[@LINE+14]]:10: error: 'nvvm.mma.sync' op of this shape and type has no lowering on the cuda-emu target
// CHECK-NOT:before

func.func @main() {
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %o = memref.alloc() : memref<2xi32>
  vector.print str "before\n"
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %c0 = arith.constant 0 : index
    %a = arith.constant dense<1> : vector<4x8xi4>
    %b = arith.constant dense<1> : vector<2x8xi4>
    %c = arith.constant dense<0> : vector<2x2xi32>
    %d = nvgpu.mma.sync (%a, %b, %c) {mmaShape = [16, 8, 64]} : (vector<4x8xi4>, vector<2x8xi4>, vector<2x2xi32>) -> vector<2x2xi32>
    %row = vector.extract %d[0] : vector<2xi32> from vector<2x2xi32>
    vector.store %row, %o[%c0] : memref<2xi32>, vector<2xi32>
    gpu.terminator
  }
  return
}
