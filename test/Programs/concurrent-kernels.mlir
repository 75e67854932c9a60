// RUN: timeout 120 gpumem-run --target=cpu %s | FileCheck %s --match-full-lines --strict-whitespace
// RUN: %if cuda-emu %{ timeout 120 gpumem-run --target=cuda-emu %s | FileCheck %s --match-full-lines --strict-whitespace %}
// RUN: %if vulkan %{ timeout 120 gpumem-run --target=vulkan %s | FileCheck %s --match-full-lines --strict-whitespace %}
// RUN: env GPUMEM_CPU_THREADS=1 timeout 120 gpumem-run --target=cpu %s | FileCheck %s --match-full-lines --strict-whitespace

// Streams run at the same time. Part 1: two one-thread kernels on two
// streams each bump a shared counter and then spin until it reads 2, so
// neither can finish unless both run at once (with one worker thread too:
// a stream is not a worker). Part 2: events order streams: a kernel on
// stream A fills a buffer, stream B waits for A's event and copies the
// buffer, and the host reads the copy after waiting for B only.

// CHECK:counter: 2
// CHECK-NEXT:copy: ( 0, 10, 20, 30, 40, 50, 60, 70 )
// CHECK-NOT:{{.}}

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @meet(%counter: memref<i32>) kernel {
      %zero = arith.constant 0 : i32
      %one = arith.constant 1 : i32
      %two = arith.constant 2 : i32
      %ignored = memref.atomic_rmw addi %one, %counter[] : (i32, memref<i32>) -> i32
      scf.while : () -> () {
        %seen = memref.atomic_rmw addi %zero, %counter[] : (i32, memref<i32>) -> i32
        %alone = arith.cmpi slt, %seen, %two : i32
        scf.condition(%alone)
      } do {
        scf.yield
      }
      gpu.return
    }

    gpu.func @fill(%data: memref<8xi32>) kernel {
      %t = gpu.thread_id x
      %i = arith.index_cast %t : index to i32
      %ten = arith.constant 10 : i32
      %v = arith.muli %i, %ten : i32
      memref.store %v, %data[%t] : memref<8xi32>
      gpu.return
    }
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %zero = arith.constant 0 : i32

    %counter = gpu.alloc host_shared () : memref<i32>
    memref.store %zero, %counter[] : memref<i32>
    %a = gpu.wait async
    %b = gpu.wait async
    %ka = gpu.launch_func async [%a] @kernels::@meet
        blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%counter : memref<i32>)
    %kb = gpu.launch_func async [%b] @kernels::@meet
        blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%counter : memref<i32>)
    gpu.wait [%ka, %kb]
    %n = memref.load %counter[] : memref<i32>
    vector.print str "counter: "
    vector.print %n : i32

    %s = gpu.wait async
    %device, %t0 = gpu.alloc async [%s] () : memref<8xi32>
    %host = memref.alloc() : memref<8xi32>
    %filled = gpu.launch_func async [%t0] @kernels::@fill
        blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1)
        args(%device : memref<8xi32>)
    %other = gpu.wait async [%filled]
    %copied = gpu.memcpy async [%other] %host, %device : memref<8xi32>, memref<8xi32>
    gpu.wait [%copied]
    %v = vector.transfer_read %host[%c0], %zero {in_bounds = [true]} : memref<8xi32>, vector<8xi32>
    vector.print str "copy: "
    vector.print %v : vector<8xi32>
    gpu.dealloc %device : memref<8xi32>
    gpu.dealloc %counter : memref<i32>
    return
  }
}
