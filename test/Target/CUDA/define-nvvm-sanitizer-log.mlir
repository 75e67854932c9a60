// RUN: gpumem-opt %s --pass-pipeline="builtin.module(gpu.module(gpumem-define-nvvm-sanitizer-log))" | FileCheck %s
// Run again, the pass finds the functions defined and changes nothing.
// RUN: gpumem-opt %s --pass-pipeline="builtin.module(gpu.module(gpumem-define-nvvm-sanitizer-log,gpumem-define-nvvm-sanitizer-log))" | FileCheck %s

// The report functions the memref checks declared get bodies that write
// the log in global memory (include/gpumem/Runtime/DeviceSanitizerLog.h):
// a zero-initialized, visible global of 8 + 64 * 448 bytes.
// CHECK-LABEL: gpu.module @checked
// CHECK:       llvm.mlir.global external @__gpumem_sanitizer_log() {addr_space = 1 : i32, alignment = 8 : i64} : !llvm.struct<(i32, i32, array<64 x struct<(i64, i64, i64, i64, i64, i64, i32, i32, i32, i32, array<128 x i8>, array<256 x i8>)>>)>
// CHECK:         llvm.mlir.zero
// CHECK:       llvm.func internal @__gpumem_sanitizer_copy(
// CHECK:       llvm.func internal @__gpumem_sanitizer_record(%{{.*}}: i32, %{{.*}}: i32, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64) attributes {no_inline}
// The erring thread, by its linear block and thread ids.
// CHECK:         nvvm.read.ptx.sreg.tid.x
// CHECK:         nvvm.read.ptx.sreg.ctaid.x
// CHECK:         llvm.shl %{{.*}}, %{{.*}} : i64
// A record of the same site is counted; the smallest thread is kept.
// CHECK:         llvm.load %{{.*}} atomic acquire
// CHECK:         llvm.atomicrmw add %{{.*}}, %{{.*}} monotonic : !llvm.ptr, i32
// CHECK:         llvm.atomicrmw umin %{{.*}}, %{{.*}} monotonic : !llvm.ptr, i64
// Else a slot is taken, or the error only counted when none is left.
// CHECK:         llvm.atomicrmw add %{{.*}}, %{{.*}} monotonic : !llvm.ptr, i32
// CHECK:         llvm.icmp "ult"
// CHECK:         llvm.atomicrmw add %{{.*}}, %{{.*}} monotonic : !llvm.ptr, i32
// The slot's kind is published last.
// CHECK:         llvm.call @__gpumem_sanitizer_copy
// CHECK:         llvm.call @__gpumem_sanitizer_copy
// CHECK:         llvm.store %{{.*}}, %{{.*}} atomic release {alignment = 4 : i64} : i32, !llvm.ptr
// CHECK:       llvm.func @__gpumem_sanitizer_accessError(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: !llvm.ptr) {
// CHECK:         llvm.mlir.constant(1 : i32)
// CHECK:         llvm.call @__gpumem_sanitizer_record
// CHECK:       llvm.func @__gpumem_sanitizer_accessErrorShared(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: !llvm.ptr<3>) {
// CHECK:         llvm.mlir.constant(2 : i32)
// CHECK:       llvm.func @__gpumem_sanitizer_divisionError(%{{.*}}: i32, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr) {
// CHECK:         llvm.mlir.constant(3 : i32)
// The declaration is gone, the call stays.
// CHECK-NOT:   llvm.func @__gpumem_sanitizer_accessError(!llvm.ptr
// CHECK:       llvm.func @k(
// CHECK:         llvm.call @__gpumem_sanitizer_accessError(
gpu.module @checked {
  llvm.func @__gpumem_sanitizer_accessError(!llvm.ptr, !llvm.ptr, i64, i64, i64, !llvm.ptr)
  llvm.func @k(%what: !llvm.ptr, %where: !llvm.ptr, %i: i64, %n: i64, %base: !llvm.ptr) {
    %d = llvm.mlir.constant(0 : i64) : i64
    llvm.call @__gpumem_sanitizer_accessError(%what, %where, %d, %i, %n, %base) : (!llvm.ptr, !llvm.ptr, i64, i64, i64, !llvm.ptr) -> ()
    llvm.return
  }
}

// A module the checks did not touch stays as it is.
// CHECK-LABEL: gpu.module @unchecked
// CHECK-NOT:   __gpumem_sanitizer
// CHECK:       llvm.func @plain
gpu.module @unchecked {
  llvm.func @plain() {
    llvm.return
  }
}
