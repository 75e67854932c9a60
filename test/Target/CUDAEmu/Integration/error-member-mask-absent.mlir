// RUN: not gpumem-run --target=cuda-emu %s 2>&1 | FileCheck %s --match-full-lines --strict-whitespace

// A block of 16 threads votes with a full member mask: lanes 16..31 do not
// exist, which is undefined on a GPU and an error here.

// CHECK:gpumem: error: kernel 'main_kernel': vote.sync.ballot at {{.*}}error-member-mask-absent.mlir:[[@LINE+11]]:10: thread (0,0,0) of block (0,0,0) names lanes that do not exist in member mask 0xffffffff (its warp has 16 lanes)
// CHECK-NEXT:gpumem: note: in the launch at {{.*}}error-member-mask-absent.mlir:[[@LINE+6]]:3
// CHECK-NOT:{{.}}

func.func @main() {
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c16, %sy = %c1, %sz = %c1) {
    %full = arith.constant -1 : i32
    %true = arith.constant true
    %b = nvvm.vote.sync ballot %full, %true -> i32
    gpu.terminator
  }
  vector.print str "not reached\n"
  return
}
