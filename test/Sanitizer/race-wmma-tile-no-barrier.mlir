// racecheck on a fragment load, on every target that runs tensor-core
// fragments: each thread writes its two rows of a 16x16 workgroup tile, and
// the warp loads the tile as an A fragment with no barrier in between, so a
// lane reads elements other threads wrote. The report names the store and
// the fragment load, with the words each target uses for the access (the
// cpu target checks memrefs, cuda-emu checks addresses as compute-sanitizer
// does: there each lane's elements are checked where the PTX ISA puts
// them). With the barrier the program is clean.
// RUN: not gpumem-run --target=cpu --sanitize=racecheck %s 2>&1 | FileCheck %s --check-prefix=CPU
// RUN: %if cuda-emu %{ not gpumem-run --target=cuda-emu --sanitize=racecheck %s 2>&1 | FileCheck %s --check-prefix=EMU %}
// RUN: sed 's|// BARRIER||' %s > %t.mlir
// RUN: gpumem-run --target=cpu --sanitize %t.mlir 2>&1 | FileCheck %s --check-prefix=CLEAN
// RUN: %if cuda-emu %{ gpumem-run --target=cuda-emu --sanitize %t.mlir 2>&1 | FileCheck %s --check-prefix=CLEAN %}

// CPU: gpumem: sanitizer: race ({{read after write|write after read}}) on workgroup memory in kernel 'main_kernel', block (0,0,0)
// CPU-DAG: thread ({{[0-9]+}},0,0) {{reads|read}} it at {{.*}}.mlir:[[# @LINE + 30]]:11: %fa = gpu.subgroup_mma_load_matrix
// CPU-DAG: thread ({{[0-9]+}},0,0) {{writes|wrote}} it at {{.*}}.mlir:[[# @LINE + 26]]:7: memref.store %h, %tile[%r, %j]
// EMU: gpumem: sanitizer: race (read after write) on workgroup memory in kernel 'main_kernel', block (0,0,0): byte {{[0-9]+}} (wmma.load of 2 bytes)
// EMU-NEXT: thread ({{[0-9]+}},0,0) reads it at {{.*}}.mlir:[[# @LINE + 27]]:11: %fa = gpu.subgroup_mma_load_matrix
// EMU-NEXT: thread ({{[0-9]+}},0,0) wrote it at {{.*}}.mlir:[[# @LINE + 23]]:7: memref.store %h, %tile[%r, %j]
// CLEAN: sum: 30720
// CLEAN-NOT: sanitizer

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %out = gpu.alloc () : memref<16x16xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %tile = memref.alloca() : memref<16x16xf16, #gpu.address_space<workgroup>>
    // Thread t writes row t/2, columns 8*(t%2) .. +8: the value of its row.
    %r = arith.divui %tx, %c2 : index
    %half = arith.remui %tx, %c2 : index
    %c8 = arith.constant 8 : index
    %lo = arith.muli %half, %c8 : index
    %hi = arith.addi %lo, %c8 : index
    %ri = arith.index_cast %r : index to i32
    %h = arith.sitofp %ri : i32 to f16
    scf.for %j = %lo to %hi step %c1 {
      memref.store %h, %tile[%r, %j] : memref<16x16xf16, #gpu.address_space<workgroup>>
    }
    // BARRIER gpu.barrier
    %fa = gpu.subgroup_mma_load_matrix %tile[%c0, %c0] {leadDimension = 16 : index}
        : memref<16x16xf16, #gpu.address_space<workgroup>> -> !gpu.mma_matrix<16x16xf16, "AOp">
    %one = arith.constant 1.0 : f16
    %fb = gpu.subgroup_mma_constant_matrix %one : !gpu.mma_matrix<16x16xf16, "BOp">
    %zero = arith.constant 0.0 : f32
    %fc = gpu.subgroup_mma_constant_matrix %zero : !gpu.mma_matrix<16x16xf32, "COp">
    %fd = gpu.subgroup_mma_compute %fa, %fb, %fc
        : !gpu.mma_matrix<16x16xf16, "AOp">, !gpu.mma_matrix<16x16xf16, "BOp">
        -> !gpu.mma_matrix<16x16xf32, "COp">
    gpu.subgroup_mma_store_matrix %fd, %out[%c0, %c0] {leadDimension = 16 : index}
        : !gpu.mma_matrix<16x16xf32, "COp">, memref<16x16xf32>
    gpu.terminator
  }
  %host = memref.alloc() : memref<16x16xf32>
  gpu.memcpy %host, %out : memref<16x16xf32>, memref<16x16xf32>
  %f0 = arith.constant 0.0 : f32
  %sum = scf.for %i = %c0 to %c16 step %c1 iter_args(%s = %f0) -> f32 {
    %row = scf.for %j = %c0 to %c16 step %c1 iter_args(%t = %s) -> f32 {
      %v = memref.load %host[%i, %j] : memref<16x16xf32>
      %n = arith.addf %t, %v : f32
      scf.yield %n : f32
    }
    scf.yield %row : f32
  }
  vector.print str "sum: "
  vector.print %sum : f32
  return
}
