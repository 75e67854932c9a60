// RUN: gpumem-run --target=cpu --host-buffers=managed %s | FileCheck %s --match-full-lines --strict-whitespace

// Plain host buffers used by kernels, in managed mode
// (gpumem-host-buffers-to-device, mode=managed; docs/memory.md): host
// memref.allocs become managed allocations shared by host and kernels;
// what cannot be re-allocated (a function argument, a global, an alloca)
// is copied.
//  A. a dynamic-size allocation: the host fills it, two kernels update it,
//     the host changes it between them, a loop of launches follows;
//  B. a function argument, in a function that launches the kernel;
//  C. a writable global updated from a constant table.

// CHECK:A:  ( 1, 2, 5, 10, 17, 26, 37, 50, 65, 82, 101, 122 )
// CHECK-NEXT:A0: 1
// CHECK-NEXT:B:  ( 3, 4, 5, 6, 7, 8, 9, 10 )
// CHECK-NEXT:C:  ( 11, 22, 33, 44 )

memref.global "private" constant @table : memref<4xi32> = dense<[10, 20, 30, 40]>
memref.global "private" @state : memref<4xi32> = dense<[1, 2, 3, 4]>

func.func @add_three(%m: memref<8xi32>) {
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1) {
    %x = memref.load %m[%tx] : memref<8xi32>
    %three = arith.constant 3 : i32
    %y = arith.addi %x, %three : i32
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
  %c12 = arith.constant 12 : index
  %ipad = arith.constant 0 : i32

  // A. a[i] = i; kernel: a = a * a; host: a[0] = 1 - a[0] (= 1); kernel:
  // a[i] += 1 for i > 0; then a loop of three launches that each add
  // a[0] - 1, which is 0 since the host wrote 1 (the kernels see it).
  %a = memref.alloc(%c12) : memref<?xi32>
  scf.for %i = %c0 to %c12 step %c1 {
    %v = arith.index_cast %i : index to i32
    memref.store %v, %a[%i] : memref<?xi32>
  }
  %n = memref.dim %a, %c0 : memref<?xi32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %n, %sy = %c1, %sz = %c1) {
    %x = memref.load %a[%tx] : memref<?xi32>
    %y = arith.muli %x, %x : i32
    memref.store %y, %a[%tx] : memref<?xi32>
    gpu.terminator
  }
  %a0 = memref.load %a[%c0] : memref<?xi32>
  %one = arith.constant 1 : i32
  %new = arith.subi %one, %a0 : i32
  memref.store %new, %a[%c0] : memref<?xi32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %n, %sy = %c1, %sz = %c1) {
    %x = memref.load %a[%tx] : memref<?xi32>
    %is0 = arith.cmpi eq, %tx, %c0 : index
    %inc = arith.select %is0, %ipad, %one : i32
    %y = arith.addi %x, %inc : i32
    memref.store %y, %a[%tx] : memref<?xi32>
    gpu.terminator
  }
  scf.for %k = %c0 to %c3 step %c1 {
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %n, %sy = %c1, %sz = %c1) {
      %first = memref.load %a[%c0] : memref<?xi32>
      %d = arith.subi %first, %one : i32
      gpu.barrier
      %x = memref.load %a[%tx] : memref<?xi32>
      %y = arith.addi %x, %d : i32
      memref.store %y, %a[%tx] : memref<?xi32>
      gpu.terminator
    }
  }
  %av = vector.transfer_read %a[%c0], %ipad {in_bounds = [true]} : memref<?xi32>, vector<12xi32>
  vector.print str "A:  "
  vector.print %av : vector<12xi32>
  %a0b = memref.load %a[%c0] : memref<?xi32>
  vector.print str "A0: "
  vector.print %a0b : i32
  memref.dealloc %a : memref<?xi32>

  // B. b[i] = i; @add_three launches a kernel on its argument.
  %b = memref.alloc() : memref<8xi32>
  scf.for %i = %c0 to %c8 step %c1 {
    %v = arith.index_cast %i : index to i32
    memref.store %v, %b[%i] : memref<8xi32>
  }
  func.call @add_three(%b) : (memref<8xi32>) -> ()
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
  return
}
