// RUN: gpumem-opt %s -split-input-file -gpumem-check-device-code -verify-diagnostics

module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-error @+1 {{'gpu.barrier' op is at the top level of a gpu.module, outside any function; only functions and globals belong there}}
    gpu.barrier
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-error @+1 {{'llvm.mlir.global' op has type '!llvm.array<4 x index>', which is not an LLVM type (index has no size in LLVM IR: use i64 or i32)}}
    llvm.mlir.global internal @table() : !llvm.array<4 x index>
  }
}

// -----

// Allocations in memory spaces they cannot live in, in a launch body and in
// a kernel; the legal spaces pass.
func.func @launch() {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    // expected-error @+1 {{'memref.alloca' op allocates in memory space 4 inside device code; an alloca is private (no memory space, 5 or #gpu.address_space<private>) or workgroup (3 or #gpu.address_space<workgroup>) memory}}
    %constant = memref.alloca() : memref<16xf32, 4>
    // expected-error @+1 {{'memref.alloca' op allocates in memory space #gpu.address_space<global> inside device code}}
    %global = memref.alloca() : memref<16xf32, #gpu.address_space<global>>
    // expected-error @+1 {{'memref.alloc' op allocates in memory space 2 inside device code; an alloc is device (no memory space, 1 or #gpu.address_space<global>) or workgroup (3 or #gpu.address_space<workgroup>) memory}}
    %two = memref.alloc() : memref<16xf32, 2>
    %private = memref.alloca() : memref<16xf32, 5>
    %shared = memref.alloca() : memref<16xf32, #gpu.address_space<workgroup>>
    %plain = memref.alloca() : memref<16xf32>
    %heap = memref.alloc() : memref<16xf32, 1>
    gpu.terminator
  }
  return
}

// -----

gpu.module @m {
  gpu.func @k() kernel {
    // expected-error @+1 {{'memref.alloca' op allocates in memory space 1 inside device code}}
    %a = memref.alloca() : memref<4xf32, 1>
    gpu.return
  }
}

// -----

// Host code allocates where it likes.
func.func @host() {
  %a = memref.alloc() : memref<4xf32, 4>
  return
}

// -----

// Host code outside any function (found by fuzzing: the LLVM IR
// translation crashed on it).
// expected-error @+1 {{'arith.constant' op is at the top level of the module, outside any function; only functions and globals belong there}}
%c0 = arith.constant 0 : index
func.func @main() {
  return
}

// -----

// Attributions are laid out at compile time (found by fuzzing: the cpu and
// NVIDIA lowerings computed the size of a dynamic shape).
gpu.module @m {
  // expected-error @below {{'gpu.func' op has workgroup attribution 0 of type 'memref<?xf32, 3>'; attributions need a static shape}}
  gpu.func @k() workgroup(%buf : memref<?xf32, 3>) kernel {
    gpu.return
  }
}

// -----

gpu.module @m {
  // expected-error @below {{'gpu.func' op has private attribution 0 of type 'memref<?xi32, 5>'; attributions need a static shape}}
  gpu.func @k() private(%buf : memref<?xi32, 5>) kernel {
    gpu.return
  }
}

// -----

// Inline assembly that names an operand it does not have ($N counts the
// outputs, then the inputs; clobbers are not operands; $$ is a dollar).
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%x: i32) kernel {
      // Valid: one output ($0) and one input ($1), a clobber, a $$.
      %a = llvm.inline_asm "add.u32 $0, $1, 1; // $$", "=r,r,~{memory}" %x : (i32) -> i32
      %b = llvm.inline_asm "mov.u32 ${0}, %clock;", "=r" : () -> i32
      // expected-error @+1 {{'llvm.inline_asm' op refers to operand $4294967296 in its assembly string, but has 1 operand (outputs and inputs, numbered from 0)}}
      %c = llvm.inline_asm "mov.u32 $4294967296, %clock;", "=r" : () -> i32
      // expected-error @+1 {{'llvm.inline_asm' op refers to operand ${2} in its assembly string, but has 2 operands}}
      %d = llvm.inline_asm "add.u32 ${0}, ${1}, ${2};", "=r,r" %x : (i32) -> i32
      gpu.return
    }
  }
}

// -----

// A memref layout that is not strided has no descriptor in any lowering
// (upstream's type conversion fails on it without a location); each type is
// reported once.
// expected-error @below {{'func.func' op has argument 0 of type 'memref<4xf32, affine_map<(d0) -> (d0 floordiv 2, d0 mod 2)>>', whose layout is not strided; the lowerings take identity and strided<...> layouts only}}
func.func @tiled(%a: memref<4xf32, affine_map<(d0) -> (d0 floordiv 2, d0 mod 2)>>) {
  %c = memref.cast %a : memref<4xf32, affine_map<(d0) -> (d0 floordiv 2, d0 mod 2)>> to memref<4xf32, affine_map<(d0) -> (d0 floordiv 2, d0 mod 2)>>
  return
}

// -----

gpu.module @m {
  // expected-error @below {{'gpu.func' op has argument 0 of type 'memref<33xf32, affine_map<(d0) -> (d0 floordiv 2)>>', whose layout is not strided}}
  gpu.func @k(%m: memref<33xf32, affine_map<(d0) -> (d0 floordiv 2)>>) kernel {
    gpu.return
  }
}

// -----

// Host code takes integer memory spaces only: the host lowerings map
// #gpu.address_space in device code alone.
// expected-error @below {{'func.func' op has argument 0 of type 'memref<4xf32, #gpu.address_space<global>>' in host code, whose memory space is not an integer; host code takes memory spaces given as integers only (no memory space for host memory)}}
func.func @host(%g: memref<4xf32, #gpu.address_space<global>>, %w: memref<4xf32, 3>) {
  return
}

// -----

// A function the device code calls is device code: outlining copies it into
// the kernel's gpu.module (its workgroup alloca is fine), as is what it calls.
func.func @main(%out: memref<4xf32>) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %x = func.call @device(%tx) : (index) -> f32
    memref.store %x, %out[%tx] : memref<4xf32>
    gpu.terminator
  }
  return
}
func.func @device(%t: index) -> f32 {
  %x = func.call @nested(%t) : (index) -> f32
  return %x : f32
}
func.func @nested(%t: index) -> f32 {
  %buf = memref.alloca() : memref<4xf32, #gpu.address_space<workgroup>>
  %x = memref.load %buf[%t] : memref<4xf32, #gpu.address_space<workgroup>>
  return %x : f32
}

// -----

// Declared block and grid sizes are at least 1: LLVM's NVPTX backend
// rejects a negative nvvm.maxntid or nvvm.reqntid without a location.
gpu.module @m {
  // expected-error @below {{'gpu.func' op declares known_block_size -1 in dimension x; block and grid sizes are at least 1}}
  gpu.func @block() kernel attributes {known_block_size = array<i32: -1, 2, 1>} {
    gpu.return
  }
  // expected-error @below {{'gpu.func' op declares known_grid_size 0 in dimension z; block and grid sizes are at least 1}}
  gpu.func @grid() kernel attributes {known_grid_size = array<i32: 1, 2, 0>} {
    gpu.return
  }
  // expected-error @below {{'gpu.func' op declares nvvm.reqntid -4 in dimension y; block and grid sizes are at least 1}}
  gpu.func @reqntid() kernel attributes {nvvm.reqntid = array<i32: 32, -4, 1>} {
    gpu.return
  }
  gpu.func @valid() kernel attributes {known_block_size = array<i32: 32, 1, 1>, nvvm.maxntid = array<i32: 32, 1, 1>} {
    gpu.return
  }
}

// -----

// Ops that exist only in device code, in host code: no host lowering takes
// them.
func.func @barrier_on_the_host(%m: memref<4xf32>) {
  // expected-error @+1 {{'gpu.barrier' op is device code in host code; it belongs in a gpu.launch body, a gpu.func or a function called only from them}}
  gpu.barrier
  // expected-error @+1 {{'gpu.thread_id' op is device code in host code}}
  %t = gpu.thread_id x
  return
}

// -----

// The same ops in a function called from a kernel are device code.
func.func @device_helper() -> index {
  gpu.barrier
  %t = gpu.thread_id x
  return %t : index
}
func.func @launches() {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %t = func.call @device_helper() : () -> index
    gpu.terminator
  }
  return
}
