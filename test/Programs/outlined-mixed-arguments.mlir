// RUN: gpumem-run --target=cpu %s | FileCheck %s --match-full-lines --strict-whitespace

// A kernel written already outlined whose arguments interleave scalars and
// memrefs (f32, a 2-D memref, i32, a 1-D memref), with a workgroup and a
// private attribution: the shape in which a target that rewrites memref
// arguments must keep the attributions behind them intact. One block of 32
// threads, thread t at row t / 8, column t % 8 of `in` (in[r][c] = 8r + c):
// tile[t] = in[r][c] * scale + off; after a barrier each thread gathers
// tile[(t + 8k) mod 32] for k = 0..3 into its private array and sums it:
// out[t] = 2 * (t mod 8) + 28.

// CHECK:( 28, 30, 32, 34, 36, 38, 40, 42, 28, 30, 32, 34, 36, 38, 40, 42, 28, 30, 32, 34, 36, 38, 40, 42, 28, 30, 32, 34, 36, 38, 40, 42 )

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @mix(%scale: f32, %in: memref<4x8xf32>, %off: i32,
                  %out: memref<32xf32>)
        workgroup(%tile : memref<32xf32, #gpu.address_space<workgroup>>)
        private(%acc : memref<4xf32, #gpu.address_space<private>>)
        kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %c32 = arith.constant 32 : index
      %zero = arith.constant 0.0 : f32
      %t = gpu.thread_id x
      %r = arith.divui %t, %c8 : index
      %c = arith.remui %t, %c8 : index
      %v = memref.load %in[%r, %c] : memref<4x8xf32>
      %offf = arith.sitofp %off : i32 to f32
      %scaled = arith.mulf %v, %scale : f32
      %w = arith.addf %scaled, %offf : f32
      memref.store %w, %tile[%t] : memref<32xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      scf.for %k = %c0 to %c4 step %c1 {
        %k8 = arith.muli %k, %c8 : index
        %j0 = arith.addi %t, %k8 : index
        %j = arith.remui %j0, %c32 : index
        %x = memref.load %tile[%j] : memref<32xf32, #gpu.address_space<workgroup>>
        memref.store %x, %acc[%k] : memref<4xf32, #gpu.address_space<private>>
      }
      %sum = scf.for %k = %c0 to %c4 step %c1 iter_args(%s = %zero) -> (f32) {
        %x = memref.load %acc[%k] : memref<4xf32, #gpu.address_space<private>>
        %s1 = arith.addf %s, %x : f32
        scf.yield %s1 : f32
      }
      memref.store %sum, %out[%t] : memref<32xf32>
      gpu.return
    }
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c32 = arith.constant 32 : index
    %in = memref.alloc() : memref<4x8xf32>
    %out = memref.alloc() : memref<32xf32>
    scf.for %r = %c0 to %c4 step %c1 {
      scf.for %c = %c0 to %c8 step %c1 {
        %r8 = arith.muli %r, %c8 : index
        %i = arith.addi %r8, %c : index
        %ii = arith.index_cast %i : index to i32
        %f = arith.sitofp %ii : i32 to f32
        memref.store %f, %in[%r, %c] : memref<4x8xf32>
      }
    }
    %scale = arith.constant 0.5 : f32
    %off = arith.constant 1 : i32
    gpu.launch_func @kernels::@mix
        blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1)
        args(%scale : f32, %in : memref<4x8xf32>, %off : i32,
             %out : memref<32xf32>)
    %pad = arith.constant 0.0 : f32
    %v = vector.transfer_read %out[%c0], %pad : memref<32xf32>, vector<32xf32>
    vector.print %v : vector<32xf32>
    return
  }
}
