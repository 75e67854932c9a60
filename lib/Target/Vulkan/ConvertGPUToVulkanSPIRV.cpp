//===----------------------------------------------------------------------===//
// gpumem-convert-gpu-to-vulkan-spirv: each #gpumem.vulkan gpu.module gets a
// spirv.module inside it.
//
//  1. The gpu.module is cloned into itself (launches keep referencing the
//     original kernels) and the clone is prepared (PrepareVulkanKernels.cpp):
//     kernels take 1-D buffers and index scalars, every access indexes a
//     root. The records go on the original module for the serializer.
//  2. Memory spaces of either spelling become storage classes.
//  3. One full conversion with upstream's SPIR-V patterns turns the clone
//     into a spirv.module, except for kernels, which KernelToEntryPoint
//     gives gpumem's ABI: no parameters; a PushConstant block (block size at
//     0, scalars at their recorded offsets); a StorageBuffer variable per
//     buffer (set 0, its binding); a Workgroup variable per workgroup
//     attribution; a Function variable per private attribution.
//     gpu.printf and cf.assert write the diagnostics buffer
//     (VulkanDiagnostics.cpp); their site table goes on the original module.
//  4. The original kernels become empty llvm.func stubs and everything
//     else in the gpu.module but the spirv.module is erased, so host passes
//     never see device code.
//===----------------------------------------------------------------------===//

#include "DynamicWorkgroupMemory.h"
#include "SpecializationPatches.h"
#include "VulkanAtomics.h"
#include "VulkanDiagnostics.h"
#include "VulkanKernelRecords.h"
#include "gpumem/Dialect/GPUMem/IR/GPUMem.h"
#include "gpumem/Target/Vulkan/Passes.h"
#include "gpumem/Transforms/WorkgroupMemory.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/ArithToSPIRV/ArithToSPIRV.h"
#include "mlir/Conversion/ControlFlowToSPIRV/ControlFlowToSPIRV.h"
#include "mlir/Conversion/FuncToSPIRV/FuncToSPIRV.h"
#include "mlir/Conversion/GPUToSPIRV/GPUToSPIRV.h"
#include "mlir/Conversion/IndexToSPIRV/IndexToSPIRV.h"
#include "mlir/Conversion/MathToSPIRV/MathToSPIRV.h"
#include "mlir/Conversion/MemRefToSPIRV/MemRefToSPIRV.h"
#include "mlir/Conversion/SCFToSPIRV/SCFToSPIRV.h"
#include "mlir/Conversion/UBToSPIRV/UBToSPIRV.h"
#include "mlir/Conversion/VectorToSPIRV/VectorToSPIRV.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVDialect.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/Dialect/SPIRV/IR/TargetAndABI.h"
#include "mlir/Dialect/SPIRV/Transforms/SPIRVConversion.h"
#include "mlir/Transforms/DialectConversion.h"

namespace gpumem {
#define GEN_PASS_DEF_GPUMEMCONVERTGPUTOVULKANSPIRVPASS
#include "gpumem/Target/Vulkan/Passes.h.inc"
} // namespace gpumem

using namespace mlir;
using namespace gpumem::vulkan;

namespace {

/// Both spellings of gpu memory spaces, and none, as Vulkan storage
/// classes: what a kernel reads as global memory is a storage buffer.
std::optional<spirv::StorageClass> vulkanStorageClass(Attribute space) {
  switch (gpumem::getAddressSpaceNumber(space)) {
  case 0:
  case 1:
    return spirv::StorageClass::StorageBuffer;
  case 3:
    return spirv::StorageClass::Workgroup;
  case 5:
    return spirv::StorageClass::Function;
  default:
    return spirv::mapMemorySpaceToVulkanStorageClass(space);
  }
}

/// The push-constant block of kernel `kernel`.
std::string pushConstantsName(StringRef kernel) {
  return ("__gpumem_push_" + kernel).str();
}

/// A kernel as an entry point with gpumem's Vulkan ABI.
class KernelToEntryPoint final : public OpConversionPattern<gpu::GPUFuncOp> {
public:
  KernelToEntryPoint(const TypeConverter &converter, MLIRContext *context)
      : OpConversionPattern(converter, context, /*benefit=*/2) {}

  LogicalResult
  matchAndRewrite(gpu::GPUFuncOp kernel, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override;
};

LogicalResult
KernelToEntryPoint::matchAndRewrite(gpu::GPUFuncOp kernel, OpAdaptor adaptor,
                                    ConversionPatternRewriter &rewriter) const {
  if (!kernel.isKernel())
    return failure();
  const TypeConverter &converter = *getTypeConverter();
  MLIRContext *context = kernel.getContext();
  Location loc = kernel.getLoc();
  IntegerType i32 = rewriter.getI32Type();
  StringRef name = kernel.getName();

  // The push-constant block, members in increasing offset order.
  struct Member {
    uint32_t offset;
    Type type;
    unsigned argument;
  };
  SmallVector<Member> members = {{0, i32, ~0u}, {4, i32, ~0u}, {8, i32, ~0u}};
  // The dynamic shared bytes at offset 12 are a member only when an
  // argument reads them.
  unsigned numInputs = kernel.getNumArguments();
  for (unsigned i = 0; i < numInputs; ++i) {
    auto offset = kernel.getArgAttrOfType<IntegerAttr>(i, kPushOffsetAttrName);
    if (!offset)
      continue;
    Type type = kernel.getArgument(i).getType();
    Type memberType =
        type.isInteger(1) || type.isInteger(8) || type.isInteger(16)
            ? i32
            : converter.convertType(type);
    if (!memberType)
      return rewriter.notifyMatchFailure(kernel, "unconvertible argument");
    members.push_back({uint32_t(offset.getInt()), memberType, i});
  }
  llvm::stable_sort(members, [](const Member &a, const Member &b) {
    return a.offset < b.offset;
  });
  SmallVector<Type> memberTypes;
  SmallVector<spirv::StructType::OffsetInfo> offsets;
  DenseMap<unsigned, unsigned> memberOfArgument;
  for (auto [index, member] : llvm::enumerate(members)) {
    memberTypes.push_back(member.type);
    offsets.push_back(member.offset);
    if (member.argument != ~0u)
      memberOfArgument[member.argument] = index;
  }
  auto pushType =
      spirv::PointerType::get(spirv::StructType::get(memberTypes, offsets),
                              spirv::StorageClass::PushConstant);
  rewriter.setInsertionPoint(kernel);
  auto push = spirv::GlobalVariableOp::create(
      rewriter, loc, TypeAttr::get(pushType),
      rewriter.getStringAttr(pushConstantsName(name)));

  // Globals for buffers and workgroup attributions.
  SmallVector<spirv::GlobalVariableOp> globals(
      kernel.getBody().front().getNumArguments());
  for (unsigned i = 0; i < numInputs; ++i) {
    auto binding = kernel.getArgAttrOfType<IntegerAttr>(i, kBindingAttrName);
    if (!binding)
      continue;
    Type type = converter.convertType(kernel.getArgument(i).getType());
    if (!type)
      return rewriter.notifyMatchFailure(kernel, "unconvertible buffer");
    globals[i] = spirv::GlobalVariableOp::create(
        rewriter, loc, type,
        ("__gpumem_buffer_" + name + "_" + Twine(binding.getInt())).str(), 0,
        binding.getInt());
  }
  // The dynamic array's name tells the serializer which to size by
  // specialization (SpecializationPatches.h).
  auto dynamicShared =
      kernel->getAttrOfType<IntegerAttr>(kDynamicSharedAttrName);
  for (auto [index, attribution] :
       llvm::enumerate(kernel.getWorkgroupAttributions())) {
    Type type = converter.convertType(attribution.getType());
    if (!type)
      return rewriter.notifyMatchFailure(kernel, "unconvertible attribution");
    std::string variable =
        dynamicShared && dynamicShared.getInt() == int64_t(index)
            ? (kDynamicSharedVariablePrefix + name).str()
            : ("__gpumem_workgroup_" + name + "_" + Twine(index)).str();
    globals[attribution.getArgNumber()] = spirv::GlobalVariableOp::create(
        rewriter, loc, TypeAttr::get(type), rewriter.getStringAttr(variable));
  }

  SmallVector<std::pair<unsigned, Type>> privates;
  for (BlockArgument attribution : kernel.getPrivateAttributions()) {
    Type type = converter.convertType(attribution.getType());
    if (!type)
      return rewriter.notifyMatchFailure(kernel, "unconvertible attribution");
    privates.emplace_back(attribution.getArgNumber(), type);
  }

  auto entryPoint = spirv::FuncOp::create(rewriter, loc, name,
                                          rewriter.getFunctionType({}, {}));
  entryPoint->setAttr(spirv::getEntryPointABIAttrName(),
                      kernel->getAttr(spirv::getEntryPointABIAttrName()));
  rewriter.inlineRegionBefore(kernel.getBody(), entryPoint.getBody(),
                              entryPoint.end());
  Block *entry = &entryPoint.getBody().front();
  rewriter.setInsertionPointToStart(entry);

  TypeConverter::SignatureConversion signature(entry->getNumArguments());
  // Function variables first, as SPIR-V wants them.
  for (auto [argNumber, type] : privates) {
    Value variable = spirv::VariableOp::create(
        rewriter, loc, type,
        spirv::StorageClassAttr::get(context, spirv::StorageClass::Function),
        Value());
    signature.remapInput(argNumber, ArrayRef<Value>{variable});
  }
  Value pushBlock = spirv::AddressOfOp::create(rewriter, loc, push);
  for (unsigned i = 0, e = entry->getNumArguments(); i < e; ++i) {
    if (globals[i]) {
      Value address = spirv::AddressOfOp::create(rewriter, loc, globals[i]);
      signature.remapInput(i, ArrayRef<Value>{address});
      continue;
    }
    auto member = memberOfArgument.find(i);
    if (member == memberOfArgument.end())
      continue; // a private attribution, mapped above
    Value index = spirv::ConstantOp::create(
        rewriter, loc, i32, rewriter.getI32IntegerAttr(member->second));
    Value field = spirv::AccessChainOp::create(rewriter, loc, pushBlock, index);
    Value value = spirv::LoadOp::create(rewriter, loc, field);
    Type argumentType = entry->getArgument(i).getType();
    if (argumentType.isInteger(1)) {
      Value zero = spirv::ConstantOp::create(rewriter, loc, i32,
                                             rewriter.getI32IntegerAttr(0));
      value = spirv::INotEqualOp::create(rewriter, loc, value, zero);
    } else if (argumentType.isInteger(8) || argumentType.isInteger(16)) {
      // The word's low bytes: push constants of 8 or 16 bits would need
      // capabilities few devices have.
      Type narrow = converter.convertType(argumentType);
      if (narrow != i32)
        value = spirv::UConvertOp::create(rewriter, loc, narrow, value);
    }
    signature.remapInput(i, ArrayRef<Value>{value});
  }
  rewriter.applySignatureConversion(entry, signature, &converter);
  rewriter.eraseOp(kernel);
  return success();
}

/// gpu.block_dim of a kernel whose block size is known only at launch: the
/// push constants' first three words (the runtime writes the launch's block
/// size there). Kernels with a known size get upstream's constants.
class BlockDimFromPushConstants final
    : public OpConversionPattern<gpu::BlockDimOp> {
public:
  BlockDimFromPushConstants(const TypeConverter &converter,
                            MLIRContext *context)
      : OpConversionPattern(converter, context, /*benefit=*/20) {}

  LogicalResult
  matchAndRewrite(gpu::BlockDimOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto function = op->getParentOfType<spirv::FuncOp>();
    auto abi = function ? function->getAttrOfType<spirv::EntryPointABIAttr>(
                              spirv::getEntryPointABIAttrName())
                        : nullptr;
    if (!abi || abi.getWorkgroupSize())
      return failure();
    auto module = function->getParentOfType<spirv::ModuleOp>();
    auto push = module.lookupSymbol<spirv::GlobalVariableOp>(
        pushConstantsName(function.getName()));
    if (!push)
      return failure();
    Location loc = op.getLoc();
    Value block = spirv::AddressOfOp::create(rewriter, loc, push);
    Value index = spirv::ConstantOp::create(
        rewriter, loc, rewriter.getI32Type(),
        rewriter.getI32IntegerAttr(int32_t(op.getDimension())));
    Value field = spirv::AccessChainOp::create(rewriter, loc, block, index);
    Value size = spirv::LoadOp::create(rewriter, loc, field);
    Type indexType = getTypeConverter()->convertType(op.getType());
    if (indexType != size.getType())
      size = spirv::UConvertOp::create(rewriter, loc, indexType, size);
    rewriter.replaceOp(op, size);
    return success();
  }
};

/// math.ctpop of 32-bit integers as spirv.BitCount, which upstream's Math
/// conversion lacks.
struct CtPopToBitCount final : OpConversionPattern<math::CtPopOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(math::CtPopOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type type = adaptor.getOperand().getType();
    if (!type.isInteger(32))
      return rewriter.notifyMatchFailure(op, "not a 32-bit integer");
    rewriter.replaceOpWithNewOp<spirv::BitCountOp>(op, type,
                                                   adaptor.getOperand());
    return success();
  }
};

/// Empties the original gpu.module but for `keep`: each kernel becomes an
/// empty llvm.func marked gpu.kernel, which launches may name without the
/// verifier comparing their operands (expanded by the host lowering) with
/// the kernel's signature.
void emptyOriginal(gpu::GPUModuleOp module, Operation *keep) {
  OpBuilder builder(module.getContext());
  for (Operation &op : llvm::make_early_inc_range(module.getOps())) {
    if (&op == keep)
      continue;
    if (auto kernel = dyn_cast<gpu::GPUFuncOp>(op);
        kernel && kernel.isKernel()) {
      builder.setInsertionPoint(kernel);
      auto stub = LLVM::LLVMFuncOp::create(
          builder, kernel.getLoc(), kernel.getName(),
          LLVM::LLVMFunctionType::get(
              LLVM::LLVMVoidType::get(module.getContext()), {}));
      stub->setAttr(gpu::GPUDialect::getKernelFuncAttrName(),
                    builder.getUnitAttr());
      builder.setInsertionPointToStart(stub.addEntryBlock(builder));
      LLVM::ReturnOp::create(builder, kernel.getLoc(), ValueRange());
    }
    op.dropAllReferences();
    op.dropAllDefinedValueUses();
    op.erase();
  }
}

struct ConvertGPUToVulkanSPIRVPass
    : gpumem::impl::GPUMemConvertGPUToVulkanSPIRVPassBase<
          ConvertGPUToVulkanSPIRVPass> {
  using Base::Base;
  void runOnOperation() override;

  LogicalResult convert(gpu::GPUModuleOp module);
};

LogicalResult ConvertGPUToVulkanSPIRVPass::convert(gpu::GPUModuleOp module) {
  MLIRContext *context = &getContext();
  OpBuilder builder(context);
  builder.setInsertionPointToStart(module.getBody());
  auto clone = cast<gpu::GPUModuleOp>(builder.clone(*module));
  clone->removeAttr(module.getTargetsAttrName());

  FailureOr<DictionaryAttr> records =
      prepareVulkanKernels(clone, checkLoopCompletion);
  if (failed(records))
    return failure();
  module->setAttr(kKernelRecordsAttrName, *records);

  spirv::MemorySpaceToStorageClassConverter spaces(vulkanStorageClass);
  spirv::convertMemRefTypesAndAttrs(clone, spaces);

  spirv::TargetEnvAttr targetEnv = spirv::lookupTargetEnvOrDefault(module);
  std::unique_ptr<ConversionTarget> target =
      SPIRVConversionTarget::get(targetEnv);
  SPIRVTypeConverter converter(targetEnv);
  RewritePatternSet patterns(context);
  patterns.add<KernelToEntryPoint, BlockDimFromPushConstants, CtPopToBitCount>(
      converter, context);
  populateGPUToSPIRVPatterns(converter, patterns);
  ScfToSPIRVContext scfContext;
  populateSCFToSPIRVPatterns(converter, scfContext, patterns);
  cf::populateControlFlowToSPIRVPatterns(converter, patterns);
  arith::populateArithToSPIRVPatterns(converter, patterns);
  populateMathToSPIRVPatterns(converter, patterns);
  populateMemRefToSPIRVPatterns(converter, patterns);
  populateFuncToSPIRVPatterns(converter, patterns);
  populateBuiltinFuncToSPIRVPatterns(converter, patterns);
  index::populateIndexToSPIRVPatterns(converter, patterns);
  ub::populateUBToSPIRVConversionPatterns(converter, patterns);
  populateVectorToSPIRVPatterns(converter, patterns);
  populateAffineToStdConversionPatterns(patterns);
  populateGenericAtomicToSPIRVPatterns(converter, patterns);
  SmallVector<DiagnosticSite> sites;
  populateDiagnosticsToSPIRVPatterns(converter, patterns, sites);
  if (failed(applyFullConversion(clone, *target, std::move(patterns))))
    return failure();
  if (!sites.empty())
    module->setAttr(kSitesAttrName, sitesToAttr(context, sites));

  auto spirvModules = module.getOps<spirv::ModuleOp>();
  if (llvm::range_size(spirvModules) != 1)
    return module.emitError() << "did not convert to one spirv.module";
  emptyOriginal(module, *spirvModules.begin());
  return success();
}

void ConvertGPUToVulkanSPIRVPass::runOnOperation() {
  SmallVector<gpu::GPUModuleOp> modules;
  getOperation().walk([&](gpu::GPUModuleOp module) {
    ArrayAttr targets = module.getTargetsAttr();
    if (targets && llvm::any_of(targets, [](Attribute target) {
          return isa<gpumem::VulkanTargetAttr>(target);
        }))
      modules.push_back(module);
  });
  for (gpu::GPUModuleOp module : modules)
    if (failed(convert(module)))
      return signalPassFailure();
}

} // namespace
