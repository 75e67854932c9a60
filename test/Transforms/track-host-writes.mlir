// RUN: gpumem-opt %s -gpumem-track-host-writes | FileCheck %s

// A managed buffer whose every use the pass sees: its bytes start
// unwritten, and each host store reports its element's address and bytes.
module attributes {gpu.container_module} {

// CHECK-LABEL: func.func @tracked
// CHECK:         %[[M:.*]] = gpu.alloc  host_shared () : memref<4x8xf32>
// CHECK-NEXT:    %[[BASE:.*]] = memref.extract_aligned_pointer_as_index %[[M]]
// CHECK-NEXT:    call @gpumemMemHostWritesTracked(%[[BASE]]) : (index) -> ()
// CHECK:         scf.for %[[I:.*]] =
// CHECK:           %{{.*}}, %[[OFFSET:.*]], %{{.*}}:2, %[[STRIDES:.*]]:2 = memref.extract_strided_metadata %[[M]]
// CHECK:           %[[ROW:.*]] = arith.muli %[[I]], %[[STRIDES]]#0
// CHECK:           %[[AT:.*]] = arith.addi %[[OFFSET]], %[[ROW]]
// CHECK:           %[[COL:.*]] = arith.muli %{{.*}}, %[[STRIDES]]#1
// CHECK:           %[[LINEAR:.*]] = arith.addi %[[AT]], %[[COL]]
// CHECK:           %[[ALIGNED:.*]] = memref.extract_aligned_pointer_as_index %[[M]]
// CHECK:           %[[BYTES:.*]] = arith.muli %[[LINEAR]], %c4
// CHECK:           %[[ADDRESS:.*]] = arith.addi %[[ALIGNED]], %[[BYTES]]
// CHECK:           call @gpumemMemHostWrote(%[[ADDRESS]], %c4{{.*}}) : (index, index) -> ()
// CHECK-NEXT:      memref.store
// A vector store through a subview: the vector's bytes.
// CHECK:         %[[ROW1:.*]] = memref.subview %[[M]][1, 0] [1, 8] [1, 1]
// CHECK:         call @gpumemMemHostWrote(%{{.*}}, %c32{{.*}}) : (index, index) -> ()
// CHECK-NEXT:    vector.store %{{.*}}, %[[ROW1]]
// CHECK:         gpu.launch_func
func.func @tracked(%v: f32, %w: vector<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %m = gpu.alloc host_shared () : memref<4x8xf32>
  scf.for %i = %c0 to %c4 step %c1 {
    memref.store %v, %m[%i, %c1] : memref<4x8xf32>
  }
  %row = memref.subview %m[1, 0] [1, 8] [1, 1] : memref<4x8xf32> to memref<8xf32, strided<[1], offset: 8>>
  vector.store %w, %row[%c0] : memref<8xf32, strided<[1], offset: 8>>, vector<8xf32>
  gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<4x8xf32>)
  gpu.dealloc %m : memref<4x8xf32>
  return
}

// A buffer handed to a function may be written there, unseen: left alone
// (all of it counts as written), and so is device memory.
// CHECK-LABEL: func.func @escapes
// CHECK-NOT:     gpumemMem
// CHECK:         return
func.func @escapes(%v: f32) {
  %c0 = arith.constant 0 : index
  %m = gpu.alloc host_shared () : memref<8xf32>
  memref.store %v, %m[%c0] : memref<8xf32>
  call @fill(%m) : (memref<8xf32>) -> ()
  %d = gpu.alloc () : memref<8xf32>
  memref.copy %m, %d : memref<8xf32> to memref<8xf32>
  return
}
func.func private @fill(memref<8xf32>)

gpu.module @kernels {
  gpu.func @k(%m: memref<4x8xf32>) kernel {
    gpu.return
  }
}

}
