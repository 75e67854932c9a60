// RUN: gpumem-run --target=cpu --host-buffers=copy %s | FileCheck %s --match-full-lines --strict-whitespace

// Plain host buffers used by kernels, made device-visible with copies
// (gpumem-host-buffers-to-device, mode=copy; docs/memory.md). Nothing here
// registers or allocates device memory itself.
//  A. a memref.alloc the host fills, a kernel reads and writes (2x + 1);
//  B. a dynamic-size buffer, two launches in a row (kept on the device),
//     then a loop of three launches;
//  C. a host access between two launches (copied out, then in again);
//  D. globals: a constant table read, a writable global written;
//  E. an output the kernel writes only half of: the other half keeps the
//     host's -1 (write-only buffers are copied in too);
//  F. a strided window (subview) of a 2-D alloca, written by the kernel;
//  G. an asynchronous launch;
//  H. a function argument, in a function that launches the kernel.

// CHECK:A:  ( 1, 3, 5, 7, 9, 11, 13, 15 )
// CHECK-NEXT:B:  ( 0, 3, 12, 27, 48, 75, 108, 147, 192, 243, 300, 363, 432, 507, 588, 675 )
// CHECK-NEXT:C:  ( 100, 101, 102, 103, 104, 105, 106, 107 )
// CHECK-NEXT:D:  ( 10, 21, 32, 43 )
// CHECK-NEXT:E:  ( 0, 1, 4, 9, -1, -1, -1, -1 )
// CHECK-NEXT:F:  ( 0, 0, 0, 0, 0, 7, 7, 0, 0, 7, 7, 0, 0, 0, 0, 0 )
// CHECK-NEXT:G:  ( 2, 3, 4, 5, 6, 7, 8, 9 )
// CHECK-NEXT:H:  ( 0, 0.5, 1, 1.5, 2, 2.5, 3, 3.5 )

memref.global "private" constant @table : memref<4xi32> = dense<[10, 20, 30, 40]>
memref.global "private" @state : memref<4xi32> = dense<[0, 1, 2, 3]>

func.func @halve(%m: memref<8xf32>) {
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1) {
    %x = memref.load %m[%tx] : memref<8xf32>
    %h = arith.constant 0.5 : f32
    %y = arith.mulf %x, %h : f32
    memref.store %y, %m[%tx] : memref<8xf32>
    gpu.terminator
  }
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %ipad = arith.constant 0 : i32
  %fpad = arith.constant 0.0 : f32

  // A.
  %a = memref.alloc() : memref<8xi32>
  scf.for %i = %c0 to %c8 step %c1 {
    %v = arith.index_cast %i : index to i32
    memref.store %v, %a[%i] : memref<8xi32>
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1) {
    %x = memref.load %a[%tx] : memref<8xi32>
    %x2 = arith.addi %x, %x : i32
    %one = arith.constant 1 : i32
    %y = arith.addi %x2, %one : i32
    memref.store %y, %a[%tx] : memref<8xi32>
    gpu.terminator
  }
  %av = vector.transfer_read %a[%c0], %ipad {in_bounds = [true]} : memref<8xi32>, vector<8xi32>
  vector.print str "A:  "
  vector.print %av : vector<8xi32>
  memref.dealloc %a : memref<8xi32>

  // B. b[i] = i on the host; b = b * b; b = b + b; then a loop of two
  // launches, each adding i^2 / 2: 3 i^2.
  %b = memref.alloc(%c16) : memref<?xf32>
  scf.for %i = %c0 to %c16 step %c1 {
    %ii = arith.index_cast %i : index to i64
    %v = arith.sitofp %ii : i64 to f32
    memref.store %v, %b[%i] : memref<?xf32>
  }
  %n = memref.dim %b, %c0 : memref<?xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %n, %sy = %c1, %sz = %c1) {
    %x = memref.load %b[%tx] : memref<?xf32>
    %y = arith.mulf %x, %x : f32
    memref.store %y, %b[%tx] : memref<?xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %n, %sy = %c1, %sz = %c1) {
    %x = memref.load %b[%tx] : memref<?xf32>
    %y = arith.addf %x, %x : f32
    memref.store %y, %b[%tx] : memref<?xf32>
    gpu.terminator
  }
  scf.for %k = %c0 to %c2 step %c1 {
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %n, %sy = %c1, %sz = %c1) {
      %x = memref.load %b[%tx] : memref<?xf32>
      %ii = arith.index_cast %tx : index to i64
      %i = arith.sitofp %ii : i64 to f32
      %sq = arith.mulf %i, %i : f32
      %q = arith.constant 0.5 : f32
      %d = arith.mulf %sq, %q : f32
      %y = arith.addf %x, %d : f32
      memref.store %y, %b[%tx] : memref<?xf32>
      gpu.terminator
    }
  }
  %bv = vector.transfer_read %b[%c0], %fpad {in_bounds = [true]} : memref<?xf32>, vector<16xf32>
  vector.print str "B:  "
  vector.print %bv : vector<16xf32>
  memref.dealloc %b : memref<?xf32>

  // C. kernel 1: c[i] = i; host: c[0] = c[3] * 33 + 1 (= 100); kernel 2:
  // c[i] += c[0].
  %c = memref.alloc() : memref<8xi32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1) {
    %v = arith.index_cast %tx : index to i32
    memref.store %v, %c[%tx] : memref<8xi32>
    gpu.terminator
  }
  %c3v = memref.load %c[%c3] : memref<8xi32>
  %k33 = arith.constant 33 : i32
  %one = arith.constant 1 : i32
  %m = arith.muli %c3v, %k33 : i32
  %h = arith.addi %m, %one : i32
  memref.store %h, %c[%c0] : memref<8xi32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1) {
    gpu.barrier
    %base = memref.load %c[%c0] : memref<8xi32>
    %v = arith.index_cast %tx : index to i32
    gpu.barrier
    %y = arith.addi %base, %v : i32
    memref.store %y, %c[%tx] : memref<8xi32>
    gpu.terminator
  }
  %cv = vector.transfer_read %c[%c0], %ipad {in_bounds = [true]} : memref<8xi32>, vector<8xi32>
  vector.print str "C:  "
  vector.print %cv : vector<8xi32>
  memref.dealloc %c : memref<8xi32>

  // D. state[i] = table[i] + state[i], i.e. table[i] + i.
  %t = memref.get_global @table : memref<4xi32>
  %s = memref.get_global @state : memref<4xi32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    %x = memref.load %t[%tx] : memref<4xi32>
    %y = memref.load %s[%tx] : memref<4xi32>
    %z = arith.addi %x, %y : i32
    memref.store %z, %s[%tx] : memref<4xi32>
    gpu.terminator
  }
  %s2 = memref.get_global @state : memref<4xi32>
  %dv = vector.transfer_read %s2[%c0], %ipad {in_bounds = [true]} : memref<4xi32>, vector<4xi32>
  vector.print str "D:  "
  vector.print %dv : vector<4xi32>

  // E. e = -1 on the host; the kernel writes e[i] = i*i for i < 4 only.
  %e = memref.alloc() : memref<8xf32>
  %minus = arith.constant -1.0 : f32
  scf.for %i = %c0 to %c8 step %c1 {
    memref.store %minus, %e[%i] : memref<8xf32>
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1) {
    %lt = arith.cmpi ult, %tx, %c4 : index
    scf.if %lt {
      %ii = arith.index_cast %tx : index to i64
      %v = arith.sitofp %ii : i64 to f32
      %vv = arith.mulf %v, %v : f32
      memref.store %vv, %e[%tx] : memref<8xf32>
    }
    gpu.terminator
  }
  %ev = vector.transfer_read %e[%c0], %fpad {in_bounds = [true]} : memref<8xf32>, vector<8xf32>
  vector.print str "E:  "
  vector.print %ev : vector<8xf32>
  memref.dealloc %e : memref<8xf32>

  // F. a 4x4 alloca of zeros; the kernel writes 7 into its 2x2 centre
  // through a subview made on the host.
  %f = memref.alloca() : memref<4x4xf32>
  scf.for %i = %c0 to %c4 step %c1 {
    scf.for %j = %c0 to %c4 step %c1 {
      memref.store %fpad, %f[%i, %j] : memref<4x4xf32>
    }
  }
  %centre = memref.subview %f[1, 1] [2, 2] [1, 1] : memref<4x4xf32> to memref<2x2xf32, strided<[4, 1], offset: 5>>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c2, %sy = %c2, %sz = %c1) {
    %seven = arith.constant 7.0 : f32
    memref.store %seven, %centre[%ty, %tx] : memref<2x2xf32, strided<[4, 1], offset: 5>>
    gpu.terminator
  }
  %flat = memref.collapse_shape %f [[0, 1]] : memref<4x4xf32> into memref<16xf32>
  %fv = vector.transfer_read %flat[%c0], %fpad {in_bounds = [true]} : memref<16xf32>, vector<16xf32>
  vector.print str "F:  "
  vector.print %fv : vector<16xf32>

  // G. g[i] = i on the host; an asynchronous kernel adds 2.
  %g = memref.alloc() : memref<8xi32>
  scf.for %i = %c0 to %c8 step %c1 {
    %v = arith.index_cast %i : index to i32
    memref.store %v, %g[%i] : memref<8xi32>
  }
  %t0 = gpu.wait async
  %t1 = gpu.launch async [%t0] blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1) {
    %x = memref.load %g[%tx] : memref<8xi32>
    %two = arith.constant 2 : i32
    %y = arith.addi %x, %two : i32
    memref.store %y, %g[%tx] : memref<8xi32>
    gpu.terminator
  }
  gpu.wait [%t1]
  %gv = vector.transfer_read %g[%c0], %ipad {in_bounds = [true]} : memref<8xi32>, vector<8xi32>
  vector.print str "G:  "
  vector.print %gv : vector<8xi32>
  memref.dealloc %g : memref<8xi32>

  // H. a function argument: @halve launches the kernel on it.
  %hb = memref.alloc() : memref<8xf32>
  scf.for %i = %c0 to %c8 step %c1 {
    %ii = arith.index_cast %i : index to i64
    %v = arith.sitofp %ii : i64 to f32
    memref.store %v, %hb[%i] : memref<8xf32>
  }
  func.call @halve(%hb) : (memref<8xf32>) -> ()
  %hv = vector.transfer_read %hb[%c0], %fpad {in_bounds = [true]} : memref<8xf32>, vector<8xf32>
  vector.print str "H:  "
  vector.print %hv : vector<8xf32>
  memref.dealloc %hb : memref<8xf32>
  return
}
