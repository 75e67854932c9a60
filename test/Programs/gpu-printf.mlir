// RUN: gpumem-run --target=cpu %s | FileCheck %s --match-full-lines --strict-whitespace
// RUN: gpumem-run --target=cpu %s | count 16

// gpu.printf on the cpu target.
// Kernel 1: a single thread prints arguments of every integer and float
// width with %d, %u, %x, %lld, %f, %.3f, %e, %g, %c and %%: i1, i8 and i16
// are promoted to int, f16 and f32 to double, index and i64 are %lld.
// Kernel 2: one block of 4 threads; in round k thread k prints, and a
// gpu.barrier ends every round, so the lines come out in thread order.
// Kernel 3: 3 blocks, thread 0 of each prints one line; blocks run in any
// order, so these lines are checked with CHECK-DAG (and the second RUN
// line counts all lines of output).
// The host prints around the launches: kernel output appears in between.

// CHECK:host: before
// CHECK-NEXT:i32 -42 u32 4294967254 hex 2a
// CHECK-NEXT:i1 1 i8 -7 i16 -300
// CHECK-NEXT:i64 -123456789012 index 1234567890
// CHECK-NEXT:f32 2.500000 f64 -0.125 f16 0.75 exp 1.250000e+03 g 0.0625
// CHECK-NEXT:char A percent 100%
// CHECK-NEXT:no arguments
// CHECK-NEXT:round 0: thread 0 of 4 sees 0 earlier threads
// CHECK-NEXT:round 1: thread 1 of 4 sees 1 earlier threads
// CHECK-NEXT:round 2: thread 2 of 4 sees 2 earlier threads
// CHECK-NEXT:round 3: thread 3 of 4 sees 3 earlier threads
// CHECK-NEXT:host: between
// CHECK-NOT:{{.}}
// CHECK-DAG:block 0 of 3, value 0.000000
// CHECK-DAG:block 1 of 3, value 1.500000
// CHECK-DAG:block 2 of 3, value 3.000000
// CHECK-NOT:{{.}}
// CHECK:host: after
// CHECK-NOT:{{.}}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  vector.print str "host: before\n"

  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %i32 = arith.constant -42 : i32
    %k42 = arith.constant 42 : i32
    gpu.printf "i32 %d u32 %u hex %x\n", %i32, %i32, %k42 : i32, i32, i32
    %true = arith.constant true
    %i8 = arith.constant -7 : i8
    %i16 = arith.constant -300 : i16
    gpu.printf "i1 %d i8 %d i16 %d\n", %true, %i8, %i16 : i1, i8, i16
    %i64 = arith.constant -123456789012 : i64
    %idx = arith.constant 1234567890 : index
    gpu.printf "i64 %lld index %lld\n", %i64, %idx : i64, index
    %f32 = arith.constant 2.5 : f32
    %f64 = arith.constant -0.125 : f64
    %f16 = arith.constant 0.75 : f16
    %big = arith.constant 1250.0 : f32
    %small = arith.constant 0.0625 : f64
    gpu.printf "f32 %f f64 %.3f f16 %.2f exp %e g %g\n", %f32, %f64, %f16, %big, %small
        : f32, f64, f16, f32, f64
    %chr = arith.constant 65 : i32
    %hundred = arith.constant 100 : i32
    gpu.printf "char %c percent %d%%\n", %chr, %hundred : i32, i32
    gpu.printf "no arguments\n"
    gpu.terminator
  }

  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    // The last thread sets the shared counter to 100 before the first
    // barrier; every printing thread shows (counter - 100) and increments it.
    %counter = memref.alloca() : memref<1xi32, 3>
    %c3i = arith.constant 3 : index
    %is_last = arith.cmpi eq, %tx, %c3i : index
    scf.if %is_last {
      %init = arith.constant 100 : i32
      memref.store %init, %counter[%c0] : memref<1xi32, 3>
    }
    gpu.barrier
    scf.for %k = %c0 to %c4 step %c1 {
      %mine = arith.cmpi eq, %tx, %k : index
      scf.if %mine {
        %count = memref.load %counter[%c0] : memref<1xi32, 3>
        %hundred = arith.constant 100 : i32
        %seen = arith.subi %count, %hundred : i32
        %kk = arith.index_cast %k : index to i32
        gpu.printf "round %d: thread %lld of %lld sees %d earlier threads\n", %kk, %tx, %sx, %seen
            : i32, index, index, i32
        %one = arith.constant 1 : i32
        %next = arith.addi %count, %one : i32
        memref.store %next, %counter[%c0] : memref<1xi32, 3>
      }
      gpu.barrier
    }
    gpu.terminator
  }
  vector.print str "host: between\n"

  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c3, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    %is0 = arith.cmpi eq, %tx, %c0 : index
    scf.if %is0 {
      %b = arith.index_cast %bx : index to i64
      %bf = arith.sitofp %b : i64 to f32
      %half = arith.constant 1.5 : f32
      %v = arith.mulf %bf, %half : f32
      gpu.printf "block %lld of %lld, value %f\n", %bx, %gx, %v : index, index, f32
    }
    gpu.terminator
  }
  vector.print str "host: after\n"
  return
}
