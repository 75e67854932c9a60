// RUN: gpumem-run --target=cpu %s | FileCheck %s --match-full-lines --strict-whitespace

// 16-bit floats round as IEEE 754 says on every target: truncf to f16 and
// bf16 rounds to nearest even, f16 arithmetic rounds after each operation,
// overflow gives infinity and tiny values become subnormals; a workgroup
// f16 and bf16 buffer next to an i32 one keeps its elements to itself.
// One block of 32 threads, t its thread:
//  - x = 2048 + t/8 truncated to f16 (whose step there is 2) and
//    y = 256 + t/8 to bf16 (step 2 there too) go into workgroup buffers,
//    w = 1000000 + 1000 t into an i32 one beside them; after a barrier
//    thread t prints element 31 - t of each (rows 1-3);
//  - in[t] = t/10 as f16 (host-rounded); out[t] = in[t] * in[t] + k, in
//    f16, where k = in[3] is a kernel argument (row 4);
//  - t * 2^-26 (t < 16) or t * 4096 (t >= 16) truncated to f16: subnormals
//    rounded to nearest even, then infinity from t = 16 on (65536) (row 5).

// CHECK:( 2052, 2052, 2052, 2052, 2052, 2052, 2052, 2052, 2050, 2050, 2050, 2050, 2050, 2050, 2050, 2050, 2050, 2050, 2050, 2050, 2050, 2050, 2050, 2048, 2048, 2048, 2048, 2048, 2048, 2048, 2048, 2048 )
// CHECK-NEXT:( 260, 260, 260, 260, 260, 260, 260, 260, 258, 258, 258, 258, 258, 258, 258, 258, 258, 258, 258, 258, 258, 258, 258, 256, 256, 256, 256, 256, 256, 256, 256, 256 )
// CHECK-NEXT:( 1031000, 1030000, 1029000, 1028000, 1027000, 1026000, 1025000, 1024000, 1023000, 1022000, 1021000, 1020000, 1019000, 1018000, 1017000, 1016000, 1015000, 1014000, 1013000, 1012000, 1011000, 1010000, 1009000, 1008000, 1007000, 1006000, 1005000, 1004000, 1003000, 1002000, 1001000, 1000000 )
// CHECK-NEXT:( 0.300049, 0.310059, 0.340088, 0.390137, 0.459961, 0.549805, 0.660156, 0.790039, 0.939453, 1.11035, 1.2998, 1.50879, 1.74023, 1.98926, 2.26172, 2.55078, 2.85938, 3.19141, 3.54102, 3.91211, 4.30078, 4.71094, 5.13672, 5.59375, 6.0625, 6.55078, 7.05859, 7.58594, 8.14062, 8.71094, 9.29688, 9.90625 )
// CHECK-NEXT:( 0, 0, 0, 5.96046e-08, 5.96046e-08, 5.96046e-08, 1.19209e-07, 1.19209e-07, 1.19209e-07, 1.19209e-07, 1.19209e-07, 1.78814e-07, 1.78814e-07, 1.78814e-07, 2.38419e-07, 2.38419e-07, inf, inf, inf, inf, inf, inf, inf, inf, inf, inf, inf, inf, inf, inf, inf, inf )

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %in = memref.alloc() : memref<32xf16>
  %out = memref.alloc() : memref<32xf16>
  %rows = memref.alloc() : memref<3x32xf32>
  %words = memref.alloc() : memref<32xi32>
  %tenth = arith.constant 0.1 : f32
  scf.for %i = %c0 to %c32 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %f = arith.uitofp %ii : i32 to f32
    %x = arith.mulf %f, %tenth : f32
    %h = arith.truncf %x : f32 to f16
    memref.store %h, %in[%i] : memref<32xf16>
  }
  %c3 = arith.constant 3 : index
  %k = memref.load %in[%c3] : memref<32xf16>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %wh = memref.alloca() : memref<32xf16, #gpu.address_space<workgroup>>
    %wi = memref.alloca() : memref<32xi32, #gpu.address_space<workgroup>>
    %wb = memref.alloca() : memref<32xbf16, #gpu.address_space<workgroup>>
    %k0 = arith.constant 0 : index
    %k1 = arith.constant 1 : index
    %k2 = arith.constant 2 : index
    %k31 = arith.constant 31 : index
    %eighth = arith.constant 0.125 : f32
    %b2048 = arith.constant 2048.0 : f32
    %b256 = arith.constant 256.0 : f32
    %ti = arith.index_cast %tx : index to i32
    %t = arith.uitofp %ti : i32 to f32
    %step = arith.mulf %t, %eighth : f32
    %x = arith.addf %step, %b2048 : f32
    %y = arith.addf %step, %b256 : f32
    %h = arith.truncf %x : f32 to f16
    %b = arith.truncf %y : f32 to bf16
    %thousand = arith.constant 1000 : i32
    %million = arith.constant 1000000 : i32
    %m = arith.muli %ti, %thousand : i32
    %w = arith.addi %m, %million : i32
    memref.store %h, %wh[%tx] : memref<32xf16, #gpu.address_space<workgroup>>
    memref.store %w, %wi[%tx] : memref<32xi32, #gpu.address_space<workgroup>>
    memref.store %b, %wb[%tx] : memref<32xbf16, #gpu.address_space<workgroup>>
    gpu.barrier
    %r = arith.subi %k31, %tx : index
    %h2 = memref.load %wh[%r] : memref<32xf16, #gpu.address_space<workgroup>>
    %w2 = memref.load %wi[%r] : memref<32xi32, #gpu.address_space<workgroup>>
    %b2 = memref.load %wb[%r] : memref<32xbf16, #gpu.address_space<workgroup>>
    %hx = arith.extf %h2 : f16 to f32
    %bx2 = arith.extf %b2 : bf16 to f32
    memref.store %hx, %rows[%k0, %tx] : memref<3x32xf32>
    memref.store %bx2, %rows[%k1, %tx] : memref<3x32xf32>
    memref.store %w2, %words[%tx] : memref<32xi32>
    %v = memref.load %in[%tx] : memref<32xf16>
    %vv = arith.mulf %v, %v : f16
    %p = arith.addf %vv, %k : f16
    memref.store %p, %out[%tx] : memref<32xf16>
    %c16 = arith.constant 16 : index
    %small = arith.cmpi ult, %tx, %c16 : index
    %tiny = arith.constant 1.4901161193847656e-08 : f32
    %huge = arith.constant 4096.0 : f32
    %scale = arith.select %small, %tiny, %huge : f32
    %s = arith.mulf %t, %scale : f32
    %sh = arith.truncf %s : f32 to f16
    %shx = arith.extf %sh : f16 to f32
    memref.store %shx, %rows[%k2, %tx] : memref<3x32xf32>
    gpu.terminator
  }
  %pad = arith.constant 0.0 : f32
  %pad16 = arith.constant 0.0 : f16
  %pad32 = arith.constant 0 : i32
  %c2 = arith.constant 2 : index
  %r0 = vector.transfer_read %rows[%c0, %c0], %pad : memref<3x32xf32>, vector<32xf32>
  vector.print %r0 : vector<32xf32>
  %r1 = vector.transfer_read %rows[%c1, %c0], %pad : memref<3x32xf32>, vector<32xf32>
  vector.print %r1 : vector<32xf32>
  %wv = vector.transfer_read %words[%c0], %pad32 : memref<32xi32>, vector<32xi32>
  vector.print %wv : vector<32xi32>
  %o = vector.transfer_read %out[%c0], %pad16 : memref<32xf16>, vector<32xf16>
  %ox = arith.extf %o : vector<32xf16> to vector<32xf32>
  vector.print %ox : vector<32xf32>
  %r2 = vector.transfer_read %rows[%c2, %c0], %pad : memref<3x32xf32>, vector<32xf32>
  vector.print %r2 : vector<32xf32>
  return
}
