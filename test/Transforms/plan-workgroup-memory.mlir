// RUN: gpumem-opt %s -split-input-file --gpumem-plan-workgroup-memory | FileCheck %s
// RUN: gpumem-opt %s -split-input-file --gpumem-plan-workgroup-memory=reuse=false | FileCheck %s --check-prefix=OFF

// With reuse off, no kernel changes.
// OFF-NOT: memref.view
// OFF-NOT: memref<{{[0-9]+}}xi8

// Two phases separated by a barrier the kernel has: they share bytes, and no
// barrier is added.

// CHECK-LABEL: gpu.func @phases_with_barrier
// CHECK-SAME:    workgroup(%[[ARENA:.*]] : memref<256xi8, #gpu.address_space<workgroup>>)
// Each view is numbered for initcheck, which takes one buffer's writes as
// not initializing the other (decision 152).
// CHECK:         %[[A:.*]] = memref.view %[[ARENA]][%c0][] {gpumem.shares_bytes = 1 : i32} : memref<256xi8, #gpu.address_space<workgroup>> to memref<64xf32, #gpu.address_space<workgroup>>
// CHECK:         %[[A3:.*]] = memref.memory_space_cast %[[A]] : memref<64xf32, #gpu.address_space<workgroup>> to memref<64xf32, 3>
// CHECK:         %[[B:.*]] = memref.view %[[ARENA]][%c0_0][] {gpumem.shares_bytes = 2 : i32} : memref<256xi8, #gpu.address_space<workgroup>> to memref<64xf32, #gpu.address_space<workgroup>>
// CHECK:         %[[B3:.*]] = memref.memory_space_cast %[[B]]
// CHECK:         memref.store %{{.*}}, %[[A3]]
// CHECK:         memref.load %[[A3]]
// CHECK-NEXT:    gpu.barrier
// CHECK-NEXT:    memref.store %{{.*}}, %[[B3]]
// CHECK-NOT:     gpu.barrier
gpu.module @m {
  gpu.func @phases_with_barrier(%i: index, %v: f32) workgroup(%a : memref<64xf32, 3>, %b : memref<64xf32, 3>) kernel {
    memref.store %v, %a[%i] : memref<64xf32, 3>
    %x = memref.load %a[%i] : memref<64xf32, 3>
    gpu.barrier
    memref.store %x, %b[%i] : memref<64xf32, 3>
    gpu.return
  }
}

// -----

// No barrier between the phases: one is inserted before the second's first
// use.

// CHECK-LABEL: gpu.func @phases_without_barrier
// CHECK-SAME:    workgroup(%{{.*}} : memref<256xi8, #gpu.address_space<workgroup>>)
// CHECK:         %[[X:.*]] = memref.load
// CHECK-NEXT:    arith.addf %[[X]], %[[X]]
// CHECK-NEXT:    gpu.barrier
// CHECK-NEXT:    memref.store
gpu.module @m {
  gpu.func @phases_without_barrier(%i: index, %v: f32) workgroup(%a : memref<64xf32, 3>, %b : memref<64xf32, 3>) kernel {
    memref.store %v, %a[%i] : memref<64xf32, 3>
    %x = memref.load %a[%i] : memref<64xf32, 3>
    %y = arith.addf %x, %x : f32
    memref.store %y, %b[%i] : memref<64xf32, 3>
    gpu.return
  }
}

// -----

// Live at the same time: separate bytes, the kernel is unchanged.

// CHECK-LABEL: gpu.func @overlapping
// CHECK-SAME:    workgroup(%{{.*}} : memref<64xf32, 3>, %{{.*}} : memref<64xf32, 3>)
// CHECK-NOT:     memref.view
// CHECK-NOT:     gpu.barrier
gpu.module @m {
  gpu.func @overlapping(%i: index, %v: f32) workgroup(%a : memref<64xf32, 3>, %b : memref<64xf32, 3>) kernel {
    memref.store %v, %a[%i] : memref<64xf32, 3>
    memref.store %v, %b[%i] : memref<64xf32, 3>
    %x = memref.load %a[%i] : memref<64xf32, 3>
    memref.store %x, %b[%i] : memref<64xf32, 3>
    gpu.return
  }
}

// -----

// Used in one loop, the buffers are live across all of it (contents persist
// from one iteration to the next), even in different halves of the body;
// the buffer used after the loop shares bytes with both.

// CHECK-LABEL: gpu.func @loop
// CHECK-SAME:    workgroup(%[[ARENA:.*]] : memref<512xi8, #gpu.address_space<workgroup>>)
// CHECK:         memref.view %[[ARENA]][%c0][] {{.*}} to memref<64xf32
// CHECK:         memref.view %[[ARENA]][%c256][] {{.*}} to memref<64xf32
// CHECK:         memref.view %[[ARENA]][%c0_2][] {{.*}} to memref<128xf32
// CHECK:         scf.for
// CHECK-COUNT-2:   gpu.barrier
// CHECK:         }
// CHECK-NEXT:    gpu.barrier
// CHECK-NEXT:    memref.store
gpu.module @m {
  gpu.func @loop(%i: index, %n: index, %v: f32) workgroup(%a : memref<64xf32, 3>, %b : memref<64xf32, 3>, %c : memref<128xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.for %k = %c0 to %n step %c1 {
      memref.store %v, %a[%i] : memref<64xf32, 3>
      gpu.barrier
      memref.store %v, %b[%i] : memref<64xf32, 3>
      gpu.barrier
    }
    memref.store %v, %c[%i] : memref<128xf32, 3>
    gpu.return
  }
}

// -----

// A branch without a barrier may diverge: the buffer used in its then-branch
// is live across the whole branch, and the one in its else-branch too, so
// they keep separate bytes; the buffer used after the branch shares with
// both, behind a barrier after the branch.

// CHECK-LABEL: gpu.func @divergent_branch
// CHECK-SAME:    workgroup(%[[ARENA:.*]] : memref<512xi8, #gpu.address_space<workgroup>>)
// CHECK:         memref.view %[[ARENA]][%c0][]
// CHECK:         memref.view %[[ARENA]][%c256][]
// CHECK:         memref.view %[[ARENA]][%c0_2][]
// CHECK:         scf.if
// CHECK:         } else {
// CHECK:         }
// CHECK-NEXT:    gpu.barrier
// CHECK-NEXT:    memref.store
gpu.module @m {
  gpu.func @divergent_branch(%i: index, %p: i1, %v: f32) workgroup(%a : memref<64xf32, 3>, %b : memref<64xf32, 3>, %c : memref<64xf32, 3>) kernel {
    scf.if %p {
      memref.store %v, %a[%i] : memref<64xf32, 3>
    } else {
      memref.store %v, %b[%i] : memref<64xf32, 3>
    }
    memref.store %v, %c[%i] : memref<64xf32, 3>
    gpu.return
  }
}

// -----

// A branch with a barrier is uniform: inside it, the buffer used before the
// barrier shares bytes with the one used after it.

// CHECK-LABEL: gpu.func @uniform_branch
// CHECK-SAME:    workgroup(%{{.*}} : memref<256xi8, #gpu.address_space<workgroup>>)
// CHECK:         scf.if
// CHECK-NEXT:      memref.store
// CHECK-NEXT:      gpu.barrier
// CHECK-NEXT:      memref.store
// CHECK-NEXT:    }
// CHECK-NEXT:    gpu.return
gpu.module @m {
  gpu.func @uniform_branch(%i: index, %p: i1, %v: f32) workgroup(%a : memref<64xf32, 3>, %b : memref<64xf32, 3>) kernel {
    scf.if %p {
      memref.store %v, %a[%i] : memref<64xf32, 3>
      gpu.barrier
      memref.store %v, %b[%i] : memref<64xf32, 3>
    }
    gpu.return
  }
}

// -----

// A device function that receives a buffer uses it during the call.

// CHECK-LABEL: gpu.func @call
// CHECK-SAME:    workgroup(%{{.*}} : memref<256xi8, #gpu.address_space<workgroup>>)
// CHECK:         func.call @fill
// CHECK-NEXT:    gpu.barrier
// CHECK-NEXT:    func.call @fill
// CHECK-NOT:     gpu.barrier
gpu.module @m {
  func.func @fill(%t: memref<64xf32, 3>, %i: index, %v: f32) {
    memref.store %v, %t[%i] : memref<64xf32, 3>
    return
  }
  gpu.func @call(%i: index, %v: f32) workgroup(%a : memref<64xf32, 3>, %b : memref<64xf32, 3>) kernel {
    func.call @fill(%a, %i, %v) : (memref<64xf32, 3>, index, f32) -> ()
    gpu.barrier
    func.call @fill(%b, %i, %v) : (memref<64xf32, 3>, index, f32) -> ()
    gpu.return
  }
}

// -----

// Different element types share bytes through views of one i8 buffer, each
// cast back to the memory space spelling it was written with.

// CHECK-LABEL: gpu.func @mixed_types
// CHECK-SAME:    workgroup(%[[ARENA:.*]] : memref<1024xi8, #gpu.address_space<workgroup>>)
// CHECK:         %[[A:.*]] = memref.view %[[ARENA]][%c0][] {gpumem.shares_bytes = 1 : i32} : memref<1024xi8, #gpu.address_space<workgroup>> to memref<16x16xf32, #gpu.address_space<workgroup>>
// CHECK:         %[[B:.*]] = memref.view %[[ARENA]][%c0_0][] {gpumem.shares_bytes = 2 : i32} : memref<1024xi8, #gpu.address_space<workgroup>> to memref<100xi32, #gpu.address_space<workgroup>>
// CHECK-NEXT:    %[[B3:.*]] = memref.memory_space_cast %[[B]] : memref<100xi32, #gpu.address_space<workgroup>> to memref<100xi32, 3>
// CHECK:         memref.store %{{.*}}, %[[A]]
// CHECK:         memref.store %{{.*}}, %[[B3]]
gpu.module @m {
  gpu.func @mixed_types(%i: index, %v: f32, %w: i32) workgroup(%a : memref<16x16xf32, #gpu.address_space<workgroup>>, %b : memref<100xi32, 3>) kernel {
    memref.store %v, %a[%i, %i] : memref<16x16xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    memref.store %w, %b[%i] : memref<100xi32, 3>
    gpu.return
  }
}

// -----

// An address taken as an integer cannot be followed: the buffer keeps its
// bytes.

// CHECK-LABEL: gpu.func @address_taken
// CHECK-SAME:    workgroup(%{{.*}} : memref<64xf32, 3>, %{{.*}} : memref<64xf32, 3>)
// CHECK-NOT:     memref.view
gpu.module @m {
  gpu.func @address_taken(%i: index, %v: f32) workgroup(%a : memref<64xf32, 3>, %b : memref<64xf32, 3>) kernel {
    %p = memref.extract_aligned_pointer_as_index %a : memref<64xf32, 3> -> index
    gpu.barrier
    memref.store %v, %b[%i] : memref<64xf32, 3>
    gpu.return
  }
}

// -----

// Unstructured control flow: not planned.

// CHECK-LABEL: gpu.func @unstructured
// CHECK-SAME:    workgroup(%{{.*}} : memref<64xf32, 3>, %{{.*}} : memref<64xf32, 3>)
// CHECK-NOT:     memref.view
gpu.module @m {
  gpu.func @unstructured(%i: index, %p: i1, %v: f32) workgroup(%a : memref<64xf32, 3>, %b : memref<64xf32, 3>) kernel {
    memref.store %v, %a[%i] : memref<64xf32, 3>
    gpu.barrier
    cf.cond_br %p, ^bb1, ^bb2
  ^bb1:
    memref.store %v, %b[%i] : memref<64xf32, 3>
    gpu.return
  ^bb2:
    gpu.return
  }
}

// -----

// Buffers that ask for an alignment (`llvm.align`, what hoisting gives an
// alloca's `alignment`) share bytes at offsets that are multiples of it:
// %b (512) shares %a's bytes at 0, %c (32, live with %a) follows %a. The arena comes first among the attributions and is
// aligned as its most demanding buffer; a buffer kept apart (its address is
// taken) keeps its own alignment.

// CHECK-LABEL: gpu.func @aligned_phases
// CHECK-SAME:    workgroup(%[[ARENA:.*]] : memref<272xi8, #gpu.address_space<workgroup>> {llvm.align = 512 : i64}, %[[KEPT:.*]] : memref<4xf32, 3> {llvm.align = 64 : i64})
// CHECK:         memref.view %[[ARENA]][%c0][] {gpumem.shares_bytes = 1 : i32} : memref<272xi8, #gpu.address_space<workgroup>> to memref<64xf32, #gpu.address_space<workgroup>>
// CHECK:         memref.view %[[ARENA]][%c0{{.*}}][] {gpumem.shares_bytes = 2 : i32} : memref<272xi8, #gpu.address_space<workgroup>> to memref<4xf32, #gpu.address_space<workgroup>>
// CHECK:         memref.view %[[ARENA]][%c256][] : memref<272xi8, #gpu.address_space<workgroup>> to memref<4xf32, #gpu.address_space<workgroup>>
gpu.module @m {
  gpu.func @aligned_phases(%i: index, %v: f32) workgroup(%a : memref<64xf32, 3>, %b : memref<4xf32, 3> {llvm.align = 512 : i64}, %c : memref<4xf32, 3> {llvm.align = 32 : i64}, %k : memref<4xf32, 3> {llvm.align = 64 : i64}) kernel {
    memref.store %v, %a[%i] : memref<64xf32, 3>
    memref.store %v, %c[%i] : memref<4xf32, 3>
    %x = memref.load %a[%i] : memref<64xf32, 3>
    %z = memref.load %c[%i] : memref<4xf32, 3>
    gpu.barrier
    memref.store %x, %b[%i] : memref<4xf32, 3>
    memref.store %z, %b[%i] : memref<4xf32, 3>
    %p = memref.extract_aligned_pointer_as_index %k : memref<4xf32, 3> -> index
    gpu.return
  }
}
