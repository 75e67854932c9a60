//===----------------------------------------------------------------------===//
// gpumem-plan-workgroup-memory: workgroup buffers whose live ranges are
// disjoint share bytes, with the barriers that reuse needs.
//
// Algorithm, per kernel gpu.func of every gpu.module:
//  1. Live ranges of the static attributions over the kernel's program
//     points (WorkgroupLiveness.h); two buffers conflict when their ranges
//     overlap or no barrier can separate them.
//  2. Placement (WorkgroupFirstFit.cpp): first fit, each buffer at the
//     lowest aligned offset no conflicting buffer holds, in four orders,
//     the smallest total kept; without byte views, slots of one type. The
//     lower bound is the most bytes live at any program point.
//  3. When the plan saves bytes: a gpu.barrier where reuse needs one and
//     none exists, then one i8 attribution for the planned buffers, first
//     among the attributions and aligned as its most demanding buffer, each
//     buffer a memref.view of it at its offset (cast to its memory-space
//     spelling); without byte views, the buffers of a slot become its first
//     one, aligned as the most demanding of them.
//  4. With a `limit`, or an AMD chip of the rocm target (its LDS per
//     workgroup; an NVIDIA chip's limit is
//     gpumem-move-large-shared-to-dynamic's): a kernel whose planned static
//     bytes, plus a launch's dynamic bytes when they are a constant, exceed
//     it is an error at that launch, with a note at its largest buffer.
//  5. Optionally a report of every kernel (WorkgroupMemoryReport.cpp); a
//     ring of stages (findWorkgroupStages, decision 145) is one buffer to
//     the plan and is shown with its stages.
//===----------------------------------------------------------------------===//

#include "WorkgroupFirstFit.h"

#include "gpumem/Support/AMDGPUTarget.h"
#include "gpumem/Support/NVIDIATarget.h"
#include "gpumem/Transforms/Passes.h"
#include "gpumem/Transforms/WorkgroupMemory.h"
#include "gpumem/Transforms/WorkgroupMemoryPlan.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "mlir/Support/FileUtilities.h"

#include "llvm/Support/Debug.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/ToolOutputFile.h"

#define DEBUG_TYPE "gpumem-plan-workgroup-memory"

namespace gpumem {
#define GEN_PASS_DEF_GPUMEMPLANWORKGROUPMEMORYPASS
#include "gpumem/Transforms/Passes.h.inc"
} // namespace gpumem

using namespace mlir;
using namespace gpumem;

namespace {

/// Threads per block of `kernel` when known at compile time: its
/// known_block_size, or the constant block size all its launches agree on.
uint64_t getThreadsPerBlock(gpu::GPUFuncOp kernel, ModuleOp module) {
  if (std::optional<ArrayRef<int32_t>> known = kernel.getKnownBlockSize()) {
    uint64_t threads = 1;
    for (int32_t size : *known)
      threads *= uint64_t(size);
    return threads;
  }
  auto gpuModule = kernel->getParentOfType<gpu::GPUModuleOp>();
  return getLaunchedThreadsPerBlock(module, gpuModule.getName(),
                                    kernel.getName());
}

struct PlanWorkgroupMemoryPass
    : gpumem::impl::GPUMemPlanWorkgroupMemoryPassBase<PlanWorkgroupMemoryPass> {
  using Base::Base;
  void runOnOperation() override;

private:
  KernelPlan planKernel(gpu::GPUFuncOp kernel);
  /// Finds which planned buffers (given in program order) conflict and
  /// places them (WorkgroupFirstFit.h); returns the arena's bytes.
  uint64_t placeBuffers(KernelPlan &plan, const WorkgroupLiveness &liveness,
                        ArrayRef<unsigned> planned);
  /// Inserts the barriers that buffers sharing bytes need.
  void addBarriers(KernelPlan &plan, const WorkgroupLiveness &liveness,
                   ArrayRef<unsigned> planned);
  void materialize(gpu::GPUFuncOp kernel, KernelPlan &plan,
                   uint64_t arenaBytes);
  LogicalResult writeReports(ArrayRef<KernelPlan> plans);
  /// Step 4 for `kernel`: false after an error.
  bool checkLimit(gpu::GPUFuncOp kernel, const KernelPlan &plan);

  /// The limit step 4 checks (0: none) and how its message names it, set
  /// from the options when the pass runs.
  uint64_t checkedLimit = 0;
  std::string allowed;
};

} // namespace

uint64_t gpumem::getLaunchedThreadsPerBlock(ModuleOp top, StringRef module,
                                            StringRef kernel) {
  std::optional<uint64_t> agreed;
  bool unknown = false;
  top.walk([&](gpu::LaunchFuncOp launch) {
    if (launch.getKernelModuleName().getValue() != module ||
        launch.getKernelName().getValue() != kernel)
      return;
    uint64_t threads = 1;
    for (Value size : {launch.getBlockSizeX(), launch.getBlockSizeY(),
                       launch.getBlockSizeZ()}) {
      std::optional<int64_t> constant = getConstantIntValue(size);
      if (!constant || *constant <= 0) {
        unknown = true;
        return;
      }
      threads *= uint64_t(*constant);
    }
    if (agreed && *agreed != threads)
      unknown = true;
    agreed = threads;
  });
  return unknown || !agreed ? 0 : *agreed;
}

uint64_t
PlanWorkgroupMemoryPass::placeBuffers(KernelPlan &plan,
                                      const WorkgroupLiveness &liveness,
                                      ArrayRef<unsigned> planned) {
  unsigned n = plan.buffers.size();
  SmallVector<SmallVector<bool>> conflicts(n, SmallVector<bool>(n, false));
  for (auto [position, i] : llvm::enumerate(planned)) {
    for (unsigned j : planned.drop_front(position + 1)) {
      const WorkgroupLiveRange &first = plan.buffers[i].range;
      const WorkgroupLiveRange &second = plan.buffers[j].range;
      bool conflict = failed(liveness.getSeparation(first, second));
      conflicts[i][j] = conflicts[j][i] = conflict;
    }
  }
  if (!byteViews) {
    uint64_t total = placeInSlots(plan, planned, conflicts);
    LLVM_DEBUG(llvm::dbgs() << "  slots of one type (no byte views): " << total
                            << " bytes\n");
    return total;
  }
  return placeFirstFit(plan, planned, conflicts);
}

void PlanWorkgroupMemoryPass::addBarriers(KernelPlan &plan,
                                          const WorkgroupLiveness &liveness,
                                          ArrayRef<unsigned> planned) {
  for (auto [position, i] : llvm::enumerate(planned)) {
    for (unsigned j : planned.drop_front(position + 1)) {
      PlannedBuffer &first = plan.buffers[i], &second = plan.buffers[j];
      if (!llvm::is_contained(first.sharesWith, j))
        continue;
      // Barriers inserted for earlier pairs count: they are in the IR. A
      // buffer never used needs none.
      FailureOr<Operation *> where =
          liveness.getSeparation(first.range, second.range);
      // Placement let only separable buffers share bytes.
      assert(succeeded(where) && "sharing buffers must be separable");
      if (failed(where) || !*where || !insertBarriers)
        continue;
      LLVM_DEBUG(llvm::dbgs() << "  barrier for #" << i << " and #" << j
                              << " before " << (*where)->getLoc() << "\n");
      OpBuilder builder(*where);
      gpu::BarrierOp::create(builder, (*where)->getLoc());
      plan.insertedBarriers.push_back((*where)->getLoc());
      ++numBarriers;
    }
  }
}

/// Without byte views: the buffers at one offset (one slot, one type)
/// become the first of them, aligned as the most demanding one.
static void mergeSlots(gpu::GPUFuncOp kernel, KernelPlan &plan) {
  SmallVector<BlockArgument> attributions(kernel.getWorkgroupAttributions());
  SmallVector<unsigned> erased;
  for (auto [i, buffer] : llvm::enumerate(plan.buffers)) {
    if (!buffer.planned)
      continue;
    for (unsigned j = 0; j < i; ++j) {
      if (!plan.buffers[j].planned || plan.buffers[j].offset != buffer.offset ||
          plan.buffers[j].type != buffer.type)
        continue;
      attributions[i].replaceAllUsesWith(attributions[j]);
      erased.push_back(i);
      if (buffer.alignment > plan.buffers[j].alignment)
        setRequestedAlignment(kernel, j, buffer.alignment);
      break;
    }
  }
  eraseWorkgroupAttributions(kernel, erased);
}

void PlanWorkgroupMemoryPass::materialize(gpu::GPUFuncOp kernel,
                                          KernelPlan &plan,
                                          uint64_t arenaBytes) {
  if (!byteViews)
    return mergeSlots(kernel, plan);
  MLIRContext *context = kernel.getContext();
  auto workgroup =
      gpu::AddressSpaceAttr::get(context, gpu::AddressSpace::Workgroup);
  SmallVector<BlockArgument> attributions(kernel.getWorkgroupAttributions());
  // The arena is the first attribution, aligned as its most demanding
  // buffer.
  uint64_t arenaAlignment = kArenaAlignment;
  for (PlannedBuffer &buffer : plan.buffers)
    if (buffer.planned)
      arenaAlignment = std::max(arenaAlignment, buffer.alignment);
  BlockArgument arena = prependWorkgroupAttribution(
      kernel,
      MemRefType::get({int64_t(arenaBytes)}, IntegerType::get(context, 8),
                      MemRefLayoutAttrInterface(), workgroup),
      kernel.getLoc(), arenaAlignment > kArenaAlignment ? arenaAlignment : 0);
  OpBuilder builder = OpBuilder::atBlockBegin(&kernel.getBody().front());
  SmallVector<unsigned> erased;
  for (unsigned index = 0; index < attributions.size(); ++index) {
    BlockArgument argument = attributions[index];
    PlannedBuffer &buffer = plan.buffers[index];
    if (!buffer.planned)
      continue;
    Location loc = argument.getLoc();
    Value offset =
        arith::ConstantIndexOp::create(builder, loc, int64_t(buffer.offset));
    auto viewType =
        MemRefType::get(buffer.type.getShape(), buffer.type.getElementType(),
                        MemRefLayoutAttrInterface(), workgroup);
    auto viewOp = memref::ViewOp::create(builder, loc, viewType, arena, offset,
                                         ValueRange());
    // initcheck tells a buffer's writes from those of the buffers whose
    // bytes it shares by this number (decision 152).
    if (!buffer.sharesWith.empty())
      viewOp->setAttr(kSharedBytesBufferAttrName,
                      builder.getI32IntegerAttr(int32_t(index + 1)));
    Value view = viewOp;
    if (viewType != buffer.type)
      view = memref::MemorySpaceCastOp::create(builder, loc, buffer.type, view);
    argument.replaceAllUsesWith(view);
    erased.push_back(argument.getArgNumber() -
                     kernel.getFirstWorkgroupAttributionIndex());
  }
  eraseWorkgroupAttributions(kernel, erased);
}

/// True when an attribution of `kernel` carries an attribute the planner
/// would have to keep for a buffer that may become a view: any but the
/// alignment it asks for.
static bool hasAttributesBesidesAlignment(gpu::GPUFuncOp kernel) {
  for (unsigned i = 0, e = kernel.getNumWorkgroupAttributions(); i < e; ++i)
    if (DictionaryAttr attrs = kernel.getworkgroupAttributionAttrs(i))
      for (NamedAttribute attr : attrs)
        if (attr.getName() != LLVM::LLVMDialect::getAlignAttrName())
          return true;
  return false;
}

KernelPlan PlanWorkgroupMemoryPass::planKernel(gpu::GPUFuncOp kernel) {
  // When no gpumem-hoist-workgroup-allocs ran since outlining.
  applyRecordedBufferData(kernel);
  KernelPlan plan(kernel.getLoc());
  plan.kernelName = kernel.getName().str();
  if (auto module = kernel->getParentOfType<gpu::GPUModuleOp>())
    plan.moduleName = module.getName().str();
  plan.threadsPerBlock = getThreadsPerBlock(kernel, getOperation());
  DataLayout layout = DataLayout::closest(kernel);
  WorkgroupLiveness liveness(kernel);
  plan.numPoints = liveness.getNumPoints();

  for (auto [index, argument] :
       llvm::enumerate(kernel.getWorkgroupAttributions())) {
    auto type = cast<MemRefType>(argument.getType());
    PlannedBuffer buffer(argument.getLoc(), type);
    if (type.hasStaticShape()) {
      buffer.bytes = getWorkgroupBufferBytes(type, layout);
      buffer.alignment = getAttributionAlignment(kernel, index, type, layout);
    }
    buffer.range = liveness.getLiveRange(argument);
    if (std::optional<WorkgroupStages> stages = findWorkgroupStages(argument)) {
      buffer.stages = stages->count;
      buffer.stageLoop = stages->loop->getLoc();
    }
    buffer.planned = type.hasStaticShape() && type.getLayout().isIdentity() &&
                     !buffer.range.whole;
    plan.buffers.push_back(std::move(buffer));
  }
  // Buffers in dynamic shared memory: views of gpu.dynamic_shared_memory.
  kernel.walk([&](gpu::DynamicSharedMemoryOp dynamic) {
    plan.usesDynamicSharedMemory = true;
    for (Operation *user : dynamic->getUsers())
      if (auto view = dyn_cast<memref::ViewOp>(user)) {
        PlannedBuffer buffer(view.getLoc(), view.getType());
        buffer.dynamic = true;
        buffer.alignment = getDynamicViewAlignment(view);
        buffer.range = liveness.getLiveRange(view.getResult());
        plan.buffers.push_back(std::move(buffer));
      }
  });

  // Without reuse: one static buffer after the other.
  for (PlannedBuffer &buffer : plan.buffers) {
    if (buffer.dynamic)
      continue;
    buffer.offset = llvm::alignTo(plan.separateBytes, buffer.alignment);
    plan.separateBytes = buffer.offset + buffer.bytes;
  }
  plan.separateBytes = llvm::alignTo(plan.separateBytes, kArenaAlignment);

  // The lower bound: buffers kept apart, plus the most planned bytes live
  // at one program point (a maximum is reached where a range starts) or the
  // largest buffer, whichever is more.
  uint64_t apart = 0, mostLive = 0;
  for (const PlannedBuffer &buffer : plan.buffers) {
    if (buffer.dynamic)
      continue;
    uint64_t bytes = llvm::alignTo(buffer.bytes, kArenaAlignment);
    if (!buffer.planned) {
      apart += bytes;
      continue;
    }
    // Every buffer has its bytes somewhere, used or not.
    mostLive = std::max(mostLive, bytes);
    if (buffer.range.uses.empty())
      continue;
    uint64_t live = 0;
    for (const PlannedBuffer &other : plan.buffers)
      if (other.planned && !other.range.uses.empty() &&
          other.range.start <= buffer.range.start &&
          buffer.range.start <= other.range.end)
        live += llvm::alignTo(other.bytes, kArenaAlignment);
    mostLive = std::max(mostLive, live);
  }
  plan.lowerBoundBytes = apart + mostLive;
  plan.plannedBytes = plan.separateBytes;

  // Program order: by the start of the live range.
  SmallVector<unsigned> planned;
  for (auto [i, buffer] : llvm::enumerate(plan.buffers))
    if (buffer.planned)
      planned.push_back(i);
  llvm::stable_sort(planned, [&](unsigned a, unsigned b) {
    return plan.buffers[a].range.start < plan.buffers[b].range.start;
  });
  if (!reuse)
    plan.notPlannedReason = "reuse is off";
  else if (!liveness.isAnalyzable())
    plan.notPlannedReason = "the kernel has unstructured control flow";
  else if (hasAttributesBesidesAlignment(kernel))
    plan.notPlannedReason = "its workgroup attributions carry attributes";
  LLVM_DEBUG(llvm::dbgs() << "kernel '" << plan.kernelName
                          << "': " << plan.buffers.size() << " buffer(s), "
                          << planned.size() << " to plan, "
                          << plan.separateBytes << " bytes apart, lower bound "
                          << plan.lowerBoundBytes << "\n");
  if (!plan.notPlannedReason.empty() || planned.size() < 2) {
    LLVM_DEBUG(llvm::dbgs() << "  not planned: "
                            << (plan.notPlannedReason.empty()
                                    ? StringRef("fewer than two buffers")
                                    : StringRef(plan.notPlannedReason))
                            << "\n");
    for (PlannedBuffer &buffer : plan.buffers)
      buffer.planned = false;
    return plan;
  }

  SmallVector<uint64_t> separateOffsets;
  for (PlannedBuffer &buffer : plan.buffers)
    separateOffsets.push_back(buffer.offset);
  uint64_t arenaBytes = placeBuffers(plan, liveness, planned);
  // The arena comes first (it is aligned as its most demanding buffer),
  // then the buffers kept apart, each at its alignment.
  SmallVector<uint64_t> apartOffsets;
  uint64_t end = arenaBytes;
  for (PlannedBuffer &buffer : plan.buffers) {
    apartOffsets.push_back(buffer.offset);
    if (buffer.planned || buffer.dynamic)
      continue;
    apartOffsets.back() = llvm::alignTo(end, buffer.alignment);
    end = apartOffsets.back() + buffer.bytes;
  }
  uint64_t plannedBytes = llvm::alignTo(end, kArenaAlignment);
  if (plannedBytes >= plan.separateBytes) {
    LLVM_DEBUG(llvm::dbgs()
               << "  kept apart: the plan takes " << plannedBytes
               << " bytes, no fewer than " << plan.separateBytes << "\n");
    for (auto [buffer, offset] : llvm::zip(plan.buffers, separateOffsets)) {
      buffer.offset = offset;
      buffer.planned = false;
    }
    plan.notPlannedReason = "no two buffers can share bytes";
    return plan;
  }
  for (auto [i, buffer] : llvm::enumerate(plan.buffers))
    for (auto [j, other] : llvm::enumerate(plan.buffers))
      if (i != j && buffer.planned && other.planned &&
          buffer.offset < other.offset + other.bytes &&
          other.offset < buffer.offset + buffer.bytes)
        buffer.sharesWith.push_back(j);
  for (auto [buffer, offset] : llvm::zip(plan.buffers, apartOffsets))
    buffer.offset = offset;
  LLVM_DEBUG(llvm::dbgs() << "  planned: " << plannedBytes << " bytes ("
                          << arenaBytes << " shared), saves "
                          << plan.separateBytes - plannedBytes << "\n");
  addBarriers(plan, liveness, planned);
  materialize(kernel, plan, arenaBytes);
  plan.plannedBytes = plannedBytes;
  ++numPlanned;
  numSavedBytes += plan.separateBytes - plannedBytes;
  return plan;
}

LogicalResult
PlanWorkgroupMemoryPass::writeReports(ArrayRef<KernelPlan> plans) {
  ReportTarget target{targetName, chip, checkedLimit ? checkedLimit : limit};
  auto write = [&](StringRef path,
                   llvm::function_ref<void(llvm::raw_ostream &)> print) {
    if (path == "-") {
      print(llvm::errs());
      return success();
    }
    std::string error;
    std::unique_ptr<llvm::ToolOutputFile> file = openOutputFile(path, &error);
    if (!file) {
      emitError(getOperation().getLoc())
          << "cannot write the workgroup memory report: " << error;
      return failure();
    }
    print(file->os());
    file->keep();
    return success();
  };
  if (report == gpumem::ReportFormat::Text &&
      failed(write(reportFile, [&](llvm::raw_ostream &os) {
        printPlansAsText(plans, target, os);
      })))
    return failure();
  if (report == gpumem::ReportFormat::JSON &&
      failed(write(reportFile, [&](llvm::raw_ostream &os) {
        printPlansAsJSON(plans, target, os);
      })))
    return failure();
  if (!svgFile.empty() && failed(write(svgFile, [&](llvm::raw_ostream &os) {
        printPlansAsSVG(plans, os);
      })))
    return failure();
  return success();
}

bool PlanWorkgroupMemoryPass::checkLimit(gpu::GPUFuncOp kernel,
                                         const KernelPlan &plan) {
  if (!checkedLimit)
    return true;
  auto noteLargest = [&](InFlightDiagnostic &diag) {
    const PlannedBuffer *largest = nullptr;
    for (const PlannedBuffer &buffer : plan.buffers)
      if (!buffer.dynamic && (!largest || buffer.bytes > largest->bytes))
        largest = &buffer;
    if (largest)
      diag.attachNote(largest->loc)
          << "the largest static workgroup buffer, " << largest->bytes
          << " bytes of " << largest->type;
  };
  uint64_t staticBytes = plan.plannedBytes;
  bool ok = true, launched = false;
  getOperation().walk([&](gpu::LaunchFuncOp launch) {
    if (launch.getKernelModuleName().getValue() != plan.moduleName ||
        launch.getKernelName().getValue() != plan.kernelName)
      return;
    launched = true;
    // The launch's dynamic bytes when they are a constant; static bytes
    // over the limit are an error whatever the launch adds.
    uint64_t dynamicBytes = 0;
    if (Value size = launch.getDynamicSharedMemorySize()) {
      std::optional<int64_t> constant = getConstantIntValue(size);
      if (constant && *constant > 0)
        dynamicBytes = uint64_t(*constant);
    }
    if (staticBytes + dynamicBytes <= checkedLimit)
      return;
    InFlightDiagnostic diag = launch.emitOpError()
                              << "launches kernel '" << plan.kernelName
                              << "' with ";
    if (dynamicBytes)
      diag << staticBytes + dynamicBytes << " bytes of workgroup memory ("
           << staticBytes << " static + " << dynamicBytes << " dynamic)";
    else
      diag << staticBytes << " bytes of static workgroup memory";
    diag << "; " << allowed;
    noteLargest(diag);
    ok = false;
  });
  if (!launched && staticBytes > checkedLimit) {
    InFlightDiagnostic diag = kernel.emitOpError()
                              << "uses " << staticBytes
                              << " bytes of static workgroup memory; "
                              << allowed;
    noteLargest(diag);
    ok = false;
  }
  return ok;
}

void PlanWorkgroupMemoryPass::runOnOperation() {
  ModuleOp module = getOperation();
  checkedLimit = 0;
  if ((targetName == "rocm" || targetName == "rocm-emu") && !chip.empty()) {
    // AMD GPUs have no static limit below the LDS a workgroup may use;
    // with several chips, the chip with the least is the limit.
    AMDGPUChipList chips = parseAMDGPUChipList(chip);
    if (chips.chips.empty()) {
      emitError(module.getLoc()) << "unknown AMD chip '" << chips.unknown
                                 << "'; gpumem knows " << listAMDGPUChips();
      return signalPassFailure();
    }
    if (targetName == "rocm-emu" && chips.chips.size() > 1) {
      emitError(module.getLoc())
          << "chip=" << chip << " names several chips; the " << targetName
          << " target plans for one (the rocm pipeline takes several)";
      return signalPassFailure();
    }
    const AMDGPUChip *amd = *llvm::min_element(
        chips.chips, [](const AMDGPUChip *a, const AMDGPUChip *b) {
          return a->ldsBytesPerWorkgroup < b->ldsBytesPerWorkgroup;
        });
    checkedLimit = amd->ldsBytesPerWorkgroup;
    allowed = amd->name.str() + " allows at most " +
              std::to_string(checkedLimit) + " bytes of LDS per workgroup";
    if (chips.chips.size() > 1)
      allowed += " (of the chips " + chips.names() + ")";
  } else if (!chip.empty()) {
    if (StringRef(chip).contains(',')) {
      emitError(module.getLoc())
          << "chip=" << chip << " names several chips; the " << targetName
          << " target plans for one (the cuda pipeline takes several)";
      return signalPassFailure();
    }
    if (!lookupNVIDIAChip(chip)) {
      emitError(module.getLoc()) << "unknown NVIDIA chip '" << chip
                                 << "'; gpumem knows " << listNVIDIAChips();
      return signalPassFailure();
    }
  } else if (limit) {
    checkedLimit = limit;
    allowed = (targetName.empty() ? std::string("the limit")
                                  : "the " + targetName + " target") +
              " allows at most " + std::to_string(limit) + " per block";
    if (targetName == "vulkan")
      allowed += " (the pipeline's max-shared-memory)";
  }
  SmallVector<gpu::GPUFuncOp> kernels;
  module.walk([&](gpu::GPUFuncOp func) {
    if (func.isKernel())
      kernels.push_back(func);
  });
  std::vector<KernelPlan> plans;
  bool withinLimits = true;
  for (gpu::GPUFuncOp kernel : kernels) {
    plans.push_back(planKernel(kernel));
    withinLimits &= checkLimit(kernel, plans.back());
  }
  if (failed(writeReports(plans)) || !withinLimits)
    signalPassFailure();
}
