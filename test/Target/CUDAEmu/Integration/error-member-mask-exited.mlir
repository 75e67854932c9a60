// RUN: not gpumem-run --target=cuda-emu %s 2>&1 | FileCheck %s --match-full-lines --strict-whitespace

// Lanes 0..15 of a warp shuffle with a full member mask while lanes 16..31
// return: a lane named in the mask has exited, which is undefined on a GPU
// (compute-sanitizer's synccheck reports it) and an error here, reported
// when the first named lane exits.

// CHECK:gpumem: error: kernel 'main_kernel': thread (16,0,0) of block (0,0,0) exited while lane 0 of its warp waits for it at the shfl.sync.bfly at {{.*}}error-member-mask-exited.mlir:[[@LINE+15]]:12 (member mask 0xffffffff)
// CHECK-NEXT:gpumem: note: in the launch at {{.*}}error-member-mask-exited.mlir:[[@LINE+7]]:3
// CHECK-NOT:{{.}}

func.func @main() {
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %low = arith.cmpi ult, %tx, %c16 : index
    scf.if %low {
      %full = arith.constant -1 : i32
      %one = arith.constant 1 : i32
      %v = arith.index_cast %tx : index to i32
      %r = nvvm.shfl.sync bfly %full, %v, %one, %one : i32 -> i32
    }
    gpu.terminator
  }
  vector.print str "not reached\n"
  return
}
