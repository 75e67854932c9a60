// RUN: gpumem-run --target=cpu %s | FileCheck %s --match-full-lines --strict-whitespace

// Several kernels in two gpu.modules of a gpu.container_module, written
// directly as gpu.func kernels and launched with gpu.launch_func:
//  - @mod_a::@fill   buf[g] = base + g               (memref<?xi32>, i32)
//  - @mod_a::@scale  buf[g] = buf[g] * k             (memref<?xi32>, index)
//  - @mod_b::@fill   same name as in @mod_a but a different body:
//                    buf[i][j] = 100*i + j on a 2-D memref<4x16xi32>
//  - @mod_b::@sum    block-wide sum through a workgroup attribution and a
//                    private attribution, writes out[bx]; it also calls a
//                    device function @twice in its module.
// The kernels run one after the other on the same buffers; the host
// computes the same values.

// CHECK:after a.fill:  ( 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 64, 65, 66, 67, 68, 69, 70, 71, 72, 73 )
// CHECK-NEXT:after a.scale: ( 30, 33, 36, 39, 42, 45, 48, 51, 54, 57, 60, 63, 66, 69, 72, 75, 78, 81, 84, 87, 90, 93, 96, 99, 102, 105, 108, 111, 114, 117, 120, 123, 126, 129, 132, 135, 138, 141, 144, 147, 150, 153, 156, 159, 162, 165, 168, 171, 174, 177, 180, 183, 186, 189, 192, 195, 198, 201, 204, 207, 210, 213, 216, 219 )
// CHECK-NEXT:b.fill rows:   ( 0, 1, 15, 100, 215, 315 )
// CHECK-NEXT:b.sum: ( 240, 3441, 6642, 9843 ) host: ( 240, 3441, 6642, 9843 )
// CHECK-NEXT:ok

module attributes {gpu.container_module} {
  gpu.module @mod_a {
    gpu.func @fill(%buf: memref<?xi32>, %base: i32) kernel {
      %bx = gpu.block_id x
      %bd = gpu.block_dim x
      %tx = gpu.thread_id x
      %o = arith.muli %bx, %bd : index
      %g = arith.addi %o, %tx : index
      %gi = arith.index_cast %g : index to i32
      %v = arith.addi %base, %gi : i32
      memref.store %v, %buf[%g] : memref<?xi32>
      gpu.return
    }
    gpu.func @scale(%buf: memref<?xi32>, %k: index) kernel {
      %c0 = arith.constant 0 : index
      %g = gpu.global_id x
      %n = memref.dim %buf, %c0 : memref<?xi32>
      %in = arith.cmpi ult, %g, %n : index
      scf.if %in {
        %v = memref.load %buf[%g] : memref<?xi32>
        %ki = arith.index_cast %k : index to i32
        %w = arith.muli %v, %ki : i32
        memref.store %w, %buf[%g] : memref<?xi32>
      }
      gpu.return
    }
  }

  gpu.module @mod_b {
    gpu.func @fill(%m: memref<4x16xi32>) kernel {
      %i = gpu.block_id x
      %j = gpu.thread_id x
      %c100 = arith.constant 100 : index
      %r = arith.muli %i, %c100 : index
      %v = arith.addi %r, %j : index
      %vi = arith.index_cast %v : index to i32
      memref.store %vi, %m[%i, %j] : memref<4x16xi32>
      gpu.return
    }
    // out[bx] = bx + 2 * (sum of the 16 values of row bx of %m).
    gpu.func @sum(%m: memref<4x16xi32>, %out: memref<4xi32>)
        workgroup(%tmp : memref<16xi32, #gpu.address_space<workgroup>>)
        private(%mine : memref<1xi32, #gpu.address_space<private>>)
        kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %bx = gpu.block_id x
      %tx = gpu.thread_id x
      %v = memref.load %m[%bx, %tx] : memref<4x16xi32>
      %v2 = func.call @twice(%v) : (i32) -> i32
      memref.store %v2, %mine[%c0] : memref<1xi32, #gpu.address_space<private>>
      %p = memref.load %mine[%c0] : memref<1xi32, #gpu.address_space<private>>
      memref.store %p, %tmp[%tx] : memref<16xi32, #gpu.address_space<workgroup>>
      gpu.barrier
      %first = arith.cmpi eq, %tx, %c0 : index
      scf.if %first {
        %bxi = arith.index_cast %bx : index to i32
        %s = scf.for %k = %c0 to %c16 step %c1 iter_args(%acc = %bxi) -> (i32) {
          %x = memref.load %tmp[%k] : memref<16xi32, #gpu.address_space<workgroup>>
          %a = arith.addi %acc, %x : i32
          scf.yield %a : i32
        }
        memref.store %s, %out[%bx] : memref<4xi32>
      }
      gpu.return
    }
    func.func @twice(%x: i32) -> i32 {
      %y = arith.addi %x, %x : i32
      return %y : i32
    }
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c15 = arith.constant 15 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %base = arith.constant 10 : i32

    %buf = memref.alloc(%c64) : memref<?xi32>
    %buf_u = memref.cast %buf : memref<?xi32> to memref<*xi32>
    gpu.host_register %buf_u : memref<*xi32>
    %m = memref.alloc() : memref<4x16xi32>
    %m_u = memref.cast %m : memref<4x16xi32> to memref<*xi32>
    gpu.host_register %m_u : memref<*xi32>
    %out = memref.alloc() : memref<4xi32>
    %out_u = memref.cast %out : memref<4xi32> to memref<*xi32>
    gpu.host_register %out_u : memref<*xi32>

    gpu.launch_func @mod_a::@fill blocks in (%c2, %c1, %c1) threads in (%c32, %c1, %c1)
        args(%buf : memref<?xi32>, %base : i32)
    %v1 = vector.transfer_read %buf[%c0], %base {in_bounds = [true]} : memref<?xi32>, vector<64xi32>
    vector.print str "after a.fill:  "
    vector.print %v1 : vector<64xi32>

    // 3 blocks of 32 threads for 64 elements: the kernel checks bounds.
    gpu.launch_func @mod_a::@scale blocks in (%c3, %c1, %c1) threads in (%c32, %c1, %c1)
        args(%buf : memref<?xi32>, %c3 : index)
    %v2 = vector.transfer_read %buf[%c0], %base {in_bounds = [true]} : memref<?xi32>, vector<64xi32>
    vector.print str "after a.scale: "
    vector.print %v2 : vector<64xi32>

    gpu.launch_func @mod_b::@fill blocks in (%c4, %c1, %c1) threads in (%c16, %c1, %c1)
        args(%m : memref<4x16xi32>)
    %e0 = memref.load %m[%c0, %c0] : memref<4x16xi32>
    %e1 = memref.load %m[%c0, %c1] : memref<4x16xi32>
    %e2 = memref.load %m[%c0, %c15] : memref<4x16xi32>
    %e3 = memref.load %m[%c1, %c0] : memref<4x16xi32>
    %e4 = memref.load %m[%c2, %c15] : memref<4x16xi32>
    %e5 = memref.load %m[%c3, %c15] : memref<4x16xi32>
    %ev = vector.from_elements %e0, %e1, %e2, %e3, %e4, %e5 : vector<6xi32>
    vector.print str "b.fill rows:   "
    vector.print %ev : vector<6xi32>

    gpu.launch_func @mod_b::@sum blocks in (%c4, %c1, %c1) threads in (%c16, %c1, %c1)
        args(%m : memref<4x16xi32>, %out : memref<4xi32>)

    // Host: out[i] = i + 2 * sum_j (100*i + j) = 3201*i + 240.
    %ref = memref.alloc() : memref<4xi32>
    %i0 = arith.constant 0 : i32
    scf.for %i = %c0 to %c4 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %s = scf.for %j = %c0 to %c16 step %c1 iter_args(%acc = %ii) -> (i32) {
        %x = memref.load %m[%i, %j] : memref<4x16xi32>
        %x2 = arith.addi %x, %x : i32
        %a = arith.addi %acc, %x2 : i32
        scf.yield %a : i32
      }
      memref.store %s, %ref[%i] : memref<4xi32>
    }
    %gs = vector.transfer_read %out[%c0], %i0 {in_bounds = [true]} : memref<4xi32>, vector<4xi32>
    %hs = vector.transfer_read %ref[%c0], %i0 {in_bounds = [true]} : memref<4xi32>, vector<4xi32>
    vector.print str "b.sum: "
    vector.print %gs : vector<4xi32> punctuation <no_punctuation>
    vector.print str " host: "
    vector.print %hs : vector<4xi32>
    %eq = arith.cmpi eq, %gs, %hs : vector<4xi32>
    %all = vector.reduction <and>, %eq : vector<4xi1> into i1
    scf.if %all {
      vector.print str "ok\n"
    } else {
      vector.print str "MISMATCH\n"
    }

    gpu.host_unregister %buf_u : memref<*xi32>
    gpu.host_unregister %m_u : memref<*xi32>
    gpu.host_unregister %out_u : memref<*xi32>
    memref.dealloc %buf : memref<?xi32>
    memref.dealloc %m : memref<4x16xi32>
    memref.dealloc %out : memref<4xi32>
    memref.dealloc %ref : memref<4xi32>
    return
  }
}
