// Index values a vulkan shader's 32-bit index cannot hold are one located
// error each, from gpumem-attach-vulkan-target. Run through the whole
// pipeline: the constant in the scf.if must keep its location through the
// passes before (gpumem-lower-gpu-collectives once hoisted it to the entry
// block with an unknown location).
// RUN: gpumem-opt %s -split-input-file -verify-diagnostics --gpumem-vulkan-pipeline -o /dev/null

gpu.module @m {
  gpu.func @k(%out: memref<4xi32>) kernel {
    %c0 = arith.constant 0 : index
    %tx = gpu.thread_id x
    %first = arith.cmpi eq, %tx, %c0 : index
    scf.if %first {
      // expected-error @below {{'arith.constant' op has index value 9223372036854775807, which does not fit the 32-bit index of a vulkan shader}}
      %big = arith.constant 9223372036854775807 : index
      %s = arith.addi %tx, %big : index
      %i = arith.index_cast %s : index to i32
      memref.store %i, %out[%c0] : memref<4xi32>
    }
    gpu.return
  }
}

// -----

// Values that fit 32 bits, signed or unsigned, are fine; a vector of index
// is checked element by element.
gpu.module @m {
  gpu.func @k(%out: memref<4xi32>) kernel {
    %c0 = arith.constant 0 : index
    %tx = gpu.thread_id x
    %lo = arith.constant -2147483648 : index
    %hi = arith.constant 4294967295 : index
    // expected-error @below {{'arith.constant' op has index value -2147483649, which does not fit the 32-bit index of a vulkan shader}}
    %v = arith.constant dense<[1, -2147483649]> : vector<2xindex>
    %s = arith.addi %tx, %lo : index
    %s2 = arith.addi %s, %hi : index
    %b = vector.broadcast %s2 : index to vector<2xindex>
    %w = arith.addi %b, %v : vector<2xindex>
    %e = vector.extract %w[1] : index from vector<2xindex>
    %i = arith.index_cast %e : index to i32
    memref.store %i, %out[%c0] : memref<4xi32>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%out: memref<4xi32>) kernel {
    %c0 = arith.constant 0 : index
    %tx = gpu.thread_id x
    // expected-error @below {{'scf.index_switch' op has case 9223372036854775807, which does not fit the 32-bit index of a vulkan shader}}
    %v = scf.index_switch %tx -> i32
    case 9223372036854775807 {
      %one = arith.constant 1 : i32
      scf.yield %one : i32
    }
    default {
      %zero = arith.constant 0 : i32
      scf.yield %zero : i32
    }
    memref.store %v, %out[%c0] : memref<4xi32>
    gpu.return
  }
}

// -----

// A module already made for another GPU is refused, not handed to that
// GPU's backend (whose errors abort).
// expected-error @below {{'gpu.module' op already has the target #nvvm.target<chip = "sm_75">, which the vulkan pipeline does not compile for; it compiles gpu.modules without a target (or with #gpumem.vulkan)}}
gpu.module @nvvm [#nvvm.target<chip = "sm_75">] {
  llvm.func @m(%a: vector<2xf16>, %c: f32) -> !llvm.struct<(f32, f32, f32, f32)> {
    %d = nvvm.mma.sync A[%a, %a, %a, %a] B[%a, %a] C[%c, %c, %c, %c] {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, multiplicandAPtxType = #nvvm.mma_type<f16>, multiplicandBPtxType = #nvvm.mma_type<f16>, shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (vector<2xf16>, vector<2xf16>, f32) -> !llvm.struct<(f32, f32, f32, f32)>
    llvm.return %d : !llvm.struct<(f32, f32, f32, f32)>
  }
}
