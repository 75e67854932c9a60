// Without a CUDA driver or device, --target=cuda is one clear message and
// exit code 1, before anything is compiled; auto falls back to the cpu.
// UNSUPPORTED: cuda

// RUN: not gpumem-run --target=cuda %s 2>&1 | FileCheck %s --check-prefix=CUDA
// CUDA: error: no CUDA {{driver found \(libcuda.so.1\): .*|device found}}; --target=cpu runs the program on CPU cores
// CUDA-NOT: error

// RUN: gpumem-run --target=auto %s | FileCheck %s --check-prefix=AUTO
// AUTO: 42

func.func @main() {
  %c = arith.constant 42 : i32
  vector.print %c : i32
  return
}
