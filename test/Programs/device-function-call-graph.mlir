// RUN: gpumem-run --target=cpu %s | FileCheck %s --match-full-lines --strict-whitespace

// Device functions that form a diamond: the kernel calls @stage twice,
// @stage calls @mirror_read and @write_mixed, and both of those call @wrap.
// Targets that inline device functions (vulkan) copy @wrap four times and
// must keep every copy; targets that call them must pass the kernel's
// workgroup buffer through two levels of calls. The buffer is a plain
// memref.alloca in workgroup memory in the kernel; @write_mixed picks its
// arithmetic with scf.index_switch and does it in i16.
//  1 block x 16 threads; w[t] = 3t + 1; then twice: v = w[15 - t], barrier,
//  w[t] = v + 100 (t % 3 == 0), 2v (t % 3 == 1) or v - 1 (t % 3 == 2),
//  barrier. The host computes the same sequentially.

// CHECK:device: ( 201, 6, 13, 210, 24, 31, 219, 42, 49, 228, 60, 67, 237, 78, 85, 246 )
// CHECK-NEXT:host:   ( 201, 6, 13, 210, 24, 31, 219, 42, 49, 228, 60, 67, 237, 78, 85, 246 )

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c15 = arith.constant 15 : index
  %c16 = arith.constant 16 : index
  %out = memref.alloc() : memref<16xi32>
  %out_u = memref.cast %out : memref<16xi32> to memref<*xi32>
  gpu.host_register %out_u : memref<*xi32>

  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c16, %sy = %c1, %sz = %c1) {
    %w = memref.alloca() : memref<16xi32, #gpu.address_space<workgroup>>
    %t = arith.index_cast %tx : index to i32
    %c3i = arith.constant 3 : i32
    %c1i = arith.constant 1 : i32
    %t3 = arith.muli %t, %c3i : i32
    %init = arith.addi %t3, %c1i : i32
    memref.store %init, %w[%tx] : memref<16xi32, #gpu.address_space<workgroup>>
    gpu.barrier
    func.call @stage(%w, %tx) : (memref<16xi32, #gpu.address_space<workgroup>>, index) -> ()
    func.call @stage(%w, %tx) : (memref<16xi32, #gpu.address_space<workgroup>>, index) -> ()
    %r = memref.load %w[%tx] : memref<16xi32, #gpu.address_space<workgroup>>
    memref.store %r, %out[%tx] : memref<16xi32>
    gpu.terminator
  }

  // The host's sequential version.
  %ref = memref.alloc() : memref<16xi32>
  %tmp = memref.alloc() : memref<16xi32>
  scf.for %t = %c0 to %c16 step %c1 {
    %ti = arith.index_cast %t : index to i32
    %c3i = arith.constant 3 : i32
    %c1i = arith.constant 1 : i32
    %t3 = arith.muli %ti, %c3i : i32
    %v = arith.addi %t3, %c1i : i32
    memref.store %v, %ref[%t] : memref<16xi32>
  }
  scf.for %s = %c0 to %c2 step %c1 {
    scf.for %t = %c0 to %c16 step %c1 {
      %m = arith.subi %c15, %t : index
      %v = memref.load %ref[%m] : memref<16xi32>
      %k = arith.remui %t, %c3 : index
      %n = scf.index_switch %k -> i32
      case 0 {
        %c100 = arith.constant 100 : i32
        %a = arith.addi %v, %c100 : i32
        scf.yield %a : i32
      }
      case 1 {
        %a = arith.addi %v, %v : i32
        scf.yield %a : i32
      }
      default {
        %c1i = arith.constant 1 : i32
        %a = arith.subi %v, %c1i : i32
        scf.yield %a : i32
      }
      memref.store %n, %tmp[%t] : memref<16xi32>
    }
    memref.copy %tmp, %ref : memref<16xi32> to memref<16xi32>
  }

  %z = arith.constant 0 : i32
  %dv = vector.transfer_read %out[%c0], %z {in_bounds = [true]} : memref<16xi32>, vector<16xi32>
  %hv = vector.transfer_read %ref[%c0], %z {in_bounds = [true]} : memref<16xi32>, vector<16xi32>
  vector.print str "device: "
  vector.print %dv : vector<16xi32>
  vector.print str "host:   "
  vector.print %hv : vector<16xi32>
  gpu.host_unregister %out_u : memref<*xi32>
  memref.dealloc %out : memref<16xi32>
  memref.dealloc %ref : memref<16xi32>
  memref.dealloc %tmp : memref<16xi32>
  return
}

// One step: every thread reads its mirror entry, waits for all reads, then
// writes its own entry and waits for all writes.
func.func @stage(%w: memref<16xi32, #gpu.address_space<workgroup>>, %t: index) {
  %v = func.call @mirror_read(%w, %t) : (memref<16xi32, #gpu.address_space<workgroup>>, index) -> i32
  gpu.barrier
  func.call @write_mixed(%w, %t, %v) : (memref<16xi32, #gpu.address_space<workgroup>>, index, i32) -> ()
  gpu.barrier
  return
}

// w[15 - t], addressed as (31 - t) mod 16.
func.func @mirror_read(%w: memref<16xi32, #gpu.address_space<workgroup>>, %t: index) -> i32 {
  %c31 = arith.constant 31 : index
  %i = arith.subi %c31, %t : index
  %m = func.call @wrap(%i) : (index) -> index
  %v = memref.load %w[%m] : memref<16xi32, #gpu.address_space<workgroup>>
  return %v : i32
}

// w[t] = v + 100, 2v or v - 1 by t mod 3, computed in i16; w[t] addressed
// as (t + 16) mod 16.
func.func @write_mixed(%w: memref<16xi32, #gpu.address_space<workgroup>>, %t: index, %v: i32) {
  %c3 = arith.constant 3 : index
  %c16 = arith.constant 16 : index
  %k = arith.remui %t, %c3 : index
  %s = arith.trunci %v : i32 to i16
  %n = scf.index_switch %k -> i16
  case 0 {
    %c100 = arith.constant 100 : i16
    %a = arith.addi %s, %c100 : i16
    scf.yield %a : i16
  }
  case 1 {
    %a = arith.addi %s, %s : i16
    scf.yield %a : i16
  }
  default {
    %c1 = arith.constant 1 : i16
    %a = arith.subi %s, %c1 : i16
    scf.yield %a : i16
  }
  %r = arith.extsi %n : i16 to i32
  %i = arith.addi %t, %c16 : index
  %m = func.call @wrap(%i) : (index) -> index
  memref.store %r, %w[%m] : memref<16xi32, #gpu.address_space<workgroup>>
  return
}

func.func @wrap(%i: index) -> index {
  %c16 = arith.constant 16 : index
  %m = arith.remui %i, %c16 : index
  return %m : index
}
