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

#include "HostCode.h"

#include "gpumem/Conversion/Passes.h"
#include "gpumem/Runtime/CPUKernelABI.h"

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
#include "gpumem/Conversion/Passes.h.inc"
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
  LogicalResult emitModuleDescriptor();
};

void FinalizeCPUModulePass::runOnOperation() {
  std::unique_ptr<LLVMTypeConverter> converter =
      cpu::createHostTypeConverter(&getContext());
  if (failed(lowerVectorOps()) || failed(convertStubs(*converter)) ||
      failed(convertToLLVM(*converter)) ||
      failed(emitModuleDescriptor()))
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
  if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
    return getOperation().emitOpError() << "lowering vector ops did not converge";
  return success();
}

LogicalResult FinalizeCPUModulePass::convertStubs(LLVMTypeConverter &converter) {
  gpu::GPUModuleOp module = getOperation();
  for (auto stub : llvm::make_early_inc_range(module.getOps<gpu::GPUFuncOp>())) {
    TypeConverter::SignatureConversion signature(stub.getNumArguments());
    Type type = converter.convertFunctionSignature(
        stub.getFunctionType(), /*isVariadic=*/false,
        /*useBarePtrCallConv=*/false, signature);
    if (!type)
      return stub.emitOpError() << "has a signature the cpu target cannot "
                                   "convert";
    OpBuilder builder(stub);
    auto func = LLVM::LLVMFuncOp::create(builder, stub.getLoc(),
                                         stub.getName(),
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

LogicalResult FinalizeCPUModulePass::emitModuleDescriptor() {
  gpu::GPUModuleOp module = getOperation();
  auto table = module->getAttrOfType<ArrayAttr>(cpu::kKernelTableAttr);
  if (!table)
    return module.emitOpError()
           << "has no kernel table; run gpumem-lower-gpu-to-cpu-abi first";
  MLIRContext *context = &getContext();
  Location loc = module.getLoc();
  auto ptr = LLVM::LLVMPointerType::get(context);
  auto i32 = IntegerType::get(context, 32);
  auto i64 = IntegerType::get(context, 64);
  auto kernelType =
      LLVM::LLVMStructType::getLiteral(context, {ptr, ptr, ptr, i64, i32, i32});
  auto tableType = LLVM::LLVMArrayType::get(kernelType, table.size());
  auto moduleType = LLVM::LLVMStructType::getLiteral(context, {i32, i32, ptr});

  OpBuilder builder = OpBuilder::atBlockEnd(module.getBody());
  auto kernels = LLVM::GlobalOp::create(
      builder, loc, tableType, /*isConstant=*/true, LLVM::Linkage::Private,
      "__gpumem_cpu_kernels", Attribute());
  {
    Block *init = builder.createBlock(&kernels.getInitializerRegion());
    builder.setInsertionPointToStart(init);
    Value array = LLVM::PoisonOp::create(builder, loc, tableType);
    for (auto [index, entry] : llvm::enumerate(table)) {
      auto dict = cast<DictionaryAttr>(entry);
      auto symbol = [&](StringRef key) -> Value {
        auto ref = dict.getAs<FlatSymbolRefAttr>(key);
        if (!ref)
          return LLVM::ZeroOp::create(builder, loc, ptr);
        return LLVM::AddressOfOp::create(builder, loc, ptr, ref.getValue());
      };
      Value fields[] = {
          cpu::getStringPointer(builder, loc, module,
                                dict.getAs<StringAttr>("name").getValue()),
          symbol("run_thread"), symbol("run_block"),
          LLVM::ConstantOp::create(builder, loc, i64,
                                   dict.getAs<IntegerAttr>("shared_bytes")),
          LLVM::ConstantOp::create(
              builder, loc, i32,
              dict.getAs<BoolAttr>("needs_fibers").getValue() ? 1 : 0),
          LLVM::ConstantOp::create(builder, loc, i32,
                                   dict.getAs<IntegerAttr>("num_params"))};
      Value kernel = LLVM::PoisonOp::create(builder, loc, kernelType);
      for (auto [field, value] : llvm::enumerate(fields))
        kernel = LLVM::InsertValueOp::create(builder, loc, kernel, value,
                                             ArrayRef<int64_t>{int64_t(field)});
      array = LLVM::InsertValueOp::create(builder, loc, array, kernel,
                                          ArrayRef<int64_t>{int64_t(index)});
    }
    LLVM::ReturnOp::create(builder, loc, array);
  }

  builder.setInsertionPointToEnd(module.getBody());
  auto descriptor = LLVM::GlobalOp::create(
      builder, loc, moduleType, /*isConstant=*/true, LLVM::Linkage::External,
      GPUMEM_CPU_MODULE_SYMBOL, Attribute());
  Block *init = builder.createBlock(&descriptor.getInitializerRegion());
  builder.setInsertionPointToStart(init);
  Value fields[] = {
      LLVM::ConstantOp::create(builder, loc, i32, GPUMEM_CPU_ABI_VERSION),
      LLVM::ConstantOp::create(builder, loc, i32, int64_t(table.size())),
      LLVM::AddressOfOp::create(builder, loc, kernels)};
  Value value = LLVM::PoisonOp::create(builder, loc, moduleType);
  for (auto [field, fieldValue] : llvm::enumerate(fields))
    value = LLVM::InsertValueOp::create(builder, loc, value, fieldValue,
                                        ArrayRef<int64_t>{int64_t(field)});
  LLVM::ReturnOp::create(builder, loc, value);
  module->removeAttr(cpu::kKernelTableAttr);
  return success();
}

} // namespace
