// Benchmark: sum 2^22 floats; each block of 256 threads reduces 1024
// elements through a shared tree with a barrier per level. Prints the best
// time of 10 launches in seconds and the total.
func.func private @rtclock() -> f64

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c10 = arith.constant 10 : index
  %c256 = arith.constant 256 : index
  %c1024 = arith.constant 1024 : index
  %n = arith.constant 4194304 : index
  %blocks = arith.constant 4096 : index
  %x = memref.alloc() : memref<4194304xf32>
  %partial = memref.alloc() : memref<4096xf32>
  %one = arith.constant 1.0 : f32
  scf.for %i = %c0 to %n step %c1 {
    memref.store %one, %x[%i] : memref<4194304xf32>
  }
  %ux = memref.cast %x : memref<4194304xf32> to memref<*xf32>
  %up = memref.cast %partial : memref<4096xf32> to memref<*xf32>
  gpu.host_register %ux : memref<*xf32>
  gpu.host_register %up : memref<*xf32>
  %inf = arith.constant 1.0e30 : f64
  %best = scf.for %r = %c0 to %c10 step %c1 iter_args(%b = %inf) -> f64 {
    %t0 = func.call @rtclock() : () -> f64
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %blocks, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
      %tree = memref.alloca() : memref<256xf32, 3>
      %base = arith.muli %bx, %c1024 : index
      %zero = arith.constant 0.0 : f32
      %sum = scf.for %k = %c0 to %c4 step %c1 iter_args(%acc = %zero) -> f32 {
        %off = arith.muli %k, %c256 : index
        %j0 = arith.addi %base, %off : index
        %j = arith.addi %j0, %tx : index
        %v = memref.load %x[%j] : memref<4194304xf32>
        %a = arith.addf %acc, %v : f32
        scf.yield %a : f32
      }
      memref.store %sum, %tree[%tx] : memref<256xf32, 3>
      gpu.barrier
      %c128 = arith.constant 128 : index
      %end = scf.while (%s = %c128) : (index) -> index {
        %go = arith.cmpi ugt, %s, %c0 : index
        scf.condition(%go) %s : index
      } do {
      ^bb0(%s: index):
        %active = arith.cmpi ult, %tx, %s : index
        scf.if %active {
          %o = arith.addi %tx, %s : index
          %l = memref.load %tree[%tx] : memref<256xf32, 3>
          %h = memref.load %tree[%o] : memref<256xf32, 3>
          %t = arith.addf %l, %h : f32
          memref.store %t, %tree[%tx] : memref<256xf32, 3>
        }
        gpu.barrier
        %next = arith.divui %s, %c2 : index
        scf.yield %next : index
      }
      %first = arith.cmpi eq, %tx, %c0 : index
      scf.if %first {
        %t = memref.load %tree[%c0] : memref<256xf32, 3>
        memref.store %t, %partial[%bx] : memref<4096xf32>
      }
      gpu.terminator
    }
    %t1 = func.call @rtclock() : () -> f64
    %dt = arith.subf %t1, %t0 : f64
    %m = arith.minimumf %b, %dt : f64
    scf.yield %m : f64
  }
  vector.print %best : f64
  %zero = arith.constant 0.0 : f32
  %total = scf.for %i = %c0 to %blocks step %c1 iter_args(%acc = %zero) -> f32 {
    %p = memref.load %partial[%i] : memref<4096xf32>
    %a = arith.addf %acc, %p : f32
    scf.yield %a : f32
  }
  vector.print %total : f32
  return
}
