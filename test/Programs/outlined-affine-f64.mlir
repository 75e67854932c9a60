// RUN: gpumem-run --target=cpu %s | FileCheck %s --match-full-lines --strict-whitespace

// Written as an outlined program: a gpu.module with a kernel that takes
// workgroup attributions, calls a device func.func, sums a row of a 2-D
// workgroup tile through a subview with affine.for, counts its threads with
// an i64 atomic on workgroup memory, and is launched by gpu.launch_func on
// gpu.alloc buffers copied back with gpu.memcpy. 8 x 4 threads: thread
// (x, y) stores weight(x) * y with weight 1.5 for even x and -0.25 for odd;
// each row sums to 5 * y.

// CHECK:( 0, 5, 10, 15 )
// CHECK-NEXT:32

module attributes {gpu.container_module} {
  gpu.module @kernels {
    func.func @weight(%i: index) -> f64 {
      %c2 = arith.constant 2 : index
      %r = arith.remui %i, %c2 : index
      %z = arith.constant 0 : index
      %even = arith.cmpi eq, %r, %z : index
      %a = arith.constant 1.5 : f64
      %b = arith.constant -0.25 : f64
      %w = arith.select %even, %a, %b : f64
      return %w : f64
    }
    gpu.func @k(%out: memref<4xf64>, %cnt: memref<1xi64>) workgroup(%tile: memref<4x8xf64, 3>, %hits: memref<1xi64, 3>) kernel {
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %c0 = arith.constant 0 : index
      %zero = arith.constant 0 : i64
      %one = arith.constant 1 : i64
      %first = arith.cmpi eq, %tx, %c0 : index
      %firsty = arith.cmpi eq, %ty, %c0 : index
      %leader = arith.andi %first, %firsty : i1
      scf.if %leader {
        memref.store %zero, %hits[%c0] : memref<1xi64, 3>
      }
      gpu.barrier
      %w = func.call @weight(%tx) : (index) -> f64
      %ti = arith.index_cast %ty : index to i64
      %tf = arith.sitofp %ti : i64 to f64
      %v = arith.mulf %w, %tf : f64
      memref.store %v, %tile[%ty, %tx] : memref<4x8xf64, 3>
      %_ = memref.atomic_rmw addi %one, %hits[%c0] : (i64, memref<1xi64, 3>) -> i64
      gpu.barrier
      scf.if %first {
        %row = memref.subview %tile[%ty, 0] [1, 8] [1, 1] : memref<4x8xf64, 3> to memref<8xf64, strided<[1], offset: ?>, 3>
        %init = arith.constant 0.0 : f64
        %s = affine.for %j = 0 to 8 iter_args(%acc = %init) -> (f64) {
          %x = affine.load %row[%j] : memref<8xf64, strided<[1], offset: ?>, 3>
          %y = arith.addf %acc, %x : f64
          affine.yield %y : f64
        }
        memref.store %s, %out[%ty] : memref<4xf64>
      }
      scf.if %leader {
        %h = memref.load %hits[%c0] : memref<1xi64, 3>
        memref.store %h, %cnt[%c0] : memref<1xi64>
      }
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %out = gpu.alloc () : memref<4xf64>
    %cnt = gpu.alloc () : memref<1xi64>
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c8, %c4, %c1) args(%out : memref<4xf64>, %cnt : memref<1xi64>)
    %hout = memref.alloc() : memref<4xf64>
    %hcnt = memref.alloc() : memref<1xi64>
    gpu.memcpy %hout, %out : memref<4xf64>, memref<4xf64>
    gpu.memcpy %hcnt, %cnt : memref<1xi64>, memref<1xi64>
    %c0 = arith.constant 0 : index
    %p = arith.constant 0.0 : f64
    %v = vector.transfer_read %hout[%c0], %p : memref<4xf64>, vector<4xf64>
    vector.print %v : vector<4xf64>
    %n = memref.load %hcnt[%c0] : memref<1xi64>
    vector.print %n : i64
    return
  }
}
