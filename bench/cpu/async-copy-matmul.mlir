// Benchmark: C = A x B for 512x512 f32 through workgroup memory filled by
// asynchronous copies: blocks of 16x16 threads, each thread copying one
// element of the 16x16 tiles of A and B with nvgpu.device_async_copy, one
// group per k-tile, `device_async_wait` and a barrier before the FMAs.
// Prints the best time of 3 launches in seconds and C[511][511].
func.func private @rtclock() -> f64

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c7 = arith.constant 7 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %n = arith.constant 512 : index
  %a = memref.alloc() : memref<512x512xf32>
  %b = memref.alloc() : memref<512x512xf32>
  %c = memref.alloc() : memref<512x512xf32>
  scf.for %i = %c0 to %n step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      %s = arith.addi %i, %j : index
      %m = arith.remui %s, %c7 : index
      %v = arith.subi %m, %c3 : index
      %vi = arith.index_cast %v : index to i32
      %vf = arith.sitofp %vi : i32 to f32
      memref.store %vf, %a[%i, %j] : memref<512x512xf32>
      memref.store %vf, %b[%j, %i] : memref<512x512xf32>
    }
  }
  %ua = memref.cast %a : memref<512x512xf32> to memref<*xf32>
  %ub = memref.cast %b : memref<512x512xf32> to memref<*xf32>
  %uc = memref.cast %c : memref<512x512xf32> to memref<*xf32>
  gpu.host_register %ua : memref<*xf32>
  gpu.host_register %ub : memref<*xf32>
  gpu.host_register %uc : memref<*xf32>
  %inf = arith.constant 1.0e30 : f64
  %best = scf.for %r = %c0 to %c3 step %c1 iter_args(%bt = %inf) -> f64 {
    %t0 = func.call @rtclock() : () -> f64
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c32, %gy = %c32, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c16, %sy = %c16, %sz = %c1) {
      %sa = memref.alloc() : memref<16x16xf32, #gpu.address_space<workgroup>>
      %sb = memref.alloc() : memref<16x16xf32, #gpu.address_space<workgroup>>
      %r0 = arith.muli %by, %c16 : index
      %row = arith.addi %r0, %ty : index
      %c0b = arith.muli %bx, %c16 : index
      %col = arith.addi %c0b, %tx : index
      %zero = arith.constant 0.0 : f32
      %acc = scf.for %k = %c0 to %n step %c16 iter_args(%sum = %zero) -> (f32) {
        %ka = arith.addi %k, %tx : index
        %kb = arith.addi %k, %ty : index
        %t1 = nvgpu.device_async_copy %a[%row, %ka], %sa[%ty, %tx], 1 : memref<512x512xf32> to memref<16x16xf32, #gpu.address_space<workgroup>>
        %t2 = nvgpu.device_async_copy %b[%kb, %col], %sb[%ty, %tx], 1 : memref<512x512xf32> to memref<16x16xf32, #gpu.address_space<workgroup>>
        %g = nvgpu.device_async_create_group %t1, %t2
        nvgpu.device_async_wait %g {numGroups = 0 : i32}
        gpu.barrier
        %part = scf.for %kk = %c0 to %c16 step %c1 iter_args(%p = %sum) -> (f32) {
          %x = memref.load %sa[%ty, %kk] : memref<16x16xf32, #gpu.address_space<workgroup>>
          %y = memref.load %sb[%kk, %tx] : memref<16x16xf32, #gpu.address_space<workgroup>>
          %f = math.fma %x, %y, %p : f32
          scf.yield %f : f32
        }
        gpu.barrier
        scf.yield %part : f32
      }
      memref.store %acc, %c[%row, %col] : memref<512x512xf32>
      gpu.terminator
    }
    %t1 = func.call @rtclock() : () -> f64
    %dt = arith.subf %t1, %t0 : f64
    %m = arith.minimumf %bt, %dt : f64
    scf.yield %m : f64
  }
  vector.print %best : f64
  %last = arith.constant 511 : index
  %check = memref.load %c[%last, %last] : memref<512x512xf32>
  vector.print %check : f32
  return
}
