// RUN: gpumem-run --target=cpu %s | FileCheck %s --match-full-lines --strict-whitespace

// 64 KiB of dynamic shared memory per block (more than the 48 KiB of static
// shared memory a CUDA kernel may declare), through gpu.launch_func with
// dynamic_shared_memory_size on a gpu.func kernel. 2 blocks of 256 threads;
// the buffer is viewed as 16384 i32. Thread t writes v(k, i) = 100000k + i
// to the 64 entries i = t, t+256, ..., t+16128 of block k; after a barrier
// it sums the 64 entries i = 255-t, 511-t, ... written by thread 255-t.
// out[k*256 + t] must be sum_j (100000k + 255 - t + 256j) for j < 64.

// CHECK:gpu:  ( 532416, 532352, 6932352, 6916096 )
// CHECK-NEXT:host: ( 532416, 532352, 6932352, 6916096 )
// CHECK-NEXT:mismatches: 0

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @big(%out: memref<512xi32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c64 = arith.constant 64 : index
      %c255 = arith.constant 255 : index
      %c256 = arith.constant 256 : index
      %k100000 = arith.constant 100000 : index
      %i0 = arith.constant 0 : i32
      %bx = gpu.block_id x
      %tx = gpu.thread_id x
      %dyn = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %buf = memref.view %dyn[%c0][] : memref<?xi8, #gpu.address_space<workgroup>>
          to memref<16384xi32, #gpu.address_space<workgroup>>
      %base = arith.muli %bx, %k100000 : index
      scf.for %j = %c0 to %c64 step %c1 {
        %j256 = arith.muli %j, %c256 : index
        %i = arith.addi %j256, %tx : index
        %v = arith.addi %base, %i : index
        %vi = arith.index_cast %v : index to i32
        memref.store %vi, %buf[%i] : memref<16384xi32, #gpu.address_space<workgroup>>
      }
      gpu.barrier
      %other = arith.subi %c255, %tx : index
      %s = scf.for %j = %c0 to %c64 step %c1 iter_args(%acc = %i0) -> (i32) {
        %j256 = arith.muli %j, %c256 : index
        %i = arith.addi %j256, %other : index
        %x = memref.load %buf[%i] : memref<16384xi32, #gpu.address_space<workgroup>>
        %a = arith.addi %acc, %x : i32
        scf.yield %a : i32
      }
      %g0 = arith.muli %bx, %c256 : index
      %g = arith.addi %g0, %tx : index
      memref.store %s, %out[%g] : memref<512xi32>
      gpu.return
    }
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c64 = arith.constant 64 : index
    %c255 = arith.constant 255 : index
    %c256 = arith.constant 256 : index
    %c512 = arith.constant 512 : index
    %bytes = arith.constant 65536 : i32
    %i0 = arith.constant 0 : i32
    %out = memref.alloc() : memref<512xi32>
    %out_u = memref.cast %out : memref<512xi32> to memref<*xi32>
    gpu.host_register %out_u : memref<*xi32>
    gpu.launch_func @kernels::@big blocks in (%c2, %c1, %c1) threads in (%c256, %c1, %c1)
        dynamic_shared_memory_size %bytes args(%out : memref<512xi32>)

    %ref = memref.alloc() : memref<512xi32>
    %k100000 = arith.constant 100000 : index
    %bad = scf.for %g = %c0 to %c512 step %c1 iter_args(%n = %i0) -> (i32) {
      %k = arith.divui %g, %c256 : index
      %t = arith.remui %g, %c256 : index
      %other = arith.subi %c255, %t : index
      %base = arith.muli %k, %k100000 : index
      %want = scf.for %j = %c0 to %c64 step %c1 iter_args(%acc = %i0) -> (i32) {
        %j256 = arith.muli %j, %c256 : index
        %i = arith.addi %j256, %other : index
        %v = arith.addi %base, %i : index
        %vi = arith.index_cast %v : index to i32
        %a = arith.addi %acc, %vi : i32
        scf.yield %a : i32
      }
      memref.store %want, %ref[%g] : memref<512xi32>
      %got = memref.load %out[%g] : memref<512xi32>
      %ne = arith.cmpi ne, %got, %want : i32
      %inc = arith.extui %ne : i1 to i32
      %n1 = arith.addi %n, %inc : i32
      scf.yield %n1 : i32
    }
    %c257 = arith.constant 257 : index
    %c511 = arith.constant 511 : index
    %g0 = memref.load %out[%c0] : memref<512xi32>
    %g1 = memref.load %out[%c1] : memref<512xi32>
    %g2 = memref.load %out[%c257] : memref<512xi32>
    %g3 = memref.load %out[%c511] : memref<512xi32>
    %gv = vector.from_elements %g0, %g1, %g2, %g3 : vector<4xi32>
    %h0 = memref.load %ref[%c0] : memref<512xi32>
    %h1 = memref.load %ref[%c1] : memref<512xi32>
    %h2 = memref.load %ref[%c257] : memref<512xi32>
    %h3 = memref.load %ref[%c511] : memref<512xi32>
    %hv = vector.from_elements %h0, %h1, %h2, %h3 : vector<4xi32>
    vector.print str "gpu:  "
    vector.print %gv : vector<4xi32>
    vector.print str "host: "
    vector.print %hv : vector<4xi32>
    vector.print str "mismatches: "
    vector.print %bad : i32
    gpu.host_unregister %out_u : memref<*xi32>
    memref.dealloc %out : memref<512xi32>
    memref.dealloc %ref : memref<512xi32>
    return
  }
}
