// RUN: gpumem-opt %s --split-input-file --verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(gpu.module(gpumem-prepare-vulkan-kernels))'

gpu.module @m {
  // expected-error @below {{argument 0 has type 'i128', which the vulkan target cannot pass to a kernel (scalars of type index, i1, i8, i16, i32, i64, f16, bf16, f32 or f64, and memrefs)}}
  gpu.func @k(%a: i128) kernel attributes {known_block_size = array<i32: 1, 1, 1>} {
    gpu.return
  }
}

// -----

gpu.module @m {
  // expected-error @below {{argument 0 is a memref of 'index'; vulkan buffers hold 8-, 16-, 32- or 64-bit integers and floats}}
  gpu.func @k(%a: memref<4xindex>) kernel attributes {known_block_size = array<i32: 1, 1, 1>} {
    gpu.return
  }
}

// -----

gpu.module @m {
  // expected-error @below {{argument 0 is a memref in memory space #gpu.address_space<workgroup>; a vulkan kernel takes global memory}}
  gpu.func @k(%a: memref<4xf32, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 1, 1, 1>} {
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%n: index, %out: memref<1xi32>) kernel attributes {known_block_size = array<i32: 1, 1, 1>} {
    // expected-error @below {{'memref.alloca' op of type 'memref<?xi32>' in a vulkan kernel needs a static shape}}
    %a = memref.alloca(%n) : memref<?xi32>
    %i = arith.constant 0 : index
    %v = arith.constant 1 : i32
    memref.store %v, %a[%i] : memref<?xi32>
    %w = memref.load %a[%i] : memref<?xi32>
    memref.store %w, %out[%i] : memref<1xi32>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%a: memref<4xf32>, %b: memref<4xf32>, %c: i1) kernel attributes {known_block_size = array<i32: 1, 1, 1>} {
    %i = arith.constant 0 : index
    %m = arith.select %c, %a, %b : memref<4xf32>
    // expected-error @below {{'memref.load' op accesses a memref the vulkan target cannot trace to its buffer}}
    %v = memref.load %m[%i] : memref<4xf32>
    memref.store %v, %a[%i] : memref<4xf32>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%a: memref<4xf16>) kernel attributes {known_block_size = array<i32: 1, 1, 1>} {
    %i = arith.constant 0 : index
    %x = arith.constant 1.0 : f16
    // expected-error @below {{'memref.generic_atomic_rmw' op on 'f16' elements is not supported by the vulkan target (atomics on 32- and 64-bit integers and floats)}}
    %old = memref.atomic_rmw addf %x, %a[%i] : (f16, memref<4xf16>) -> f16
    memref.store %old, %a[%i] : memref<4xf16>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k() kernel attributes {known_block_size = array<i32: 1, 1, 1>} {
    %c0 = arith.constant 0 : index
    %d = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    // expected-error @below {{'memref.view' op views dynamic shared memory as elements of 'index'; the vulkan target addresses dynamic shared memory in 32-bit words and views it as 8-, 16-, 32- or 64-bit integers and 32- or 64-bit floats}}
    %h = memref.view %d[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<8xindex, #gpu.address_space<workgroup>>
    %z = arith.constant 0 : index
    memref.store %z, %h[%c0] : memref<8xindex, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%x: i64) kernel attributes {known_block_size = array<i32: 1, 1, 1>} {
    %c0 = arith.constant 0 : index
    %d = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %w = memref.view %d[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<8xi64, #gpu.address_space<workgroup>>
    // expected-error @below {{'memref.atomic_rmw' op on 'i64' elements of dynamic shared memory is not supported by the vulkan target (atomics there are on i32 and f32 only)}}
    %old = memref.atomic_rmw addi %x, %w[%c0] : (i64, memref<8xi64, #gpu.address_space<workgroup>>) -> i64
    gpu.return
  }
}

// -----

gpu.module @m {
  func.func private @use(memref<4xi32, #gpu.address_space<workgroup>>)
  gpu.func @k() kernel attributes {known_block_size = array<i32: 1, 1, 1>} {
    %c0 = arith.constant 0 : index
    %d = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %w = memref.view %d[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<4xi32, #gpu.address_space<workgroup>>
    // expected-error @below {{uses dynamic shared memory in a way the vulkan target does not support}}
    func.call @use(%w) : (memref<4xi32, #gpu.address_space<workgroup>>) -> ()
    gpu.return
  }
}

// -----

// What has no Vulkan lowering yet is named, rather than left to the
// conversion's "failed to legalize": a device function with several blocks
// called inside an scf.if stays a call, and the workgroup memory it reads
// then has no kernel to live in.
gpu.module @m {
  // expected-error @below {{'memref.global' op is not supported by the vulkan target yet: workgroup memory of a device function that is not inlined into a kernel}}
  memref.global "private" @buf : memref<16xf32, #gpu.address_space<workgroup>>
  func.func @f(%i: index, %c: i1) {
    %b = memref.get_global @buf : memref<16xf32, #gpu.address_space<workgroup>>
    cf.cond_br %c, ^write, ^done
  ^write:
    %v = memref.load %b[%i] : memref<16xf32, #gpu.address_space<workgroup>>
    memref.store %v, %b[%i] : memref<16xf32, #gpu.address_space<workgroup>>
    cf.br ^done
  ^done:
    return
  }
  gpu.func @k(%c: i1) kernel attributes {known_block_size = array<i32: 1, 1, 1>} {
    %i = gpu.thread_id x
    scf.if %c {
      func.call @f(%i, %c) : (index, i1) -> ()
    }
    gpu.return
  }
}

// -----

// SPIR-V has no recursion: a kernel that calls a recursive device function
// is refused at the call, before any inlining (a function that calls
// itself twice would otherwise be copied 2^depth times).
gpu.module @m {
  memref.global "private" @buf : memref<16xf32, #gpu.address_space<workgroup>>
  func.func @f(%i: index) {
    %b = memref.get_global @buf : memref<16xf32, #gpu.address_space<workgroup>>
    %v = memref.load %b[%i] : memref<16xf32, #gpu.address_space<workgroup>>
    memref.store %v, %b[%i] : memref<16xf32, #gpu.address_space<workgroup>>
    func.call @f(%i) : (index) -> ()
    func.call @f(%i) : (index) -> ()
    return
  }
  gpu.func @k() kernel attributes {known_block_size = array<i32: 1, 1, 1>} {
    %i = gpu.thread_id x
    // expected-error @below {{'func.call' op calls @f which calls itself (directly or through other functions); SPIR-V has no recursion and the vulkan target inlines device functions into kernels}}
    func.call @f(%i) : (index) -> ()
    gpu.return
  }
}

// -----

// Recursion further down the call graph, through two functions.
gpu.module @m {
  func.func @even(%n: i32) -> i1 {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %z = arith.cmpi eq, %n, %c0 : i32
    %m = arith.subi %n, %c1 : i32
    %o = func.call @odd(%m) : (i32) -> i1
    %r = arith.select %z, %z, %o : i1
    return %r : i1
  }
  func.func @odd(%n: i32) -> i1 {
    %c1 = arith.constant 1 : i32
    %m = arith.subi %n, %c1 : i32
    %e = func.call @even(%m) : (i32) -> i1
    return %e : i1
  }
  func.func @parity(%n: i32) -> i1 {
    %e = func.call @even(%n) : (i32) -> i1
    return %e : i1
  }
  gpu.func @k(%n: i32, %out: memref<1xi1>) kernel attributes {known_block_size = array<i32: 1, 1, 1>} {
    // expected-error @below {{'func.call' op calls @parity, which reaches @even, which calls itself (directly or through other functions); SPIR-V has no recursion and the vulkan target inlines device functions into kernels}}
    %e = func.call @parity(%n) : (i32) -> i1
    %c0 = arith.constant 0 : index
    memref.store %e, %out[%c0] : memref<1xi1>
    gpu.return
  }
}

// -----

// A workgroup memref chosen by control flow must be one of the kernel's
// workgroup buffers of its type (here one is a view of another).
gpu.module @m {
  gpu.func @k(%c: i1) workgroup(%a: memref<8xi32, 3>) kernel attributes {known_block_size = array<i32: 1, 1, 1>} {
    %v = memref.subview %a[4] [4] [1] : memref<8xi32, 3> to memref<4xi32, strided<[1], offset: 4>, 3>
    %w = memref.subview %a[4] [4] [1] : memref<8xi32, 3> to memref<4xi32, strided<[1], offset: 4>, 3>
    // expected-error @below {{'arith.select' op passes a workgroup memref through control flow that is not one of the kernel's workgroup buffers of type 'memref<4xi32, strided<[1], offset: 4>, 3>'; the vulkan target can choose only between such buffers}}
    %m = arith.select %c, %v, %w : memref<4xi32, strided<[1], offset: 4>, 3>
    %c0 = arith.constant 0 : index
    %l = memref.load %m[%c0] : memref<4xi32, strided<[1], offset: 4>, 3>
    memref.store %l, %a[%c0] : memref<8xi32, 3>
    gpu.return
  }
}

// -----

// Accesses through a chosen workgroup buffer are loads, stores and atomics.
gpu.module @m {
  gpu.func @k(%c: i1, %x: memref<4xi32>) workgroup(%a: memref<8xi32, 3>, %b: memref<8xi32, 3>) kernel attributes {known_block_size = array<i32: 1, 1, 1>} {
    %c0 = arith.constant 0 : index
    %m = arith.select %c, %a, %b : memref<8xi32, 3>
    // expected-error @below {{'memref.subview' op uses a workgroup buffer chosen by control flow, which the vulkan target supports for loads, stores and atomics only}}
    %v = memref.subview %m[4] [4] [1] : memref<8xi32, 3> to memref<4xi32, strided<[1], offset: 4>, 3>
    %l = memref.load %v[%c0] : memref<4xi32, strided<[1], offset: 4>, 3>
    memref.store %l, %x[%c0] : memref<4xi32>
    gpu.return
  }
}
