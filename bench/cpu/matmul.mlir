// Benchmark: C = A x B for 256x256 f32, 16x16 tiles allocated inside the K
// loop, two barriers per K step. Prints the best time of 5 launches in
// seconds and C[255][255].
func.func private @rtclock() -> f64

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %c16 = arith.constant 16 : index
  %n = arith.constant 256 : index
  %tiles = arith.constant 16 : index
  %a = memref.alloc() : memref<256x256xf32>
  %b = memref.alloc() : memref<256x256xf32>
  %c = memref.alloc() : memref<256x256xf32>
  %one = arith.constant 1.0 : f32
  scf.for %i = %c0 to %n step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      memref.store %one, %a[%i, %j] : memref<256x256xf32>
      memref.store %one, %b[%i, %j] : memref<256x256xf32>
    }
  }
  %ua = memref.cast %a : memref<256x256xf32> to memref<*xf32>
  %ub = memref.cast %b : memref<256x256xf32> to memref<*xf32>
  %uc = memref.cast %c : memref<256x256xf32> to memref<*xf32>
  gpu.host_register %ua : memref<*xf32>
  gpu.host_register %ub : memref<*xf32>
  gpu.host_register %uc : memref<*xf32>
  %inf = arith.constant 1.0e30 : f64
  %best = scf.for %r = %c0 to %c5 step %c1 iter_args(%bt = %inf) -> f64 {
    %t0 = func.call @rtclock() : () -> f64
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %tiles, %gy = %tiles, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c16, %sy = %c16, %sz = %c1) {
      %row0 = arith.muli %by, %c16 : index
      %row = arith.addi %row0, %ty : index
      %col0 = arith.muli %bx, %c16 : index
      %col = arith.addi %col0, %tx : index
      %zero = arith.constant 0.0 : f32
      %acc = scf.for %kt = %c0 to %tiles step %c1 iter_args(%sum = %zero) -> f32 {
        %ta = memref.alloca() : memref<16x16xf32, 3>
        %tb = memref.alloca() : memref<16x16xf32, 3>
        %k0 = arith.muli %kt, %c16 : index
        %ka = arith.addi %k0, %tx : index
        %kb = arith.addi %k0, %ty : index
        %va = memref.load %a[%row, %ka] : memref<256x256xf32>
        %vb = memref.load %b[%kb, %col] : memref<256x256xf32>
        memref.store %va, %ta[%ty, %tx] : memref<16x16xf32, 3>
        memref.store %vb, %tb[%ty, %tx] : memref<16x16xf32, 3>
        gpu.barrier
        %part = scf.for %k = %c0 to %c16 step %c1 iter_args(%s = %sum) -> f32 {
          %x = memref.load %ta[%ty, %k] : memref<16x16xf32, 3>
          %y = memref.load %tb[%k, %tx] : memref<16x16xf32, 3>
          %p = arith.mulf %x, %y : f32
          %s2 = arith.addf %s, %p : f32
          scf.yield %s2 : f32
        }
        gpu.barrier
        scf.yield %part : f32
      }
      memref.store %acc, %c[%row, %col] : memref<256x256xf32>
      gpu.terminator
    }
    %t1 = func.call @rtclock() : () -> f64
    %dt = arith.subf %t1, %t0 : f64
    %m = arith.minimumf %bt, %dt : f64
    scf.yield %m : f64
  }
  vector.print %best : f64
  %last = arith.constant 255 : index
  %check = memref.load %c[%last, %last] : memref<256x256xf32>
  vector.print %check : f32
  return
}
