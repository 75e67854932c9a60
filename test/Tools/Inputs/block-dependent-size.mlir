func.func @main() {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c4, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %n = arith.addi %bx, %c1 : index
    %a = memref.alloca(%n) : memref<?xf32, #gpu.address_space<workgroup>>
    %z = arith.constant 0.0 : f32
    memref.store %z, %a[%tx] : memref<?xf32, #gpu.address_space<workgroup>>
    gpu.terminator
  }
  return
}
