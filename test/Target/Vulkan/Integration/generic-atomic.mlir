// memref.generic_atomic_rmw on i32, in workgroup and global memory: a
// compare-and-swap loop on the vulkan target. Every target prints the same.
// REQUIRES: vulkan
// RUN: gpumem-run --target=vulkan %s | FileCheck %s --match-full-lines
// RUN: gpumem-run --target=cpu %s | FileCheck %s --match-full-lines
// CHECK: block maxima: ( 63, 127, 191, 255 )
// CHECK-NEXT: squares of 0..255, summed: 5559680
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0 : i32
  %maxima = memref.alloc() : memref<4xi32>
  %sum = memref.alloc() : memref<1xi32>
  memref.store %zero, %sum[%c0] : memref<1xi32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c4, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %m = memref.alloca() : memref<1xi32, #gpu.address_space<workgroup>>
    %is0 = arith.cmpi eq, %tx, %c0 : index
    scf.if %is0 {
      %z = arith.constant 0 : i32
      memref.store %z, %m[%c0] : memref<1xi32, #gpu.address_space<workgroup>>
    }
    gpu.barrier
    %b = arith.muli %bx, %c64 : index
    %g = arith.addi %b, %tx : index
    %gi = arith.index_cast %g : index to i32
    %old = memref.generic_atomic_rmw %m[%c0] : memref<1xi32, #gpu.address_space<workgroup>> {
    ^bb0(%cur: i32):
      %mx = arith.maxsi %cur, %gi : i32
      memref.atomic_yield %mx : i32
    }
    %sq = arith.muli %gi, %gi : i32
    %old2 = memref.generic_atomic_rmw %sum[%c0] : memref<1xi32> {
    ^bb0(%cur: i32):
      %n = arith.addi %cur, %sq : i32
      memref.atomic_yield %n : i32
    }
    gpu.barrier
    scf.if %is0 {
      %v = memref.load %m[%c0] : memref<1xi32, #gpu.address_space<workgroup>>
      memref.store %v, %maxima[%bx] : memref<4xi32>
    }
    gpu.terminator
  }
  %v = vector.transfer_read %maxima[%c0], %zero {in_bounds = [true]} : memref<4xi32>, vector<4xi32>
  vector.print str "block maxima: "
  vector.print %v : vector<4xi32>
  %s = memref.load %sum[%c0] : memref<1xi32>
  vector.print str "squares of 0..255, summed: "
  vector.print %s : i32
  return
}
