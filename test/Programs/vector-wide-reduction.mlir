// RUN: gpumem-run --target=cpu %s | FileCheck %s --match-full-lines --strict-whitespace

// Vectors wider than SPIR-V's 4 elements: each thread loads a vector<8xf32>
// and a vector<16xf32> (vector.load from device memory) and reduces them
// (vector.reduction add, maximumf, and mul on i32), which the vulkan target
// unrolls to its widths. 1 block x 4 threads; a[i] = i - 10 (64 floats),
// b[i] = i % 5 + 1 (64 i32): thread t sums a[8t .. 8t+8), takes the
// maximum of a[16t .. 16t+16) and multiplies b[8t .. 8t+8).

// CHECK:( -52, 12, 76, 140 )
// CHECK-NEXT:( 5, 21, 37, 53 )
// CHECK-NEXT:( 720, 2400, 2880, 1200 )

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c64 = arith.constant 64 : index
  %a = memref.alloc() : memref<64xf32>
  %b = memref.alloc() : memref<64xi32>
  %sums = memref.alloc() : memref<4xf32>
  %maxes = memref.alloc() : memref<4xf32>
  %products = memref.alloc() : memref<4xi32>
  scf.for %i = %c0 to %c64 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %ten = arith.constant 10 : i32
    %v = arith.subi %ii, %ten : i32
    %f = arith.sitofp %v : i32 to f32
    memref.store %f, %a[%i] : memref<64xf32>
    %r = arith.remui %i, %c5 : index
    %r1 = arith.addi %r, %c1 : index
    %ri = arith.index_cast %r1 : index to i32
    memref.store %ri, %b[%i] : memref<64xi32>
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    %k8 = arith.constant 8 : index
    %k16 = arith.constant 16 : index
    %o8 = arith.muli %tx, %k8 : index
    %o16 = arith.muli %tx, %k16 : index
    %v8 = vector.load %a[%o8] : memref<64xf32>, vector<8xf32>
    %s = vector.reduction <add>, %v8 : vector<8xf32> into f32
    %v16 = vector.load %a[%o16] : memref<64xf32>, vector<16xf32>
    %m = vector.reduction <maximumf>, %v16 : vector<16xf32> into f32
    %w8 = vector.load %b[%o8] : memref<64xi32>, vector<8xi32>
    %p = vector.reduction <mul>, %w8 : vector<8xi32> into i32
    memref.store %s, %sums[%tx] : memref<4xf32>
    memref.store %m, %maxes[%tx] : memref<4xf32>
    memref.store %p, %products[%tx] : memref<4xi32>
    gpu.terminator
  }
  %pad = arith.constant 0.0 : f32
  %padi = arith.constant 0 : i32
  %sv = vector.transfer_read %sums[%c0], %pad : memref<4xf32>, vector<4xf32>
  vector.print %sv : vector<4xf32>
  %mv = vector.transfer_read %maxes[%c0], %pad : memref<4xf32>, vector<4xf32>
  vector.print %mv : vector<4xf32>
  %pv = vector.transfer_read %products[%c0], %padi : memref<4xi32>, vector<4xi32>
  vector.print %pv : vector<4xi32>
  return
}
