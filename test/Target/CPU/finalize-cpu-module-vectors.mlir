// RUN: gpumem-opt %s -pass-pipeline='builtin.module(gpu.module(gpumem-finalize-cpu-module))' | FileCheck %s

// Multi-dimensional vectors built and taken apart element by element, as a
// structurally lowered kernel has them after scf became branches: the
// n-D from_elements and to_elements become rows of 1-D ones, which the LLVM
// conversion lowers (it has no n-D from_elements, and its n-D to_elements
// made extractelement of an array). The module's empty kernel table stands
// for what gpumem-lower-gpu-to-cpu-abi leaves.

// CHECK-LABEL: llvm.func @carried
// CHECK-NOT: vector.from_elements
// CHECK-NOT: vector.to_elements
// CHECK: llvm.insertvalue %{{.*}}[1] : !llvm.array<2 x vector<3xf32>>
// CHECK: llvm.br ^bb1({{.*}} : !llvm.array<2 x vector<3xf32>>)
// CHECK: ^bb1(%{{.*}}: !llvm.array<2 x vector<3xf32>>):
// CHECK: llvm.extractvalue %{{.*}}[1] : !llvm.array<2 x vector<3xf32>>
// CHECK: llvm.extractelement
// CHECK: llvm.return
gpu.module @m [#gpumem.cpu] attributes {gpumem.cpu_kernels = []} {
  func.func @carried(%a: f32, %b: f32, %go: i1) -> f32 {
    %v = vector.from_elements %a, %b, %a, %b, %a, %b : vector<2x3xf32>
    cf.br ^loop(%v : vector<2x3xf32>)
  ^loop(%m: vector<2x3xf32>):
    %n = arith.addf %m, %m : vector<2x3xf32>
    cf.cond_br %go, ^loop(%n : vector<2x3xf32>), ^exit
  ^exit:
    %e:6 = vector.to_elements %n : vector<2x3xf32>
    return %e#4 : f32
  }
}
