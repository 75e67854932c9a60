// RUN: gpumem-run --target=rocm-emu --chip=gfx1100 %s | FileCheck %s --match-full-lines --strict-whitespace
// RUN: gpumem-run --target=rocm-emu --chip=gfx90a %s | FileCheck %s --match-full-lines --strict-whitespace

// rocdl.readfirstlane (gpu.subgroup_broadcast first_active_lane) reads the
// lowest active lane, as on an AMD GPU: inside the scf.if only lanes 5 and
// up of the wavefront are active, so every one of them reads lane 5's id;
// the others keep -1.

// CHECK:( -1, -1, -1, -1, -1, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5 )

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %out = memref.alloc() : memref<32xi32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %c5 = arith.constant 5 : index
    %minus1 = arith.constant -1 : i32
    memref.store %minus1, %out[%tx] : memref<32xi32>
    %late = arith.cmpi uge, %tx, %c5 : index
    scf.if %late {
      %t = arith.index_cast %tx : index to i32
      %first = gpu.subgroup_broadcast %t, first_active_lane : i32
      memref.store %first, %out[%tx] : memref<32xi32>
    }
    gpu.terminator
  }
  %z = arith.constant 0 : i32
  %v = vector.transfer_read %out[%c0], %z {in_bounds = [true]} : memref<32xi32>, vector<32xi32>
  vector.print %v : vector<32xi32>
  memref.dealloc %out : memref<32xi32>
  return
}
