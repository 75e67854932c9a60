// RUN: gpumem-run --target=cuda-emu %s | FileCheck %s --match-full-lines --strict-whitespace

// cp.async writes its destination only once a wait covers its group. Each
// of 32 threads first fills its two workgroup slots with -1, then copies
// one f32 into each with nvgpu.device_async_copy, in two groups. After
// `device_async_wait {numGroups = 1}` (cp.async.wait_group 1) only the
// first group must be complete: cuda-emu performs exactly that, so the
// second slot still reads -1 there (a GPU may or may not have written it
// by then; a program that reads it without the wait is wrong either way,
// and here it visibly is). After the wait for group 0 both are copied.

// CHECK:after wait_group 1: group 0 copied 32 of 32, group 1 copied 0 of 32
// CHECK-NEXT:after wait_group 0: group 0 copied 32 of 32, group 1 copied 32 of 32

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %src0 = memref.alloc() : memref<32xf32>
  %src1 = memref.alloc() : memref<32xf32>
  %seen = memref.alloc() : memref<4x32xf32>
  scf.for %i = %c0 to %c32 step %c1 {
    %v = arith.index_cast %i : index to i32
    %f = arith.sitofp %v : i32 to f32
    %h = arith.constant 100.0 : f32
    %g = arith.addf %f, %h : f32
    memref.store %f, %src0[%i] : memref<32xf32>
    memref.store %g, %src1[%i] : memref<32xf32>
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %slots = memref.alloc() : memref<64xf32, #gpu.address_space<workgroup>>
    %minus = arith.constant -1.0 : f32
    %second = arith.addi %tx, %c32 : index
    memref.store %minus, %slots[%tx] : memref<64xf32, #gpu.address_space<workgroup>>
    memref.store %minus, %slots[%second] : memref<64xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    %t0 = nvgpu.device_async_copy %src0[%tx], %slots[%tx], 1 : memref<32xf32> to memref<64xf32, #gpu.address_space<workgroup>>
    %g0 = nvgpu.device_async_create_group %t0
    %t1 = nvgpu.device_async_copy %src1[%tx], %slots[%second], 1 : memref<32xf32> to memref<64xf32, #gpu.address_space<workgroup>>
    %g1 = nvgpu.device_async_create_group %t1
    nvgpu.device_async_wait %g0 {numGroups = 1 : i32}
    gpu.barrier
    %a = memref.load %slots[%tx] : memref<64xf32, #gpu.address_space<workgroup>>
    %b = memref.load %slots[%second] : memref<64xf32, #gpu.address_space<workgroup>>
    memref.store %a, %seen[%c0, %tx] : memref<4x32xf32>
    memref.store %b, %seen[%c1, %tx] : memref<4x32xf32>
    nvgpu.device_async_wait %g1 {numGroups = 0 : i32}
    gpu.barrier
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %a2 = memref.load %slots[%tx] : memref<64xf32, #gpu.address_space<workgroup>>
    %b2 = memref.load %slots[%second] : memref<64xf32, #gpu.address_space<workgroup>>
    memref.store %a2, %seen[%c2, %tx] : memref<4x32xf32>
    memref.store %b2, %seen[%c3, %tx] : memref<4x32xf32>
    gpu.terminator
  }
  // Counts of slots holding their source's value, per read and group.
  %counts = memref.alloc() : memref<4xindex>
  %c4 = arith.constant 4 : index
  scf.for %r = %c0 to %c4 step %c1 {
    %c2h = arith.constant 2 : index
    %g = arith.remui %r, %c2h : index
    %n = scf.for %i = %c0 to %c32 step %c1 iter_args(%acc = %c0) -> (index) {
      %v = memref.load %seen[%r, %i] : memref<4x32xf32>
      %isFirst = arith.cmpi eq, %g, %c0 : index
      %e0 = memref.load %src0[%i] : memref<32xf32>
      %e1 = memref.load %src1[%i] : memref<32xf32>
      %e = arith.select %isFirst, %e0, %e1 : f32
      %same = arith.cmpf oeq, %v, %e : f32
      %more = arith.addi %acc, %c1 : index
      %next = arith.select %same, %more, %acc : index
      scf.yield %next : index
    }
    memref.store %n, %counts[%r] : memref<4xindex>
  }
  %n0 = memref.load %counts[%c0] : memref<4xindex>
  %n1 = memref.load %counts[%c1] : memref<4xindex>
  %c2i = arith.constant 2 : index
  %c3i = arith.constant 3 : index
  %n2 = memref.load %counts[%c2i] : memref<4xindex>
  %n3 = memref.load %counts[%c3i] : memref<4xindex>
  vector.print str "after wait_group 1: group 0 copied "
  vector.print %n0 : index punctuation <no_punctuation>
  vector.print str " of 32, group 1 copied "
  vector.print %n1 : index punctuation <no_punctuation>
  vector.print str " of 32\nafter wait_group 0: group 0 copied "
  vector.print %n2 : index punctuation <no_punctuation>
  vector.print str " of 32, group 1 copied "
  vector.print %n3 : index punctuation <no_punctuation>
  vector.print str " of 32\n"
  return
}
