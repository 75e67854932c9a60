// gpumem-compile makes an executable that prints what gpumem-run prints and
// needs none of MLIR's or LLVM's libraries.

// RUN: gpumem-compile --target=cpu %s -o %t.exe
// RUN: %t.exe | FileCheck %s
// RUN: gpumem-run --target=cpu %s | FileCheck %s
// RUN: readelf -d %t.exe | FileCheck %s --check-prefix=NEEDED
// Without -o the executable is a.out in the working directory, as cc makes.
// RUN: rm -rf %t.dir && mkdir %t.dir && cd %t.dir && gpumem-compile --target=cpu %s && ./a.out | FileCheck %s
// The cuda-emu target's executable needs the same libraries.
// RUN: %if cuda-emu %{ gpumem-compile --target=cuda-emu %s -o %t.emu.exe %}
// RUN: %if cuda-emu %{ %t.emu.exe | FileCheck %s %}
// RUN: %if cuda-emu %{ readelf -d %t.emu.exe | FileCheck %s --check-prefix=NEEDED %}

// CHECK: ( 0, 2, 4, 6, 8, 10, 12, 14 )

// NEEDED-NOT: libMLIR
// NEEDED-NOT: libLLVM
// NEEDED-NOT: libmlir
// NEEDED: (NEEDED) Shared library: [libgpumem_cpu_runtime.so]
// NEEDED: (NEEDED) Shared library: [libgpumem_runner_utils.so]
// NEEDED-NOT: libMLIR
// NEEDED-NOT: libLLVM
// NEEDED-NOT: libmlir

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %data = memref.alloc() : memref<8xi32>
  %u = memref.cast %data : memref<8xi32> to memref<*xi32>
  gpu.host_register %u : memref<*xi32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1) {
    %t = arith.index_cast %tx : index to i32
    %v = arith.addi %t, %t : i32
    memref.store %v, %data[%tx] : memref<8xi32>
    gpu.terminator
  }
  %pad = arith.constant 0 : i32
  %vec = vector.transfer_read %data[%c0], %pad : memref<8xi32>, vector<8xi32>
  vector.print %vec : vector<8xi32>
  return
}
