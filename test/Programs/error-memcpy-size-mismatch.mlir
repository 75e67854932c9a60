// RUN: not gpumem-run --target=cpu %s 2>&1 | FileCheck %s --match-full-lines --strict-whitespace
// RUN: %if cuda-emu %{ not gpumem-run --target=cuda-emu %s 2>&1 | FileCheck %s --match-full-lines --strict-whitespace %}

// gpu.memcpy between buffers whose sizes the host reads from memory: the
// first copy (8 into 8 elements) runs; the second (8 f32 into 4) would
// overflow the destination, so the program stops there, naming the copy's
// location and both sizes. The last print never runs.

// CHECK:first copy: ( 0, 1, 2, 3, 4, 5, 6, 7 )
// CHECK-NEXT:gpumem: error: gpu.memcpy at {{.*}}error-memcpy-size-mismatch.mlir:[[@LINE+28]]:3 copies 32 bytes into a buffer of 16 bytes: the sizes must match
// CHECK-NOT:{{.}}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %sizes = memref.alloc() : memref<2xindex>
  memref.store %c8, %sizes[%c0] : memref<2xindex>
  memref.store %c4, %sizes[%c1] : memref<2xindex>
  %n = memref.load %sizes[%c0] : memref<2xindex>
  %m = memref.load %sizes[%c1] : memref<2xindex>
  %src = memref.alloc(%n) : memref<?xf32>
  scf.for %i = %c0 to %n step %c1 {
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    memref.store %f, %src[%i] : memref<?xf32>
  }
  %dev = gpu.alloc(%n) : memref<?xf32>
  gpu.memcpy %dev, %src : memref<?xf32>, memref<?xf32>
  %back = memref.alloc(%n) : memref<?xf32>
  gpu.memcpy %back, %dev : memref<?xf32>, memref<?xf32>
  %zero = arith.constant 0.0 : f32
  %v = vector.transfer_read %back[%c0], %zero : memref<?xf32>, vector<8xf32>
  vector.print str "first copy: "
  vector.print %v : vector<8xf32>
  %small = gpu.alloc(%m) : memref<?xf32>
  gpu.memcpy %small, %src : memref<?xf32>, memref<?xf32>
  vector.print str "never printed\n"
  return
}
