// RUN: gpumem-run --target=cpu %s | FileCheck %s --match-full-lines --strict-whitespace

// The synchronous forms of the data paths (data-paths.mlir has the async
// ones). Upstream's gpu-to-llvm lowers only the async forms;
// gpumem-lower-sync-memory-ops gives each synchronous op a stream of its
// own, waited for at once.

// Device memory with synchronous ops: d = gpu.alloc; gpu.memcpy d <- src;
// kernel: d[i] = d[i] * d[i] + s[i] where s is gpu.alloc host_shared
// (s[i] = 0.5, written by the host); gpu.memcpy dst <- d; gpu.dealloc both.

// CHECK:gpu:  ( 0.5, 1.5, 4.5, 9.5, 16.5, 25.5, 36.5, 49.5 )
// CHECK-NEXT:host: ( 0.5, 1.5, 4.5, 9.5, 16.5, 25.5, 36.5, 49.5 )

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %half = arith.constant 0.5 : f32
  %pad = arith.constant 0.0 : f32
  %src = memref.alloc() : memref<8xf32>
  %dst = memref.alloc() : memref<8xf32>
  %ref = memref.alloc() : memref<8xf32>
  %s = gpu.alloc host_shared () : memref<8xf32>
  scf.for %i = %c0 to %c8 step %c1 {
    %ii = arith.index_cast %i : index to i64
    %v = arith.sitofp %ii : i64 to f32
    memref.store %v, %src[%i] : memref<8xf32>
    memref.store %half, %s[%i] : memref<8xf32>
    %vv = arith.mulf %v, %v : f32
    %r = arith.addf %vv, %half : f32
    memref.store %r, %ref[%i] : memref<8xf32>
  }
  %d = gpu.alloc () : memref<8xf32>
  gpu.memcpy %d, %src : memref<8xf32>, memref<8xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1) {
    %x = memref.load %d[%tx] : memref<8xf32>
    %y = memref.load %s[%tx] : memref<8xf32>
    %xx = arith.mulf %x, %x : f32
    %z = arith.addf %xx, %y : f32
    memref.store %z, %d[%tx] : memref<8xf32>
    gpu.terminator
  }
  gpu.memcpy %dst, %d : memref<8xf32>, memref<8xf32>
  gpu.dealloc %d : memref<8xf32>
  gpu.dealloc %s : memref<8xf32>
  %gv = vector.transfer_read %dst[%c0], %pad {in_bounds = [true]} : memref<8xf32>, vector<8xf32>
  %hv = vector.transfer_read %ref[%c0], %pad {in_bounds = [true]} : memref<8xf32>, vector<8xf32>
  vector.print str "gpu:  "
  vector.print %gv : vector<8xf32>
  vector.print str "host: "
  vector.print %hv : vector<8xf32>
  memref.dealloc %src : memref<8xf32>
  memref.dealloc %dst : memref<8xf32>
  memref.dealloc %ref : memref<8xf32>
  return
}
