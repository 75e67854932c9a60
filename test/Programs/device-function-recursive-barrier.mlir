// RUN: gpumem-run --target=cpu %s | FileCheck %s --match-full-lines --strict-whitespace

// A device function with barriers that calls itself twice (a binary
// recursion, 3 levels deep below the kernel's call): 15 calls in all, each
// of which rotates a workgroup buffer by one element and adds 1, with a
// barrier between the read and the write. Targets that make a kernel with
// barriers a coroutine inline such calls; a recursive one stays a call
// (the kernel runs on fibers), never an inlining that doubles each round.
// 1 block x 16 threads, w[t] = 10t; each call: v = w[(t + 1) % 16];
// barrier; w[t] = v + 1; barrier. After 15: w[t] = 10 ((t + 15) % 16) + 15.

// CHECK:( 165, 15, 25, 35, 45, 55, 65, 75, 85, 95, 105, 115, 125, 135, 145, 155 )

func.func @rotate_tree(%w: memref<16xi32, #gpu.address_space<workgroup>>,
                       %t: index, %depth: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %one = arith.constant 1 : i32
  %next = arith.addi %t, %c1 : index
  %n = arith.remui %next, %c16 : index
  %v = memref.load %w[%n] : memref<16xi32, #gpu.address_space<workgroup>>
  gpu.barrier
  %v1 = arith.addi %v, %one : i32
  memref.store %v1, %w[%t] : memref<16xi32, #gpu.address_space<workgroup>>
  gpu.barrier
  %more = arith.cmpi ugt, %depth, %c0 : index
  scf.if %more {
    %d = arith.subi %depth, %c1 : index
    func.call @rotate_tree(%w, %t, %d) : (memref<16xi32, #gpu.address_space<workgroup>>, index, index) -> ()
    func.call @rotate_tree(%w, %t, %d) : (memref<16xi32, #gpu.address_space<workgroup>>, index, index) -> ()
  }
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c16 = arith.constant 16 : index
  %out = memref.alloc() : memref<16xi32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c16, %sy = %c1, %sz = %c1) {
    %w = memref.alloca() : memref<16xi32, #gpu.address_space<workgroup>>
    %t = arith.index_cast %tx : index to i32
    %ten = arith.constant 10 : i32
    %init = arith.muli %t, %ten : i32
    memref.store %init, %w[%tx] : memref<16xi32, #gpu.address_space<workgroup>>
    gpu.barrier
    func.call @rotate_tree(%w, %tx, %c3) : (memref<16xi32, #gpu.address_space<workgroup>>, index, index) -> ()
    %r = memref.load %w[%tx] : memref<16xi32, #gpu.address_space<workgroup>>
    memref.store %r, %out[%tx] : memref<16xi32>
    gpu.terminator
  }
  %pad = arith.constant 0 : i32
  %o = vector.transfer_read %out[%c0], %pad : memref<16xi32>, vector<16xi32>
  vector.print %o : vector<16xi32>
  return
}
