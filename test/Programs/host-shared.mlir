// RUN: gpumem-run --target=cpu %s | FileCheck %s --match-full-lines --strict-whitespace

// gpu.alloc host_shared: memory the host and kernels share (managed memory
// on CUDA), written by the host, updated by a kernel, read by the host:
//   s: memref<2x8xi32>, synchronous:  s[i][j] = 8i + j, kernel adds 1000 i
//   d: memref<?xf32> (5), synchronous: d[i] = i + 0.5, kernel doubles it
//   m: memref<4xi32>, the stream-ordered form (gpu.alloc async host_shared,
//      which upstream rejects; gpumem-lower-sync-memory-ops allocates at once
//      and gives a token ready with the dependencies): m[i] = i, kernel
//      squares it
// all freed with gpu.dealloc (synchronous and async).

// CHECK:s[0]: ( 0, 1, 2, 3, 4, 5, 6, 7 )
// CHECK-NEXT:s[1]: ( 1008, 1009, 1010, 1011, 1012, 1013, 1014, 1015 )
// CHECK-NEXT:d: ( 1, 3, 5, 7, 9 )
// CHECK-NEXT:m: ( 0, 1, 4, 9 )

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c8 = arith.constant 8 : index
  %c1000 = arith.constant 1000 : i32
  %half = arith.constant 0.5 : f32
  %ipad = arith.constant 0 : i32
  %fpad = arith.constant 0.0 : f32

  %s = gpu.alloc host_shared () : memref<2x8xi32>
  scf.for %i = %c0 to %c2 step %c1 {
    scf.for %j = %c0 to %c8 step %c1 {
      %i8 = arith.muli %i, %c8 : index
      %ij = arith.addi %i8, %j : index
      %v = arith.index_cast %ij : index to i32
      memref.store %v, %s[%i, %j] : memref<2x8xi32>
    }
  }
  %n = arith.addi %c4, %c1 : index
  %d = gpu.alloc host_shared (%n) : memref<?xf32>
  scf.for %i = %c0 to %n step %c1 {
    %ii = arith.index_cast %i : index to i64
    %v = arith.sitofp %ii : i64 to f32
    %vh = arith.addf %v, %half : f32
    memref.store %vh, %d[%i] : memref<?xf32>
  }
  %dep = gpu.wait async
  %m, %ready = gpu.alloc async [%dep] host_shared () : memref<4xi32>
  gpu.wait [%ready]
  scf.for %i = %c0 to %c4 step %c1 {
    %v = arith.index_cast %i : index to i32
    memref.store %v, %m[%i] : memref<4xi32>
  }

  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1) {
    %x = memref.load %s[%bx, %tx] : memref<2x8xi32>
    %b = arith.index_cast %bx : index to i32
    %add = arith.muli %b, %c1000 : i32
    %y = arith.addi %x, %add : i32
    memref.store %y, %s[%bx, %tx] : memref<2x8xi32>
    %inside = arith.cmpi ult, %tx, %n : index
    %first = arith.cmpi eq, %bx, %c0 : index
    %mine = arith.andi %inside, %first : i1
    scf.if %mine {
      %f = memref.load %d[%tx] : memref<?xf32>
      %ff = arith.addf %f, %f : f32
      memref.store %ff, %d[%tx] : memref<?xf32>
    }
    %small = arith.cmpi ult, %tx, %c4 : index
    %second = arith.cmpi eq, %bx, %c1 : index
    %square = arith.andi %small, %second : i1
    scf.if %square {
      %e = memref.load %m[%tx] : memref<4xi32>
      %ee = arith.muli %e, %e : i32
      memref.store %ee, %m[%tx] : memref<4xi32>
    }
    gpu.terminator
  }

  %s0 = vector.transfer_read %s[%c0, %c0], %ipad {in_bounds = [true]} : memref<2x8xi32>, vector<8xi32>
  vector.print str "s[0]: "
  vector.print %s0 : vector<8xi32>
  %s1 = vector.transfer_read %s[%c1, %c0], %ipad {in_bounds = [true]} : memref<2x8xi32>, vector<8xi32>
  vector.print str "s[1]: "
  vector.print %s1 : vector<8xi32>
  %dv = vector.transfer_read %d[%c0], %fpad {in_bounds = [true]} : memref<?xf32>, vector<5xf32>
  vector.print str "d: "
  vector.print %dv : vector<5xf32>
  %mv = vector.transfer_read %m[%c0], %ipad {in_bounds = [true]} : memref<4xi32>, vector<4xi32>
  vector.print str "m: "
  vector.print %mv : vector<4xi32>

  gpu.dealloc %s : memref<2x8xi32>
  gpu.dealloc %d : memref<?xf32>
  %t = gpu.wait async
  %freed = gpu.dealloc async [%t] %m : memref<4xi32>
  gpu.wait [%freed]
  return
}
