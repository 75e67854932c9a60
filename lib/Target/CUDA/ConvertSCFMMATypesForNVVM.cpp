//===----------------------------------------------------------------------===//
// gpumem-convert-scf-mma-types-for-nvvm: scf ops that carry !gpu.mma_matrix
// values carry the LLVM struct of registers NVVM gives them instead.
//
// The NVIDIA device lowering starts with upstream's convert-nvgpu-to-nvvm,
// which converts scf.for/if/while structurally with a type converter that
// does not know !gpu.mma_matrix: a K loop that carries its tensor-core
// accumulator fails there ("failed to legalize operation 'scf.for' that was
// explicitly marked illegal"). Algorithm, on a gpu.module before that pass:
// upstream's scf structural type conversion with a converter that maps
// every !gpu.mma_matrix to convertMMAToLLVMType's struct (as
// convert-gpu-to-nvvm will) and leaves every other type alone, materialized
// with unrealized casts. The loops stay loops; the casts fold away against
// convert-gpu-to-nvvm's conversion of the mma ops.
//===----------------------------------------------------------------------===//

#include "gpumem/Target/CUDA/Passes.h"

#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/Transforms/DialectConversion.h"

namespace gpumem {
#define GEN_PASS_DEF_GPUMEMCONVERTSCFMMATYPESFORNVVMPASS
#include "gpumem/Target/CUDA/Passes.h.inc"
} // namespace gpumem

using namespace mlir;

namespace {

struct ConvertSCFMMATypesForNVVMPass
    : gpumem::impl::GPUMemConvertSCFMMATypesForNVVMPassBase<
          ConvertSCFMMATypesForNVVMPass> {
  void runOnOperation() override {
    // Nothing to do (the usual case) without an scf op that carries one.
    bool carries = false;
    getOperation().walk([&](Operation *op) {
      if (op->getDialect() && isa<scf::SCFDialect>(op->getDialect()) &&
          (llvm::any_of(op->getResultTypes(), isMatrix) ||
           llvm::any_of(op->getOperandTypes(), isMatrix)))
        carries = true;
      return carries ? WalkResult::interrupt() : WalkResult::advance();
    });
    if (!carries)
      return;

    TypeConverter converter;
    converter.addConversion([](Type type) { return type; });
    converter.addConversion([](gpu::MMAMatrixType type) -> Type {
      return convertMMAToLLVMType(type);
    });
    auto cast = [](OpBuilder &builder, Type type, ValueRange inputs,
                   Location loc) -> Value {
      return UnrealizedConversionCastOp::create(builder, loc, type, inputs)
          .getResult(0);
    };
    converter.addSourceMaterialization(cast);
    converter.addTargetMaterialization(cast);

    ConversionTarget target(getContext());
    RewritePatternSet patterns(&getContext());
    scf::populateSCFStructuralTypeConversionsAndLegality(converter, patterns,
                                                         target);
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      signalPassFailure();
  }

  static bool isMatrix(Type type) { return isa<gpu::MMAMatrixType>(type); }
};

} // namespace
