// RUN: gpumem-run --target=cpu %s | FileCheck %s --match-full-lines --strict-whitespace

// Managed memory from gpumem.alloc_managed, static (a: memref<8xf32>) and
// dynamic (b: memref<?x4xf32> with 3 rows): written by the host, updated by
// kernels, read back by the host, with every kind of hint on the way
// (gpumem.advise, gpumem.prefetch to the device and to the host,
// synchronous and async), freed with the synchronous gpu.dealloc.
//   host:     a[i] = i; b[r][c] = 10r + c
//   kernel 1: b[r][c] = 2 b[r][c] + a[c]  (a only read: read_mostly)
//   kernel 2: a[i] = a[i] * a[i]
// On the cpu target the hints change nothing; on a GPU they move pages.

// CHECK:a: ( 0, 1, 4, 9, 16, 25, 36, 49 )
// CHECK-NEXT:b[0]: ( 0, 3, 6, 9 )
// CHECK-NEXT:b[1]: ( 20, 23, 26, 29 )
// CHECK-NEXT:b[2]: ( 40, 43, 46, 49 )

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c10 = arith.constant 10 : index
  %pad = arith.constant 0.0 : f32

  %a = gpumem.alloc_managed() : memref<8xf32>
  %b = gpumem.alloc_managed(%c3) : memref<?x4xf32>
  scf.for %i = %c0 to %c8 step %c1 {
    %ii = arith.index_cast %i : index to i64
    %v = arith.sitofp %ii : i64 to f32
    memref.store %v, %a[%i] : memref<8xf32>
  }
  scf.for %r = %c0 to %c3 step %c1 {
    scf.for %c = %c0 to %c4 step %c1 {
      %r10 = arith.muli %r, %c10 : index
      %rc = arith.addi %r10, %c : index
      %rci = arith.index_cast %rc : index to i64
      %v = arith.sitofp %rci : i64 to f32
      memref.store %v, %b[%r, %c] : memref<?x4xf32>
    }
  }

  gpumem.advise %a, read_mostly : memref<8xf32>
  gpumem.advise %b, preferred_location_device : memref<?x4xf32>
  gpumem.advise %b, accessed_by_device : memref<?x4xf32>
  gpumem.prefetch %a to device : memref<8xf32>
  %t0 = gpu.wait async
  %t1 = gpumem.prefetch async [%t0] %b to device : memref<?x4xf32>
  gpu.wait [%t1]

  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c3, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    %x = memref.load %b[%bx, %tx] : memref<?x4xf32>
    %y = memref.load %a[%tx] : memref<8xf32>
    %x2 = arith.addf %x, %x : f32
    %z = arith.addf %x2, %y : f32
    memref.store %z, %b[%bx, %tx] : memref<?x4xf32>
    gpu.terminator
  }
  gpumem.advise %a, unset_read_mostly : memref<8xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1) {
    %x = memref.load %a[%tx] : memref<8xf32>
    %xx = arith.mulf %x, %x : f32
    memref.store %xx, %a[%tx] : memref<8xf32>
    gpu.terminator
  }

  gpumem.advise %b, unset_accessed_by_device : memref<?x4xf32>
  gpumem.advise %b, preferred_location_host : memref<?x4xf32>
  gpumem.prefetch %b to host : memref<?x4xf32>
  %t2 = gpu.wait async
  %t3 = gpumem.prefetch async [%t2] %a to host : memref<8xf32>
  gpu.wait [%t3]
  gpumem.advise %b, unset_preferred_location : memref<?x4xf32>

  %av = vector.transfer_read %a[%c0], %pad {in_bounds = [true]} : memref<8xf32>, vector<8xf32>
  vector.print str "a: "
  vector.print %av : vector<8xf32>
  %b0 = vector.transfer_read %b[%c0, %c0], %pad {in_bounds = [true]} : memref<?x4xf32>, vector<4xf32>
  vector.print str "b[0]: "
  vector.print %b0 : vector<4xf32>
  %b1 = vector.transfer_read %b[%c1, %c0], %pad {in_bounds = [true]} : memref<?x4xf32>, vector<4xf32>
  vector.print str "b[1]: "
  vector.print %b1 : vector<4xf32>
  %b2 = vector.transfer_read %b[%c2, %c0], %pad {in_bounds = [true]} : memref<?x4xf32>, vector<4xf32>
  vector.print str "b[2]: "
  vector.print %b2 : vector<4xf32>

  gpu.dealloc %a : memref<8xf32>
  gpu.dealloc %b : memref<?x4xf32>
  return
}
