// RUN: gpumem-run --target=cpu %s | FileCheck %s --match-full-lines --strict-whitespace

// math dialect ops in a kernel, compared with the same ops on the host.
// 64 threads; thread t has x = t + 1 (f32) and computes
//   exact: math.sqrt(x*x) = x, math.fpowi(x, 3) = x^3, math.ctpop(t),
//          math.absf(-x), math.floor(x + 0.75), math.fma(x, x, 1)
//   approximate: math.exp(x/16), math.powf(x, 1.5), math.log(x),
//          math.sin(x), math.tanh(x/32), math.rsqrt(x), math.cos(x)
// The exact ones must equal the host's bit for bit; the approximate ones
// must be within 2e-6 relative (or absolute below 1) of the host's, as the
// kernel and the host may use different implementations. Some results are
// printed rounded to 3 decimals, which is deterministic for these inputs.
// (math.ipowi is left out: the cpu target does not lower it in kernels,
// see math-ipowi.mlir.)

// CHECK:sqrt(x*x) x=1..8: ( 1, 2, 3, 4, 5, 6, 7, 8 )
// CHECK-NEXT:fpowi(x, 3) x=1..8: ( 1, 8, 27, 64, 125, 216, 343, 512 )
// CHECK-NEXT:ctpop(t) t=0..7: ( 0, 1, 1, 2, 1, 2, 2, 3 )
// CHECK-NEXT:exp(x/16) x=16,32 rounded: ( 2.718, 7.389 )
// CHECK-NEXT:powf(x, 1.5) x=4,9,16 rounded: ( 8, 27, 64 )
// CHECK-NEXT:exact mismatches: 0
// CHECK-NEXT:approximate mismatches: 0
// CHECK-NEXT:ok

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %i0 = arith.constant 0 : i32
  // res[t][k], k = 0..12 as listed above (ctpop stored as f32).
  %res = memref.alloc() : memref<64x13xf32>
  %ref = memref.alloc() : memref<64x13xf32>
  %res_u = memref.cast %res : memref<64x13xf32> to memref<*xf32>
  gpu.host_register %res_u : memref<*xf32>

  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %v = func.call @compute(%tx) : (index) -> vector<13xf32>
    vector.transfer_write %v, %res[%tx, %c0] {in_bounds = [true]} : vector<13xf32>, memref<64x13xf32>
    gpu.terminator
  }
  scf.for %t = %c0 to %c64 step %c1 {
    %v = func.call @compute_host(%t) : (index) -> vector<13xf32>
    vector.transfer_write %v, %ref[%t, %c0] {in_bounds = [true]} : vector<13xf32>, memref<64x13xf32>
  }

  %true = arith.constant true
  %c6 = arith.constant 6 : index
  %c13 = arith.constant 13 : index
  %exact_bad, %approx_bad = scf.for %t = %c0 to %c64 step %c1
      iter_args(%e = %i0, %a = %i0) -> (i32, i32) {
    %e2, %a2 = scf.for %k = %c0 to %c13 step %c1
        iter_args(%e1 = %e, %a1 = %a) -> (i32, i32) {
      %got = memref.load %res[%t, %k] : memref<64x13xf32>
      %want = memref.load %ref[%t, %k] : memref<64x13xf32>
      // |got - want| <= 2e-6 * max(|want|, 1); exact: got == want.
      %diff = arith.subf %got, %want : f32
      %adiff = math.absf %diff : f32
      %aw = math.absf %want : f32
      %one = arith.constant 1.0 : f32
      %scale = arith.maximumf %aw, %one : f32
      %tol = arith.constant 2.0e-6 : f32
      %lim = arith.mulf %scale, %tol : f32
      %close = arith.cmpf ole, %adiff, %lim : f32
      %same = arith.cmpf oeq, %got, %want : f32
      %is_exact = arith.cmpi ult, %k, %c6 : index
      %ok = arith.select %is_exact, %same, %close : i1
      %bad = arith.xori %ok, %true : i1
      %badi = arith.extui %bad : i1 to i32
      %eb = arith.select %is_exact, %badi, %i0 : i32
      %ab = arith.select %is_exact, %i0, %badi : i32
      %e3 = arith.addi %e1, %eb : i32
      %a3 = arith.addi %a1, %ab : i32
      scf.yield %e3, %a3 : i32, i32
    }
    scf.yield %e2, %a2 : i32, i32
  }

  %c7 = arith.constant 7 : index
  %col0 = func.call @column8(%res, %c0) : (memref<64x13xf32>, index) -> vector<8xf32>
  vector.print str "sqrt(x*x) x=1..8: "
  vector.print %col0 : vector<8xf32>
  %col1 = func.call @column8(%res, %c1) : (memref<64x13xf32>, index) -> vector<8xf32>
  vector.print str "fpowi(x, 3) x=1..8: "
  vector.print %col1 : vector<8xf32>
  %c2 = arith.constant 2 : index
  %col2 = func.call @column8(%res, %c2) : (memref<64x13xf32>, index) -> vector<8xf32>
  %col2i = arith.fptosi %col2 : vector<8xf32> to vector<8xi32>
  vector.print str "ctpop(t) t=0..7: "
  vector.print %col2i : vector<8xi32>
  // exp(x/16) for x = 16, 32 (threads 15, 31), column 6.
  %c15 = arith.constant 15 : index
  %c31 = arith.constant 31 : index
  %e16 = memref.load %res[%c15, %c6] : memref<64x13xf32>
  %e32 = memref.load %res[%c31, %c6] : memref<64x13xf32>
  %e16r = func.call @round3(%e16) : (f32) -> f32
  %e32r = func.call @round3(%e32) : (f32) -> f32
  %evr = vector.from_elements %e16r, %e32r : vector<2xf32>
  vector.print str "exp(x/16) x=16,32 rounded: "
  vector.print %evr : vector<2xf32>
  // powf(x, 1.5) for x = 4, 9, 16 (threads 3, 8, 15), column 7.
  %c3 = arith.constant 3 : index
  %c8 = arith.constant 8 : index
  %p4 = memref.load %res[%c3, %c7] : memref<64x13xf32>
  %p9 = memref.load %res[%c8, %c7] : memref<64x13xf32>
  %p16 = memref.load %res[%c15, %c7] : memref<64x13xf32>
  %p4r = func.call @round3(%p4) : (f32) -> f32
  %p9r = func.call @round3(%p9) : (f32) -> f32
  %p16r = func.call @round3(%p16) : (f32) -> f32
  %pvr = vector.from_elements %p4r, %p9r, %p16r : vector<3xf32>
  vector.print str "powf(x, 1.5) x=4,9,16 rounded: "
  vector.print %pvr : vector<3xf32>
  vector.print str "exact mismatches: "
  vector.print %exact_bad : i32
  vector.print str "approximate mismatches: "
  vector.print %approx_bad : i32
  %b = arith.ori %exact_bad, %approx_bad : i32
  %good = arith.cmpi eq, %b, %i0 : i32
  scf.if %good {
    vector.print str "ok\n"
  } else {
    vector.print str "MISMATCH\n"
  }

  gpu.host_unregister %res_u : memref<*xf32>
  memref.dealloc %res : memref<64x13xf32>
  memref.dealloc %ref : memref<64x13xf32>
  return
}

// Called from the kernel: outlining copies it into the gpu.module.
func.func @compute(%t: index) -> vector<13xf32> {
  %v = func.call @formulas(%t) : (index) -> vector<13xf32>
  return %v : vector<13xf32>
}

// The host's copy: a separate function, so the host computes its own values.
func.func @compute_host(%t: index) -> vector<13xf32> {
  %v = func.call @formulas(%t) : (index) -> vector<13xf32>
  return %v : vector<13xf32>
}

func.func @formulas(%t: index) -> vector<13xf32> {
  %ti64 = arith.index_cast %t : index to i64
  %tf = arith.sitofp %ti64 : i64 to f32
  %one = arith.constant 1.0 : f32
  %x = arith.addf %tf, %one : f32
  %xx = arith.mulf %x, %x : f32
  %r0 = math.sqrt %xx : f32
  %three = arith.constant 3 : i32
  %r1 = math.fpowi %x, %three : f32, i32
  %ti = arith.index_cast %t : index to i32
  %ip = math.ctpop %ti : i32
  %r2 = arith.sitofp %ip : i32 to f32
  %nx = arith.negf %x : f32
  %r3 = math.absf %nx : f32
  %q = arith.constant 0.75 : f32
  %xq = arith.addf %x, %q : f32
  %r4 = math.floor %xq : f32
  %r5 = math.fma %x, %x, %one : f32
  %sixteenth = arith.constant 0.0625 : f32
  %x16 = arith.mulf %x, %sixteenth : f32
  %r6 = math.exp %x16 : f32
  %onehalf = arith.constant 1.5 : f32
  %r7 = math.powf %x, %onehalf : f32
  %r8 = math.log %x : f32
  %r9 = math.sin %x : f32
  %k32 = arith.constant 0.03125 : f32
  %x32 = arith.mulf %x, %k32 : f32
  %r10 = math.tanh %x32 : f32
  %r11 = math.rsqrt %x : f32
  %r12 = math.cos %x : f32
  %v = vector.from_elements %r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8, %r9, %r10, %r11, %r12 : vector<13xf32>
  return %v : vector<13xf32>
}

// res[0..7][k]
func.func @column8(%m: memref<64x13xf32>, %k: index) -> vector<8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %init = arith.constant dense<0.0> : vector<8xf32>
  %v = scf.for %i = %c0 to %c8 step %c1 iter_args(%acc = %init) -> (vector<8xf32>) {
    %x = memref.load %m[%i, %k] : memref<64x13xf32>
    %a = vector.insert %x, %acc[%i] : f32 into vector<8xf32>
    scf.yield %a : vector<8xf32>
  }
  return %v : vector<8xf32>
}

// Round to 3 decimals: roundeven(x * 1000) / 1000.
func.func @round3(%v: f32) -> f32 {
  %k = arith.constant 1000.0 : f32
  %m = arith.mulf %v, %k : f32
  %r = math.roundeven %m : f32
  %d = arith.divf %r, %k : f32
  return %d : f32
}
