// RUN: gpumem-run --target=cpu %s | FileCheck %s --match-full-lines --strict-whitespace

// A kernel written already outlined, as compilers that emit gpu.module and
// gpu.launch_func do: its workgroup attribution asks for 128-byte alignment
// with `llvm.align` and is planned next to a second one it shares bytes
// with; the launch is asynchronous, and a kernel argument sizes the work.
// Two blocks of 32 threads; x[i] = i. Phase 1: a[t] = x[32b + t] * 3;
// phase 2 (after a barrier): c[t] = a[31 - t] + 1; y[32b + t] = c[t].

// CHECK:( 94, 91, 88, 85, 82, 79, 76, 73, 70, 67, 64, 61, 58, 55, 52, 49, 46, 43, 40, 37, 34, 31, 28, 25, 22, 19, 16, 13, 10, 7, 4, 1, 190, 187, 184, 181, 178, 175, 172, 169, 166, 163, 160, 157, 154, 151, 148, 145, 142, 139, 136, 133, 130, 127, 124, 121, 118, 115, 112, 109, 106, 103, 100, 97 )

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @reverse_scaled(%x: memref<64xi32>, %y: memref<64xi32>, %n: index)
        workgroup(%a : memref<32xi32, #gpu.address_space<workgroup>>,
                  %c : memref<32xi32, #gpu.address_space<workgroup>> {llvm.align = 128 : i64})
        kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c31 = arith.constant 31 : index
      %three = arith.constant 3 : i32
      %one = arith.constant 1 : i32
      %t = gpu.thread_id x
      %b = gpu.block_id x
      %bd = gpu.block_dim x
      %base = arith.muli %b, %bd : index
      %i = arith.addi %base, %t : index
      %in = arith.cmpi ult, %i, %n : index
      scf.if %in {
        %v = memref.load %x[%i] : memref<64xi32>
        %v3 = arith.muli %v, %three : i32
        memref.store %v3, %a[%t] : memref<32xi32, #gpu.address_space<workgroup>>
      }
      gpu.barrier
      %r = arith.subi %c31, %t : index
      %w = memref.load %a[%r] : memref<32xi32, #gpu.address_space<workgroup>>
      gpu.barrier
      %w1 = arith.addi %w, %one : i32
      memref.store %w1, %c[%t] : memref<32xi32, #gpu.address_space<workgroup>>
      %z = memref.load %c[%t] : memref<32xi32, #gpu.address_space<workgroup>>
      scf.if %in {
        memref.store %z, %y[%i] : memref<64xi32>
      }
      gpu.return
    }
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %x = memref.alloc() : memref<64xi32>
    %y = memref.alloc() : memref<64xi32>
    scf.for %i = %c0 to %c64 step %c1 {
      %v = arith.index_cast %i : index to i32
      memref.store %v, %x[%i] : memref<64xi32>
    }
    %t0 = gpu.wait async
    %t1 = gpu.launch_func async [%t0] @kernels::@reverse_scaled
        blocks in (%c2, %c1, %c1) threads in (%c32, %c1, %c1)
        args(%x : memref<64xi32>, %y : memref<64xi32>, %c64 : index)
    gpu.wait [%t1]
    %pad = arith.constant 0 : i32
    %v = vector.transfer_read %y[%c0], %pad : memref<64xi32>, vector<64xi32>
    vector.print %v : vector<64xi32>
    return
  }
}
