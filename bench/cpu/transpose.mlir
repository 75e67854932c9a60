// Benchmark: transpose a 1024x1024 f32 matrix through a padded 16x17 shared
// tile, one barrier per block. Prints the best time of 10 launches in
// seconds and out[1][0] (= in[0][1] = 1).
func.func private @rtclock() -> f64

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c10 = arith.constant 10 : index
  %c16 = arith.constant 16 : index
  %n = arith.constant 1024 : index
  %tiles = arith.constant 64 : index
  %in = memref.alloc() : memref<1024x1024xf32>
  %out = memref.alloc() : memref<1024x1024xf32>
  scf.for %i = %c0 to %n step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      %ii = arith.index_cast %j : index to i32
      %f = arith.sitofp %ii : i32 to f32
      memref.store %f, %in[%i, %j] : memref<1024x1024xf32>
    }
  }
  %ui = memref.cast %in : memref<1024x1024xf32> to memref<*xf32>
  %uo = memref.cast %out : memref<1024x1024xf32> to memref<*xf32>
  gpu.host_register %ui : memref<*xf32>
  gpu.host_register %uo : memref<*xf32>
  %inf = arith.constant 1.0e30 : f64
  %best = scf.for %r = %c0 to %c10 step %c1 iter_args(%bt = %inf) -> f64 {
    %t0 = func.call @rtclock() : () -> f64
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %tiles, %gy = %tiles, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c16, %sy = %c16, %sz = %c1) {
      %tile = memref.alloca() : memref<16x17xf32, 3>
      %r0 = arith.muli %by, %c16 : index
      %c0i = arith.muli %bx, %c16 : index
      %row = arith.addi %r0, %ty : index
      %col = arith.addi %c0i, %tx : index
      %v = memref.load %in[%row, %col] : memref<1024x1024xf32>
      memref.store %v, %tile[%ty, %tx] : memref<16x17xf32, 3>
      gpu.barrier
      %orow = arith.addi %c0i, %ty : index
      %ocol = arith.addi %r0, %tx : index
      %w = memref.load %tile[%tx, %ty] : memref<16x17xf32, 3>
      memref.store %w, %out[%orow, %ocol] : memref<1024x1024xf32>
      gpu.terminator
    }
    %t1 = func.call @rtclock() : () -> f64
    %dt = arith.subf %t1, %t0 : f64
    %m = arith.minimumf %bt, %dt : f64
    scf.yield %m : f64
  }
  vector.print %best : f64
  %check = memref.load %out[%c1, %c0] : memref<1024x1024xf32>
  vector.print %check : f32
  return
}
