// RUN: gpumem-opt %s --gpu-to-llvm | FileCheck %s

// The managed memory ops lower inside upstream's gpu-to-llvm (the gpumem
// dialect's ConvertToLLVMPatternInterface): calls of mgpuMemAlloc,
// gpumemMemPrefetch and gpumemMemAdvise, with streams as gpu-to-llvm maps
// tokens, and the bytes every element of the memref spans.

// CHECK-LABEL: llvm.func @alloc_managed
// CHECK: %[[BYTES:.*]] = llvm.ptrtoint %{{.*}} : !llvm.ptr to i64
// CHECK: %[[NULL:.*]] = llvm.mlir.zero : !llvm.ptr
// CHECK: %[[SHARED:.*]] = llvm.mlir.constant(1 : i8) : i8
// CHECK: %[[PTR:.*]] = llvm.call @mgpuMemAlloc(%[[BYTES]], %[[NULL]], %[[SHARED]]) : (i64, !llvm.ptr, i8) -> !llvm.ptr
// CHECK: llvm.insertvalue %[[PTR]], %{{.*}}[0]
// CHECK: llvm.insertvalue %[[PTR]], %{{.*}}[1]
// CHECK: %[[ROWS:.*]] = llvm.mul %{{.*}}, %arg0 : i64
// CHECK: %[[GEP:.*]] = llvm.getelementptr %{{.*}}[%[[ROWS]]] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK: %[[BYTES2:.*]] = llvm.ptrtoint %[[GEP]] : !llvm.ptr to i64
// CHECK: llvm.call @mgpuMemAlloc(%[[BYTES2]], %{{.*}}, %{{.*}}) : (i64, !llvm.ptr, i8) -> !llvm.ptr
func.func @alloc_managed(%n: index) -> (memref<8xf32>, memref<?x4xf32>) {
  %a = gpumem.alloc_managed() : memref<8xf32>
  %b = gpumem.alloc_managed(%n) : memref<?x4xf32>
  return %a, %b : memref<8xf32>, memref<?x4xf32>
}

// Synchronous: a null stream, which the runtimes finish before returning.
// CHECK-LABEL: llvm.func @prefetch_sync
// CHECK: %[[NULL:.*]] = llvm.mlir.zero : !llvm.ptr
// CHECK: %[[START:.*]] = llvm.extractvalue %{{.*}}[1]
// CHECK: %[[SIZE:.*]] = llvm.ptrtoint
// CHECK: %[[N:.*]] = llvm.mlir.constant(8 : i64) : i64
// CHECK: %[[BYTES:.*]] = llvm.mul %[[N]], %[[SIZE]] : i64
// CHECK: %[[DEVICE:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK: llvm.call @gpumemMemPrefetch(%[[START]], %[[BYTES]], %[[DEVICE]], %[[NULL]]) : (!llvm.ptr, i64, i32, !llvm.ptr) -> ()
// CHECK-NEXT: llvm.return
func.func @prefetch_sync(%a: memref<8xf32>) {
  gpumem.prefetch %a to device : memref<8xf32>
  return
}

// Asynchronous, one dependency: its stream, which is also the result.
// CHECK-LABEL: llvm.func @prefetch_async
// CHECK: %[[STREAM:.*]] = llvm.call @mgpuStreamCreate()
// CHECK: %[[HOST:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK: llvm.call @gpumemMemPrefetch(%{{.*}}, %{{.*}}, %[[HOST]], %[[STREAM]])
// CHECK-NEXT: llvm.call @mgpuStreamSynchronize(%[[STREAM]])
// CHECK-NEXT: llvm.call @mgpuStreamDestroy(%[[STREAM]])
func.func @prefetch_async(%a: memref<8xf32>) {
  %t0 = gpu.wait async
  %t1 = gpumem.prefetch async [%t0] %a to host : memref<8xf32>
  gpu.wait [%t1]
  return
}

// Asynchronous, no dependency: a stream of its own.
// CHECK-LABEL: llvm.func @prefetch_async_no_dependency
// CHECK: %[[STREAM:.*]] = llvm.call @mgpuStreamCreate()
// CHECK: llvm.call @gpumemMemPrefetch(%{{.*}}, %{{.*}}, %{{.*}}, %[[STREAM]])
// CHECK-NEXT: llvm.call @mgpuStreamSynchronize(%[[STREAM]])
func.func @prefetch_async_no_dependency(%a: memref<8xf32>) {
  %t = gpumem.prefetch async %a to device : memref<8xf32>
  gpu.wait [%t]
  return
}

// Asynchronous, two dependencies: a new stream waits for both, as
// gpu.wait async does.
// CHECK-LABEL: llvm.func @prefetch_async_two_dependencies
// CHECK: %[[S0:.*]] = llvm.call @mgpuStreamCreate()
// CHECK: %[[S1:.*]] = llvm.call @mgpuStreamCreate()
// CHECK: %[[S:.*]] = llvm.call @mgpuStreamCreate()
// CHECK: %[[E0:.*]] = llvm.call @mgpuEventCreate()
// CHECK: llvm.call @mgpuEventRecord(%[[E0]], %[[S0]])
// CHECK: llvm.call @mgpuStreamWaitEvent(%[[S]], %[[E0]])
// CHECK: llvm.call @mgpuEventDestroy(%[[E0]])
// CHECK: %[[E1:.*]] = llvm.call @mgpuEventCreate()
// CHECK: llvm.call @mgpuEventRecord(%[[E1]], %[[S1]])
// CHECK: llvm.call @mgpuStreamWaitEvent(%[[S]], %[[E1]])
// CHECK: llvm.call @mgpuEventDestroy(%[[E1]])
// CHECK: llvm.call @gpumemMemPrefetch(%{{.*}}, %{{.*}}, %{{.*}}, %[[S]])
// CHECK-NEXT: llvm.call @mgpuStreamSynchronize(%[[S]])
func.func @prefetch_async_two_dependencies(%a: memref<8xf32>) {
  %t0 = gpu.wait async
  %t1 = gpu.wait async
  %t2 = gpumem.prefetch async [%t0, %t1] %a to device : memref<8xf32>
  gpu.wait [%t2]
  return
}

// Synchronous with a dependency: waits for it first (without destroying it).
// CHECK-LABEL: llvm.func @prefetch_sync_with_dependency
// CHECK: %[[S0:.*]] = llvm.call @mgpuStreamCreate()
// CHECK-NEXT: llvm.call @mgpuStreamSynchronize(%[[S0]])
// CHECK-NEXT: %[[NULL:.*]] = llvm.mlir.zero : !llvm.ptr
// CHECK: llvm.call @gpumemMemPrefetch(%{{.*}}, %{{.*}}, %{{.*}}, %[[NULL]])
// CHECK-NEXT: llvm.call @mgpuStreamSynchronize(%[[S0]])
// CHECK-NEXT: llvm.call @mgpuStreamDestroy(%[[S0]])
func.func @prefetch_sync_with_dependency(%a: memref<8xf32>) {
  %t0 = gpu.wait async
  gpumem.prefetch [%t0] %a to host : memref<8xf32>
  gpu.wait [%t0]
  return
}

// CHECK-LABEL: llvm.func @advise
// CHECK: %[[START:.*]] = llvm.extractvalue %{{.*}}[1]
// CHECK: %[[BYTES:.*]] = llvm.mul
// CHECK: %[[ADVICE:.*]] = llvm.mlir.constant(3 : i32) : i32
// CHECK: llvm.call @gpumemMemAdvise(%[[START]], %[[BYTES]], %[[ADVICE]]) : (!llvm.ptr, i64, i32) -> ()
func.func @advise(%a: memref<8xf32>) {
  gpumem.advise %a, preferred_location_host : memref<8xf32>
  return
}

// A 2x2 view with strides 8 and 2 at offset 3: elements 3 to 13.
// CHECK-LABEL: llvm.func @extent_view
// CHECK: %[[ALIGNED:.*]] = llvm.extractvalue %{{.*}}[1]
// CHECK: %[[FIRST:.*]] = llvm.mlir.constant(3 : i64) : i64
// CHECK: %[[START:.*]] = llvm.getelementptr %[[ALIGNED]][%[[FIRST]]] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK: %[[SIZE:.*]] = llvm.ptrtoint
// CHECK: %[[ELEMENTS:.*]] = llvm.mlir.constant(11 : i64) : i64
// CHECK: %[[BYTES:.*]] = llvm.mul %[[ELEMENTS]], %[[SIZE]] : i64
// CHECK: llvm.call @gpumemMemAdvise(%[[START]], %[[BYTES]], %{{.*}})
func.func @extent_view(%v: memref<2x2xf32, strided<[8, 2], offset: 3>>) {
  gpumem.advise %v, read_mostly : memref<2x2xf32, strided<[8, 2], offset: 3>>
  return
}

// Reversed from offset 3: elements 0 to 3.
// CHECK-LABEL: llvm.func @extent_reversed
// CHECK: %[[ALIGNED:.*]] = llvm.extractvalue %{{.*}}[1]
// CHECK-NOT: llvm.getelementptr %[[ALIGNED]]
// CHECK: %[[SIZE:.*]] = llvm.ptrtoint %{{.*}} : !llvm.ptr to i64
// CHECK: %[[ELEMENTS:.*]] = llvm.mlir.constant(4 : i64) : i64
// CHECK: %[[BYTES:.*]] = llvm.mul %[[ELEMENTS]], %[[SIZE]] : i64
// CHECK: llvm.call @gpumemMemAdvise(%[[ALIGNED]], %[[BYTES]], %{{.*}})
func.func @extent_reversed(%v: memref<4xf64, strided<[-1], offset: 3>>) {
  gpumem.advise %v, read_mostly : memref<4xf64, strided<[-1], offset: 3>>
  return
}

// Dynamic: the lowest and highest element from the descriptor, no bytes
// when the size is 0.
// CHECK-LABEL: llvm.func @extent_dynamic
// CHECK: %[[OFFSET:.*]] = llvm.extractvalue %[[D:.*]][2]
// CHECK: %[[ALIGNED:.*]] = llvm.extractvalue %[[D]][1]
// CHECK: %[[N:.*]] = llvm.extractvalue %[[D]][3, 0]
// CHECK: %[[STRIDE:.*]] = llvm.extractvalue %[[D]][4, 0]
// CHECK: %[[EMPTY:.*]] = llvm.icmp "eq" %[[N]], %{{.*}} : i64
// CHECK: %[[LAST:.*]] = llvm.sub %[[N]], %{{.*}} : i64
// CHECK: %[[REACH:.*]] = llvm.mul %[[LAST]], %[[STRIDE]] : i64
// CHECK: %[[LOW:.*]] = llvm.intr.smin(%[[REACH]], %{{.*}})
// CHECK: %[[HIGH:.*]] = llvm.intr.smax(%[[REACH]], %{{.*}})
// CHECK: %[[FIRST:.*]] = llvm.add %[[OFFSET]], %[[LOW]] : i64
// CHECK: %[[START:.*]] = llvm.getelementptr %[[ALIGNED]][%[[FIRST]]]
// CHECK: %[[SPAN:.*]] = llvm.sub %[[HIGH]], %[[LOW]] : i64
// CHECK: %[[ELEMENTS:.*]] = llvm.add %[[SPAN]], %{{.*}} : i64
// CHECK: %[[SIZE:.*]] = llvm.ptrtoint
// CHECK: %[[ALL:.*]] = llvm.mul %[[ELEMENTS]], %[[SIZE]] : i64
// CHECK: %[[BYTES:.*]] = llvm.select %[[EMPTY]], %{{.*}}, %[[ALL]] : i1, i64
// CHECK: llvm.call @gpumemMemAdvise(%[[START]], %[[BYTES]], %{{.*}})
func.func @extent_dynamic(%v: memref<?xf32, strided<[?], offset: ?>>) {
  gpumem.advise %v, read_mostly : memref<?xf32, strided<[?], offset: ?>>
  return
}

// No elements: no bytes.
// CHECK-LABEL: llvm.func @extent_empty
// CHECK: %[[ALIGNED:.*]] = llvm.extractvalue %{{.*}}[1]
// CHECK-NEXT: %[[ZERO:.*]] = llvm.mlir.constant(0 : i64) : i64
// CHECK: llvm.call @gpumemMemAdvise(%[[ALIGNED]], %[[ZERO]], %{{.*}})
func.func @extent_empty(%v: memref<0x4xf32>) {
  gpumem.advise %v, read_mostly : memref<0x4xf32>
  return
}

// CHECK-DAG: llvm.func @mgpuMemAlloc(i64, !llvm.ptr, i8) -> !llvm.ptr
// CHECK-DAG: llvm.func @gpumemMemPrefetch(!llvm.ptr, i64, i32, !llvm.ptr)
// CHECK-DAG: llvm.func @gpumemMemAdvise(!llvm.ptr, i64, i32)
