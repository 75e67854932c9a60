// RUN: gpumem-run --target=cpu %s | FileCheck %s --match-full-lines
// RUN: %if cuda-emu %{ gpumem-run --target=cuda-emu %s | FileCheck %s --match-full-lines %}

// Threads whose loops run a data-dependent number of times: a kernel
// written as a gpu.module (launched with gpu.launch_func) in unstructured
// control flow, where threads whose number is a multiple of 7 branch to an
// early return, and the others count the Collatz steps of their number in
// 64-bit arithmetic with an scf.while, then fold the count into global
// totals with atomic add and max. 2 blocks of 32 threads, n = 1..64.

// CHECK:counted: 55
// CHECK-NEXT:steps: 1467
// CHECK-NEXT:longest: 112

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @collatz(%totals: memref<3xi64>) kernel {
      %tx = gpu.thread_id x
      %bx = gpu.block_id x
      %bd = gpu.block_dim x
      %base = arith.muli %bx, %bd : index
      %t = arith.addi %base, %tx : index
      %c1i = arith.constant 1 : index
      %ni = arith.addi %t, %c1i : index
      %n = arith.index_cast %ni : index to i64
      %c7 = arith.constant 7 : i64
      %c0 = arith.constant 0 : i64
      %rem = arith.remui %n, %c7 : i64
      %skip = arith.cmpi eq, %rem, %c0 : i64
      cf.cond_br %skip, ^done, ^count
    ^count:
      %one = arith.constant 1 : i64
      %two = arith.constant 2 : i64
      %three = arith.constant 3 : i64
      %final:2 = scf.while (%x = %n, %steps = %c0) : (i64, i64) -> (i64, i64) {
        %going = arith.cmpi ne, %x, %one : i64
        scf.condition(%going) %x, %steps : i64, i64
      } do {
      ^bb0(%y: i64, %s: i64):
        %odd = arith.andi %y, %one : i64
        %isOdd = arith.cmpi ne, %odd, %c0 : i64
        %next = scf.if %isOdd -> i64 {
          %m = arith.muli %y, %three : i64
          %p = arith.addi %m, %one : i64
          scf.yield %p : i64
        } else {
          %h = arith.divui %y, %two : i64
          scf.yield %h : i64
        }
        %s1 = arith.addi %s, %one : i64
        scf.yield %next, %s1 : i64, i64
      }
      %i0 = arith.constant 0 : index
      %i1 = arith.constant 1 : index
      %i2 = arith.constant 2 : index
      %a = memref.atomic_rmw addi %one, %totals[%i0] : (i64, memref<3xi64>) -> i64
      %b = memref.atomic_rmw addi %final#1, %totals[%i1] : (i64, memref<3xi64>) -> i64
      %c = memref.atomic_rmw maxs %final#1, %totals[%i2] : (i64, memref<3xi64>) -> i64
      gpu.return
    ^done:
      gpu.return
    }
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c32 = arith.constant 32 : index
    %zero = arith.constant 0 : i64
    %totals = gpu.alloc () : memref<3xi64>
    %host = memref.alloc() : memref<3xi64>
    scf.for %i = %c0 to %c3 step %c1 {
      memref.store %zero, %host[%i] : memref<3xi64>
    }
    // (gpu.memset fills 16- and 32-bit elements only.)
    gpu.memcpy %totals, %host : memref<3xi64>, memref<3xi64>
    gpu.launch_func @kernels::@collatz blocks in (%c2, %c1, %c1)
        threads in (%c32, %c1, %c1) args(%totals : memref<3xi64>)
    gpu.memcpy %host, %totals : memref<3xi64>, memref<3xi64>
    %counted = memref.load %host[%c0] : memref<3xi64>
    %steps = memref.load %host[%c1] : memref<3xi64>
    %longest = memref.load %host[%c2] : memref<3xi64>
    vector.print str "counted: "
    vector.print %counted : i64
    vector.print str "steps: "
    vector.print %steps : i64
    vector.print str "longest: "
    vector.print %longest : i64
    gpu.dealloc %totals : memref<3xi64>
    memref.dealloc %host : memref<3xi64>
    return
  }
}
