// RUN: gpumem-run --target=cpu %s | FileCheck %s --match-full-lines --strict-whitespace

// cf.assert that holds in every thread, in a kernel that also has a
// gpu.barrier (so its threads run as fibers) and in a device function:
// the program runs to the end with exit status 0 (lit checks it).
// Each thread checks after the barrier that its neighbour's value arrived.

// CHECK:( 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 0 )
// CHECK-NEXT:all asserts held

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c48 = arith.constant 48 : index
  %i0 = arith.constant 0 : i32
  %out = memref.alloc() : memref<48xi32>
  %out_u = memref.cast %out : memref<48xi32> to memref<*xi32>
  gpu.host_register %out_u : memref<*xi32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c48, %sy = %c1, %sz = %c1) {
    %s = memref.alloca() : memref<48xi32, #gpu.address_space<workgroup>>
    %x = arith.index_cast %tx : index to i32
    memref.store %x, %s[%tx] : memref<48xi32, #gpu.address_space<workgroup>>
    gpu.barrier
    %n1 = arith.addi %tx, %c1 : index
    %n = arith.remui %n1, %c48 : index
    %y = memref.load %s[%n] : memref<48xi32, #gpu.address_space<workgroup>>
    func.call @check_neighbour(%x, %y) : (i32, i32) -> ()
    memref.store %y, %out[%tx] : memref<48xi32>
    gpu.terminator
  }
  %v = vector.transfer_read %out[%c0], %i0 {in_bounds = [true]} : memref<48xi32>, vector<48xi32>
  vector.print %v : vector<48xi32>
  vector.print str "all asserts held\n"
  gpu.host_unregister %out_u : memref<*xi32>
  memref.dealloc %out : memref<48xi32>
  return
}

// y must be x + 1, or 0 for the last thread.
func.func @check_neighbour(%x: i32, %y: i32) {
  %one = arith.constant 1 : i32
  %zero = arith.constant 0 : i32
  %last = arith.constant 47 : i32
  %x1 = arith.addi %x, %one : i32
  %is_last = arith.cmpi eq, %x, %last : i32
  %want = arith.select %is_last, %zero, %x1 : i32
  %ok = arith.cmpi eq, %y, %want : i32
  cf.assert %ok, "the neighbour's value did not arrive"
  return
}
