func.func @main() {
  %b = memref.alloc() : memref<4xf32, #gpu.address_space<workgroup>>
  return
}
