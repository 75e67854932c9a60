//===----------------------------------------------------------------------===//
// gpumem-prepare-vulkan-kernels: gpumem's Vulkan kernel ABI, and every
// memref access addressed from a one-dimensional root.
//
// For each kernel:
//  1. A known block size (known_block_size) becomes the entry point's
//     LocalSize (spirv.entry_point_abi); without one, gpu.block_dim reads
//     the push constants.
//  2. Arguments, in the host's order: a memref becomes a buffer root
//     `memref<?xT>` at the next binding, 0, 1, ..., with its offset, sizes
//     and strides as index arguments in the push constants; a scalar goes
//     in the push constants. Push constants start at offset 16, each
//     aligned to its size. Static workgroup attributions get notional
//     addresses in order, each aligned to max(16, what it asks for), and
//     become roots `memref<NxT>`, as do private attributions and allocas.
//  3. Accesses are linearized onto the roots (LinearizeMemRefAccesses.h):
//     views are expanded, and each load, store and atomic indexes its root
//     at base + offset + sum(index * stride), where a buffer's base is its
//     element offset from the push constants (the runtime binds the whole
//     allocation) and other roots' is 0. Dynamic workgroup memory is one
//     word array around this (DynamicWorkgroupMemory.h).
//  4. memref.extract_aligned_pointer_as_index of a workgroup array is its
//     notional address; anything else still using a root is a located
//     error. Roots get explicit memory spaces (global buffers, private
//     allocas), and the launch's parameter records go on the gpu.module
//     (VulkanKernelRecords.h).
// Then every loop is followed by a check that it ran to its end, which fails
// where the driver left it early (LoopCompletionChecks.h).
//===----------------------------------------------------------------------===//

#include "DynamicWorkgroupMemory.h"
#include "InlineDeviceFunctions.h"
#include "LinearizeMemRefAccesses.h"
#include "LoopCompletionChecks.h"
#include "NarrowFloats.h"
#include "ScalarizeVectorTransfers.h"
#include "ShuffleWidths.h"
#include "StructuredControlFlow.h"
#include "VulkanAtomics.h"
#include "VulkanDiagnostics.h"
#include "VulkanKernelRecords.h"
#include "WorkgroupBufferChoices.h"
#include "gpumem/Target/Vulkan/Passes.h"
#include "gpumem/Transforms/WorkgroupAllReduce.h"
#include "gpumem/Transforms/WorkgroupMemory.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVDialect.h"
#include "mlir/Dialect/SPIRV/IR/TargetAndABI.h"
#include "mlir/Dialect/SPIRV/Transforms/SPIRVConversion.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/RegionUtils.h"

namespace gpumem {
#define GEN_PASS_DEF_GPUMEMPREPAREVULKANKERNELSPASS
#include "gpumem/Target/Vulkan/Passes.h.inc"
} // namespace gpumem

using namespace mlir;
using namespace gpumem::vulkan;

namespace {

/// Push-constant bytes of a scalar argument type, or 0 when push constants
/// cannot carry it.
unsigned pushBytesOf(Type type) {
  // i1, i8 and i16 travel as a 32-bit word (the host's bytes, zero-
  // extended), which the kernel narrows.
  if (type.isIndex() || type.isInteger(1) || type.isInteger(8) ||
      type.isInteger(16) || type.isInteger(32) || type.isF32())
    return 4;
  if (type.isInteger(64) || type.isF64())
    return 8;
  return 0;
}

/// Bytes the host passes for a scalar argument.
unsigned hostBytesOf(Type type) {
  if (type.isIndex())
    return 8;
  if (type.isInteger(1))
    return 1;
  return type.getIntOrFloatBitWidth() / 8;
}

/// Whether a memref element type can live in a SPIR-V buffer with the same
/// bytes as on the host.
bool isBufferElement(Type type) {
  return type.isInteger(32) || type.isInteger(64) || type.isF32() ||
         type.isF64() || type.isInteger(16) || type.isF16() ||
         type.isInteger(8);
}

/// Whether `op` depends on the subgroup size.
bool isSubgroupOp(Operation *op) {
  return isa<gpu::ShuffleOp, gpu::SubgroupReduceOp, gpu::SubgroupSizeOp,
             gpu::LaneIdOp, gpu::SubgroupIdOp, gpu::NumSubgroupsOp,
             gpu::AllReduceOp, gpu::SubgroupBroadcastOp>(op);
}

class KernelPreparer {
public:
  /// `subgroupSize`: what the kernel's subgroup operations assume, or 0
  /// when it has none.
  KernelPreparer(gpu::GPUFuncOp kernel, uint32_t subgroupSize)
      : kernel(kernel), subgroupSize(subgroupSize) {}

  /// Prepares the kernel and returns its record, or fails after a
  /// diagnostic.
  FailureOr<KernelRecord> run();

private:
  LogicalResult setEntryPoint();
  LogicalResult makeRoots();
  LogicalResult bindArguments(OpBuilder &builder);
  void eraseKernelArguments(const llvm::BitVector &erase);
  LogicalResult bindBuffer(OpBuilder &builder, unsigned index);
  LogicalResult bindScalar(unsigned index);
  uint32_t allocatePush(unsigned bytes);
  LogicalResult placeWorkgroupArrays(OpBuilder &builder);
  LogicalResult makeDynamicSharedRoots();
  LogicalResult lowerDynamicSharedAccesses();
  LogicalResult resolveWorkgroupAddresses();

  gpu::GPUFuncOp kernel;
  uint32_t subgroupSize;
  KernelRecord record;
  MemRefRoots roots;
  /// Notional addresses of workgroup arrays (what
  /// memref.extract_aligned_pointer_as_index returns): the static ones
  /// in order, each aligned to 16 bytes or what it asks for, then the
  /// dynamic array, aligned as getDynamicSharedAlignment says.
  llvm::DenseMap<Value, int64_t> workgroupAddress;
  int64_t dynamicSharedAddress = 0;
  DynamicSharedRoots dynamicShared;
  uint32_t pushOffset = GPUMEM_VULKAN_PUSH_PARAMS;
};

/// Logical SPIR-V has no addresses to align: a memref.assume_alignment (whose
/// alignment gpumem-pack-dynamic-workgroup-allocs and the notional addresses
/// honour) becomes its operand, so that accesses trace to their roots.
static void dropAlignmentAssumptions(gpu::GPUFuncOp kernel) {
  kernel.walk([](memref::AssumeAlignmentOp assume) {
    assume.replaceAllUsesWith(assume.getMemref());
    assume.erase();
  });
}

FailureOr<KernelRecord> KernelPreparer::run() {
  dropAlignmentAssumptions(kernel);
  if (failed(setEntryPoint()) || failed(makeRoots()) ||
      failed(makeDynamicSharedRoots()) || failed(expandViews(kernel)) ||
      failed(linearizeAccesses(kernel, roots)) ||
      failed(lowerDynamicSharedAccesses()))
    return failure();
  // Views and metadata nobody reads any more.
  IRRewriter rewriter(kernel.getContext());
  (void)runRegionDCE(rewriter, kernel->getRegions());
  if (failed(resolveWorkgroupAddresses()))
    return failure();
  // Float atomics are compare-and-swap loops on the same bytes as integers.
  for (Value root : roots.all)
    if (failed(retypeFloatRootAsIntegers(root)))
      return failure();
  if (failed(checkRootUses(roots)))
    return failure();
  retypeRoots(kernel, roots);
  record.header.flags |= subgroupSize << GPUMEM_VULKAN_SUBGROUP_SIZE_SHIFT;
  record.header.bindingCount = roots.buffers.size();
  record.header.pushConstantBytes = llvm::alignTo(pushOffset, 4);
  record.header.paramCount = record.params.size();
  return record;
}

LogicalResult KernelPreparer::setEntryPoint() {
  // A known block size is the LocalSize (gpu.block_dim folds to it); else
  // the entry point has none and gpu.block_dim reads the push constants.
  // Either way the launch's size reaches the shader as the specialization
  // the serializer adds (SpecializationPatches.h).
  std::optional<ArrayRef<int32_t>> block = kernel.getKnownBlockSize();
  kernel->setAttr(
      spirv::getEntryPointABIAttrName(),
      spirv::getEntryPointABIAttr(kernel.getContext(),
                                  block.value_or(ArrayRef<int32_t>())));
  return success();
}

/// Every memref the kernel reaches becomes a root; its reinterpret_casts
/// go at the top of the entry block, in the order of the arguments, the
/// workgroup and then the private attributions (one builder for all).
LogicalResult KernelPreparer::makeRoots() {
  OpBuilder builder = OpBuilder::atBlockBegin(&kernel.getBody().front());
  if (failed(bindArguments(builder)) || failed(placeWorkgroupArrays(builder)))
    return failure();
  return makePrivateRoots(builder, kernel, roots);
}

uint32_t KernelPreparer::allocatePush(unsigned bytes) {
  pushOffset = llvm::alignTo(pushOffset, bytes);
  uint32_t offset = pushOffset;
  pushOffset += bytes;
  return offset;
}

/// Memref arguments as buffers (bindings 0, 1, ...) with their metadata in
/// the push constants, scalars in the push constants, all recorded in the
/// order of the host's arguments.
LogicalResult KernelPreparer::bindArguments(OpBuilder &builder) {
  unsigned numInputs = kernel.getNumArguments();
  llvm::BitVector replaced(numInputs);
  for (unsigned i = 0; i < numInputs; ++i) {
    if (!isa<MemRefType>(kernel.getArgument(i).getType())) {
      if (failed(bindScalar(i)))
        return failure();
      continue;
    }
    if (failed(bindBuffer(builder, i)))
      return failure();
    replaced.set(i);
  }
  eraseKernelArguments(replaced);
  return success();
}

/// Erases the kernel arguments `erase` marks (bit i: argument i; arguments
/// bindBuffer appended are kept). Not through FunctionOpInterface's
/// eraseArguments: its Block::eraseArguments reads a bit for every argument
/// of the entry block, the attributions too, past the end of a vector with
/// one per kernel argument, so whatever the heap held there could erase an
/// attribution still in use (AddressSanitizer: a use after free).
void KernelPreparer::eraseKernelArguments(const llvm::BitVector &erase) {
  unsigned numInputs = kernel.getNumArguments();
  auto erased = [&](unsigned i) { return i < erase.size() && erase.test(i); };
  SmallVector<Type> inputs;
  SmallVector<DictionaryAttr> argAttrs;
  for (unsigned i = 0; i < numInputs; ++i) {
    if (erased(i))
      continue;
    inputs.push_back(kernel.getArgument(i).getType());
    argAttrs.push_back(kernel.getArgAttrDict(i));
  }
  kernel.getBody().front().eraseArguments([&](BlockArgument argument) {
    return argument.getArgNumber() < numInputs &&
           erased(argument.getArgNumber());
  });
  kernel.setFunctionType(FunctionType::get(
      kernel.getContext(), inputs, kernel.getFunctionType().getResults()));
  kernel.setAllArgAttrs(argAttrs);
}

LogicalResult KernelPreparer::bindBuffer(OpBuilder &builder, unsigned index) {
  auto memref = cast<MemRefType>(kernel.getArgument(index).getType());
  Attribute space = memref.getMemorySpace();
  if (space && gpumem::getAddressSpaceNumber(space) != 1)
    return kernel.emitOpError()
           << "argument " << index << " is a memref in memory space " << space
           << "; a vulkan kernel takes global memory";
  if (!memref.isStrided())
    return kernel.emitOpError() << "argument " << index << " has type "
                                << memref << ", whose layout is not strided";
  Type element = memref.getElementType();
  if (!isBufferElement(element))
    return kernel.emitOpError()
           << "argument " << index << " is a memref of " << element
           << "; vulkan buffers hold 8-, 16-, 32- or 64-bit integers and "
              "floats (index differs in size between host and device)";
  uint32_t binding = roots.buffers.size();
  FailureOr<unsigned> first = makeBufferRoot(builder, kernel, index, roots);
  if (failed(first))
    return failure();
  IntegerType i32 = IntegerType::get(kernel.getContext(), 32);
  kernel.setArgAttr(*first, kBindingAttrName, IntegerAttr::get(i32, binding));
  unsigned elementBytes = element.getIntOrFloatBitWidth() / 8;
  record.params.push_back({GPUMEM_VULKAN_PARAM_IGNORED, 0, 0, 0, 0, 0});
  record.params.push_back(
      {GPUMEM_VULKAN_PARAM_BUFFER, binding, elementBytes, 0, 0, 0});
  // The metadata arguments: offset, sizes and strides.
  for (int64_t k = 0; k < 1 + 2 * memref.getRank(); ++k) {
    uint32_t offset = allocatePush(4);
    kernel.setArgAttr(*first + 1 + k, kPushOffsetAttrName,
                      IntegerAttr::get(i32, offset));
    record.params.push_back({k == 0
                                 ? uint32_t(GPUMEM_VULKAN_PARAM_BUFFER_OFFSET)
                                 : uint32_t(GPUMEM_VULKAN_PARAM_INDEX),
                             binding, 0, offset, 0, 0});
  }
  return success();
}

LogicalResult KernelPreparer::bindScalar(unsigned index) {
  Type type = kernel.getArgument(index).getType();
  unsigned bytes = pushBytesOf(type);
  if (!bytes)
    return kernel.emitOpError()
           << "argument " << index << " has type " << type
           << ", which the vulkan target cannot pass to a kernel (scalars "
              "of type index, i1, i8, i16, i32, i64, f16, bf16, f32 or f64, "
              "and memrefs)";
  uint32_t offset = allocatePush(bytes);
  kernel.setArgAttr(
      index, kPushOffsetAttrName,
      IntegerAttr::get(IntegerType::get(kernel.getContext(), 32), offset));
  if (type.isIndex())
    record.params.push_back({GPUMEM_VULKAN_PARAM_INDEX, 0, 0, offset, 0, 0});
  else
    record.params.push_back(
        {GPUMEM_VULKAN_PARAM_SCALAR, 0, 0, offset, hostBytesOf(type), bytes});
  return success();
}

/// Static workgroup attributions at their notional addresses, each a flat
/// root; the dynamic array's address follows them.
LogicalResult KernelPreparer::placeWorkgroupArrays(OpBuilder &builder) {
  uint64_t sharedBytes = 0, address = 0;
  SmallVector<BlockArgument> attributions(kernel.getWorkgroupAttributions());
  for (auto [index, attribution] : llvm::enumerate(attributions)) {
    auto type = cast<MemRefType>(attribution.getType());
    if (!type.hasStaticShape() || !type.getLayout().isIdentity() ||
        !type.getElementType().isIntOrFloat())
      return kernel.emitOpError()
             << "has a workgroup attribution of type " << type
             << "; the vulkan target needs a static shape, the identity "
                "layout and integer or float elements";
    uint64_t bytes = type.getNumElements() *
                     llvm::divideCeil(type.getElementTypeBitWidth(), 8);
    // Elements here are integers and floats of at most 8 bytes, which the
    // 16-byte minimum covers. (No DataLayout query: one built here once
    // made this walk read a stale type, most likely an attribution erased by
    // the argument rewrite that eraseKernelArguments now does safely.)
    address = llvm::alignTo(
        address,
        std::max<uint64_t>(gpumem::kMinWorkgroupAlignment,
                           gpumem::getRequestedAlignment(kernel, index)));
    workgroupAddress[attribution] = address;
    address += bytes;
    sharedBytes += bytes;
    makeFlatRoot(builder, attribution, roots);
  }
  record.header.staticSharedBytes = sharedBytes;
  dynamicSharedAddress =
      llvm::alignTo(address, gpumem::getDynamicSharedAlignment(
                                 kernel->getParentOfType<gpu::GPUModuleOp>()));
  return success();
}

LogicalResult KernelPreparer::makeDynamicSharedRoots() {
  FailureOr<DynamicSharedRoots> made = gpumem::vulkan::makeDynamicSharedRoots(
      kernel, GPUMEM_VULKAN_PUSH_DYNAMIC_SHARED_BYTES);
  if (failed(made))
    return failure();
  dynamicShared = std::move(*made);
  if (!dynamicShared.words)
    return success();
  record.header.flags |= GPUMEM_VULKAN_DYNAMIC_SHARED;
  roots.all.insert(dynamicShared.words);
  for (Value view : dynamicShared.views)
    roots.all.insert(view);
  return success();
}

LogicalResult KernelPreparer::lowerDynamicSharedAccesses() {
  if (!dynamicShared.words)
    return success();
  for (Value view : dynamicShared.views)
    roots.all.remove(view);
  return gpumem::vulkan::lowerDynamicSharedAccesses(dynamicShared,
                                                    dynamicSharedAddress);
}

LogicalResult KernelPreparer::resolveWorkgroupAddresses() {
  for (auto [root, address] : workgroupAddress)
    for (Operation *user : llvm::make_early_inc_range(root.getUsers()))
      if (auto pointer =
              dyn_cast<memref::ExtractAlignedPointerAsIndexOp>(user)) {
        OpBuilder builder(pointer);
        pointer.replaceAllUsesWith(
            arith::ConstantIndexOp::create(builder, pointer.getLoc(), address)
                .getResult());
        pointer.erase();
      }
  return success();
}

struct PrepareVulkanKernelsPass
    : gpumem::impl::GPUMemPrepareVulkanKernelsPassBase<
          PrepareVulkanKernelsPass> {
  using Base::Base;
  void runOnOperation() override {
    gpu::GPUModuleOp module = getOperation();
    FailureOr<DictionaryAttr> records =
        prepareVulkanKernels(module, checkLoopCompletion);
    if (failed(records))
      return signalPassFailure();
    module->setAttr(kKernelRecordsAttrName, *records);
  }
};

} // namespace

/// Workgroup memref.globals (device functions' workgroup memory, hoisted
/// there by gpumem) as workgroup attributions of each kernel that reads
/// them, once device functions are inlined; the globals nobody reads then
/// go. A kernel's own copy is what a block sees, as on a GPU.
static void workgroupGlobalsToAttributions(gpu::GPUModuleOp module) {
  SymbolTable symbols(module);
  for (auto kernel : module.getOps<gpu::GPUFuncOp>()) {
    if (!kernel.isKernel())
      continue;
    llvm::DenseMap<StringAttr, Value> attributions;
    SmallVector<memref::GetGlobalOp> reads;
    kernel.walk([&](memref::GetGlobalOp read) { reads.push_back(read); });
    for (memref::GetGlobalOp read : reads) {
      if (!gpumem::isWorkgroupMemorySpace(read.getType().getMemorySpace()))
        continue;
      Value &attribution = attributions[read.getNameAttr().getAttr()];
      if (!attribution) {
        attribution =
            kernel.addWorkgroupAttribution(read.getType(), read.getLoc());
        auto global =
            symbols.lookup<memref::GlobalOp>(read.getNameAttr().getAttr());
        if (global && global.getAlignment())
          gpumem::setRequestedAlignment(
              kernel, kernel.getNumWorkgroupAttributions() - 1,
              *global.getAlignment());
      }
      read.replaceAllUsesWith(attribution);
      read.erase();
    }
  }
  for (auto global :
       llvm::make_early_inc_range(module.getOps<memref::GlobalOp>()))
    if (gpumem::isWorkgroupMemorySpace(global.getType().getMemorySpace()) &&
        SymbolTable::symbolKnownUseEmpty(global, module))
      global.erase();
}

/// Ops the vulkan target has no lowering for yet, refused with gpumem's
/// message rather than the conversion's "failed to legalize".
static LogicalResult checkSupportedOps(gpu::GPUModuleOp module) {
  WalkResult walk = module.walk([](Operation *op) {
    StringRef what;
    if (auto global = dyn_cast<memref::GlobalOp>(op);
        global &&
        gpumem::isWorkgroupMemorySpace(global.getType().getMemorySpace()))
      what = "workgroup memory of a device function that is not inlined "
             "into a kernel (a workgroup memref.global)";
    else
      return WalkResult::advance();
    op->emitOpError() << "is not supported by the vulkan target yet: " << what
                      << " has no Vulkan lowering (docs/vulkan.md)";
    return WalkResult::interrupt();
  });
  return failure(walk.wasInterrupted());
}

FailureOr<DictionaryAttr>
gpumem::vulkan::prepareVulkanKernels(gpu::GPUModuleOp module,
                                     bool checkLoopCompletion) {
  if (failed(liftGPUFuncControlFlow(module)))
    return failure();
  if (failed(inlineDeviceFunctions(module)))
    return failure();
  workgroupGlobalsToAttributions(module);
  if (failed(checkSupportedOps(module)))
    return failure();
  spirv::ResourceLimitsAttr limits =
      spirv::lookupTargetEnvOrDefault(module).getResourceLimits();
  if (failed(checkShuffleWidths(module, limits.getSubgroupSize())))
    return failure();
  for (auto kernel : module.getOps<gpu::GPUFuncOp>())
    if (kernel.isKernel() &&
        failed(gpumem::lowerAllReduceThroughWorkgroupMemory(
            kernel, limits.getMaxComputeWorkgroupInvocations())))
      return failure();
  // Vectors of more than 4 elements, which SPIR-V does not have, unrolled
  // to ones it has (upstream's unrolling for SPIR-V); what is left of them
  // becomes scalars with the transfers below.
  bool wideVectors = module
                         ->walk([](Operation *op) {
                           auto wide = [](Type type) {
                             auto vector = dyn_cast<VectorType>(type);
                             return vector && vector.getNumElements() > 4;
                           };
                           return llvm::any_of(op->getResultTypes(), wide)
                                      ? WalkResult::interrupt()
                                      : WalkResult::advance();
                         })
                         .wasInterrupted();
  if (wideVectors && failed(spirv::unrollVectorsInFuncBodies(module)))
    return module.emitError() << "vectors did not settle while unrolling them "
                                 "to SPIR-V's widths";
  {
    RewritePatternSet patterns(module.getContext());
    populateStructuredControlFlowPatterns(patterns);
    // And allocas sized by constants get their static shape.
    memref::AllocaOp::getCanonicalizationPatterns(patterns,
                                                  module.getContext());
    // Float atomics become generic ones (compare-and-swap loops later).
    populateFloatAtomicsToGenericPatterns(patterns);
    // Vector transfers become scalar accesses.
    populateScalarizeVectorTransferPatterns(patterns);
    // Shuffles of any width and mode keep gpu.shuffle's semantics.
    populateShuffleWidthPatterns(patterns, limits.getSubgroupSize());
    // Ceiling and floor divisions, which upstream's Arith conversion lacks
    // (gpu.num_subgroups is a ceildivui), in plain arithmetic.
    arith::populateCeilFloorDivExpandOpsPatterns(patterns);
    if (failed(applyPatternsGreedily(module, std::move(patterns))))
      return module.emitError()
             << "control flow and vector transfers did not settle";
  }
  // 16-bit floats as their bits, before anything reads element types.
  if (failed(narrowFloatsToBits(module)))
    return failure();
  // Workgroup buffers chosen by control flow become indices, before loops
  // get their checks (which copy the loops' types).
  for (auto kernel : module.getOps<gpu::GPUFuncOp>())
    if (kernel.isKernel() && failed(chooseWorkgroupBuffersByIndex(kernel)))
      return failure();
  // Last, so that the loops the patterns made are checked too.
  if (checkLoopCompletion)
    checkLoopsComplete(module);
  SmallVector<NamedAttribute> records;
  // Device functions left after inlining are not traced per kernel: one
  // that uses subgroups, prints or asserts marks every kernel of the module.
  auto uses = [](Operation *root, bool (*matches)(Operation *)) {
    return root
        ->walk([&](Operation *op) {
          return matches(op) ? WalkResult::interrupt() : WalkResult::advance();
        })
        .wasInterrupted();
  };
  bool functionsUseSubgroups = false, functionsUseDiagnostics = false;
  for (Operation &op : module.getOps())
    if (!isa<gpu::GPUFuncOp>(op) || !cast<gpu::GPUFuncOp>(op).isKernel()) {
      functionsUseSubgroups |= uses(&op, isSubgroupOp);
      functionsUseDiagnostics |= uses(&op, isDiagnosticOp);
    }
  for (auto kernel : module.getOps<gpu::GPUFuncOp>()) {
    if (!kernel.isKernel())
      continue;
    uint32_t subgroupSize = 0;
    if (functionsUseSubgroups || uses(kernel, isSubgroupOp))
      subgroupSize = limits.getSubgroupSize();
    bool diagnostics = functionsUseDiagnostics || uses(kernel, isDiagnosticOp);
    FailureOr<KernelRecord> record = KernelPreparer(kernel, subgroupSize).run();
    if (failed(record))
      return failure();
    if (diagnostics)
      record->header.flags |= GPUMEM_VULKAN_DIAGNOSTICS;
    records.emplace_back(kernel.getNameAttr(),
                         record->toAttr(module.getContext()));
  }
  // After the loop checks, which read a result of each loop.
  selectInitsOfZeroTripLoops(module);
  // Last: the greedy rewrites above merge forwarding blocks back.
  splitRepeatedEdges(module);
  return DictionaryAttr::get(module.getContext(), records);
}
