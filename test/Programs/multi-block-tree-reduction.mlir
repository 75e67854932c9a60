// RUN: gpumem-run --target=cpu %s | FileCheck %s --match-full-lines --strict-whitespace
// RUN: env GPUMEM_CPU_THREADS=1 gpumem-run --target=cpu %s | FileCheck %s --match-full-lines --strict-whitespace
// RUN: env GPUMEM_CPU_THREADS=5 gpumem-run --target=cpu %s | FileCheck %s --match-full-lines --strict-whitespace

// Tree reduction in shared memory with the gpu.barrier inside an scf.for:
// 6 blocks of 128 threads, block b sums in[b*256 .. b*256+255]. Thread t
// first adds in[b*256+t] and in[b*256+128+t] into partial[t]; then for
// k = 0..6 the stride is 64 >> k, threads t < stride add partial[t+stride]
// into partial[t], and the whole block meets at the barrier. Thread 0 writes
// the block's sum to sums[b]. in[i] = (7*i) mod 31, integers, so every sum
// is exact. The host computes the same six sums sequentially.
// The result must not depend on the number of worker threads the cpu
// runtime runs blocks on (GPUMEM_CPU_THREADS).

// CHECK:gpu:  ( 3823, 3837, 3851, 3834, 3848, 3831 )
// CHECK-NEXT:host: ( 3823, 3837, 3851, 3834, 3848, 3831 )
// CHECK-NEXT:total: 23024
// CHECK-NEXT:ok

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  %c7 = arith.constant 7 : index
  %c31 = arith.constant 31 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %c1536 = arith.constant 1536 : index
  %fzero = arith.constant 0.0 : f32
  %minus1 = arith.constant -1.0 : f32

  %in = memref.alloc() : memref<1536xf32>
  %sums = memref.alloc() : memref<6xf32>
  %ref = memref.alloc() : memref<6xf32>
  scf.for %i = %c0 to %c1536 step %c1 {
    %i7 = arith.muli %i, %c7 : index
    %m = arith.remui %i7, %c31 : index
    %mi = arith.index_cast %m : index to i64
    %v = arith.sitofp %mi : i64 to f32
    memref.store %v, %in[%i] : memref<1536xf32>
  }
  scf.for %b = %c0 to %c6 step %c1 {
    memref.store %minus1, %sums[%b] : memref<6xf32>
  }
  %in_u = memref.cast %in : memref<1536xf32> to memref<*xf32>
  gpu.host_register %in_u : memref<*xf32>
  %sums_u = memref.cast %sums : memref<6xf32> to memref<*xf32>
  gpu.host_register %sums_u : memref<*xf32>

  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c6, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1) {
    %partial = memref.alloca() : memref<128xf32, #gpu.address_space<workgroup>>
    %base = arith.muli %bx, %c256 : index
    %i0 = arith.addi %base, %tx : index
    %i1 = arith.addi %i0, %c128 : index
    %a = memref.load %in[%i0] : memref<1536xf32>
    %b = memref.load %in[%i1] : memref<1536xf32>
    %ab = arith.addf %a, %b : f32
    memref.store %ab, %partial[%tx] : memref<128xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    scf.for %k = %c0 to %c7 step %c1 {
      %stride = arith.shrui %c64, %k : index
      %active = arith.cmpi ult, %tx, %stride : index
      scf.if %active {
        %other = arith.addi %tx, %stride : index
        %x = memref.load %partial[%tx] : memref<128xf32, #gpu.address_space<workgroup>>
        %y = memref.load %partial[%other] : memref<128xf32, #gpu.address_space<workgroup>>
        %xy = arith.addf %x, %y : f32
        memref.store %xy, %partial[%tx] : memref<128xf32, #gpu.address_space<workgroup>>
      }
      gpu.barrier
    }
    %first = arith.cmpi eq, %tx, %c0 : index
    scf.if %first {
      %s = memref.load %partial[%c0] : memref<128xf32, #gpu.address_space<workgroup>>
      memref.store %s, %sums[%bx] : memref<6xf32>
    }
    gpu.terminator
  }

  // The host's per-block sums.
  scf.for %b = %c0 to %c6 step %c1 {
    %base = arith.muli %b, %c256 : index
    %end = arith.addi %base, %c256 : index
    %s = scf.for %i = %base to %end step %c1 iter_args(%acc = %fzero) -> (f32) {
      %x = memref.load %in[%i] : memref<1536xf32>
      %acc1 = arith.addf %acc, %x : f32
      scf.yield %acc1 : f32
    }
    memref.store %s, %ref[%b] : memref<6xf32>
  }

  %gv = func.call @six(%sums) : (memref<6xf32>) -> vector<6xf32>
  %hv = func.call @six(%ref) : (memref<6xf32>) -> vector<6xf32>
  vector.print str "gpu:  "
  vector.print %gv : vector<6xf32>
  vector.print str "host: "
  vector.print %hv : vector<6xf32>
  %total = vector.reduction <add>, %gv : vector<6xf32> into f32
  vector.print str "total: "
  vector.print %total : f32
  %eq = arith.cmpf oeq, %gv, %hv : vector<6xf32>
  %all = vector.reduction <and>, %eq : vector<6xi1> into i1
  scf.if %all {
    vector.print str "ok\n"
  } else {
    vector.print str "MISMATCH\n"
  }

  gpu.host_unregister %in_u : memref<*xf32>
  gpu.host_unregister %sums_u : memref<*xf32>
  memref.dealloc %in : memref<1536xf32>
  memref.dealloc %sums : memref<6xf32>
  memref.dealloc %ref : memref<6xf32>
  return
}

func.func @six(%m: memref<6xf32>) -> vector<6xf32> {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.0 : f32
  %v = vector.transfer_read %m[%c0], %pad {in_bounds = [true]} : memref<6xf32>, vector<6xf32>
  return %v : vector<6xf32>
}
