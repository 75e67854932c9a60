// RUN: gpumem-run --target=cpu --host-buffers=register %s | FileCheck %s --match-full-lines --strict-whitespace

// Plain host buffers used by kernels, in register mode
// (gpumem-host-buffers-to-device, mode=register; docs/memory.md): kernels
// use the host memory itself, registered with gpu.host_register for as
// long as it lives.
//  A. a 2-D dynamic-size allocation: two kernels, a host access between
//     them;
//  B. a function argument, in a function that launches the kernel;
//  C. a writable global (registered) updated from a constant table
//     (copied);
//  D. an alloca in a loop body, registered on each iteration.

// CHECK:A:  ( ( 0, 1, 2 ), ( 100, 101, 102 ), ( 200, 201, 202 ), ( 300, 301, 302 ) )
// CHECK-NEXT:B:  ( 0, 10, 20, 30, 40, 50, 60, 70 )
// CHECK-NEXT:C:  ( 11, 22, 33, 44 )
// CHECK-NEXT:D:  0
// CHECK-NEXT:D:  4
// CHECK-NEXT:D:  8

memref.global "private" constant @table : memref<4xi32> = dense<[10, 20, 30, 40]>
memref.global "private" @state : memref<4xi32> = dense<[1, 2, 3, 4]>

func.func @times_ten(%m: memref<8xi32>) {
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1) {
    %x = memref.load %m[%tx] : memref<8xi32>
    %ten = arith.constant 10 : i32
    %y = arith.muli %x, %ten : i32
    memref.store %y, %m[%tx] : memref<8xi32>
    gpu.terminator
  }
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %ipad = arith.constant 0 : i32

  // A. kernel 1: a[i][j] = 10 i + j; host: a[0][0] = 10; kernel 2:
  // a[i][j] = a[i][j] * a[0][0] - 9 j, i.e. 100 i + j.
  %a = memref.alloc(%c4) : memref<?x3xi32>
  %rows = memref.dim %a, %c0 : memref<?x3xi32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c3, %sy = %rows, %sz = %c1) {
    %i = arith.index_cast %ty : index to i32
    %j = arith.index_cast %tx : index to i32
    %ten = arith.constant 10 : i32
    %i10 = arith.muli %i, %ten : i32
    %v = arith.addi %i10, %j : i32
    memref.store %v, %a[%ty, %tx] : memref<?x3xi32>
    gpu.terminator
  }
  %ten = arith.constant 10 : i32
  memref.store %ten, %a[%c0, %c0] : memref<?x3xi32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c3, %sy = %rows, %sz = %c1) {
    %k = memref.load %a[%c0, %c0] : memref<?x3xi32>
    gpu.barrier
    %x = memref.load %a[%ty, %tx] : memref<?x3xi32>
    %j = arith.index_cast %tx : index to i32
    %nine = arith.constant 9 : i32
    %j9 = arith.muli %j, %nine : i32
    %xk = arith.muli %x, %k : i32
    %y = arith.subi %xk, %j9 : i32
    %is00 = arith.cmpi eq, %ty, %c0 : index
    %first = arith.cmpi eq, %tx, %c0 : index
    %both = arith.andi %is00, %first : i1
    %z = arith.select %both, %ipad, %y : i32
    memref.store %z, %a[%ty, %tx] : memref<?x3xi32>
    gpu.terminator
  }
  %av = vector.transfer_read %a[%c0, %c0], %ipad {in_bounds = [true, true]} : memref<?x3xi32>, vector<4x3xi32>
  vector.print str "A:  "
  vector.print %av : vector<4x3xi32>
  memref.dealloc %a : memref<?x3xi32>

  // B. b[i] = i; @times_ten launches a kernel on its argument.
  %b = memref.alloc() : memref<8xi32>
  scf.for %i = %c0 to %c8 step %c1 {
    %v = arith.index_cast %i : index to i32
    memref.store %v, %b[%i] : memref<8xi32>
  }
  func.call @times_ten(%b) : (memref<8xi32>) -> ()
  %bv = vector.transfer_read %b[%c0], %ipad {in_bounds = [true]} : memref<8xi32>, vector<8xi32>
  vector.print str "B:  "
  vector.print %bv : vector<8xi32>
  memref.dealloc %b : memref<8xi32>

  // C. state[i] += table[i].
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
  %cv = vector.transfer_read %s[%c0], %ipad {in_bounds = [true]} : memref<4xi32>, vector<4xi32>
  vector.print str "C:  "
  vector.print %cv : vector<4xi32>

  // D. per iteration k: a fresh alloca, d[i] = i * k by a kernel, the host
  // prints d[1] + d[3] = 4k.
  scf.for %k = %c0 to %c3 step %c1 {
    %d = memref.alloca() : memref<4xi32>
    %kk = arith.index_cast %k : index to i32
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
      %i = arith.index_cast %tx : index to i32
      %v = arith.muli %i, %kk : i32
      memref.store %v, %d[%tx] : memref<4xi32>
      gpu.terminator
    }
    %d1 = memref.load %d[%c1] : memref<4xi32>
    %d3 = memref.load %d[%c3] : memref<4xi32>
    %sum = arith.addi %d1, %d3 : i32
    vector.print str "D:  "
    vector.print %sum : i32
  }
  return
}
