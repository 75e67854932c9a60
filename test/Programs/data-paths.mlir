// RUN: gpumem-run --target=cpu %s | FileCheck %s --match-full-lines --strict-whitespace

// The ways data reaches a kernel:
//  A. a host memref.alloc made visible with gpu.host_register;
//  B. gpu.alloc host_shared (synchronous form), written and read by the
//     host directly;
//  C. device memory from gpu.alloc, filled with gpu.memcpy host->device and
//     gpu.memset, read back with gpu.memcpy device->host, released with
//     gpu.dealloc; all of it in the async form, chained with !gpu.async.token
//     (gpu.launch async too) and finished with gpu.wait.
// The synchronous gpu.alloc (device memory), gpu.memcpy and gpu.dealloc do
// not compile for the cpu target today (gpu.alloc: "unsupported GPU
// operation: gpu.alloc"; gpu.memcpy, gpu.dealloc: "LLVM Translation failed
// for operation: builtin.unrealized_conversion_cast"), so C uses the async
// forms and B's buffer is freed with an async gpu.dealloc;
// data-paths-sync.mlir is the same program with the synchronous forms.

// CHECK:A host_register: ( 1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31 )
// CHECK-NEXT:B host_shared:   ( 100, 102, 104, 106, 108, 110, 112, 114, 116, 118, 120, 122, 124, 126, 128, 130 )
// CHECK-NEXT:C device:        ( 0.5, 1.5, 4.5, 9.5, 16.5, 25.5, 36.5, 49.5, 64.5, 81.5, 100.5, 121.5, 144.5, 169.5, 196.5, 225.5 )
// CHECK-NEXT:C source kept:   ( 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15 )
// CHECK-NEXT:host expects A:  ( 1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31 )
// CHECK-NEXT:host expects B:  ( 100, 102, 104, 106, 108, 110, 112, 114, 116, 118, 120, 122, 124, 126, 128, 130 )
// CHECK-NEXT:host expects C:  ( 0.5, 1.5, 4.5, 9.5, 16.5, 25.5, 36.5, 49.5, 64.5, 81.5, 100.5, 121.5, 144.5, 169.5, 196.5, 225.5 )

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %fpad = arith.constant 0.0 : f32
  %ipad = arith.constant 0 : i32

  // A. Host buffer, registered: a[i] = i, then the kernel computes 2*a + 1.
  %a = memref.alloc() : memref<16xi32>
  scf.for %i = %c0 to %c16 step %c1 {
    %v = arith.index_cast %i : index to i32
    memref.store %v, %a[%i] : memref<16xi32>
  }
  %a_u = memref.cast %a : memref<16xi32> to memref<*xi32>
  gpu.host_register %a_u : memref<*xi32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c16, %sy = %c1, %sz = %c1) {
    %x = memref.load %a[%tx] : memref<16xi32>
    %x2 = arith.addi %x, %x : i32
    %one = arith.constant 1 : i32
    %y = arith.addi %x2, %one : i32
    memref.store %y, %a[%tx] : memref<16xi32>
    gpu.terminator
  }
  %av = vector.transfer_read %a[%c0], %ipad {in_bounds = [true]} : memref<16xi32>, vector<16xi32>
  vector.print str "A host_register: "
  vector.print %av : vector<16xi32>
  gpu.host_unregister %a_u : memref<*xi32>

  // B. Host-shared allocation: the host writes 2*i, the kernel adds 100.
  %b = gpu.alloc host_shared () : memref<16xi32>
  scf.for %i = %c0 to %c16 step %c1 {
    %v = arith.index_cast %i : index to i32
    %v2 = arith.addi %v, %v : i32
    memref.store %v2, %b[%i] : memref<16xi32>
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c16, %sy = %c1, %sz = %c1) {
    %x = memref.load %b[%tx] : memref<16xi32>
    %k = arith.constant 100 : i32
    %y = arith.addi %x, %k : i32
    memref.store %y, %b[%tx] : memref<16xi32>
    gpu.terminator
  }
  %bv = vector.transfer_read %b[%c0], %ipad {in_bounds = [true]} : memref<16xi32>, vector<16xi32>
  vector.print str "B host_shared:   "
  vector.print %bv : vector<16xi32>

  // C. Device memory. src[i] = i on the host; d = copy of src; e = 0.5 by
  // memset (dynamic size); kernel 1: d = d*d; kernel 2: e = e + d;
  // dst = copy of e.
  %src = memref.alloc() : memref<16xf32>
  %dst = memref.alloc() : memref<16xf32>
  scf.for %i = %c0 to %c16 step %c1 {
    %ii = arith.index_cast %i : index to i64
    %v = arith.sitofp %ii : i64 to f32
    memref.store %v, %src[%i] : memref<16xf32>
    %m1 = arith.constant -1.0 : f32
    memref.store %m1, %dst[%i] : memref<16xf32>
  }
  %half = arith.constant 0.5 : f32
  %t0 = gpu.wait async
  %d, %t1 = gpu.alloc async [%t0] () : memref<16xf32>
  %e, %t2 = gpu.alloc async [%t1] (%c16) : memref<?xf32>
  %t3 = gpu.memcpy async [%t2] %d, %src : memref<16xf32>, memref<16xf32>
  %t4 = gpu.memset async [%t3] %e, %half : memref<?xf32>, f32
  %t5 = gpu.launch async [%t4]
             blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c16, %sy = %c1, %sz = %c1) {
    %x = memref.load %d[%tx] : memref<16xf32>
    %y = arith.mulf %x, %x : f32
    memref.store %y, %d[%tx] : memref<16xf32>
    gpu.terminator
  }
  %t6 = gpu.launch async [%t5]
             blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c16, %sy = %c1, %sz = %c1) {
    %x = memref.load %d[%tx] : memref<16xf32>
    %y = memref.load %e[%tx] : memref<?xf32>
    %z = arith.addf %x, %y : f32
    memref.store %z, %e[%tx] : memref<?xf32>
    gpu.terminator
  }
  %t7 = gpu.memcpy async [%t6] %dst, %e : memref<16xf32>, memref<?xf32>
  %t8 = gpu.dealloc async [%t7] %d : memref<16xf32>
  %t9 = gpu.dealloc async [%t8] %e : memref<?xf32>
  %t10 = gpu.dealloc async [%t9] %b : memref<16xi32>
  gpu.wait [%t10]
  %cv = vector.transfer_read %dst[%c0], %fpad {in_bounds = [true]} : memref<16xf32>, vector<16xf32>
  vector.print str "C device:        "
  vector.print %cv : vector<16xf32>
  %sv = vector.transfer_read %src[%c0], %fpad {in_bounds = [true]} : memref<16xf32>, vector<16xf32>
  vector.print str "C source kept:   "
  vector.print %sv : vector<16xf32>

  // What the host expects: 2i + 1, 2i + 100, i*i + 0.5.
  %ra = memref.alloc() : memref<16xi32>
  %rb = memref.alloc() : memref<16xi32>
  %rc = memref.alloc() : memref<16xf32>
  scf.for %i = %c0 to %c16 step %c1 {
    %v = arith.index_cast %i : index to i32
    %v2 = arith.addi %v, %v : i32
    %one = arith.constant 1 : i32
    %k = arith.constant 100 : i32
    %va = arith.addi %v2, %one : i32
    %vb = arith.addi %v2, %k : i32
    memref.store %va, %ra[%i] : memref<16xi32>
    memref.store %vb, %rb[%i] : memref<16xi32>
    %f = arith.sitofp %v : i32 to f32
    %ff = arith.mulf %f, %f : f32
    %vc = arith.addf %ff, %half : f32
    memref.store %vc, %rc[%i] : memref<16xf32>
  }
  %rav = vector.transfer_read %ra[%c0], %ipad {in_bounds = [true]} : memref<16xi32>, vector<16xi32>
  %rbv = vector.transfer_read %rb[%c0], %ipad {in_bounds = [true]} : memref<16xi32>, vector<16xi32>
  %rcv = vector.transfer_read %rc[%c0], %fpad {in_bounds = [true]} : memref<16xf32>, vector<16xf32>
  vector.print str "host expects A:  "
  vector.print %rav : vector<16xi32>
  vector.print str "host expects B:  "
  vector.print %rbv : vector<16xi32>
  vector.print str "host expects C:  "
  vector.print %rcv : vector<16xf32>

  memref.dealloc %a : memref<16xi32>
  memref.dealloc %src : memref<16xf32>
  memref.dealloc %dst : memref<16xf32>
  memref.dealloc %ra : memref<16xi32>
  memref.dealloc %rb : memref<16xi32>
  memref.dealloc %rc : memref<16xf32>
  return
}
