// RUN: gpumem-run --target=cpu %s | FileCheck %s --match-full-lines --strict-whitespace

// Tiled matmul C(32x16) = A(32x48) x B(48x16) with 8x8 tiles: grid 2x4
// (x over the 16 columns, y over the 32 rows), blocks of 8x8 threads, six
// steps along K. The two tile buffers are memref.alloca in workgroup memory
// *inside* the K loop (one in space 3, one in #gpu.address_space<workgroup>):
// they must be one per-block buffer each, reused by every iteration, with a
// barrier after the loads and one before the next iteration overwrites them.
// A[i][k] = ((i + 2k) mod 13) - 6 and B[k][j] = ((3k + j) mod 9) - 4: small
// integers, so all results are exact.

// CHECK:gpu:  ( 5, -1, 39, 23 )
// CHECK-NEXT:host: ( 5, -1, 39, 23 )
// CHECK-NEXT:mismatches: 0

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  %c8 = arith.constant 8 : index
  %c9 = arith.constant 9 : index
  %c15 = arith.constant 15 : index
  %c16 = arith.constant 16 : index
  %c20 = arith.constant 20 : index
  %c31 = arith.constant 31 : index
  %c32 = arith.constant 32 : index
  %c48 = arith.constant 48 : index
  %fzero = arith.constant 0.0 : f32
  %minus1 = arith.constant -1000.0 : f32
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32

  %A = memref.alloc() : memref<32x48xf32>
  %B = memref.alloc() : memref<48x16xf32>
  %C = memref.alloc() : memref<32x16xf32>
  %ref = memref.alloc() : memref<32x16xf32>
  scf.for %i = %c0 to %c32 step %c1 {
    scf.for %k = %c0 to %c48 step %c1 {
      %k2 = arith.muli %k, %c2 : index
      %s = arith.addi %i, %k2 : index
      %a = func.call @centered(%s, %c6) : (index, index) -> f32
      memref.store %a, %A[%i, %k] : memref<32x48xf32>
    }
    scf.for %j = %c0 to %c16 step %c1 {
      memref.store %minus1, %C[%i, %j] : memref<32x16xf32>
    }
  }
  scf.for %k = %c0 to %c48 step %c1 {
    scf.for %j = %c0 to %c16 step %c1 {
      %k3 = arith.muli %k, %c2 : index
      %k3b = arith.addi %k3, %k : index
      %s = arith.addi %k3b, %j : index
      %b = func.call @centered(%s, %c4) : (index, index) -> f32
      memref.store %b, %B[%k, %j] : memref<48x16xf32>
    }
  }

  %A_u = memref.cast %A : memref<32x48xf32> to memref<*xf32>
  gpu.host_register %A_u : memref<*xf32>
  %B_u = memref.cast %B : memref<48x16xf32> to memref<*xf32>
  gpu.host_register %B_u : memref<*xf32>
  %C_u = memref.cast %C : memref<32x16xf32> to memref<*xf32>
  gpu.host_register %C_u : memref<*xf32>

  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c4, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c8, %sz = %c1) {
    %row0 = arith.muli %by, %c8 : index
    %col0 = arith.muli %bx, %c8 : index
    %row = arith.addi %row0, %ty : index
    %col = arith.addi %col0, %tx : index
    %sum = scf.for %t = %c0 to %c6 step %c1 iter_args(%acc = %fzero) -> (f32) {
      %a_tile = memref.alloca() : memref<8x8xf32, 3>
      %b_tile = memref.alloca() : memref<8x8xf32, #gpu.address_space<workgroup>>
      %k0 = arith.muli %t, %c8 : index
      %a_col = arith.addi %k0, %tx : index
      %b_row = arith.addi %k0, %ty : index
      %a = memref.load %A[%row, %a_col] : memref<32x48xf32>
      memref.store %a, %a_tile[%ty, %tx] : memref<8x8xf32, 3>
      %b = memref.load %B[%b_row, %col] : memref<48x16xf32>
      memref.store %b, %b_tile[%ty, %tx] : memref<8x8xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %next = scf.for %k = %c0 to %c8 step %c1 iter_args(%s = %acc) -> (f32) {
        %x = memref.load %a_tile[%ty, %k] : memref<8x8xf32, 3>
        %y = memref.load %b_tile[%k, %tx] : memref<8x8xf32, #gpu.address_space<workgroup>>
        %xy = arith.mulf %x, %y : f32
        %s1 = arith.addf %s, %xy : f32
        scf.yield %s1 : f32
      }
      gpu.barrier
      scf.yield %next : f32
    }
    memref.store %sum, %C[%row, %col] : memref<32x16xf32>
    gpu.terminator
  }

  scf.for %i = %c0 to %c32 step %c1 {
    scf.for %j = %c0 to %c16 step %c1 {
      %dot = scf.for %k = %c0 to %c48 step %c1 iter_args(%s = %fzero) -> (f32) {
        %x = memref.load %A[%i, %k] : memref<32x48xf32>
        %y = memref.load %B[%k, %j] : memref<48x16xf32>
        %xy = arith.mulf %x, %y : f32
        %s1 = arith.addf %s, %xy : f32
        scf.yield %s1 : f32
      }
      memref.store %dot, %ref[%i, %j] : memref<32x16xf32>
    }
  }

  // C[0][0], C[5][9], C[20][2], C[31][15]
  %g0 = memref.load %C[%c0, %c0] : memref<32x16xf32>
  %g1 = memref.load %C[%c5, %c9] : memref<32x16xf32>
  %g2 = memref.load %C[%c20, %c2] : memref<32x16xf32>
  %g3 = memref.load %C[%c31, %c15] : memref<32x16xf32>
  %gv = vector.from_elements %g0, %g1, %g2, %g3 : vector<4xf32>
  vector.print str "gpu:  "
  vector.print %gv : vector<4xf32>
  %h0 = memref.load %ref[%c0, %c0] : memref<32x16xf32>
  %h1 = memref.load %ref[%c5, %c9] : memref<32x16xf32>
  %h2 = memref.load %ref[%c20, %c2] : memref<32x16xf32>
  %h3 = memref.load %ref[%c31, %c15] : memref<32x16xf32>
  %hv = vector.from_elements %h0, %h1, %h2, %h3 : vector<4xf32>
  vector.print str "host: "
  vector.print %hv : vector<4xf32>

  %bad = scf.for %i = %c0 to %c32 step %c1 iter_args(%acc = %zero) -> (i32) {
    %rb = scf.for %j = %c0 to %c16 step %c1 iter_args(%n = %acc) -> (i32) {
      %got = memref.load %C[%i, %j] : memref<32x16xf32>
      %want = memref.load %ref[%i, %j] : memref<32x16xf32>
      %ne = arith.cmpf une, %got, %want : f32
      %inc = arith.select %ne, %one, %zero : i32
      %n1 = arith.addi %n, %inc : i32
      scf.yield %n1 : i32
    }
    scf.yield %rb : i32
  }
  vector.print str "mismatches: "
  vector.print %bad : i32

  gpu.host_unregister %A_u : memref<*xf32>
  gpu.host_unregister %B_u : memref<*xf32>
  gpu.host_unregister %C_u : memref<*xf32>
  memref.dealloc %A : memref<32x48xf32>
  memref.dealloc %B : memref<48x16xf32>
  memref.dealloc %C : memref<32x16xf32>
  memref.dealloc %ref : memref<32x16xf32>
  return
}

// (s mod (2h+1)) - h: an integer in -h .. h.
func.func @centered(%s: index, %h: index) -> f32 {
  %c1 = arith.constant 1 : index
  %h2 = arith.addi %h, %h : index
  %m = arith.addi %h2, %c1 : index
  %r = arith.remui %s, %m : index
  %v = arith.subi %r, %h : index
  %vi = arith.index_cast %v : index to i64
  %f = arith.sitofp %vi : i64 to f32
  return %f : f32
}
