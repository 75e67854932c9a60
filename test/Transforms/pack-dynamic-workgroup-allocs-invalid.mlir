// RUN: gpumem-opt %s -split-input-file -gpumem-pack-dynamic-workgroup-allocs -verify-diagnostics

gpu.module @m {
  gpu.func @thread_dependent() kernel {
    %tx = gpu.thread_id x
    // expected-error @+1 {{workgroup allocation size depends on the thread id; every thread of a block must allocate the same size}}
    %a = memref.alloca(%tx) : memref<?xi32, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @block_dependent() kernel {
    // expected-note @+1 {{size computed from here}}
    %bx = gpu.block_id x
    // expected-error @+1 {{workgroup allocation size depends on the block id; the size must be the same for every thread and block of a launch, computable on the host before it}}
    %a = memref.alloca(%bx) : memref<?xi32, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @loaded_in_kernel(%sizes: memref<4xindex>) kernel {
    %c0 = arith.constant 0 : index
    // expected-note @+1 {{size computed from here}}
    %n = memref.load %sizes[%c0] : memref<4xindex>
    // expected-error @+1 {{workgroup allocation size depends on 'memref.load', which reads memory or has regions}}
    %a = memref.alloca(%n) : memref<?xf32, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @loop_variable(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    // expected-note @+1 {{size computed from here}}
    scf.for %i = %c0 to %n step %c1 {
      // expected-error @+1 {{workgroup allocation size depends on a value defined inside the kernel (a loop variable or block argument)}}
      %a = memref.alloca(%i) : memref<?xf32, #gpu.address_space<workgroup>>
    }
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @cluster_size() kernel {
    // expected-note @+1 {{size computed from here}}
    %cd = gpu.cluster_dim x
    // expected-error @+1 {{workgroup allocation size depends on the cluster size, which gpumem does not follow}}
    %a = memref.alloca(%cd) : memref<?xf32, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @non_identity(%n: index) kernel {
    // expected-error @+1 {{workgroup allocation with the non-identity layout strided<[1], offset: 4> is not supported}}
    %a = memref.alloca(%n) : memref<?xf32, strided<[1], offset: 4>, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

// A view of dynamic shared memory that assumes an alignment its constant
// offset does not have.
gpu.module @m {
  gpu.func @misaligned_view(%out: memref<4xf32>) kernel {
    %c16 = arith.constant 16 : index
    %raw = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %v = memref.view %raw[%c16][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<4xf32, #gpu.address_space<workgroup>>
    // expected-error @+1 {{'memref.assume_alignment' op assumes an alignment of 128 bytes for a view of dynamic shared memory at byte offset 16, which is not a multiple of it}}
    %a = memref.assume_alignment %v, 128 : memref<4xf32, #gpu.address_space<workgroup>>
    memref.copy %a, %out : memref<4xf32, #gpu.address_space<workgroup>> to memref<4xf32>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @view_alignment_over_the_limit(%out: memref<4xf32>) kernel {
    %c0 = arith.constant 0 : index
    %raw = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %v = memref.view %raw[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<4xf32, #gpu.address_space<workgroup>>
    // expected-error @+1 {{workgroup memory asks for an alignment of 4096 bytes; every target guarantees at most 1024}}
    %a = memref.assume_alignment %v, 4096 : memref<4xf32, #gpu.address_space<workgroup>>
    memref.copy %a, %out : memref<4xf32, #gpu.address_space<workgroup>> to memref<4xf32>
    gpu.return
  }
}
