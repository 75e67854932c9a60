// Benchmark: C = A x B for 1024x1024 f16 with f32 accumulate, written with
// plain loads and FMAs (the baseline of mma-matmul.mlir): blocks of 16x16
// threads, each thread one element of C over K = 1024 (f16 loads widened to
// f32, math.fma), from global memory (no shared memory, no barrier).
// Prints the best time of 3 launches in seconds and C[1023][1023].
func.func private @rtclock() -> f64

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c7 = arith.constant 7 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %n = arith.constant 1024 : index
  %a = memref.alloc() : memref<1024x1024xf16>
  %b = memref.alloc() : memref<1024x1024xf16>
  %c = memref.alloc() : memref<1024x1024xf32>
  scf.for %i = %c0 to %n step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      %s = arith.addi %i, %j : index
      %m = arith.remui %s, %c7 : index
      %v = arith.subi %m, %c3 : index
      %vi = arith.index_cast %v : index to i32
      %vf = arith.sitofp %vi : i32 to f16
      memref.store %vf, %a[%i, %j] : memref<1024x1024xf16>
      memref.store %vf, %b[%j, %i] : memref<1024x1024xf16>
    }
  }
  %ua = memref.cast %a : memref<1024x1024xf16> to memref<*xf16>
  %ub = memref.cast %b : memref<1024x1024xf16> to memref<*xf16>
  %uc = memref.cast %c : memref<1024x1024xf32> to memref<*xf32>
  gpu.host_register %ua : memref<*xf16>
  gpu.host_register %ub : memref<*xf16>
  gpu.host_register %uc : memref<*xf32>
  %inf = arith.constant 1.0e30 : f64
  %best = scf.for %r = %c0 to %c3 step %c1 iter_args(%bt = %inf) -> f64 {
    %t0 = func.call @rtclock() : () -> f64
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c64, %gy = %c64, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c16, %sy = %c16, %sz = %c1) {
      %row0 = arith.muli %by, %c16 : index
      %row = arith.addi %row0, %ty : index
      %col0 = arith.muli %bx, %c16 : index
      %col = arith.addi %col0, %tx : index
      %zero = arith.constant 0.0 : f32
      %acc = scf.for %k = %c0 to %n step %c1 iter_args(%sum = %zero) -> f32 {
        %x = memref.load %a[%row, %k] : memref<1024x1024xf16>
        %y = memref.load %b[%k, %col] : memref<1024x1024xf16>
        %xf = arith.extf %x : f16 to f32
        %yf = arith.extf %y : f16 to f32
        %s2 = math.fma %xf, %yf, %sum : f32
        scf.yield %s2 : f32
      }
      memref.store %acc, %c[%row, %col] : memref<1024x1024xf32>
      gpu.terminator
    }
    %t1 = func.call @rtclock() : () -> f64
    %dt = arith.subf %t1, %t0 : f64
    %m = arith.minimumf %bt, %dt : f64
    scf.yield %m : f64
  }
  vector.print %best : f64
  %last = arith.constant 1023 : index
  %check = memref.load %c[%last, %last] : memref<1024x1024xf32>
  vector.print %check : f32
  return
}
