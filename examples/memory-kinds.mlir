// Three kinds of memory a kernel can use, and how each reaches the GPU:
//  - %x, a plain host buffer (memref.alloc in @main): the tools copy it to
//    device memory before the launch and back after it
//    (--host-buffers=copy, the default; docs/memory.md);
//  - %y, managed memory (gpumem.alloc_managed): one pointer the host and
//    the device share, with hints (gpumem.advise) and prefetches
//    (gpumem.prefetch) that move its pages ahead of use on a GPU;
//  - %t, workgroup memory (memref.alloca in workgroup space): one buffer per
//    block, shared by its threads.
// One block of 8 threads: thread i writes x[i] into the tile, and after the
// barrier reads its neighbour's (i + 1) mod 8, then y[i] = 10 * y[i] + that.
// Host: x[i] = i, y[i] = i. Expected output (on every target):
//
//   y: ( 1, 12, 23, 34, 45, 56, 67, 70 )
//   x: ( 0, 1, 2, 3, 4, 5, 6, 7 )
//
// Run it: build/bin/gpumem-run --target=cpu examples/memory-kinds.mlir
// (or --target=cuda-emu; --host-buffers=managed or register moves %x the
// other ways).

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c10 = arith.constant 10.0 : f32
  %pad = arith.constant 0.0 : f32
  %x = memref.alloc() : memref<8xf32>
  %y = gpumem.alloc_managed() : memref<8xf32>
  scf.for %i = %c0 to %c8 step %c1 {
    %ii = arith.index_cast %i : index to i64
    %v = arith.sitofp %ii : i64 to f32
    memref.store %v, %x[%i] : memref<8xf32>
    memref.store %v, %y[%i] : memref<8xf32>
  }
  gpumem.advise %y, preferred_location_device : memref<8xf32>
  gpumem.prefetch %y to device : memref<8xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1) {
    %t = memref.alloca() : memref<8xf32, #gpu.address_space<workgroup>>
    %xv = memref.load %x[%tx] : memref<8xf32>
    memref.store %xv, %t[%tx] : memref<8xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    %n1 = arith.addi %tx, %c1 : index
    %n = arith.remui %n1, %c8 : index
    %nv = memref.load %t[%n] : memref<8xf32, #gpu.address_space<workgroup>>
    %yv = memref.load %y[%tx] : memref<8xf32>
    %scaled = arith.mulf %yv, %c10 : f32
    %sum = arith.addf %scaled, %nv : f32
    memref.store %sum, %y[%tx] : memref<8xf32>
    gpu.terminator
  }
  gpumem.prefetch %y to host : memref<8xf32>
  %yr = vector.transfer_read %y[%c0], %pad : memref<8xf32>, vector<8xf32>
  vector.print str "y: "
  vector.print %yr : vector<8xf32>
  %xr = vector.transfer_read %x[%c0], %pad : memref<8xf32>, vector<8xf32>
  vector.print str "x: "
  vector.print %xr : vector<8xf32>
  gpu.dealloc %y : memref<8xf32>
  memref.dealloc %x : memref<8xf32>
  return
}
