// RUN: gpumem-run --target=cpu %s | FileCheck %s --match-full-lines
// RUN: %if cuda-emu %{ gpumem-run --target=cuda-emu %s | FileCheck %s --match-full-lines %}
// RUN: gpumem-run --target=cpu --sanitize %s | FileCheck %s --match-full-lines
//
// Three phases whose workgroup buffers share bytes: i8 flags, then f32
// partial sums, then i16 counts, each written in full before it is read, a
// while loop in the middle phase and a switch in the last.
// The planner gives all three the same bytes; under --sanitize, initcheck
// must not take one buffer's writes for another's (nor report them).
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c32 = arith.constant 32 : index
  %c3 = arith.constant 3 : index
  %c0_i32 = arith.constant 0 : i32
  %c1_i32 = arith.constant 1 : i32
  %zf = arith.constant 0.0 : f32
  %out = gpu.alloc host_shared () : memref<3xi32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %t = arith.index_cast %tx : index to i32
    %flags = memref.alloca() : memref<32xi8, #gpu.address_space<workgroup>>
    %odd = arith.remui %tx, %c2 : index
    %oddi = arith.index_cast %odd : index to i8
    memref.store %oddi, %flags[%tx] : memref<32xi8, #gpu.address_space<workgroup>>
    gpu.barrier
    %z = arith.cmpi eq, %tx, %c0 : index
    scf.if %z {
      %n = scf.for %i = %c0 to %c32 step %c1 iter_args(%a = %c0) -> index {
        %f = memref.load %flags[%i] : memref<32xi8, #gpu.address_space<workgroup>>
        %fi = arith.extui %f : i8 to i64
        %fx = arith.index_cast %fi : i64 to index
        %s = arith.addi %a, %fx : index
        scf.yield %s : index
      }
      %ni = arith.index_cast %n : index to i32
      memref.store %ni, %out[%c0] : memref<3xi32>
    }
    gpu.barrier
    %sums = memref.alloca() : memref<32xf32, #gpu.address_space<workgroup>>
    // Collatz steps of tx + 1, as a float.
    %start = arith.addi %t, %c1_i32 : i32
    %steps:2 = scf.while (%v = %start, %k = %c0_i32) : (i32, i32) -> (i32, i32) {
      %more = arith.cmpi ne, %v, %c1_i32 : i32
      scf.condition(%more) %v, %k : i32, i32
    } do {
    ^bb0(%v: i32, %k: i32):
      %two = arith.constant 2 : i32
      %r = arith.remui %v, %two : i32
      %even = arith.cmpi eq, %r, %c0_i32 : i32
      %h = arith.divui %v, %two : i32
      %three = arith.constant 3 : i32
      %m = arith.muli %v, %three : i32
      %m1 = arith.addi %m, %c1_i32 : i32
      %next = arith.select %even, %h, %m1 : i32
      %k1 = arith.addi %k, %c1_i32 : i32
      scf.yield %next, %k1 : i32, i32
    }
    %sf = arith.sitofp %steps#1 : i32 to f32
    memref.store %sf, %sums[%tx] : memref<32xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    scf.if %z {
      %total = scf.for %i = %c0 to %c32 step %c1 iter_args(%a = %zf) -> f32 {
        %v = memref.load %sums[%i] : memref<32xf32, #gpu.address_space<workgroup>>
        %s = arith.addf %a, %v : f32
        scf.yield %s : f32
      }
      %ti = arith.fptosi %total : f32 to i32
      memref.store %ti, %out[%c1] : memref<3xi32>
    }
    gpu.barrier
    %counts = memref.alloca() : memref<32xi16, #gpu.address_space<workgroup>>
    %kind = arith.remui %tx, %c3 : index
    %c = scf.index_switch %kind -> i16
    case 0 { %a = arith.constant 10 : i16
             scf.yield %a : i16 }
    case 1 { %a = arith.constant 20 : i16
             scf.yield %a : i16 }
    default { %a = arith.constant 30 : i16
              scf.yield %a : i16 }
    memref.store %c, %counts[%tx] : memref<32xi16, #gpu.address_space<workgroup>>
    gpu.barrier
    scf.if %z {
      %total = scf.for %i = %c0 to %c32 step %c1 iter_args(%a = %c0_i32) -> i32 {
        %v = memref.load %counts[%i] : memref<32xi16, #gpu.address_space<workgroup>>
        %w = arith.extsi %v : i16 to i32
        %s = arith.addi %a, %w : i32
        scf.yield %s : i32
      }
      memref.store %total, %out[%c2] : memref<3xi32>
    }
    gpu.terminator
  }
  %r0 = memref.load %out[%c0] : memref<3xi32>
  %r1 = memref.load %out[%c1] : memref<3xi32>
  %r2 = memref.load %out[%c2] : memref<3xi32>
  vector.print %r0 : i32
  vector.print %r1 : i32
  vector.print %r2 : i32
  return
}

// CHECK: 16
// CHECK-NEXT: 552
// CHECK-NEXT: 630
