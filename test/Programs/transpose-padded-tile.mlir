// RUN: gpumem-run --target=cpu %s | FileCheck %s --match-full-lines --strict-whitespace

// Transpose of a 48x80 f32 matrix (out is 80x48) through a padded 16x17
// shared tile, on a non-square grid of 5x3 blocks of 16x4 threads. Each
// thread moves four elements of the tile (rows ty, ty+4, ty+8, ty+12), so
// the tile is written and read by loops around a single gpu.barrier.
// in[i][j] = 100*i + j, so out[j][i] must be 100*i + j.

// CHECK:gpu:  ( 100, 1, 4779, 1238, 3012 )
// CHECK-NEXT:host: ( 100, 1, 4779, 1238, 3012 )
// CHECK-NEXT:untouched: 0
// CHECK-NEXT:mismatches: 0

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c12 = arith.constant 12 : index
  %c16 = arith.constant 16 : index
  %c38 = arith.constant 38 : index
  %c47 = arith.constant 47 : index
  %c48 = arith.constant 48 : index
  %c79 = arith.constant 79 : index
  %c80 = arith.constant 80 : index
  %c100 = arith.constant 100 : index
  %minus1 = arith.constant -1.0 : f32
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32

  %in = memref.alloc() : memref<48x80xf32>
  %out = memref.alloc() : memref<80x48xf32>
  scf.for %i = %c0 to %c48 step %c1 {
    scf.for %j = %c0 to %c80 step %c1 {
      %i100 = arith.muli %i, %c100 : index
      %n = arith.addi %i100, %j : index
      %ni = arith.index_cast %n : index to i64
      %v = arith.sitofp %ni : i64 to f32
      memref.store %v, %in[%i, %j] : memref<48x80xf32>
    }
  }
  scf.for %i = %c0 to %c80 step %c1 {
    scf.for %j = %c0 to %c48 step %c1 {
      memref.store %minus1, %out[%i, %j] : memref<80x48xf32>
    }
  }
  %in_u = memref.cast %in : memref<48x80xf32> to memref<*xf32>
  gpu.host_register %in_u : memref<*xf32>
  %out_u = memref.cast %out : memref<80x48xf32> to memref<*xf32>
  gpu.host_register %out_u : memref<*xf32>

  // Block (bx, by) reads in[by*16 .. +16][bx*16 .. +16].
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c5, %gy = %c3, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c16, %sy = %c4, %sz = %c1) {
    %tile = memref.alloca() : memref<16x17xf32, 3>
    %row0 = arith.muli %by, %c16 : index
    %col0 = arith.muli %bx, %c16 : index
    %col = arith.addi %col0, %tx : index
    scf.for %r = %c0 to %c16 step %c4 {
      %trow = arith.addi %ty, %r : index
      %row = arith.addi %row0, %trow : index
      %v = memref.load %in[%row, %col] : memref<48x80xf32>
      memref.store %v, %tile[%trow, %tx] : memref<16x17xf32, 3>
    }
    gpu.barrier
    // out[bx*16 + ty + r][by*16 + tx] = tile[tx][ty + r]
    %ocol = arith.addi %row0, %tx : index
    scf.for %r = %c0 to %c16 step %c4 {
      %trow = arith.addi %ty, %r : index
      %orow = arith.addi %col0, %trow : index
      %w = memref.load %tile[%tx, %trow] : memref<16x17xf32, 3>
      memref.store %w, %out[%orow, %ocol] : memref<80x48xf32>
    }
    gpu.terminator
  }

  // out[0][1], out[1][0], out[79][47], out[38][12], out[12][30]
  %c30 = arith.constant 30 : index
  %g0 = memref.load %out[%c0, %c1] : memref<80x48xf32>
  %g1 = memref.load %out[%c1, %c0] : memref<80x48xf32>
  %g2 = memref.load %out[%c79, %c47] : memref<80x48xf32>
  %g3 = memref.load %out[%c38, %c12] : memref<80x48xf32>
  %g4 = memref.load %out[%c12, %c30] : memref<80x48xf32>
  %gv = vector.from_elements %g0, %g1, %g2, %g3, %g4 : vector<5xf32>
  vector.print str "gpu:  "
  vector.print %gv : vector<5xf32>

  %h0 = func.call @expected(%c0, %c1) : (index, index) -> f32
  %h1 = func.call @expected(%c1, %c0) : (index, index) -> f32
  %h2 = func.call @expected(%c79, %c47) : (index, index) -> f32
  %h3 = func.call @expected(%c38, %c12) : (index, index) -> f32
  %h4 = func.call @expected(%c12, %c30) : (index, index) -> f32
  %hv = vector.from_elements %h0, %h1, %h2, %h3, %h4 : vector<5xf32>
  vector.print str "host: "
  vector.print %hv : vector<5xf32>

  // Every element of out written (none still -1) and equal to in^T.
  %untouched, %bad = scf.for %i = %c0 to %c80 step %c1
      iter_args(%u = %zero, %b = %zero) -> (i32, i32) {
    %ru, %rb = scf.for %j = %c0 to %c48 step %c1
        iter_args(%u1 = %u, %b1 = %b) -> (i32, i32) {
      %got = memref.load %out[%i, %j] : memref<80x48xf32>
      %want = memref.load %in[%j, %i] : memref<48x80xf32>
      %isneg = arith.cmpf oeq, %got, %minus1 : f32
      %ne = arith.cmpf une, %got, %want : f32
      %incu = arith.select %isneg, %one, %zero : i32
      %incb = arith.select %ne, %one, %zero : i32
      %u2 = arith.addi %u1, %incu : i32
      %b2 = arith.addi %b1, %incb : i32
      scf.yield %u2, %b2 : i32, i32
    }
    scf.yield %ru, %rb : i32, i32
  }
  vector.print str "untouched: "
  vector.print %untouched : i32
  vector.print str "mismatches: "
  vector.print %bad : i32

  gpu.host_unregister %in_u : memref<*xf32>
  gpu.host_unregister %out_u : memref<*xf32>
  memref.dealloc %in : memref<48x80xf32>
  memref.dealloc %out : memref<80x48xf32>
  return
}

// out[i][j] = in[j][i] = 100 * j + i.
func.func @expected(%i: index, %j: index) -> f32 {
  %c100 = arith.constant 100 : index
  %j100 = arith.muli %j, %c100 : index
  %n = arith.addi %j100, %i : index
  %ni = arith.index_cast %n : index to i64
  %v = arith.sitofp %ni : i64 to f32
  return %v : f32
}
