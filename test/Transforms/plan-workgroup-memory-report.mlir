// RUN: gpumem-opt %s --gpumem-plan-workgroup-memory="report=text chip=sm_80 target=cuda svg=%t.svg" -o /dev/null 2>&1 | FileCheck %s --check-prefix=TEXT
// RUN: FileCheck %s --check-prefix=SVG < %t.svg
// RUN: gpumem-opt %s --gpumem-plan-workgroup-memory="report=json chip=sm_80 report-file=%t.json" -o /dev/null
// RUN: FileCheck %s --check-prefix=JSON < %t.json
// RUN: gpumem-opt %s --gpumem-plan-workgroup-memory="report=text target=vulkan limit=32768" -o /dev/null 2>&1 | FileCheck %s --check-prefix=LIMIT

// Two 32 KiB phases: planned, the kernel needs 32 KiB instead of 64 KiB, and
// an sm_80 SM holds 4 of its blocks instead of 2; shared memory, not the 128
// threads per block (16 blocks), limits occupancy.

// TEXT:      workgroup memory of kernel @m::@phases ({{.*}}plan-workgroup-memory-report.mlir:[[#@LINE+30]]:3), target cuda sm_80
// TEXT-NEXT:   #    line       buffer              bytes align  pad   offset  live (lines)     shares with
// TEXT-NEXT:   #0   [[#@LINE+28]]:61      8192xf32            32768    16    0        0  [[#@LINE+30]]:5..[[#@LINE+31]]:10    #1
// TEXT-NEXT:   #1   [[#@LINE+27]]:87      8192xf32            32768    16    0        0  [[#@LINE+31]]:5..[[#@LINE+31]]:5     #0
// TEXT-NEXT:   #2   [[#@LINE+32]]:10      ?xf32                 dyn    16    -      dyn  [[#@LINE+33]]:5..[[#@LINE+33]]:5     -
// TEXT-NEXT:   static: 32768 bytes planned, lower bound 32768, 65536 without reuse
// TEXT-NEXT:   dynamic: 1 view(s) of dynamic shared memory, sized at each launch
// TEXT-NEXT:   barrier inserted at {{.*}}plan-workgroup-memory-report.mlir:[[#@LINE+27]]:5
// TEXT-NEXT:   limit: 166912 bytes per block on sm_80 (49152 static)
// TEXT-NEXT:   occupancy: 4 blocks per SM (4 by shared memory, 2 without reuse; 16 by 128 threads per block; 32 per SM at most), before dynamic shared memory
// TEXT-NEXT:   remark: shared memory limits occupancy

// SVG:      <svg xmlns="http://www.w3.org/2000/svg"
// SVG:      @m::@phases: 32768 static bytes planned, lower bound 32768, 65536 without reuse
// SVG-COUNT-2: <rect x="{{[0-9.]+}}" y="{{[0-9.]+}}" width="{{[0-9.]+}}" height="{{[0-9.]+}}" fill="hsl(
// SVG:      </svg>

// JSON:      "chip": "sm_80",
// JSON:      "kernel": "phases",
// JSON:      "static_bytes": 32768,
// JSON-NEXT: "lower_bound_bytes": 32768,
// JSON-NEXT: "bytes_without_reuse": 65536,
// JSON:      "shares_with": [
// JSON-NEXT:   1
// JSON:      "dynamic": true,
// JSON:      "by_shared_memory": 4,
// JSON-NEXT: "by_shared_memory_without_reuse": 2,

// LIMIT: limit: 32768 bytes per block{{$}}
gpu.module @m {
  gpu.func @phases(%i: index, %v: f32, %n: index) workgroup(%a : memref<8192xf32, 3>, %b : memref<8192xf32, 3>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    memref.store %v, %a[%i] : memref<8192xf32, 3>
    %x = memref.load %a[%c0] : memref<8192xf32, 3>
    memref.store %x, %b[%i] : memref<8192xf32, 3>
    %dyn = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %t = memref.view %dyn[%c0][%n] : memref<?xi8, #gpu.address_space<workgroup>> to memref<?xf32, #gpu.address_space<workgroup>>
    memref.store %v, %t[%i] : memref<?xf32, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// A limit below the planned bytes says so.
// RUN: not gpumem-opt %s --gpumem-plan-workgroup-memory="report=text target=vulkan limit=16384" -o /dev/null 2>&1 | FileCheck %s --check-prefix=OVER
// OVER: error: 'gpu.func' op uses 32768 bytes of static workgroup memory; the vulkan target allows at most 16384 per block
// OVER: limit: 16384 bytes per block; the kernel does not fit
