// RUN: gpumem-run --target=cuda-emu %s | FileCheck %s --match-full-lines --strict-whitespace

// PTX's warp-synchronous instructions and special registers, written as
// NVVM ops in a kernel (so only the cuda and cuda-emu targets compile it),
// with results from the PTX ISA's definitions. One block of 64 threads (two
// warps), 64 bytes of static and 32 of dynamic shared memory.
//  - vote.sync.ballot of (lane % 3 == 0): lanes 0, 3, ..., 30 = 0x49249249;
//    vote.sync.all of lane < 16 is 0, vote.sync.any of tid == 40 is 1 in
//    warp 1 only; redux.sync.add of the lanes is 496;
//  - match.any.sync of lane / 8: the lane's group of 8 (0xff00 for lane 9);
//  - shfl.sync.down 1 with c = 0x181f (segments of 8): lane 7 is the last
//    of its segment, so it is invalid and keeps its own value;
//  - shfl.sync.up 2 with c = 0x1800: lanes 8 and 9 of the segment starting
//    at 8 are invalid;
//  - %lanemask_lt, and after a named barrier (id 1, 64 threads)
//    %dynamic_smem_size = 32 and %total_smem_size = 64 + 32.

// CHECK:tid 0 lane 0 warp 0 ballot 49249249 all 0 any 0 sum 496 match 000000ff down 10 1 up 0 0 lt 00000000 smem 32 96
// CHECK-NEXT:tid 5 lane 5 warp 0 ballot 49249249 all 0 any 0 sum 496 match 000000ff down 60 1 up 30 1 lt 0000001f smem 32 96
// CHECK-NEXT:tid 7 lane 7 warp 0 ballot 49249249 all 0 any 0 sum 496 match 000000ff down 70 0 up 50 1 lt 0000007f smem 32 96
// CHECK-NEXT:tid 9 lane 9 warp 0 ballot 49249249 all 0 any 0 sum 496 match 0000ff00 down 100 1 up 90 0 lt 000001ff smem 32 96
// CHECK-NEXT:tid 10 lane 10 warp 0 ballot 49249249 all 0 any 0 sum 496 match 0000ff00 down 110 1 up 80 1 lt 000003ff smem 32 96
// CHECK-NEXT:tid 40 lane 8 warp 1 ballot 49249249 all 0 any 1 sum 496 match 0000ff00 down 90 1 up 80 0 lt 000000ff smem 32 96
// CHECK-NEXT:done
// CHECK-NOT:{{.}}

func.func @main() {
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c32 = arith.constant 32 : i32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1)
             dynamic_shared_memory_size %c32 {
    %scratch = memref.alloca() : memref<16xi32, 3>
    %full = arith.constant -1 : i32
    %i0 = arith.constant 0 : i32
    %i1 = arith.constant 1 : i32
    %i2 = arith.constant 2 : i32
    %i3 = arith.constant 3 : i32
    %i8 = arith.constant 8 : i32
    %i10 = arith.constant 10 : i32
    %i16 = arith.constant 16 : i32
    %i40 = arith.constant 40 : i32
    %i64 = arith.constant 64 : i32
    %seg8 = arith.constant 6175 : i32   // (32 - 8) << 8 | 31
    %seg8up = arith.constant 6144 : i32 // (32 - 8) << 8
    %tid = arith.index_cast %tx : index to i32
    %lane = nvvm.read.ptx.sreg.laneid : i32
    %warp = nvvm.read.ptx.sreg.warpid : i32
    %m3 = arith.remui %lane, %i3 : i32
    %every3 = arith.cmpi eq, %m3, %i0 : i32
    %ballot = nvvm.vote.sync ballot %full, %every3 -> i32
    %low = arith.cmpi ult, %lane, %i16 : i32
    %all = nvvm.vote.sync all %full, %low -> i1
    %is40 = arith.cmpi eq, %tid, %i40 : i32
    %any = nvvm.vote.sync any %full, %is40 -> i1
    %sum = nvvm.redux.sync add %lane, %full : i32 -> i32
    %group = arith.divui %lane, %i8 : i32
    %match = nvvm.match.sync any %full, %group : i32 -> i32
    %val = arith.muli %lane, %i10 : i32
    %down = nvvm.shfl.sync down %full, %val, %i1, %seg8 {return_value_and_is_valid} : i32 -> !llvm.struct<(i32, i1)>
    %up = nvvm.shfl.sync up %full, %val, %i2, %seg8up {return_value_and_is_valid} : i32 -> !llvm.struct<(i32, i1)>
    %lt = nvvm.read.ptx.sreg.lanemask.lt : i32
    %c16 = arith.constant 16 : index
    %slot = arith.remui %tx, %c16 : index
    memref.store %tid, %scratch[%slot] : memref<16xi32, 3>
    nvvm.barrier id = %i1 number_of_threads = %i64
    %dyn = nvvm.read.ptx.sreg.dynamic.smem.size : i32
    %total = nvvm.read.ptx.sreg.total.smem.size : i32
    %d = llvm.extractvalue %down[0] : !llvm.struct<(i32, i1)>
    %dv = llvm.extractvalue %down[1] : !llvm.struct<(i32, i1)>
    %u = llvm.extractvalue %up[0] : !llvm.struct<(i32, i1)>
    %uv = llvm.extractvalue %up[1] : !llvm.struct<(i32, i1)>
    %show = arith.constant dense<[0, 5, 7, 9, 10, 40]> : vector<6xi32>
    %sel = vector.broadcast %tid : i32 to vector<6xi32>
    %eq = arith.cmpi eq, %show, %sel : vector<6xi32>
    %hit = vector.reduction <or>, %eq : vector<6xi1> into i1
    scf.if %hit {
      gpu.printf "tid %d lane %d warp %d ballot %08x all %d any %d sum %d match %08x down %d %d up %d %d lt %08x smem %d %d\n",
        %tid, %lane, %warp, %ballot, %all, %any, %sum, %match, %d, %dv, %u, %uv, %lt, %dyn, %total
        : i32, i32, i32, i32, i1, i1, i32, i32, i32, i1, i32, i1, i32, i32, i32
    }
    gpu.terminator
  }
  vector.print str "done\n"
  return
}
