func.func @main() {
  %c1 = arith.constant 1 : index
  // 128 KiB of workgroup memory: over sm_86's 101376 bytes per block.
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %big = memref.alloca() : memref<32768xf32, 3>
    %c0 = arith.constant 0 : index
    %f = arith.constant 1.0 : f32
    memref.store %f, %big[%c0] : memref<32768xf32, 3>
    gpu.terminator
  }
  return
}
