// Tiled matrix multiplication in shared memory: C = A x B for 64x64 f32
// matrices, 16x16 tiles, grid 4x4, block 16x16. gpumem's headline example.
//
// What it shows: the textbook shared-memory matmul written the natural way,
// with the two tile buffers allocated by plain `memref.alloca` in workgroup
// memory space (3) *inside* the K loop of the `gpu.launch` body. gpumem
// turns them into two per-block shared arrays (allocated once, not once per
// iteration); upstream MLIR 22 alone would give every thread its own private
// copy, so the tiles would never be shared and C would be wrong.
//
// Block (bx, by) computes the 16x16 tile of C at rows by*16.., columns
// bx*16..; thread (tx, ty) computes C[by*16+ty][bx*16+tx]. For each of the
// 4 tiles t along K:
//   a[ty][tx] = A[by*16+ty][t*16+tx]     (each thread loads one element
//   b[ty][tx] = B[t*16+ty][bx*16+tx]      of each tile)
//   barrier                               (the tiles are complete)
//   acc += sum over k < 16 of a[ty][k] * b[k][tx]
//   barrier                               (nobody still reads the tiles
//                                          when the next t overwrites them)
//
// Inputs: A[i][k] = (i*k mod 17) - 8 and B[k][j] = ((k + 3*j) mod 13) - 6,
// small integers, so every product and sum is an integer of magnitude below
// 2^24 and exact in f32 in any order (also with fused multiply-adds). The
// program prints four elements of C from the GPU, the same four from a plain
// triple loop on the host, and the number of elements (of all 4096) where
// the GPU and the host disagree. Expected output (on every target):
//
//   gpu:  ( 48, -76, -32, -71 )
//   host: ( 48, -76, -32, -71 )
//   mismatches: 0
//
// (These are C[0][0], C[1][2], C[17][40] and C[63][63].)
//
// Compile it and see the kernel's shared memory (ptxas -v: two tiles of
// 16 * 16 * 4 = 1024 bytes, 2048 bytes in all):
//
//   build/bin/gpumem-opt examples/tiled-matmul.mlir \
//       --gpumem-cuda-pipeline="chip=sm_90 format=isa" \
//     | build/bin/gpumem-objects smem -
//
// `build/bin/gpumem-objects ptx -` instead shows the PTX: two
// `.shared .align 16 .b8 ...[1024]` arrays and no `__local_depot`. The program
// has the shape of upstream MLIR's mlir/test/Integration/GPU/CUDA tests, so
// the pipeline's output also runs with a build of upstream's CUDA runtime
// (libmlir_cuda_runtime.so, which Debian does not ship) under mlir-runner.
// gpumem-run runs it on the cpu, cuda-emu and cuda targets.

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %c17 = arith.constant 17 : index
  %c40 = arith.constant 40 : index
  %c63 = arith.constant 63 : index
  %c64 = arith.constant 64 : index
  %fzero = arith.constant 0.0 : f32
  %minus1 = arith.constant -1.0 : f32
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32

  // Host buffers: A and B as above, C = -1, and the host's reference.
  %A = memref.alloc() : memref<64x64xf32>
  %B = memref.alloc() : memref<64x64xf32>
  %C = memref.alloc() : memref<64x64xf32>
  %ref = memref.alloc() : memref<64x64xf32>
  scf.for %i = %c0 to %c64 step %c1 {
    scf.for %j = %c0 to %c64 step %c1 {
      %a = func.call @a_value(%i, %j) : (index, index) -> f32
      memref.store %a, %A[%i, %j] : memref<64x64xf32>
      %b = func.call @b_value(%i, %j) : (index, index) -> f32
      memref.store %b, %B[%i, %j] : memref<64x64xf32>
      memref.store %minus1, %C[%i, %j] : memref<64x64xf32>
    }
  }

  // Make the three device buffers visible to the device.
  %A_u = memref.cast %A : memref<64x64xf32> to memref<*xf32>
  gpu.host_register %A_u : memref<*xf32>
  %B_u = memref.cast %B : memref<64x64xf32> to memref<*xf32>
  gpu.host_register %B_u : memref<*xf32>
  %C_u = memref.cast %C : memref<64x64xf32> to memref<*xf32>
  gpu.host_register %C_u : memref<*xf32>

  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c4, %gy = %c4, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c16, %sy = %c16, %sz = %c1) {
    %row0 = arith.muli %by, %c16 : index
    %col0 = arith.muli %bx, %c16 : index
    %row = arith.addi %row0, %ty : index
    %col = arith.addi %col0, %tx : index

    %sum = scf.for %t = %c0 to %c4 step %c1
        iter_args(%acc = %fzero) -> (f32) {
      // This iteration's tiles of A and B, shared by the whole block.
      %a_tile = memref.alloca() : memref<16x16xf32, 3>
      %b_tile = memref.alloca() : memref<16x16xf32, 3>

      %k0 = arith.muli %t, %c16 : index
      %a_col = arith.addi %k0, %tx : index
      %b_row = arith.addi %k0, %ty : index
      %a = memref.load %A[%row, %a_col] : memref<64x64xf32>
      memref.store %a, %a_tile[%ty, %tx] : memref<16x16xf32, 3>
      %b = memref.load %B[%b_row, %col] : memref<64x64xf32>
      memref.store %b, %b_tile[%ty, %tx] : memref<16x16xf32, 3>

      // Wait until all 256 elements of both tiles are written.
      gpu.barrier

      %next = scf.for %k = %c0 to %c16 step %c1
          iter_args(%s = %acc) -> (f32) {
        %x = memref.load %a_tile[%ty, %k] : memref<16x16xf32, 3>
        %y = memref.load %b_tile[%k, %tx] : memref<16x16xf32, 3>
        %xy = arith.mulf %x, %y : f32
        %s1 = arith.addf %s, %xy : f32
        scf.yield %s1 : f32
      }

      // Wait until everybody is done with the tiles before the next
      // iteration overwrites them.
      gpu.barrier
      scf.yield %next : f32
    }

    memref.store %sum, %C[%row, %col] : memref<64x64xf32>
    gpu.terminator
  }

  // The reference on the host: a plain triple loop.
  scf.for %i = %c0 to %c64 step %c1 {
    scf.for %j = %c0 to %c64 step %c1 {
      %dot = scf.for %k = %c0 to %c64 step %c1
          iter_args(%s = %fzero) -> (f32) {
        %x = memref.load %A[%i, %k] : memref<64x64xf32>
        %y = memref.load %B[%k, %j] : memref<64x64xf32>
        %xy = arith.mulf %x, %y : f32
        %s1 = arith.addf %s, %xy : f32
        scf.yield %s1 : f32
      }
      memref.store %dot, %ref[%i, %j] : memref<64x64xf32>
    }
  }

  // Four elements from the GPU ...
  %g0 = memref.load %C[%c0, %c0] : memref<64x64xf32>
  %g1 = memref.load %C[%c1, %c2] : memref<64x64xf32>
  %g2 = memref.load %C[%c17, %c40] : memref<64x64xf32>
  %g3 = memref.load %C[%c63, %c63] : memref<64x64xf32>
  %gpu = vector.from_elements %g0, %g1, %g2, %g3 : vector<4xf32>
  vector.print str "gpu:  "
  vector.print %gpu : vector<4xf32>

  // ... the same four from the host ...
  %h0 = memref.load %ref[%c0, %c0] : memref<64x64xf32>
  %h1 = memref.load %ref[%c1, %c2] : memref<64x64xf32>
  %h2 = memref.load %ref[%c17, %c40] : memref<64x64xf32>
  %h3 = memref.load %ref[%c63, %c63] : memref<64x64xf32>
  %host = vector.from_elements %h0, %h1, %h2, %h3 : vector<4xf32>
  vector.print str "host: "
  vector.print %host : vector<4xf32>

  // ... and all 4096 compared.
  %bad = scf.for %i = %c0 to %c64 step %c1 iter_args(%acc = %zero) -> (i32) {
    %row_bad = scf.for %j = %c0 to %c64 step %c1 iter_args(%n = %acc) -> (i32) {
      %got = memref.load %C[%i, %j] : memref<64x64xf32>
      %want = memref.load %ref[%i, %j] : memref<64x64xf32>
      %ne = arith.cmpf une, %got, %want : f32
      %inc = arith.select %ne, %one, %zero : i32
      %n1 = arith.addi %n, %inc : i32
      scf.yield %n1 : i32
    }
    scf.yield %row_bad : i32
  }
  vector.print str "mismatches: "
  vector.print %bad : i32

  gpu.host_unregister %A_u : memref<*xf32>
  gpu.host_unregister %B_u : memref<*xf32>
  gpu.host_unregister %C_u : memref<*xf32>
  memref.dealloc %A : memref<64x64xf32>
  memref.dealloc %B : memref<64x64xf32>
  memref.dealloc %C : memref<64x64xf32>
  memref.dealloc %ref : memref<64x64xf32>
  return
}

// A[i][k] = (i * k mod 17) - 8, in -8 .. 8.
func.func @a_value(%i: index, %k: index) -> f32 {
  %c8 = arith.constant 8 : index
  %c17 = arith.constant 17 : index
  %ik = arith.muli %i, %k : index
  %m = arith.remui %ik, %c17 : index
  %v = arith.subi %m, %c8 : index
  %vi = arith.index_cast %v : index to i64
  %f = arith.sitofp %vi : i64 to f32
  return %f : f32
}

// B[k][j] = ((k + 3 * j) mod 13) - 6, in -6 .. 6.
func.func @b_value(%k: index, %j: index) -> f32 {
  %c3 = arith.constant 3 : index
  %c6 = arith.constant 6 : index
  %c13 = arith.constant 13 : index
  %j3 = arith.muli %j, %c3 : index
  %kj = arith.addi %k, %j3 : index
  %m = arith.remui %kj, %c13 : index
  %v = arith.subi %m, %c6 : index
  %vi = arith.index_cast %v : index to i64
  %f = arith.sitofp %vi : i64 to f32
  return %f : f32
}
