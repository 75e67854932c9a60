// RUN: gpumem-run --target=cpu %s | FileCheck %s --match-full-lines --strict-whitespace

// Dynamic shared memory viewed as 8- and 16-bit elements, written by
// neighbouring threads at once (several elements share a 32-bit word on
// targets that address it in words): one block of 16 threads and 64 bytes
// of dynamic shared memory. Thread t stores 3t into byte t (the raw i8
// memref) and 100 t into i16 element t of a view at byte 16; after a
// barrier out[t] = byte[15 - t] + i16[15 - t] (as i32).

// CHECK:( 1545, 1442, 1339, 1236, 1133, 1030, 927, 824, 721, 618, 515, 412, 309, 206, 103, 0 )

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %pad = arith.constant 0 : i32
  %bytes = arith.constant 64 : i32
  %out = memref.alloc() : memref<16xi32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c16, %sy = %c1, %sz = %c1)
             dynamic_shared_memory_size %bytes {
    %k15 = arith.constant 15 : index
    %k16 = arith.constant 16 : index
    %three = arith.constant 3 : i8
    %hundred = arith.constant 100 : i16
    %raw = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %h = memref.view %raw[%k16][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<16xi16, #gpu.address_space<workgroup>>
    %t8 = arith.index_cast %tx : index to i8
    %b = arith.muli %t8, %three : i8
    memref.store %b, %raw[%tx] : memref<?xi8, #gpu.address_space<workgroup>>
    %t16 = arith.index_cast %tx : index to i16
    %v = arith.muli %t16, %hundred : i16
    memref.store %v, %h[%tx] : memref<16xi16, #gpu.address_space<workgroup>>
    gpu.barrier
    %r = arith.subi %k15, %tx : index
    %rb = memref.load %raw[%r] : memref<?xi8, #gpu.address_space<workgroup>>
    %rh = memref.load %h[%r] : memref<16xi16, #gpu.address_space<workgroup>>
    %rb32 = arith.extui %rb : i8 to i32
    %rh32 = arith.extsi %rh : i16 to i32
    %sum = arith.addi %rb32, %rh32 : i32
    memref.store %sum, %out[%tx] : memref<16xi32>
    gpu.terminator
  }
  %v = vector.transfer_read %out[%c0], %pad : memref<16xi32>, vector<16xi32>
  vector.print %v : vector<16xi32>
  return
}
