// RUN: gpumem-run --target=cpu %s | FileCheck %s --match-full-lines --strict-whitespace
// RUN: env GPUMEM_CPU_THREADS=1 gpumem-run --target=cpu %s | FileCheck %s --match-full-lines --strict-whitespace
// RUN: env GPUMEM_CPU_THREADS=5 gpumem-run --target=cpu %s | FileCheck %s --match-full-lines --strict-whitespace

// A 16-bin histogram of 2048 values with shared-memory atomics: 4 blocks of
// 64 threads, thread g = bx*64+tx takes the elements g, g+256, ..., g+1792.
//  - every block counts into its own workgroup histogram with
//    memref.atomic_rmw addi (the bins are hit by many threads at once), then
//    threads 0..15 add the block's bins into the global histogram with
//    memref.atomic_rmw addi;
//  - memref.generic_atomic_rmw keeps a per-block maximum of key(i) =
//    (31*i) mod 1009 in workgroup memory (thread 0 publishes it), and the
//    sum of squares of all values in a global i32 (region: old + v*v);
//  - memref.atomic_rmw addf adds every value into a global f32 total.
// data[i] = (5*i + i/7) mod 16. The host computes all of it sequentially.
// The result must not depend on the number of worker threads the cpu
// runtime runs blocks on (GPUMEM_CPU_THREADS).

// CHECK:Unranked Memref base@ = 0x{{[0-9a-f]+}} rank = 1 offset = 0 sizes = [16] strides = [1] data ={{ }}
// CHECK-NEXT:[147,  146,  146,  73,  146,  147,  146,  73,  146,  146,  147,  73,  146,  146,  146,  74]
// CHECK-NEXT:hist ok
// CHECK-NEXT:gpu block max:  ( 1006, 1008, 1007, 1007 )
// CHECK-NEXT:host block max: ( 1006, 1008, 1007, 1007 )
// CHECK-NEXT:gpu sum of squares:  151898
// CHECK-NEXT:host sum of squares: 151898
// CHECK-NEXT:gpu total:  14922
// CHECK-NEXT:host total: 14922

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %c16 = arith.constant 16 : index
  %c31 = arith.constant 31 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  %c1009 = arith.constant 1009 : index
  %c2048 = arith.constant 2048 : index
  %i0 = arith.constant 0 : i32
  %i1 = arith.constant 1 : i32
  %im1 = arith.constant -1 : i32
  %f0 = arith.constant 0.0 : f32

  %data = memref.alloc() : memref<2048xi32>
  %hist = memref.alloc() : memref<16xi32>
  %ref = memref.alloc() : memref<16xi32>
  %maxes = memref.alloc() : memref<4xi32>
  %refmax = memref.alloc() : memref<4xi32>
  %squares = memref.alloc() : memref<1xi32>
  %total = memref.alloc() : memref<1xf32>
  scf.for %i = %c0 to %c2048 step %c1 {
    %i5 = arith.muli %i, %c5 : index
    %i7 = arith.divui %i, %c7 : index
    %s = arith.addi %i5, %i7 : index
    %m = arith.remui %s, %c16 : index
    %v = arith.index_cast %m : index to i32
    memref.store %v, %data[%i] : memref<2048xi32>
  }
  scf.for %b = %c0 to %c16 step %c1 {
    memref.store %i0, %hist[%b] : memref<16xi32>
    memref.store %i0, %ref[%b] : memref<16xi32>
  }
  scf.for %b = %c0 to %c4 step %c1 {
    memref.store %im1, %maxes[%b] : memref<4xi32>
    memref.store %im1, %refmax[%b] : memref<4xi32>
  }
  memref.store %i0, %squares[%c0] : memref<1xi32>
  memref.store %f0, %total[%c0] : memref<1xf32>

  %data_u = memref.cast %data : memref<2048xi32> to memref<*xi32>
  gpu.host_register %data_u : memref<*xi32>
  %hist_u = memref.cast %hist : memref<16xi32> to memref<*xi32>
  gpu.host_register %hist_u : memref<*xi32>
  %maxes_u = memref.cast %maxes : memref<4xi32> to memref<*xi32>
  gpu.host_register %maxes_u : memref<*xi32>
  %squares_u = memref.cast %squares : memref<1xi32> to memref<*xi32>
  gpu.host_register %squares_u : memref<*xi32>
  %total_u = memref.cast %total : memref<1xf32> to memref<*xf32>
  gpu.host_register %total_u : memref<*xf32>

  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c4, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %local = memref.alloca() : memref<16xi32, #gpu.address_space<workgroup>>
    %bmax = memref.alloca() : memref<1xi32, #gpu.address_space<workgroup>>
    %is_bin = arith.cmpi ult, %tx, %c16 : index
    scf.if %is_bin {
      memref.store %i0, %local[%tx] : memref<16xi32, #gpu.address_space<workgroup>>
    }
    %first = arith.cmpi eq, %tx, %c0 : index
    scf.if %first {
      memref.store %im1, %bmax[%c0] : memref<1xi32, #gpu.address_space<workgroup>>
    }
    gpu.barrier

    %g0 = arith.muli %bx, %c64 : index
    %g = arith.addi %g0, %tx : index
    scf.for %i = %g to %c2048 step %c256 {
      %v = memref.load %data[%i] : memref<2048xi32>
      %bin = arith.index_cast %v : i32 to index
      %old = memref.atomic_rmw addi %i1, %local[%bin]
          : (i32, memref<16xi32, #gpu.address_space<workgroup>>) -> i32
      // key(i) = (31*i) mod 1009, maximum kept in workgroup memory.
      %i31 = arith.muli %i, %c31 : index
      %km = arith.remui %i31, %c1009 : index
      %key = arith.index_cast %km : index to i32
      %r0 = memref.generic_atomic_rmw %bmax[%c0]
          : memref<1xi32, #gpu.address_space<workgroup>> {
      ^bb0(%cur: i32):
        %mx = arith.maxsi %cur, %key : i32
        memref.atomic_yield %mx : i32
      }
      // Sum of squares, in global memory.
      %r1 = memref.generic_atomic_rmw %squares[%c0] : memref<1xi32> {
      ^bb0(%cur: i32):
        %vv = arith.muli %v, %v : i32
        %n = arith.addi %cur, %vv : i32
        memref.atomic_yield %n : i32
      }
      %vf = arith.sitofp %v : i32 to f32
      %r2 = memref.atomic_rmw addf %vf, %total[%c0] : (f32, memref<1xf32>) -> f32
    }
    gpu.barrier

    scf.if %is_bin {
      %count = memref.load %local[%tx] : memref<16xi32, #gpu.address_space<workgroup>>
      %r3 = memref.atomic_rmw addi %count, %hist[%tx] : (i32, memref<16xi32>) -> i32
    }
    scf.if %first {
      %mx = memref.load %bmax[%c0] : memref<1xi32, #gpu.address_space<workgroup>>
      memref.store %mx, %maxes[%bx] : memref<4xi32>
    }
    gpu.terminator
  }

  // Host reference.
  %hsq, %htot = scf.for %i = %c0 to %c2048 step %c1
      iter_args(%sq = %i0, %tot = %f0) -> (i32, f32) {
    %v = memref.load %data[%i] : memref<2048xi32>
    %bin = arith.index_cast %v : i32 to index
    %c = memref.load %ref[%bin] : memref<16xi32>
    %c1n = arith.addi %c, %i1 : i32
    memref.store %c1n, %ref[%bin] : memref<16xi32>
    %im = arith.remui %i, %c256 : index
    %blk = arith.divui %im, %c64 : index
    %i31 = arith.muli %i, %c31 : index
    %km = arith.remui %i31, %c1009 : index
    %key = arith.index_cast %km : index to i32
    %oldmax = memref.load %refmax[%blk] : memref<4xi32>
    %newmax = arith.maxsi %oldmax, %key : i32
    memref.store %newmax, %refmax[%blk] : memref<4xi32>
    %vv = arith.muli %v, %v : i32
    %sq1 = arith.addi %sq, %vv : i32
    %vf = arith.sitofp %v : i32 to f32
    %tot1 = arith.addf %tot, %vf : f32
    scf.yield %sq1, %tot1 : i32, f32
  }

  call @printMemrefI32(%hist_u) : (memref<*xi32>) -> ()
  %bad = scf.for %b = %c0 to %c16 step %c1 iter_args(%n = %i0) -> (i32) {
    %x = memref.load %hist[%b] : memref<16xi32>
    %y = memref.load %ref[%b] : memref<16xi32>
    %ne = arith.cmpi ne, %x, %y : i32
    %inc = arith.extui %ne : i1 to i32
    %n1 = arith.addi %n, %inc : i32
    scf.yield %n1 : i32
  }
  %hist_ok = arith.cmpi eq, %bad, %i0 : i32
  scf.if %hist_ok {
    vector.print str "hist ok\n"
  } else {
    vector.print str "hist MISMATCH\n"
  }
  %pad = arith.constant 0 : i32
  %gm = vector.transfer_read %maxes[%c0], %pad {in_bounds = [true]} : memref<4xi32>, vector<4xi32>
  %hm = vector.transfer_read %refmax[%c0], %pad {in_bounds = [true]} : memref<4xi32>, vector<4xi32>
  vector.print str "gpu block max:  "
  vector.print %gm : vector<4xi32>
  vector.print str "host block max: "
  vector.print %hm : vector<4xi32>
  %gsq = memref.load %squares[%c0] : memref<1xi32>
  vector.print str "gpu sum of squares:  "
  vector.print %gsq : i32
  vector.print str "host sum of squares: "
  vector.print %hsq : i32
  %gtot = memref.load %total[%c0] : memref<1xf32>
  vector.print str "gpu total:  "
  vector.print %gtot : f32
  vector.print str "host total: "
  vector.print %htot : f32

  gpu.host_unregister %data_u : memref<*xi32>
  gpu.host_unregister %hist_u : memref<*xi32>
  gpu.host_unregister %maxes_u : memref<*xi32>
  gpu.host_unregister %squares_u : memref<*xi32>
  gpu.host_unregister %total_u : memref<*xf32>
  memref.dealloc %data : memref<2048xi32>
  memref.dealloc %hist : memref<16xi32>
  memref.dealloc %ref : memref<16xi32>
  memref.dealloc %maxes : memref<4xi32>
  memref.dealloc %refmax : memref<4xi32>
  memref.dealloc %squares : memref<1xi32>
  memref.dealloc %total : memref<1xf32>
  return
}

func.func private @printMemrefI32(memref<*xi32>)
