// Benchmark: launch overhead. Launches a trivial kernel (1 block x 32
// threads, each adds 1 to its element of a 32-float buffer) 10000 times in
// a loop, six times over; each gpu.launch is synchronous (the host lowering
// creates a stream, launches, synchronizes the stream and destroys it), so
// one launch here is the whole round trip: submit, kernel, wait. Prints the
// best of the six loops in microseconds per launch (the first loop also
// creates the pipeline), then buf[0] (= 60000).
func.func private @rtclock() -> f64

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c6 = arith.constant 6 : index
  %c32 = arith.constant 32 : index
  %n = arith.constant 10000 : index
  %buf = memref.alloc() : memref<32xf32>
  %zero = arith.constant 0.0 : f32
  scf.for %i = %c0 to %c32 step %c1 {
    memref.store %zero, %buf[%i] : memref<32xf32>
  }
  %ub = memref.cast %buf : memref<32xf32> to memref<*xf32>
  gpu.host_register %ub : memref<*xf32>
  %one = arith.constant 1.0 : f32
  %inf = arith.constant 1.0e30 : f64
  %best = scf.for %r = %c0 to %c6 step %c1 iter_args(%b = %inf) -> f64 {
    %t0 = func.call @rtclock() : () -> f64
    scf.for %i = %c0 to %n step %c1 {
      gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
                 threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
        %v = memref.load %buf[%tx] : memref<32xf32>
        %w = arith.addf %v, %one : f32
        memref.store %w, %buf[%tx] : memref<32xf32>
        gpu.terminator
      }
    }
    %t1 = func.call @rtclock() : () -> f64
    %dt = arith.subf %t1, %t0 : f64
    %m = arith.minimumf %b, %dt : f64
    scf.yield %m : f64
  }
  // Seconds per 10000 launches to microseconds per launch.
  %scale = arith.constant 100.0 : f64
  %us = arith.mulf %best, %scale : f64
  vector.print %us : f64
  %check = memref.load %buf[%c0] : memref<32xf32>
  vector.print %check : f32
  return
}
