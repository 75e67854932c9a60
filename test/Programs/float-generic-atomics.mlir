// memref.generic_atomic_rmw on f32, in device and workgroup memory: a
// maximum and a sum that every thread of every block updates. LLVM's
// compare-and-swap takes only integers, so the LLVM-based targets run it on
// an integer view of the memref (gpumem-integer-float-atomics); the sums
// are of small integers, exact in any order.
// RUN: gpumem-run --target=cpu %s | FileCheck %s
// CHECK: max 63
// CHECK-NEXT: sum 4032
// CHECK-NEXT: block sums 2016 2016
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  %lowest = arith.constant -1.0 : f32
  %stats = gpu.alloc () : memref<2xf32>
  %blocks = gpu.alloc () : memref<2xf32>
  %init = memref.alloc() : memref<2xf32>
  memref.store %lowest, %init[%c0] : memref<2xf32>
  memref.store %zero, %init[%c1] : memref<2xf32>
  gpu.memcpy %stats, %init : memref<2xf32>, memref<2xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %sum = memref.alloca() : memref<1xf32, #gpu.address_space<workgroup>>
    %first = arith.cmpi eq, %tx, %c0 : index
    scf.if %first {
      memref.store %zero, %sum[%c0] : memref<1xf32, #gpu.address_space<workgroup>>
    }
    gpu.barrier
    // x = (37 tx) mod 64: each of 0..63 once per block.
    %c37 = arith.constant 37 : index
    %p = arith.muli %tx, %c37 : index
    %q = arith.remui %p, %c64 : index
    %qi = arith.index_cast %q : index to i32
    %x = arith.sitofp %qi : i32 to f32
    %m = memref.generic_atomic_rmw %stats[%c0] : memref<2xf32> {
    ^bb0(%old: f32):
      %new = arith.maximumf %old, %x : f32
      memref.atomic_yield %new : f32
    }
    %s = memref.generic_atomic_rmw %stats[%c1] : memref<2xf32> {
    ^bb0(%old: f32):
      %new = arith.addf %old, %x : f32
      memref.atomic_yield %new : f32
    }
    %b = memref.generic_atomic_rmw %sum[%c0] : memref<1xf32, #gpu.address_space<workgroup>> {
    ^bb0(%old: f32):
      %new = arith.addf %old, %x : f32
      memref.atomic_yield %new : f32
    }
    gpu.barrier
    scf.if %first {
      %total = memref.load %sum[%c0] : memref<1xf32, #gpu.address_space<workgroup>>
      memref.store %total, %blocks[%bx] : memref<2xf32>
    }
    gpu.terminator
  }
  %out = memref.alloc() : memref<2xf32>
  %outb = memref.alloc() : memref<2xf32>
  gpu.memcpy %out, %stats : memref<2xf32>, memref<2xf32>
  gpu.memcpy %outb, %blocks : memref<2xf32>, memref<2xf32>
  %max = memref.load %out[%c0] : memref<2xf32>
  %all = memref.load %out[%c1] : memref<2xf32>
  %b0 = memref.load %outb[%c0] : memref<2xf32>
  %b1 = memref.load %outb[%c1] : memref<2xf32>
  %maxi = arith.fptosi %max : f32 to i32
  %alli = arith.fptosi %all : f32 to i32
  %b0i = arith.fptosi %b0 : f32 to i32
  %b1i = arith.fptosi %b1 : f32 to i32
  vector.print str "max "
  vector.print %maxi : i32
  vector.print str "sum "
  vector.print %alli : i32
  vector.print str "block sums "
  vector.print %b0i : i32 punctuation <no_punctuation>
  vector.print str " "
  vector.print %b1i : i32
  return
}
