// Benchmark: y = a * x + y over 2^22 floats, 256 threads per block, no
// barrier (the runtime runs each block as a plain loop). Prints the best
// time of 10 launches in seconds and a checksum.
func.func private @rtclock() -> f64

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c10 = arith.constant 10 : index
  %c256 = arith.constant 256 : index
  %n = arith.constant 4194304 : index
  %blocks = arith.constant 16384 : index
  %x = memref.alloc() : memref<4194304xf32>
  %y = memref.alloc() : memref<4194304xf32>
  %one = arith.constant 1.0 : f32
  %zero = arith.constant 0.0 : f32
  scf.for %i = %c0 to %n step %c1 {
    memref.store %one, %x[%i] : memref<4194304xf32>
    memref.store %zero, %y[%i] : memref<4194304xf32>
  }
  %ux = memref.cast %x : memref<4194304xf32> to memref<*xf32>
  %uy = memref.cast %y : memref<4194304xf32> to memref<*xf32>
  gpu.host_register %ux : memref<*xf32>
  gpu.host_register %uy : memref<*xf32>
  %a = arith.constant 2.0 : f32
  %inf = arith.constant 1.0e30 : f64
  %best = scf.for %r = %c0 to %c10 step %c1 iter_args(%b = %inf) -> f64 {
    %t0 = func.call @rtclock() : () -> f64
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %blocks, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
      %base = arith.muli %bx, %c256 : index
      %i = arith.addi %base, %tx : index
      %xv = memref.load %x[%i] : memref<4194304xf32>
      %yv = memref.load %y[%i] : memref<4194304xf32>
      %ax = arith.mulf %a, %xv : f32
      %s = arith.addf %ax, %yv : f32
      memref.store %s, %y[%i] : memref<4194304xf32>
      gpu.terminator
    }
    %t1 = func.call @rtclock() : () -> f64
    %dt = arith.subf %t1, %t0 : f64
    %m = arith.minimumf %b, %dt : f64
    scf.yield %m : f64
  }
  vector.print %best : f64
  %last = arith.constant 4194303 : index
  %check = memref.load %y[%last] : memref<4194304xf32>
  vector.print %check : f32
  return
}
