// RUN: gpumem-opt %s -split-input-file --pass-pipeline="builtin.module(gpu.module(gpumem-define-nvvm-sanitizer-log))" -verify-diagnostics

// racecheck and initcheck are the runtime's: refused at the call.
gpu.module @racecheck {
  llvm.func @__gpumem_sanitizer_sharedAccess(!llvm.ptr<3>, i64, i32, !llvm.ptr, !llvm.ptr)
  llvm.func @k(%p: !llvm.ptr<3>, %n: i64, %f: i32, %w: !llvm.ptr) {
    // expected-error @+1 {{--sanitize=racecheck and initcheck keep a shadow of every byte in the runtime: they run on the cpu, cuda-emu and rocm-emu targets, not in device code (__gpumem_sanitizer_sharedAccess)}}
    llvm.call @__gpumem_sanitizer_sharedAccess(%p, %n, %f, %w, %w) : (!llvm.ptr<3>, i64, i32, !llvm.ptr, !llvm.ptr) -> ()
    llvm.return
  }
}

// -----

// The log's name is the sanitizer's.
gpu.module @taken {
  // expected-error @+1 {{the symbol '__gpumem_sanitizer_log' is the sanitizer's log; rename this one}}
  llvm.mlir.global external @__gpumem_sanitizer_log() {addr_space = 1 : i32} : i32
  llvm.func @__gpumem_sanitizer_divisionError(i32, !llvm.ptr, !llvm.ptr)
}

// -----

// A report function declared with another type.
gpu.module @mistyped {
  // expected-error @+1 {{'__gpumem_sanitizer_divisionError' is a function of the sanitizer, with type '!llvm.func<void (i32, ptr, ptr)>'}}
  llvm.func @__gpumem_sanitizer_divisionError(i64, !llvm.ptr, !llvm.ptr)
}
