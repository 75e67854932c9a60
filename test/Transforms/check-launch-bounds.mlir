// RUN: gpumem-opt %s -split-input-file -gpumem-check-launch-bounds -verify-diagnostics

func.func @too_many_threads() {
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c33 = arith.constant 33 : index
  // expected-error @+1 {{'gpu.launch' op asks for blocks of 32 x 33 x 1 = 1056 threads; a block has at most 1024}}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c33, %sz = %c1) {
    gpu.terminator
  }
  return
}

// -----

func.func @z_too_deep() {
  %c1 = arith.constant 1 : index
  %c65 = arith.constant 65 : index
  // expected-error @+1 {{'gpu.launch' op asks for a block size of 65 in dimension z; GPUs allow at most 64}}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c65) {
    gpu.terminator
  }
  return
}

// -----

func.func @empty_grid() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'gpu.launch' op asks for a grid size of 0 in dimension y; sizes are at least 1}}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c0, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    gpu.terminator
  }
  return
}

// -----

module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @k() kernel { gpu.return }
  }
  func.func @grid_y_too_large() {
    %c1 = arith.constant 1 : index
    %big = arith.constant 65536 : index
    // expected-error @+1 {{'gpu.launch_func' op asks for a grid size of 65536 in dimension y; GPUs allow at most 65535}}
    gpu.launch_func @k::@k blocks in (%c1, %big, %c1) threads in (%c1, %c1, %c1)
    return
  }
}

// -----

// Sizes known only at run time, and sizes within the limits, pass.
func.func @fine(%n: index) {
  %c1 = arith.constant 1 : index
  %c1024 = arith.constant 1024 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1024, %sy = %c1, %sz = %c1) {
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %c1) {
    gpu.terminator
  }
  return
}
