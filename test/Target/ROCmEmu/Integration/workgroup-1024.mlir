// RUN: gpumem-run --target=cpu %s | FileCheck %s --match-full-lines --strict-whitespace
// RUN: gpumem-run --target=rocm-emu --chip=gfx1100 %s | FileCheck %s --match-full-lines --strict-whitespace
// RUN: gpumem-run --target=rocm-emu --chip=gfx90a %s | FileCheck %s --match-full-lines --strict-whitespace

// A workgroup of 1024 work-items, the most an AMD GPU runs, a size the host
// reads from memory: each adds its id into LDS by a tree reduction with
// barriers. The kernel's size is not known when it is compiled, so
// gpumem-finalize-rocdl-kernels gives it a flat workgroup size of "1,1024";
// without it the ROCDL translation's "1,256" would stand and HIP would
// refuse the launch (scripts/inject-rocm-bugs.sh leaves the pass out to
// show it).

// CHECK:sum: 523776
// CHECK-NEXT:work-items: 1024

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1024 = arith.constant 1024 : index
  %cfg = memref.alloc() : memref<1xindex>
  memref.store %c1024, %cfg[%c0] : memref<1xindex>
  %n = memref.load %cfg[%c0] : memref<1xindex>
  %out = memref.alloc() : memref<2xi32>
  %zero = arith.constant 0 : i32
  memref.store %zero, %out[%c1] : memref<2xi32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %n, %sy = %c1, %sz = %c1) {
    %lds = memref.alloca() : memref<1024xi32, #gpu.address_space<workgroup>>
    %id = arith.index_cast %tx : index to i32
    memref.store %id, %lds[%tx] : memref<1024xi32, #gpu.address_space<workgroup>>
    %one = arith.constant 1 : i32
    %count = memref.atomic_rmw addi %one, %out[%c1] : (i32, memref<2xi32>) -> i32
    gpu.barrier
    %c2 = arith.constant 2 : index
    %c512 = arith.constant 512 : index
    %half = scf.while (%h = %c512) : (index) -> index {
      %more = arith.cmpi ugt, %h, %c0 : index
      scf.condition(%more) %h : index
    } do {
    ^bb0(%h: index):
      %active = arith.cmpi ult, %tx, %h : index
      scf.if %active {
        %other = arith.addi %tx, %h : index
        %a = memref.load %lds[%tx] : memref<1024xi32, #gpu.address_space<workgroup>>
        %b = memref.load %lds[%other] : memref<1024xi32, #gpu.address_space<workgroup>>
        %s = arith.addi %a, %b : i32
        memref.store %s, %lds[%tx] : memref<1024xi32, #gpu.address_space<workgroup>>
      }
      gpu.barrier
      %next = arith.divui %h, %c2 : index
      scf.yield %next : index
    }
    %first = arith.cmpi eq, %tx, %c0 : index
    scf.if %first {
      %sum = memref.load %lds[%c0] : memref<1024xi32, #gpu.address_space<workgroup>>
      memref.store %sum, %out[%c0] : memref<2xi32>
    }
    gpu.terminator
  }
  %sum = memref.load %out[%c0] : memref<2xi32>
  %items = memref.load %out[%c1] : memref<2xi32>
  vector.print str "sum: "
  vector.print %sum : i32
  vector.print str "work-items: "
  vector.print %items : i32
  memref.dealloc %out : memref<2xi32>
  memref.dealloc %cfg : memref<1xindex>
  return
}
