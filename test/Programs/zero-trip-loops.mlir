// RUN: gpumem-run --target=cpu %s | FileCheck %s --match-full-lines --strict-whitespace

// Loops that run no iteration in some threads give their inits: a
// thread-strided loop over dynamic shared memory whose size each launch of a
// host loop sets (64, 128, 192 bytes: 16, 32, 48 words for 64 threads), and
// a loop carrying a value from 7. (On vulkan, upstream's lowering kept loop
// results in variables only the body stored: the carried value was garbage
// in threads that never entered, and the loop-limit check took it for a
// loop left early.)
// Row i (launch i): thread t's sum over j = 0, 64, ... below the word
// count, starting from t (= t), then 7 + t where t < 16, else 7.

// CHECK:( 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63 )
// CHECK-NEXT:( 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63 )
// CHECK-NEXT:( 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63 )
// CHECK-NEXT:( 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7 )

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c64 = arith.constant 64 : index
  %out = memref.alloc() : memref<3x64xi32>
  %carried = memref.alloc() : memref<64xi32>
  scf.for %i = %c0 to %c3 step %c1 {
    %i1 = arith.addi %i, %c1 : index
    %bytes = arith.muli %i1, %c64 : index
    %b32 = arith.index_cast %bytes : index to i32
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1)
               dynamic_shared_memory_size %b32 {
      %k0 = arith.constant 0 : index
      %k4 = arith.constant 4 : index
      %k16 = arith.constant 16 : index
      %dyn = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %nb = memref.dim %dyn, %k0 : memref<?xi8, #gpu.address_space<workgroup>>
      %n = arith.divui %nb, %k4 : index
      %v = memref.view %dyn[%k0][%n] : memref<?xi8, #gpu.address_space<workgroup>> to memref<?xi32, #gpu.address_space<workgroup>>
      scf.for %j = %tx to %n step %sx {
        %jj = arith.index_cast %j : index to i32
        memref.store %jj, %v[%j] : memref<?xi32, #gpu.address_space<workgroup>>
      }
      gpu.barrier
      %s = scf.for %j = %k0 to %n step %sx iter_args(%acc = %tx) -> (index) {
        %a = arith.addi %acc, %j : index
        scf.yield %a : index
      }
      %s32 = arith.index_cast %s : index to i32
      memref.store %s32, %out[%i, %tx] : memref<3x64xi32>
      %seven = arith.constant 7 : i32
      %z = scf.for %j = %tx to %k16 step %sx iter_args(%acc = %seven) -> (i32) {
        %jj = arith.index_cast %j : index to i32
        %a = arith.addi %acc, %jj : i32
        scf.yield %a : i32
      }
      memref.store %z, %carried[%tx] : memref<64xi32>
      gpu.terminator
    }
  }
  %pad = arith.constant 0 : i32
  scf.for %i = %c0 to %c3 step %c1 {
    %row = vector.transfer_read %out[%i, %c0], %pad : memref<3x64xi32>, vector<64xi32>
    vector.print %row : vector<64xi32>
  }
  %cv = vector.transfer_read %carried[%c0], %pad : memref<64xi32>, vector<64xi32>
  vector.print %cv : vector<64xi32>
  return
}
