// RUN: gpumem-run --target=cpu %s | FileCheck %s --match-full-lines --strict-whitespace

// gpu.shuffle up / down / idx / xor with width 32 and width 16, in one block
// of 64 threads (two warps). Thread t shuffles x = 10*t + 1. For each
// shuffle the kernel records the result where the shuffle is valid and -1
// where it is not (the value of an invalid shuffle is unspecified), and the
// valid flag; -2 marks a lane that did not run the shuffle. As gpu.shuffle
// specifies, only the first `width` lanes of a warp take part: lane k reads
// lane k^o (xor), k-o (up), k+o (down) or o (idx), valid when that lane is
// in [0, width). The width-16 shuffles run on lanes 0..15 of each warp
// only: on an NVIDIA GPU the other lanes are outside the shuffle's member
// mask (undefined). Every result here is defined, so a GPU must print the
// same lines (the `up` rows check gpumem-rewrite-shuffle-up-for-nvvm).
// The expected lines come from a model of these rules.

// CHECK:up 1 width 32: ( -1, 1, 11, 21, 31, 41, 51, 61, 71, 81, 91, 101, 111, 121, 131, 141, 151, 161, 171, 181, 191, 201, 211, 221, 231, 241, 251, 261, 271, 281, 291, 301, -1, 321, 331, 341, 351, 361, 371, 381, 391, 401, 411, 421, 431, 441, 451, 461, 471, 481, 491, 501, 511, 521, 531, 541, 551, 561, 571, 581, 591, 601, 611, 621 )
// CHECK-NEXT:up 1 width 32 valid: ( 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1 )
// CHECK-NEXT:down 1 width 32: ( 11, 21, 31, 41, 51, 61, 71, 81, 91, 101, 111, 121, 131, 141, 151, 161, 171, 181, 191, 201, 211, 221, 231, 241, 251, 261, 271, 281, 291, 301, 311, -1, 331, 341, 351, 361, 371, 381, 391, 401, 411, 421, 431, 441, 451, 461, 471, 481, 491, 501, 511, 521, 531, 541, 551, 561, 571, 581, 591, 601, 611, 621, 631, -1 )
// CHECK-NEXT:down 1 width 32 valid: ( 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0 )
// CHECK-NEXT:idx 3 width 32: ( 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 351, 351, 351, 351, 351, 351, 351, 351, 351, 351, 351, 351, 351, 351, 351, 351, 351, 351, 351, 351, 351, 351, 351, 351, 351, 351, 351, 351, 351, 351, 351, 351 )
// CHECK-NEXT:idx 3 width 32 valid: ( 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1 )
// CHECK-NEXT:xor 4 width 32: ( 41, 51, 61, 71, 1, 11, 21, 31, 121, 131, 141, 151, 81, 91, 101, 111, 201, 211, 221, 231, 161, 171, 181, 191, 281, 291, 301, 311, 241, 251, 261, 271, 361, 371, 381, 391, 321, 331, 341, 351, 441, 451, 461, 471, 401, 411, 421, 431, 521, 531, 541, 551, 481, 491, 501, 511, 601, 611, 621, 631, 561, 571, 581, 591 )
// CHECK-NEXT:xor 4 width 32 valid: ( 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1 )
// CHECK-NEXT:up 2 width 16: ( -1, -1, 1, 11, 21, 31, 41, 51, 61, 71, 81, 91, 101, 111, 121, 131, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -1, -1, 321, 331, 341, 351, 361, 371, 381, 391, 401, 411, 421, 431, 441, 451, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2 )
// CHECK-NEXT:up 2 width 16 valid: ( 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2 )
// CHECK-NEXT:down 3 width 16: ( 31, 41, 51, 61, 71, 81, 91, 101, 111, 121, 131, 141, 151, -1, -1, -1, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, 351, 361, 371, 381, 391, 401, 411, 421, 431, 441, 451, 461, 471, -1, -1, -1, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2 )
// CHECK-NEXT:down 3 width 16 valid: ( 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2 )
// CHECK-NEXT:idx 5 width 16: ( 51, 51, 51, 51, 51, 51, 51, 51, 51, 51, 51, 51, 51, 51, 51, 51, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, 371, 371, 371, 371, 371, 371, 371, 371, 371, 371, 371, 371, 371, 371, 371, 371, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2 )
// CHECK-NEXT:idx 5 width 16 valid: ( 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2 )
// CHECK-NEXT:xor 8 width 16: ( 81, 91, 101, 111, 121, 131, 141, 151, 1, 11, 21, 31, 41, 51, 61, 71, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, 401, 411, 421, 431, 441, 451, 461, 471, 321, 331, 341, 351, 361, 371, 381, 391, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2 )
// CHECK-NEXT:xor 8 width 16 valid: ( 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2 )

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %im2 = arith.constant -2 : i32
  %vals = memref.alloc() : memref<8x64xi32>
  %valid = memref.alloc() : memref<8x64xi32>
  scf.for %i = %c0 to %c8 step %c1 {
    scf.for %j = %c0 to %c64 step %c1 {
      memref.store %im2, %vals[%i, %j] : memref<8x64xi32>
      memref.store %im2, %valid[%i, %j] : memref<8x64xi32>
    }
  }
  %vals_u = memref.cast %vals : memref<8x64xi32> to memref<*xi32>
  gpu.host_register %vals_u : memref<*xi32>
  %valid_u = memref.cast %valid : memref<8x64xi32> to memref<*xi32>
  gpu.host_register %valid_u : memref<*xi32>

  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %c10 = arith.constant 10 : i32
    %one = arith.constant 1 : i32
    %t = arith.index_cast %tx : index to i32
    %t10 = arith.muli %t, %c10 : i32
    %x = arith.addi %t10, %one : i32
    %w32 = arith.constant 32 : i32
    %w16 = arith.constant 16 : i32
    %o1 = arith.constant 1 : i32
    %o2 = arith.constant 2 : i32
    %o3 = arith.constant 3 : i32
    %o4 = arith.constant 4 : i32
    %o5 = arith.constant 5 : i32
    %o8 = arith.constant 8 : i32
    %r0, %v0 = gpu.shuffle up %x, %o1, %w32 : i32
    %c_r0 = arith.constant 0 : index
    func.call @record(%vals, %valid, %c_r0, %tx, %r0, %v0)
        : (memref<8x64xi32>, memref<8x64xi32>, index, index, i32, i1) -> ()
    %r1, %v1 = gpu.shuffle down %x, %o1, %w32 : i32
    %c_r1 = arith.constant 1 : index
    func.call @record(%vals, %valid, %c_r1, %tx, %r1, %v1)
        : (memref<8x64xi32>, memref<8x64xi32>, index, index, i32, i1) -> ()
    %r2, %v2 = gpu.shuffle idx %x, %o3, %w32 : i32
    %c_r2 = arith.constant 2 : index
    func.call @record(%vals, %valid, %c_r2, %tx, %r2, %v2)
        : (memref<8x64xi32>, memref<8x64xi32>, index, index, i32, i1) -> ()
    %r3, %v3 = gpu.shuffle xor %x, %o4, %w32 : i32
    %c_r3 = arith.constant 3 : index
    func.call @record(%vals, %valid, %c_r3, %tx, %r3, %v3)
        : (memref<8x64xi32>, memref<8x64xi32>, index, index, i32, i1) -> ()
    // Width 16: only the first 16 lanes of each warp take part (the others
    // would be outside the member mask on an NVIDIA GPU).
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %lane = arith.remui %tx, %c32 : index
    %in16 = arith.cmpi ult, %lane, %c16 : index
    scf.if %in16 {
      %r4, %v4 = gpu.shuffle up %x, %o2, %w16 : i32
      %c_r4 = arith.constant 4 : index
      func.call @record(%vals, %valid, %c_r4, %tx, %r4, %v4)
          : (memref<8x64xi32>, memref<8x64xi32>, index, index, i32, i1) -> ()
      %r5, %v5 = gpu.shuffle down %x, %o3, %w16 : i32
      %c_r5 = arith.constant 5 : index
      func.call @record(%vals, %valid, %c_r5, %tx, %r5, %v5)
          : (memref<8x64xi32>, memref<8x64xi32>, index, index, i32, i1) -> ()
      %r6, %v6 = gpu.shuffle idx %x, %o5, %w16 : i32
      %c_r6 = arith.constant 6 : index
      func.call @record(%vals, %valid, %c_r6, %tx, %r6, %v6)
          : (memref<8x64xi32>, memref<8x64xi32>, index, index, i32, i1) -> ()
      %r7, %v7 = gpu.shuffle xor %x, %o8, %w16 : i32
      %c_r7 = arith.constant 7 : index
      func.call @record(%vals, %valid, %c_r7, %tx, %r7, %v7)
          : (memref<8x64xi32>, memref<8x64xi32>, index, index, i32, i1) -> ()
    }
    gpu.terminator
  }

  %c_p0 = arith.constant 0 : index
  %pv0 = func.call @row(%vals, %c_p0) : (memref<8x64xi32>, index) -> vector<64xi32>
  vector.print str "up 1 width 32: "
  vector.print %pv0 : vector<64xi32>
  %pf0 = func.call @row(%valid, %c_p0) : (memref<8x64xi32>, index) -> vector<64xi32>
  vector.print str "up 1 width 32 valid: "
  vector.print %pf0 : vector<64xi32>
  %c_p1 = arith.constant 1 : index
  %pv1 = func.call @row(%vals, %c_p1) : (memref<8x64xi32>, index) -> vector<64xi32>
  vector.print str "down 1 width 32: "
  vector.print %pv1 : vector<64xi32>
  %pf1 = func.call @row(%valid, %c_p1) : (memref<8x64xi32>, index) -> vector<64xi32>
  vector.print str "down 1 width 32 valid: "
  vector.print %pf1 : vector<64xi32>
  %c_p2 = arith.constant 2 : index
  %pv2 = func.call @row(%vals, %c_p2) : (memref<8x64xi32>, index) -> vector<64xi32>
  vector.print str "idx 3 width 32: "
  vector.print %pv2 : vector<64xi32>
  %pf2 = func.call @row(%valid, %c_p2) : (memref<8x64xi32>, index) -> vector<64xi32>
  vector.print str "idx 3 width 32 valid: "
  vector.print %pf2 : vector<64xi32>
  %c_p3 = arith.constant 3 : index
  %pv3 = func.call @row(%vals, %c_p3) : (memref<8x64xi32>, index) -> vector<64xi32>
  vector.print str "xor 4 width 32: "
  vector.print %pv3 : vector<64xi32>
  %pf3 = func.call @row(%valid, %c_p3) : (memref<8x64xi32>, index) -> vector<64xi32>
  vector.print str "xor 4 width 32 valid: "
  vector.print %pf3 : vector<64xi32>
  %c_p4 = arith.constant 4 : index
  %pv4 = func.call @row(%vals, %c_p4) : (memref<8x64xi32>, index) -> vector<64xi32>
  vector.print str "up 2 width 16: "
  vector.print %pv4 : vector<64xi32>
  %pf4 = func.call @row(%valid, %c_p4) : (memref<8x64xi32>, index) -> vector<64xi32>
  vector.print str "up 2 width 16 valid: "
  vector.print %pf4 : vector<64xi32>
  %c_p5 = arith.constant 5 : index
  %pv5 = func.call @row(%vals, %c_p5) : (memref<8x64xi32>, index) -> vector<64xi32>
  vector.print str "down 3 width 16: "
  vector.print %pv5 : vector<64xi32>
  %pf5 = func.call @row(%valid, %c_p5) : (memref<8x64xi32>, index) -> vector<64xi32>
  vector.print str "down 3 width 16 valid: "
  vector.print %pf5 : vector<64xi32>
  %c_p6 = arith.constant 6 : index
  %pv6 = func.call @row(%vals, %c_p6) : (memref<8x64xi32>, index) -> vector<64xi32>
  vector.print str "idx 5 width 16: "
  vector.print %pv6 : vector<64xi32>
  %pf6 = func.call @row(%valid, %c_p6) : (memref<8x64xi32>, index) -> vector<64xi32>
  vector.print str "idx 5 width 16 valid: "
  vector.print %pf6 : vector<64xi32>
  %c_p7 = arith.constant 7 : index
  %pv7 = func.call @row(%vals, %c_p7) : (memref<8x64xi32>, index) -> vector<64xi32>
  vector.print str "xor 8 width 16: "
  vector.print %pv7 : vector<64xi32>
  %pf7 = func.call @row(%valid, %c_p7) : (memref<8x64xi32>, index) -> vector<64xi32>
  vector.print str "xor 8 width 16 valid: "
  vector.print %pf7 : vector<64xi32>

  gpu.host_unregister %vals_u : memref<*xi32>
  gpu.host_unregister %valid_u : memref<*xi32>
  memref.dealloc %vals : memref<8x64xi32>
  memref.dealloc %valid : memref<8x64xi32>
  return
}

// vals[r][t] = valid ? result : -1, valid[r][t] = valid (0 or 1).
func.func @record(%vals: memref<8x64xi32>, %valid: memref<8x64xi32>,
                  %r: index, %t: index, %res: i32, %ok: i1) {
  %m1 = arith.constant -1 : i32
  %v = arith.select %ok, %res, %m1 : i32
  memref.store %v, %vals[%r, %t] : memref<8x64xi32>
  %oki = arith.extui %ok : i1 to i32
  memref.store %oki, %valid[%r, %t] : memref<8x64xi32>
  return
}

func.func @row(%m: memref<8x64xi32>, %r: index) -> vector<64xi32> {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0 : i32
  %v = vector.transfer_read %m[%r, %c0], %pad {in_bounds = [true]}
      : memref<8x64xi32>, vector<64xi32>
  return %v : vector<64xi32>
}
