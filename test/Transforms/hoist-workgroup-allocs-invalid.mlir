// RUN: gpumem-opt %s -split-input-file -allow-unregistered-dialect -gpumem-hoist-workgroup-allocs -verify-diagnostics

func.func @size_from_launch_thread_id() {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %n = arith.addi %tx, %c1 : index
    // expected-error @+1 {{workgroup allocation size depends on the thread id; every thread of a block must allocate the same size}}
    %buf = memref.alloca(%n) : memref<?xf32, 3>
    gpu.terminator
  }
  return
}

// -----

gpu.module @kernels {
  gpu.func @size_from_thread_id_op() kernel {
    %ty = gpu.thread_id y
    %c2 = arith.constant 2 : index
    %n = arith.muli %ty, %c2 : index
    // expected-error @+1 {{workgroup allocation size depends on the thread id}}
    %buf = memref.alloc(%n) : memref<?xi32, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

gpu.module @kernels {
  func.func @dynamic_size_in_device_function(%n: index) {
    // expected-error @+1 {{dynamic-size workgroup allocation of type 'memref<?xf32, 3>' in a device function is not supported; allocate it in the kernel and pass the buffer to the function}}
    %buf = memref.alloca(%n) : memref<?xf32, 3>
    return
  }
}

// -----

func.func @dynamic_size_escapes(%n: index, %out: memref<memref<?xf32, 3>>) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    // expected-error @+1 {{workgroup buffer is stored to memory by 'memref.store'}}
    %buf = memref.alloca(%n) : memref<?xf32, 3>
    // expected-note @+1 {{escaping use here}}
    memref.store %buf, %out[] : memref<memref<?xf32, 3>>
    gpu.terminator
  }
  return
}

// -----

func.func @non_identity_layout() {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    // expected-error @+1 {{workgroup allocation with the non-identity layout strided<[1], offset: 4> is not supported}}
    %buf = memref.alloca() : memref<8xf32, strided<[1], offset: 4>, 3>
    gpu.terminator
  }
  return
}

// -----

gpu.module @kernels {
  func.func @returned() -> memref<8xf32, 3> {
    // expected-error @+1 {{workgroup buffer is returned from its function; gpumem gives it one block-wide lifetime and cannot follow it there}}
    %buf = memref.alloca() : memref<8xf32, 3>
    // expected-note @+1 {{escaping use here}}
    return %buf : memref<8xf32, 3>
  }
}

// -----

gpu.module @kernels {
  gpu.func @stored(%slots: memref<1xmemref<8xf32, 3>>) kernel {
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{workgroup buffer is stored to memory by 'memref.store'}}
    %buf = memref.alloca() : memref<8xf32, 3>
    // expected-note @+1 {{escaping use here}}
    memref.store %buf, %slots[%c0] : memref<1xmemref<8xf32, 3>>
    gpu.return
  }
}

// -----

func.func @unknown_op() {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    // expected-error @+1 {{workgroup buffer is passed to 'test.opaque', which is neither a view nor a memory access}}
    %buf = memref.alloca() : memref<8xf32, 3>
    %view = memref.cast %buf : memref<8xf32, 3> to memref<?xf32, 3>
    // expected-note @+1 {{escaping use here}}
    "test.opaque"(%view) : (memref<?xf32, 3>) -> ()
    gpu.terminator
  }
  return
}

// -----

gpu.module @kernels {
  func.func private @external(memref<8xf32, 3>)
  gpu.func @external_call() kernel {
    // expected-error @+1 {{workgroup buffer is passed to a function without a body or through an indirect call}}
    %buf = memref.alloca() : memref<8xf32, 3>
    // expected-note @+1 {{escaping use here}}
    func.call @external(%buf) : (memref<8xf32, 3>) -> ()
    gpu.return
  }
}

// -----

gpu.module @kernels {
  gpu.func @yielded_from_while(%first: memref<8xf32, 3>, %n: index) kernel {
    %r = scf.while (%b = %first) : (memref<8xf32, 3>) -> memref<8xf32, 3> {
      %c0 = arith.constant 0 : index
      %go = arith.cmpi slt, %c0, %n : index
      scf.condition(%go) %b : memref<8xf32, 3>
    } do {
    ^bb0(%b: memref<8xf32, 3>):
      // expected-error @+1 {{workgroup buffer is yielded from 'scf.while'}}
      %buf = memref.alloca() : memref<8xf32, 3>
      // expected-note @+1 {{escaping use here}}
      scf.yield %buf : memref<8xf32, 3>
    }
    gpu.return
  }
}

// -----

gpu.module @kernels {
  gpu.func @while_operand(%n: index) kernel {
    // expected-error @+1 {{workgroup buffer is passed to 'scf.while', which is neither a view nor a memory access}}
    %buf = memref.alloca() : memref<8xf32, 3>
    // expected-note @+1 {{escaping use here}}
    %r = scf.while (%b = %buf) : (memref<8xf32, 3>) -> memref<8xf32, 3> {
      %c0 = arith.constant 0 : index
      %go = arith.cmpi slt, %c0, %n : index
      scf.condition(%go) %b : memref<8xf32, 3>
    } do {
    ^bb0(%b: memref<8xf32, 3>):
      scf.yield %b : memref<8xf32, 3>
    }
    gpu.return
  }
}

// -----

func.func @host_code() {
  // expected-error @+1 {{'memref.alloc' op allocates workgroup memory in host code; allocate it inside a 'gpu.launch' body, a kernel, or a function called only from them}}
  %buf = memref.alloc() : memref<8xf32, #gpu.address_space<workgroup>>
  return
}

// -----

// Called from a kernel and from host code: the host call makes it host code.
func.func @shared_helper() {
  // expected-error @+1 {{allocates workgroup memory in host code}}
  %buf = memref.alloca() : memref<8xf32, 3>
  return
}

func.func @main() {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    func.call @shared_helper() : () -> ()
    gpu.terminator
  }
  func.call @shared_helper() : () -> ()
  return
}

// -----

// A function of a nested module is not reached by this module's kernels.
module {
  func.func @nested_module_function() {
    // expected-error @+1 {{allocates workgroup memory in host code}}
    %buf = memref.alloca() : memref<8xf32, 3>
    return
  }
}

// -----

"test.region"() ({
  // expected-error @+1 {{'memref.alloc' op allocates workgroup memory outside any function or kernel}}
  %buf = memref.alloc() : memref<8xf32, 3>
  "test.terminator"() : () -> ()
}) : () -> ()

// -----

gpu.module @kernels {
  gpu.func @indirect(%f: (memref<8xf32, 3>) -> ()) kernel {
    // expected-error @+1 {{workgroup buffer is passed to a function without a body or through an indirect call}}
    %buf = memref.alloca() : memref<8xf32, 3>
    // expected-note @+1 {{escaping use here}}
    func.call_indirect %f(%buf) : (memref<8xf32, 3>) -> ()
    gpu.return
  }
}

// -----

gpu.module @kernels {
  gpu.func @yielded_from_alloca_scope() kernel {
    // expected-error @+1 {{workgroup buffer is yielded from 'memref.alloca_scope'}}
    %buf = memref.alloca() : memref<8xf32, 3>
    %r = memref.alloca_scope -> memref<8xf32, 3> {
      // expected-note @+1 {{escaping use here}}
      memref.alloca_scope.return %buf : memref<8xf32, 3>
    }
    gpu.return
  }
}

// -----

// Alignments over what every target guarantees for shared memory.
func.func @alignment_over_the_limit() {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    // expected-error @+1 {{workgroup memory asks for an alignment of 2048 bytes; every target guarantees at most 1024 (the base alignment of shared memory)}}
    %buf = memref.alloca() {alignment = 2048 : i64} : memref<4xf32, #gpu.address_space<workgroup>>
    "test.use"(%buf) : (memref<4xf32, #gpu.address_space<workgroup>>) -> ()
    gpu.terminator
  }
  return
}

// -----

func.func @dynamic_alignment_over_the_limit(%n: index) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    // expected-error @+1 {{workgroup memory asks for an alignment of 4096 bytes}}
    %buf = memref.alloc(%n) {alignment = 4096 : i64} : memref<?xf32, 3>
    "test.use"(%buf) : (memref<?xf32, 3>) -> ()
    gpu.terminator
  }
  return
}

// -----

gpu.module @kernels {
  // expected-error @+1 {{workgroup memory asks for an alignment of 2048 bytes}}
  memref.global "private" @tile : memref<4xf32, #gpu.address_space<workgroup>> {alignment = 2048 : i64}
}

// -----

gpu.module @kernels {
  // expected-error @+1 {{workgroup memory asks for an alignment of 24 bytes, which is not a power of two}}
  gpu.func @kernel() workgroup(%w : memref<4xf32, #gpu.address_space<workgroup>> {llvm.align = 24 : i64}) kernel {
    gpu.return
  }
}

// -----

gpu.module @kernels {
  // expected-error @+1 {{'llvm.align' of a workgroup attribution must be a positive integer, not "wide"}}
  gpu.func @kernel() workgroup(%w : memref<4xf32, #gpu.address_space<workgroup>> {llvm.align = "wide"}) kernel {
    gpu.return
  }
}
