// RUN: gpumem-run --target=cpu %s | FileCheck %s --match-full-lines --strict-whitespace

// A double-buffered pipeline in dynamic shared memory, written the way a
// kernel generator writes one: two 256-byte halves of the launch's dynamic
// shared memory, the half for stage s picked by arith.select on the byte
// offset, a view of it that assumes its 256-byte alignment, and 128-bit
// vector loads and stores on it. One block of 16 threads, 4 stages of 64
// floats. in[i] = i / 2. In stage s thread t stores in[64s + 4t ..] at
// float 4t of the stage's half; after a barrier it adds up the four floats
// its right neighbour stored (4(t+1) mod 64 ..) into its running sum.
// out[t] = sum over s of (sum over j < 4 of in[64s + 4((t+1) mod 16) + j]).

// CHECK:( 812, 844, 876, 908, 940, 972, 1004, 1036, 1068, 1100, 1132, 1164, 1196, 1228, 1260, 780 )

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c256 = arith.constant 256 : index
  %bytes = arith.constant 512 : i32
  %half = arith.constant 0.5 : f32
  %in = memref.alloc() : memref<256xf32>
  %out = memref.alloc() : memref<16xf32>
  scf.for %i = %c0 to %c256 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    %v = arith.mulf %f, %half : f32
    memref.store %v, %in[%i] : memref<256xf32>
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c16, %sy = %c1, %sz = %c1)
             dynamic_shared_memory_size %bytes {
    %k0 = arith.constant 0 : index
    %k1 = arith.constant 1 : index
    %k2 = arith.constant 2 : index
    %k4 = arith.constant 4 : index
    %k64 = arith.constant 64 : index
    %k256 = arith.constant 256 : index
    %zero = arith.constant 0.0 : f32
    %raw = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %mine = arith.muli %tx, %k4 : index
    %t1 = arith.addi %tx, %k1 : index
    %next = arith.remui %t1, %c16 : index
    %theirs = arith.muli %next, %k4 : index
    %sum = scf.for %s = %k0 to %k4 step %k1 iter_args(%acc = %zero) -> (f32) {
      %parity = arith.remui %s, %k2 : index
      %odd = arith.cmpi eq, %parity, %k1 : index
      %offset = arith.select %odd, %k256, %k0 : index
      %view = memref.view %raw[%offset][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<64xf32, #gpu.address_space<workgroup>>
      %buf = memref.assume_alignment %view, 256 : memref<64xf32, #gpu.address_space<workgroup>>
      %base = arith.muli %s, %k64 : index
      %src = arith.addi %base, %mine : index
      %v = vector.load %in[%src] : memref<256xf32>, vector<4xf32>
      vector.store %v, %buf[%mine] : memref<64xf32, #gpu.address_space<workgroup>>, vector<4xf32>
      gpu.barrier
      %w = vector.load %buf[%theirs] : memref<64xf32, #gpu.address_space<workgroup>>, vector<4xf32>
      %r = vector.reduction <add>, %w : vector<4xf32> into f32
      %acc2 = arith.addf %acc, %r : f32
      scf.yield %acc2 : f32
    }
    memref.store %sum, %out[%tx] : memref<16xf32>
    gpu.terminator
  }
  %v = vector.transfer_read %out[%c0], %half : memref<16xf32>, vector<16xf32>
  vector.print %v : vector<16xf32>
  memref.dealloc %in : memref<256xf32>
  memref.dealloc %out : memref<16xf32>
  return
}
