// RUN: gpumem-run --target=cpu %s | FileCheck %s --match-full-lines --strict-whitespace

// Workgroup allocas sized at run time of 16- and 8-bit integers next to a
// 32-bit one: the vulkan target packs them into one array of 32-bit words,
// so two i16 (four i8) elements share a word that neighbouring threads
// write at once. n = 37 comes from memory; 1 block of 40 threads; for
// t < n: h[t] = 3t - 50 (i16), q[t] = 5t (i8, wrapping), w[t] = 1000t
// (i32); after a barrier thread t < n reads element n - 1 - t of each.

// CHECK:( 58, 55, 52, 49, 46, 43, 40, 37, 34, 31, 28, 25, 22, 19, 16, 13, 10, 7, 4, 1, -2, -5, -8, -11, -14, -17, -20, -23, -26, -29, -32, -35, -38, -41, -44, -47, -50 )
// CHECK-NEXT:( -76, -81, -86, -91, -96, -101, -106, -111, -116, -121, -126, 125, 120, 115, 110, 105, 100, 95, 90, 85, 80, 75, 70, 65, 60, 55, 50, 45, 40, 35, 30, 25, 20, 15, 10, 5, 0 )
// CHECK-NEXT:( 36000, 35000, 34000, 33000, 32000, 31000, 30000, 29000, 28000, 27000, 26000, 25000, 24000, 23000, 22000, 21000, 20000, 19000, 18000, 17000, 16000, 15000, 14000, 13000, 12000, 11000, 10000, 9000, 8000, 7000, 6000, 5000, 4000, 3000, 2000, 1000, 0 )

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c40 = arith.constant 40 : index
  %cfg = memref.alloc() : memref<1xindex>
  %c37 = arith.constant 37 : index
  memref.store %c37, %cfg[%c0] : memref<1xindex>
  %n = memref.load %cfg[%c0] : memref<1xindex>
  %oh = memref.alloc() : memref<37xi16>
  %oq = memref.alloc() : memref<37xi8>
  %ow = memref.alloc() : memref<37xi32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c40, %sy = %c1, %sz = %c1) {
    %h = memref.alloca(%n) : memref<?xi16, #gpu.address_space<workgroup>>
    %q = memref.alloca(%n) : memref<?xi8, #gpu.address_space<workgroup>>
    %w = memref.alloca(%n) : memref<?xi32, #gpu.address_space<workgroup>>
    %k1 = arith.constant 1 : index
    %inside = arith.cmpi ult, %tx, %n : index
    scf.if %inside {
      %t = arith.index_cast %tx : index to i32
      %three = arith.constant 3 : i32
      %fifty = arith.constant 50 : i32
      %five = arith.constant 5 : i32
      %thousand = arith.constant 1000 : i32
      %t3 = arith.muli %t, %three : i32
      %hv = arith.subi %t3, %fifty : i32
      %h16 = arith.trunci %hv : i32 to i16
      %t5 = arith.muli %t, %five : i32
      %q8 = arith.trunci %t5 : i32 to i8
      %wv = arith.muli %t, %thousand : i32
      memref.store %h16, %h[%tx] : memref<?xi16, #gpu.address_space<workgroup>>
      memref.store %q8, %q[%tx] : memref<?xi8, #gpu.address_space<workgroup>>
      memref.store %wv, %w[%tx] : memref<?xi32, #gpu.address_space<workgroup>>
    }
    gpu.barrier
    scf.if %inside {
      %last = arith.subi %n, %k1 : index
      %r = arith.subi %last, %tx : index
      %h2 = memref.load %h[%r] : memref<?xi16, #gpu.address_space<workgroup>>
      %q2 = memref.load %q[%r] : memref<?xi8, #gpu.address_space<workgroup>>
      %w2 = memref.load %w[%r] : memref<?xi32, #gpu.address_space<workgroup>>
      memref.store %h2, %oh[%tx] : memref<37xi16>
      memref.store %q2, %oq[%tx] : memref<37xi8>
      memref.store %w2, %ow[%tx] : memref<37xi32>
    }
    gpu.terminator
  }
  %p16 = arith.constant 0 : i16
  %p8 = arith.constant 0 : i8
  %p32 = arith.constant 0 : i32
  %vh = vector.transfer_read %oh[%c0], %p16 : memref<37xi16>, vector<37xi16>
  vector.print %vh : vector<37xi16>
  %vq = vector.transfer_read %oq[%c0], %p8 : memref<37xi8>, vector<37xi8>
  vector.print %vq : vector<37xi8>
  %vw = vector.transfer_read %ow[%c0], %p32 : memref<37xi32>, vector<37xi32>
  vector.print %vw : vector<37xi32>
  return
}
