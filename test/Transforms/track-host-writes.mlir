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

// A host buffer that reaches gpu.host_register (through a cast to unranked)
// and is launched only after it: the runtime follows it from its
// allocation (its size in bytes), each store reports its bytes, and its
// dealloc ends the following.
// CHECK-LABEL: func.func @registered
// CHECK:         %[[H:.*]] = memref.alloc(%[[N:.*]]) : memref<?xi16>
// CHECK-NEXT:    %[[C2:.*]] = arith.constant 2 : index
// CHECK-NEXT:    %[[SIZE:.*]] = arith.muli %[[C2]], %[[N]]
// CHECK-NEXT:    %[[HBASE:.*]] = memref.extract_aligned_pointer_as_index %[[H]]
// CHECK-NEXT:    call @gpumemMemHostBufferTracked(%[[HBASE]], %[[SIZE]]) : (index, index) -> ()
// CHECK:         call @gpumemMemHostWrote(%{{.*}}, %c2{{.*}}) : (index, index) -> ()
// CHECK-NEXT:    memref.store
// CHECK:         gpu.host_register
// CHECK:         gpu.launch_func
// CHECK:         %[[FREED:.*]] = memref.extract_aligned_pointer_as_index %[[H]]
// CHECK-NEXT:    call @gpumemMemHostBufferFreed(%[[FREED]]) : (index) -> ()
// CHECK-NEXT:    memref.dealloc %[[H]]
func.func @registered(%n: index, %v: i16) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %h = memref.alloc(%n) : memref<?xi16>
  memref.store %v, %h[%c0] : memref<?xi16>
  %u = memref.cast %h : memref<?xi16> to memref<*xi16>
  gpu.host_register %u : memref<*xi16>
  gpu.launch_func @kernels::@r blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%h : memref<?xi16>)
  gpu.host_unregister %u : memref<*xi16>
  memref.dealloc %h : memref<?xi16>
  return
}

// Launched before its registration (the runtime would not see what the
// kernel writes), never registered, or handed to a function: left alone.
// CHECK-LABEL: func.func @registered_too_late
// CHECK-NOT:     gpumemMem
// CHECK:         return
func.func @registered_too_late(%v: i16) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %h = memref.alloc() : memref<4xi16>
  memref.store %v, %h[%c0] : memref<4xi16>
  gpu.launch_func @kernels::@s blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%h : memref<4xi16>)
  %u = memref.cast %h : memref<4xi16> to memref<*xi16>
  gpu.host_register %u : memref<*xi16>
  %never = memref.alloc() : memref<4xi16>
  memref.store %v, %never[%c0] : memref<4xi16>
  %passed = memref.alloc() : memref<8xf32>
  %up = memref.cast %passed : memref<8xf32> to memref<*xf32>
  gpu.host_register %up : memref<*xf32>
  call @fill(%passed) : (memref<8xf32>) -> ()
  return
}

gpu.module @kernels {
  gpu.func @k(%m: memref<4x8xf32>) kernel {
    gpu.return
  }
  gpu.func @r(%m: memref<?xi16>) kernel {
    gpu.return
  }
  gpu.func @s(%m: memref<4xi16>) kernel {
    gpu.return
  }
}

}
