//===----------------------------------------------------------------------===//
// The gpumem dialect: registration, the generated attribute, enum and op
// definitions, and the verifiers of the managed memory ops. Every op is host
// code; alloc_managed results are global memory with the identity layout;
// prefetch and advise take any memref but workgroup or private memory. The
// ops lower to LLVM inside gpu-to-llvm (and convert-to-llvm) through the
// ConvertToLLVMPatternInterface, and the target attributes serialize through
// gpu::TargetAttrInterface: both are promised here and attached by registry
// extensions (GPUMemToLLVM.h, gpumem/Target/<T>/Target.h).
//===----------------------------------------------------------------------===//

#include "gpumem/Dialect/GPUMem/IR/GPUMem.h"

#include "mlir/Conversion/ConvertToLLVM/ToLLVMInterface.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"

#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace gpumem;

#include "gpumem/Dialect/GPUMem/IR/GPUMemDialect.cpp.inc"

#include "gpumem/Dialect/GPUMem/IR/GPUMemEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "gpumem/Dialect/GPUMem/IR/GPUMemAttrs.cpp.inc"

void GPUMemDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "gpumem/Dialect/GPUMem/IR/GPUMemAttrs.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "gpumem/Dialect/GPUMem/IR/GPUMemOps.cpp.inc"
      >();
  declarePromisedInterface<ConvertToLLVMPatternInterface, GPUMemDialect>();
  declarePromisedInterfaces<gpu::TargetAttrInterface, CPUTargetAttr,
                            VulkanTargetAttr>();
}

//===----------------------------------------------------------------------===//
// `async [%deps]`, as the gpu dialect spells it. Prints a trailing space when
// it prints anything, so the op's format glues the next operand to it.
//===----------------------------------------------------------------------===//

static ParseResult
parseAsyncDependencies(OpAsmParser &parser, Type &asyncTokenType,
                       SmallVectorImpl<OpAsmParser::UnresolvedOperand> &deps) {
  SMLoc loc = parser.getCurrentLocation();
  if (succeeded(parser.parseOptionalKeyword("async"))) {
    if (parser.getNumResults() == 0)
      return parser.emitError(loc, "needs to be named when marked 'async'");
    asyncTokenType = parser.getBuilder().getType<gpu::AsyncTokenType>();
  }
  return parser.parseOperandList(deps, OpAsmParser::Delimiter::OptionalSquare);
}

static void printAsyncDependencies(OpAsmPrinter &printer, Operation *op,
                                   Type asyncTokenType, OperandRange deps) {
  if (asyncTokenType)
    printer << "async ";
  if (!deps.empty()) {
    printer << "[";
    llvm::interleaveComma(deps, printer);
    printer << "] ";
  }
}

#define GET_OP_CLASSES
#include "gpumem/Dialect/GPUMem/IR/GPUMemOps.cpp.inc"

//===----------------------------------------------------------------------===//
// Verifiers.
//===----------------------------------------------------------------------===//

namespace {

enum class MemorySpaceKind { Default, Workgroup, Private, Other };

/// Every spelling alike: `#gpu.address_space<...>` or the NVVM integers
/// (3 workgroup, 5 private); no memory space (or 0) is the default.
MemorySpaceKind classifyMemorySpace(Attribute memorySpace) {
  if (!memorySpace)
    return MemorySpaceKind::Default;
  if (auto gpuSpace = dyn_cast<gpu::AddressSpaceAttr>(memorySpace)) {
    switch (gpuSpace.getValue()) {
    case gpu::AddressSpace::Workgroup:
      return MemorySpaceKind::Workgroup;
    case gpu::AddressSpace::Private:
      return MemorySpaceKind::Private;
    default:
      return MemorySpaceKind::Other;
    }
  }
  if (auto number = dyn_cast<IntegerAttr>(memorySpace)) {
    switch (number.getInt()) {
    case 0:
      return MemorySpaceKind::Default;
    case 3:
      return MemorySpaceKind::Workgroup;
    case 5:
      return MemorySpaceKind::Private;
    default:
      return MemorySpaceKind::Other;
    }
  }
  return MemorySpaceKind::Other;
}

/// The ops run on the host: not in a gpu.launch body, not in a gpu.module.
LogicalResult verifyHostCode(Operation *op) {
  if (op->getParentOfType<gpu::LaunchOp>() ||
      op->getParentOfType<gpu::GPUModuleOp>())
    return op->emitOpError()
           << "is host code: it cannot be inside a gpu.launch body or a "
              "gpu.module";
  return success();
}

/// Managed memory is global memory: `what` cannot name workgroup or private
/// memory.
LogicalResult verifyNotWorkgroupOrPrivate(Operation *op, MemRefType type,
                                          StringRef what) {
  switch (classifyMemorySpace(type.getMemorySpace())) {
  case MemorySpaceKind::Workgroup:
    return op->emitOpError()
           << what << " managed memory, which is global memory; " << type
           << " is in workgroup memory";
  case MemorySpaceKind::Private:
    return op->emitOpError()
           << what << " managed memory, which is global memory; " << type
           << " is in private memory";
  default:
    return success();
  }
}

} // namespace

LogicalResult AllocManagedOp::verify() {
  if (failed(verifyHostCode(*this)))
    return failure();
  MemRefType type = getType();
  if (failed(verifyNotWorkgroupOrPrivate(*this, type, "allocates")))
    return failure();
  if (classifyMemorySpace(type.getMemorySpace()) != MemorySpaceKind::Default)
    return emitOpError() << "allocates managed memory in the default memory "
                            "space; drop the memory space of "
                         << type;
  if (!type.getLayout().isIdentity())
    return emitOpError() << "allocates managed memory with the identity "
                            "layout, not "
                         << type;
  int64_t dynamicDims = type.getNumDynamicDims();
  if (int64_t(getDynamicSizes().size()) != dynamicDims)
    return emitOpError() << "has " << getDynamicSizes().size()
                         << " dynamic size operand"
                         << (getDynamicSizes().size() == 1 ? "" : "s")
                         << ", but " << type << " has " << dynamicDims
                         << " dynamic dimension"
                         << (dynamicDims == 1 ? "" : "s");
  return success();
}

LogicalResult PrefetchOp::verify() {
  if (failed(verifyHostCode(*this)))
    return failure();
  return verifyNotWorkgroupOrPrivate(
      *this, cast<MemRefType>(getMemref().getType()), "prefetches");
}

LogicalResult AdviseOp::verify() {
  if (failed(verifyHostCode(*this)))
    return failure();
  return verifyNotWorkgroupOrPrivate(
      *this, cast<MemRefType>(getMemref().getType()), "advises on");
}
