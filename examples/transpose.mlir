// Matrix transpose through shared memory: out = transpose(in) for a 64x64
// f32 matrix, one 16x16 tile per block (grid 4x4, block 16x16).
//
// What it shows: a plain `memref.alloca` in workgroup memory space (3) inside
// the `gpu.launch` body is real per-block shared memory. Each block reads its
// tile of `in` row by row (coalesced), writes it to the shared tile, waits at
// `gpu.barrier`, then reads the tile column by column and writes it to the
// mirrored tile of `out`, again row by row (coalesced). The exchange only
// works because all 256 threads of the block see the same tile: thread
// (tx, ty) reads what thread (ty, tx) wrote.
//
// The tile is 16x17, not 16x16: with 17 floats per row, the column walk
// tile[tx][ty] (tx = 0..15) lands in 16 different banks of shared memory
// instead of the same bank, so the padding avoids 16-way bank conflicts.
// It costs 16 * 17 * 4 = 1088 bytes of shared memory per block.
//
// Input in[i][j] = 64 * i + j, so out[i][j] must be 64 * j + i. The program
// prints four elements read back from the GPU, the same four computed on the
// host from the formula, and the number of elements (of all 4096) where
// out[i][j] != in[j][i]. Expected output (on every target):
//
//   gpu:  ( 64, 1, 2437, 4094 )
//   host: ( 64, 1, 2437, 4094 )
//   mismatches: 0
//
// (out[0][1] = 64, out[1][0] = 1, out[5][38] = 64*38+5 = 2437,
//  out[62][63] = 64*63+62 = 4094.)
//
// Compile it and see the kernel's shared memory (ptxas -v, 1088 bytes):
//
//   build/bin/gpumem-opt examples/transpose.mlir \
//       --gpumem-cuda-pipeline="chip=sm_90 format=isa" \
//     | build/bin/gpumem-objects smem -
//
// `build/bin/gpumem-objects ptx -` instead shows the PTX: one
// `.shared .align 16 .b8 ...[1088]` array and no `__local_depot`. The program
// has the shape of upstream MLIR's mlir/test/Integration/GPU/CUDA tests, so
// the pipeline's output also runs with a build of upstream's CUDA runtime
// (libmlir_cuda_runtime.so, which Debian does not ship) under mlir-runner.
// gpumem-run runs it on the cpu, cuda-emu and cuda targets.

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c16 = arith.constant 16 : index
  %c38 = arith.constant 38 : index
  %c62 = arith.constant 62 : index
  %c63 = arith.constant 63 : index
  %c64 = arith.constant 64 : index
  %minus1 = arith.constant -1.0 : f32
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32

  // Host buffers: in[i][j] = 64 * i + j (0 .. 4095, exact in f32), out = -1.
  %in = memref.alloc() : memref<64x64xf32>
  %out = memref.alloc() : memref<64x64xf32>
  scf.for %i = %c0 to %c64 step %c1 {
    scf.for %j = %c0 to %c64 step %c1 {
      %i64 = arith.muli %i, %c64 : index
      %n = arith.addi %i64, %j : index
      %ni = arith.index_cast %n : index to i64
      %v = arith.sitofp %ni : i64 to f32
      memref.store %v, %in[%i, %j] : memref<64x64xf32>
      memref.store %minus1, %out[%i, %j] : memref<64x64xf32>
    }
  }

  // Make both buffers visible to the device.
  %in_u = memref.cast %in : memref<64x64xf32> to memref<*xf32>
  gpu.host_register %in_u : memref<*xf32>
  %out_u = memref.cast %out : memref<64x64xf32> to memref<*xf32>
  gpu.host_register %out_u : memref<*xf32>

  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c4, %gy = %c4, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c16, %sy = %c16, %sz = %c1) {
    // Shared by the 256 threads of the block; 17 wide to avoid bank
    // conflicts on the column read below.
    %tile = memref.alloca() : memref<16x17xf32, 3>

    // Block (bx, by) reads the input tile at rows by*16.., columns bx*16..
    %row0 = arith.muli %by, %c16 : index
    %col0 = arith.muli %bx, %c16 : index
    %row = arith.addi %row0, %ty : index
    %col = arith.addi %col0, %tx : index
    %v = memref.load %in[%row, %col] : memref<64x64xf32>
    memref.store %v, %tile[%ty, %tx] : memref<16x17xf32, 3>

    gpu.barrier

    // ... and writes the output tile at rows bx*16.., columns by*16..:
    // out[bx*16+ty][by*16+tx] = tile[tx][ty] = in[by*16+tx][bx*16+ty].
    %orow = arith.addi %col0, %ty : index
    %ocol = arith.addi %row0, %tx : index
    %w = memref.load %tile[%tx, %ty] : memref<16x17xf32, 3>
    memref.store %w, %out[%orow, %ocol] : memref<64x64xf32>
    gpu.terminator
  }

  // Four elements from the GPU ...
  %g0 = memref.load %out[%c0, %c1] : memref<64x64xf32>
  %g1 = memref.load %out[%c1, %c0] : memref<64x64xf32>
  %g2 = memref.load %out[%c5, %c38] : memref<64x64xf32>
  %g3 = memref.load %out[%c62, %c63] : memref<64x64xf32>
  %gpu = vector.from_elements %g0, %g1, %g2, %g3 : vector<4xf32>
  vector.print str "gpu:  "
  vector.print %gpu : vector<4xf32>

  // ... the same four from the formula out[i][j] = 64 * j + i ...
  %h0 = func.call @expected(%c0, %c1) : (index, index) -> f32
  %h1 = func.call @expected(%c1, %c0) : (index, index) -> f32
  %h2 = func.call @expected(%c5, %c38) : (index, index) -> f32
  %h3 = func.call @expected(%c62, %c63) : (index, index) -> f32
  %host = vector.from_elements %h0, %h1, %h2, %h3 : vector<4xf32>
  vector.print str "host: "
  vector.print %host : vector<4xf32>

  // ... and every element checked against the input: out[i][j] == in[j][i].
  %bad = scf.for %i = %c0 to %c64 step %c1 iter_args(%acc = %zero) -> (i32) {
    %row_bad = scf.for %j = %c0 to %c64 step %c1 iter_args(%a = %acc) -> (i32) {
      %got = memref.load %out[%i, %j] : memref<64x64xf32>
      %want = memref.load %in[%j, %i] : memref<64x64xf32>
      %ne = arith.cmpf une, %got, %want : f32
      %inc = arith.select %ne, %one, %zero : i32
      %next = arith.addi %a, %inc : i32
      scf.yield %next : i32
    }
    scf.yield %row_bad : i32
  }
  vector.print str "mismatches: "
  vector.print %bad : i32

  gpu.host_unregister %in_u : memref<*xf32>
  gpu.host_unregister %out_u : memref<*xf32>
  memref.dealloc %in : memref<64x64xf32>
  memref.dealloc %out : memref<64x64xf32>
  return
}

// The transposed value at out[i][j]: in[j][i] = 64 * j + i.
func.func @expected(%i: index, %j: index) -> f32 {
  %c64 = arith.constant 64 : index
  %j64 = arith.muli %j, %c64 : index
  %n = arith.addi %j64, %i : index
  %ni = arith.index_cast %n : index to i64
  %v = arith.sitofp %ni : i64 to f32
  return %v : f32
}
