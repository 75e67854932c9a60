// RUN: gpumem-run --target=cpu %s | FileCheck %s --match-full-lines --strict-whitespace

// Expected to fail: the cpu target rejects clustered subgroup reductions,
//   subgroup-reduce-clustered.mlir:L:C: error: 'gpu.subgroup_reduce' op is
//   not supported by the cpu target
// (LowerGPUToCPUABI populates upstream's non-clustered
// populateGpuLowerSubgroupReduceToShufflePatterns only, whose pattern
// refuses ops with a cluster size; the clustered variant is
// populateGpuLowerClusteredSubgroupReduceToShufflePatterns).

// gpu.subgroup_reduce add with cluster(size = 8) and with
// cluster(size = 4, stride = 2), one block of 64 threads, x = t*t mod 13.
// Lane t's size-8 cluster is lanes 8*(t/8) .. +7; its size-4 stride-2
// cluster is the 4 lanes of its group of 8 with the same parity. The host
// computes both for every lane; the first 16 lanes are printed.

// CHECK:size 8:          ( 49, 49, 49, 49, 49, 49, 49, 49, 34, 34, 34, 34, 34, 34, 34, 34 )
// CHECK-NEXT:size 4 stride 2: ( 17, 32, 17, 32, 17, 32, 17, 32, 23, 11, 23, 11, 23, 11, 23, 11 )
// CHECK-NEXT:lanes with a wrong result: 0

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c13 = arith.constant 13 : index
  %c64 = arith.constant 64 : index
  %i0 = arith.constant 0 : i32
  %s8 = memref.alloc() : memref<64xi32>
  %s42 = memref.alloc() : memref<64xi32>
  %s8_u = memref.cast %s8 : memref<64xi32> to memref<*xi32>
  gpu.host_register %s8_u : memref<*xi32>
  %s42_u = memref.cast %s42 : memref<64xi32> to memref<*xi32>
  gpu.host_register %s42_u : memref<*xi32>

  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %sq = arith.muli %tx, %tx : index
    %m = arith.remui %sq, %c13 : index
    %x = arith.index_cast %m : index to i32
    %a = gpu.subgroup_reduce add %x cluster(size = 8) : (i32) -> i32
    %b = gpu.subgroup_reduce add %x cluster(size = 4, stride = 2) : (i32) -> i32
    memref.store %a, %s8[%tx] : memref<64xi32>
    memref.store %b, %s42[%tx] : memref<64xi32>
    gpu.terminator
  }

  // Host: for lane t, the group of 8 starts at g = 8*(t/8).
  %bad = scf.for %t = %c0 to %c64 step %c1 iter_args(%n = %i0) -> (i32) {
    %q = arith.divui %t, %c8 : index
    %g = arith.muli %q, %c8 : index
    %par = arith.remui %t, %c2 : index
    %want8, %want42 = scf.for %k = %c0 to %c8 step %c1
        iter_args(%w8 = %i0, %w42 = %i0) -> (i32, i32) {
      %l = arith.addi %g, %k : index
      %sq = arith.muli %l, %l : index
      %m = arith.remui %sq, %c13 : index
      %x = arith.index_cast %m : index to i32
      %w8n = arith.addi %w8, %x : i32
      %kp = arith.remui %k, %c2 : index
      %same = arith.cmpi eq, %kp, %par : index
      %add = arith.select %same, %x, %i0 : i32
      %w42n = arith.addi %w42, %add : i32
      scf.yield %w8n, %w42n : i32, i32
    }
    %got8 = memref.load %s8[%t] : memref<64xi32>
    %got42 = memref.load %s42[%t] : memref<64xi32>
    %ne8 = arith.cmpi ne, %got8, %want8 : i32
    %ne42 = arith.cmpi ne, %got42, %want42 : i32
    %ne = arith.ori %ne8, %ne42 : i1
    %nei = arith.extui %ne : i1 to i32
    %n1 = arith.addi %n, %nei : i32
    scf.yield %n1 : i32
  }

  %pad = arith.constant 0 : i32
  %v8 = vector.transfer_read %s8[%c0], %pad {in_bounds = [true]} : memref<64xi32>, vector<16xi32>
  %v42 = vector.transfer_read %s42[%c0], %pad {in_bounds = [true]} : memref<64xi32>, vector<16xi32>
  vector.print str "size 8:          "
  vector.print %v8 : vector<16xi32>
  vector.print str "size 4 stride 2: "
  vector.print %v42 : vector<16xi32>
  vector.print str "lanes with a wrong result: "
  vector.print %bad : i32
  gpu.host_unregister %s8_u : memref<*xi32>
  gpu.host_unregister %s42_u : memref<*xi32>
  memref.dealloc %s8 : memref<64xi32>
  memref.dealloc %s42 : memref<64xi32>
  return
}
