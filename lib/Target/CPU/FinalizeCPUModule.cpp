//===----------------------------------------------------------------------===//
// gpumem-finalize-cpu-module: the last step of the `cpu` target's device
// lowering.
//
// Algorithm, on one gpu.module already rewritten by
// gpumem-lower-gpu-to-cpu-abi and structurally lowered:
//  1. Kernel stubs (empty gpu.funcs) become empty llvm.funcs with the
//     expanded signature, marked gpu.kernel, for gpu.launch_func to verify
//     against until the module is serialized.
//  2. Every other op is converted to LLVM dialect with the patterns every
//     loaded dialect offers through ConvertToLLVMPatternInterface and a host
//     type converter that maps all memory spaces to address space 0.
//  3. The kernel table left on the module becomes the exported
//     `__gpumem_cpu_module` global (GPUMemCPUModule of CPUKernelABI.h).
//===----------------------------------------------------------------------===//

#include "../HostKernel/HostCode.h"
#include "../HostKernel/KernelTable.h"

#include "gpumem/Runtime/CPUKernelABI.h"
#include "gpumem/Target/CPU/Passes.h"

#include "mlir/Conversion/ConvertToLLVM/ToLLVMInterface.h"
#include "mlir/Conversion/LLVMCommon/ConversionTarget.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/Transforms/DialectConversion.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace gpumem {
#define GEN_PASS_DEF_GPUMEMFINALIZECPUMODULEPASS
#include "gpumem/Target/CPU/Passes.h.inc"
} // namespace gpumem

using namespace mlir;
using namespace gpumem;

namespace {

struct FinalizeCPUModulePass
    : gpumem::impl::GPUMemFinalizeCPUModulePassBase<FinalizeCPUModulePass> {
  void runOnOperation() override;

private:
  LogicalResult lowerVectorOps();
  LogicalResult convertStubs(LLVMTypeConverter &converter);
  LogicalResult convertToLLVM(LLVMTypeConverter &converter);
};

void FinalizeCPUModulePass::runOnOperation() {
  std::unique_ptr<LLVMTypeConverter> converter =
      hostkernel::createHostTypeConverter(&getContext());
  if (failed(lowerVectorOps()) || failed(convertStubs(*converter)) ||
      failed(convertToLLVM(*converter)) ||
      failed(hostkernel::emitCPUModuleDescriptor(getOperation())))
    return signalPassFailure();
}

/// The vector rewrites upstream's convert-vector-to-llvm applies before its
/// conversion (transfers to loads/stores, masks, strided slices, ...); the
/// conversion patterns alone do not lower those ops.
LogicalResult FinalizeCPUModulePass::lowerVectorOps() {
  RewritePatternSet patterns(&getContext());
  vector::populateVectorToVectorCanonicalizationPatterns(patterns);
  vector::populateVectorBitCastLoweringPatterns(patterns);
  vector::populateVectorBroadcastLoweringPatterns(patterns);
  vector::populateVectorContractLoweringPatterns(
      patterns, vector::VectorContractLowering::Dot);
  vector::populateVectorMaskOpLoweringPatterns(patterns);
  vector::populateVectorShapeCastLoweringPatterns(patterns);
  vector::populateVectorInterleaveLoweringPatterns(patterns);
  vector::populateVectorTransposeLoweringPatterns(
      patterns, vector::VectorTransposeLowering::EltWise);
  vector::populateVectorTransferLoweringPatterns(patterns,
                                                 /*maxTransferRank=*/1);
  vector::populateVectorMaskMaterializationPatterns(
      patterns, /*force32BitVectorIndices=*/false);
  vector::populateVectorInsertExtractStridedSliceTransforms(patterns);
  vector::populateVectorStepLoweringPatterns(patterns);
  vector::populateVectorRankReducingFMAPattern(patterns);
  vector::populateVectorGatherLoweringPatterns(patterns);
  // n-D from_elements/to_elements (a 2-D value built in a kernel and carried
  // by a loop, say): rows of 1-D ops, which the conversion lowers.
  vector::populateVectorFromElementsUnrollPatterns(patterns);
  vector::populateVectorToElementsUnrollPatterns(patterns);
  if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
    return getOperation().emitOpError()
           << "lowering vector ops did not converge";
  return success();
}

LogicalResult
FinalizeCPUModulePass::convertStubs(LLVMTypeConverter &converter) {
  gpu::GPUModuleOp module = getOperation();
  for (auto stub :
       llvm::make_early_inc_range(module.getOps<gpu::GPUFuncOp>())) {
    TypeConverter::SignatureConversion signature(stub.getNumArguments());
    Type type = converter.convertFunctionSignature(
        stub.getFunctionType(), /*isVariadic=*/false,
        /*useBarePtrCallConv=*/false, signature);
    if (!type)
      return stub.emitOpError() << "has a signature the cpu target cannot "
                                   "convert";
    OpBuilder builder(stub);
    auto func = LLVM::LLVMFuncOp::create(builder, stub.getLoc(), stub.getName(),
                                         cast<LLVM::LLVMFunctionType>(type));
    func->setAttr(gpu::GPUDialect::getKernelFuncAttrName(),
                  builder.getUnitAttr());
    Block *entry = func.addEntryBlock(builder);
    builder.setInsertionPointToStart(entry);
    LLVM::ReturnOp::create(builder, stub.getLoc(), ValueRange());
    stub.erase();
  }
  return success();
}

LogicalResult
FinalizeCPUModulePass::convertToLLVM(LLVMTypeConverter &converter) {
  MLIRContext *context = &getContext();
  // A full conversion: an op nothing lowers is reported where it is, not
  // later by the LLVM IR translation with a dump of the whole module.
  LLVMConversionTarget target(*context);
  target.addLegalOp<gpu::GPUModuleOp, UnrealizedConversionCastOp>();
  RewritePatternSet patterns(context);
  for (Dialect *dialect : context->getLoadedDialects()) {
    auto *iface = dyn_cast<ConvertToLLVMPatternInterface>(dialect);
    if (iface)
      iface->populateConvertToLLVMConversionPatterns(target, converter,
                                                     patterns);
  }
  return applyFullConversion(getOperation(), target, std::move(patterns));
}

} // namespace
