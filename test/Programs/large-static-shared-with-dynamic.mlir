// RUN: gpumem-run --target=cpu %s | FileCheck %s --match-full-lines --strict-whitespace
// RUN: gpumem-run --target=cpu --check-dynamic-shared-bounds %s | FileCheck %s --match-full-lines --strict-whitespace

// 64 KiB of static workgroup memory (over NVIDIA's 48 KiB static limit: the
// cuda pipeline moves it into dynamic shared memory) in the same kernel as
// a dynamic-size buffer and the launch's own 24 dynamic bytes. 2 blocks of
// 256 threads. Thread t of block k writes tile[i] = 100000k + i for the 64
// entries i = t, t+256, ..., t+16128, and for t < n = 33 d[t] = t + 0.5,
// for t < 3 u[t] = 1000k + t. After a barrier it sums the 64 tile entries
// written by thread 255-t into out[256k + t]; thread 0 also sums d and u.

// CHECK:tile sums: ( 532416, 516096, 6932416, 6916096 )
// CHECK-NEXT:host:      ( 532416, 516096, 6932416, 6916096 )
// CHECK-NEXT:mismatches: 0
// CHECK-NEXT:d sums: ( 544.5, 544.5 )
// CHECK-NEXT:u sums: ( 3, 3003 )

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c64 = arith.constant 64 : index
  %c255 = arith.constant 255 : index
  %c256 = arith.constant 256 : index
  %c512 = arith.constant 512 : index
  %i0 = arith.constant 0 : i32
  %i0_64 = arith.constant 0 : i64
  %f0 = arith.constant 0.0 : f32
  %user = arith.constant 24 : i32
  %n = arith.constant 33 : index

  %out = memref.alloc() : memref<512xi32>
  %dsum = memref.alloc() : memref<2xf32>
  %usum = memref.alloc() : memref<2xi64>
  %out_u = memref.cast %out : memref<512xi32> to memref<*xi32>
  gpu.host_register %out_u : memref<*xi32>
  %dsum_u = memref.cast %dsum : memref<2xf32> to memref<*xf32>
  gpu.host_register %dsum_u : memref<*xf32>
  %usum_u = memref.cast %usum : memref<2xi64> to memref<*xi64>
  gpu.host_register %usum_u : memref<*xi64>

  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1)
             dynamic_shared_memory_size %user {
    %tile = memref.alloca() : memref<16384xi32, #gpu.address_space<workgroup>>
    %d = memref.alloca(%n) : memref<?xf32, #gpu.address_space<workgroup>>
    %dyn = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %u = memref.view %dyn[%c0][] : memref<?xi8, #gpu.address_space<workgroup>>
        to memref<3xi64, #gpu.address_space<workgroup>>
    %k100000 = arith.constant 100000 : index
    %base = arith.muli %bx, %k100000 : index
    scf.for %j = %c0 to %c64 step %c1 {
      %j256 = arith.muli %j, %c256 : index
      %i = arith.addi %j256, %tx : index
      %v = arith.addi %base, %i : index
      %vi = arith.index_cast %v : index to i32
      memref.store %vi, %tile[%i] : memref<16384xi32, #gpu.address_space<workgroup>>
    }
    %in_n = arith.cmpi ult, %tx, %n : index
    scf.if %in_n {
      %t64 = arith.index_cast %tx : index to i64
      %tf = arith.uitofp %t64 : i64 to f32
      %half = arith.constant 0.5 : f32
      %dv = arith.addf %tf, %half : f32
      memref.store %dv, %d[%tx] : memref<?xf32, #gpu.address_space<workgroup>>
    }
    %in_u = arith.cmpi ult, %tx, %c3 : index
    scf.if %in_u {
      %k1000 = arith.constant 1000 : index
      %u0 = arith.muli %bx, %k1000 : index
      %u1 = arith.addi %u0, %tx : index
      %u2 = arith.index_cast %u1 : index to i64
      memref.store %u2, %u[%tx] : memref<3xi64, #gpu.address_space<workgroup>>
    }
    gpu.barrier
    %partner = arith.subi %c255, %tx : index
    %sum = scf.for %j = %c0 to %c64 step %c1 iter_args(%acc = %i0) -> (i32) {
      %j256 = arith.muli %j, %c256 : index
      %i = arith.addi %j256, %partner : index
      %v = memref.load %tile[%i] : memref<16384xi32, #gpu.address_space<workgroup>>
      %a = arith.addi %acc, %v : i32
      scf.yield %a : i32
    }
    %g0 = arith.muli %bx, %c256 : index
    %g = arith.addi %g0, %tx : index
    memref.store %sum, %out[%g] : memref<512xi32>
    %first = arith.cmpi eq, %tx, %c0 : index
    scf.if %first {
      %ds = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %f0) -> (f32) {
        %v = memref.load %d[%i] : memref<?xf32, #gpu.address_space<workgroup>>
        %a = arith.addf %acc, %v : f32
        scf.yield %a : f32
      }
      memref.store %ds, %dsum[%bx] : memref<2xf32>
      %us = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %i0_64) -> (i64) {
        %v = memref.load %u[%i] : memref<3xi64, #gpu.address_space<workgroup>>
        %a = arith.addi %acc, %v : i64
        scf.yield %a : i64
      }
      memref.store %us, %usum[%bx] : memref<2xi64>
    }
    gpu.terminator
  }

  // out[256k + t] = sum_j (100000k + 255 - t + 256j), j < 64.
  %ref = memref.alloc() : memref<512xi32>
  %bad = scf.for %g = %c0 to %c512 step %c1 iter_args(%acc = %i0) -> (i32) {
    %k = arith.divui %g, %c256 : index
    %t = arith.remui %g, %c256 : index
    %p = arith.subi %c255, %t : index
    %k100000 = arith.constant 100000 : index
    %kb = arith.muli %k, %k100000 : index
    %kb64 = arith.muli %kb, %c64 : index
    %p64 = arith.muli %p, %c64 : index
    // sum_j 256j for j < 64 = 256 * 2016 = 516096
    %c516096 = arith.constant 516096 : index
    %w0 = arith.addi %kb64, %p64 : index
    %w1 = arith.addi %w0, %c516096 : index
    %w = arith.index_cast %w1 : index to i32
    memref.store %w, %ref[%g] : memref<512xi32>
    %got = memref.load %out[%g] : memref<512xi32>
    %ne = arith.cmpi ne, %got, %w : i32
    %inc = arith.extui %ne : i1 to i32
    %acc1 = arith.addi %acc, %inc : i32
    scf.yield %acc1 : i32
  }
  %gv = func.call @pick(%out) : (memref<512xi32>) -> vector<4xi32>
  %hv = func.call @pick(%ref) : (memref<512xi32>) -> vector<4xi32>
  vector.print str "tile sums: "
  vector.print %gv : vector<4xi32>
  vector.print str "host:      "
  vector.print %hv : vector<4xi32>
  vector.print str "mismatches: "
  vector.print %bad : i32
  %dv = vector.transfer_read %dsum[%c0], %f0 : memref<2xf32>, vector<2xf32>
  vector.print str "d sums: "
  vector.print %dv : vector<2xf32>
  %uv = vector.transfer_read %usum[%c0], %i0_64 : memref<2xi64>, vector<2xi64>
  vector.print str "u sums: "
  vector.print %uv : vector<2xi64>

  gpu.host_unregister %out_u : memref<*xi32>
  gpu.host_unregister %dsum_u : memref<*xf32>
  gpu.host_unregister %usum_u : memref<*xi64>
  memref.dealloc %out : memref<512xi32>
  memref.dealloc %ref : memref<512xi32>
  memref.dealloc %dsum : memref<2xf32>
  memref.dealloc %usum : memref<2xi64>
  return
}

// ( m[0], m[255], m[256], m[511] )
func.func @pick(%m: memref<512xi32>) -> vector<4xi32> {
  %c0 = arith.constant 0 : index
  %c255 = arith.constant 255 : index
  %c256 = arith.constant 256 : index
  %c511 = arith.constant 511 : index
  %x0 = memref.load %m[%c0] : memref<512xi32>
  %x1 = memref.load %m[%c255] : memref<512xi32>
  %x2 = memref.load %m[%c256] : memref<512xi32>
  %x3 = memref.load %m[%c511] : memref<512xi32>
  %v = vector.from_elements %x0, %x1, %x2, %x3 : vector<4xi32>
  return %v : vector<4xi32>
}
