// gpumem-host-buffers-to-device's modes end to end: the bandwidth
// benchmark's kernel (y = 3 x + y, 256 threads per block) on two plain host
// buffers (memref.alloc, 2 x 256 MiB), compiled once per mode by
// bench/cuda/build.sh:
//   gpumem-compile --target=cuda --host-buffers=copy|managed|register \
//     bandwidth-modes.mlir -o bin/bandwidth-MODE
// so what is timed is exactly what the pass and the runtime do:
//   first: one launch, then the host reads y (copy: allocation, two copies
//          in, the kernel, the copy out, the free; managed: pages migrate to
//          the device and one back; register: the kernel over the bus);
//   loop:  ten launches in a row, then the host reads y (copy: the data
//          stays on the device between them: one copy in, one out).
// Prints the milliseconds and the effective bandwidth (3 x 256 MiB per
// launch, in 10^9 bytes per second) of each, then whether y is right.
// Runs on the cpu target too (gpumem-run --target=cpu), slowly.
module {
  func.func private @rtclock() -> f64

  func.func @report(%what: index, %t0: f64, %t1: f64, %launches: index) {
    %dt = arith.subf %t1, %t0 : f64
    %k1000 = arith.constant 1000.0 : f64
    %ms = arith.mulf %dt, %k1000 : f64
    // 3 vectors of 256 MiB per launch.
    %per = arith.constant 805306368.0 : f64
    %li = arith.index_cast %launches : index to i64
    %lf = arith.sitofp %li : i64 to f64
    %bytes = arith.mulf %per, %lf : f64
    %giga = arith.constant 1.0e9 : f64
    %rate = arith.divf %bytes, %dt : f64
    %gbps = arith.divf %rate, %giga : f64
    %c0 = arith.constant 0 : index
    %is_first = arith.cmpi eq, %what, %c0 : index
    scf.if %is_first {
      vector.print str "first launch, then a host read: ms "
    } else {
      vector.print str "ten launches, then a host read: ms "
    }
    vector.print %ms : f64
    vector.print str "  effective GB/s "
    vector.print %gbps : f64
    return
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c10 = arith.constant 10 : index
    %c256 = arith.constant 256 : index
    %c1024 = arith.constant 1024 : index
    %n = arith.constant 67108864 : index
    %blocks = arith.divui %n, %c256 : index
    %one = arith.constant 1.0 : f32
    %three = arith.constant 3.0 : f32
    %x = memref.alloc(%n) : memref<?xf32>
    %y = memref.alloc(%n) : memref<?xf32>
    scf.for %i = %c0 to %n step %c1 {
      %m = arith.remui %i, %c1024 : index
      %mi = arith.index_cast %m : index to i64
      %v = arith.sitofp %mi : i64 to f32
      memref.store %v, %x[%i] : memref<?xf32>
      memref.store %one, %y[%i] : memref<?xf32>
    }

    %t0 = func.call @rtclock() : () -> f64
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %blocks, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
      %base = arith.muli %bx, %c256 : index
      %i = arith.addi %base, %tx : index
      %xv = memref.load %x[%i] : memref<?xf32>
      %yv = memref.load %y[%i] : memref<?xf32>
      %ax = arith.mulf %three, %xv fastmath<contract> : f32
      %r = arith.addf %ax, %yv fastmath<contract> : f32
      memref.store %r, %y[%i] : memref<?xf32>
      gpu.terminator
    }
    %y0 = memref.load %y[%c0] : memref<?xf32>
    %t1 = func.call @rtclock() : () -> f64
    func.call @report(%c0, %t0, %t1, %c1) : (index, f64, f64, index) -> ()

    %t2 = func.call @rtclock() : () -> f64
    scf.for %k = %c0 to %c10 step %c1 {
      gpu.launch blocks(%bx, %by, %bz) in (%gx = %blocks, %gy = %c1, %gz = %c1)
                 threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
        %base = arith.muli %bx, %c256 : index
        %i = arith.addi %base, %tx : index
        %xv = memref.load %x[%i] : memref<?xf32>
        %yv = memref.load %y[%i] : memref<?xf32>
        %ax = arith.mulf %three, %xv fastmath<contract> : f32
        %r = arith.addf %ax, %yv fastmath<contract> : f32
        memref.store %r, %y[%i] : memref<?xf32>
        gpu.terminator
      }
    }
    %y1 = memref.load %y[%c1] : memref<?xf32>
    %t3 = func.call @rtclock() : () -> f64
    func.call @report(%c1, %t2, %t3, %c10) : (index, f64, f64, index) -> ()

    // y[i] = 1 + 11 * 3 * (i % 1024): every value is exact in f32.
    %c0i = arith.constant 0 : i64
    %c1i = arith.constant 1 : i64
    %k33 = arith.constant 33.0 : f32
    %bad = scf.for %i = %c0 to %n step %c1 iter_args(%count = %c0i) -> i64 {
      %xv = memref.load %x[%i] : memref<?xf32>
      %yv = memref.load %y[%i] : memref<?xf32>
      %e = arith.mulf %xv, %k33 : f32
      %expected = arith.addf %e, %one : f32
      %ok = arith.cmpf oeq, %yv, %expected : f32
      %next = arith.addi %count, %c1i : i64
      %c = arith.select %ok, %count, %next : i64
      scf.yield %c : i64
    }
    vector.print str "wrong elements: "
    vector.print %bad : i64
    memref.dealloc %x : memref<?xf32>
    memref.dealloc %y : memref<?xf32>
    return
  }
}
