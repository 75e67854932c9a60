//===----------------------------------------------------------------------===//
// A kernel's workgroup memory plan, as gpumem-plan-workgroup-memory makes it
// and its report (text, JSON, SVG) shows it.
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_TRANSFORMS_WORKGROUPMEMORYPLAN_H
#define GPUMEM_TRANSFORMS_WORKGROUPMEMORYPLAN_H

#include "gpumem/Runtime/Limits.h"
#include "gpumem/Transforms/WorkgroupLiveness.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>

namespace gpumem {

/// One workgroup buffer of a kernel.
struct PlannedBuffer {
  PlannedBuffer(mlir::Location loc, mlir::MemRefType type)
      : loc(loc), type(type) {}

  /// Where the buffer was written (its memref.alloca, or the attribution).
  mlir::Location loc;
  mlir::MemRefType type;
  /// Static buffers: bytes, alignment and planned offset. Dynamic-size
  /// buffers (in dynamic shared memory) have no static bytes.
  bool dynamic = false;
  uint64_t bytes = 0;
  uint64_t alignment = GPUMEM_WORKGROUP_ALIGNMENT;
  uint64_t offset = 0;
  WorkgroupLiveRange range;
  /// Whether the planner placed it (static, identity layout, live
  /// range known); other static buffers keep bytes of their own.
  bool planned = false;
  /// Indices of the buffers whose bytes this one shares.
  llvm::SmallVector<unsigned> sharesWith;
  /// A ring of stages (findWorkgroupStages, decision 145): the number of
  /// stages, 0 when the buffer is none, and the loop that rotates them.
  /// The planner keeps a ring one buffer, live across that loop.
  int64_t stages = 0;
  std::optional<mlir::Location> stageLoop;

  /// The bytes of one stage of a ring.
  uint64_t getStageBytes() const { return stages ? bytes / stages : bytes; }
};

/// The plan of one kernel.
struct KernelPlan {
  explicit KernelPlan(mlir::Location loc) : loc(loc) {}

  std::string moduleName;
  std::string kernelName;
  mlir::Location loc;
  llvm::SmallVector<PlannedBuffer> buffers;
  /// Static bytes: as planned, the most live at any program point (the
  /// lower bound), and one buffer after the other (without reuse).
  uint64_t plannedBytes = 0;
  uint64_t lowerBoundBytes = 0;
  uint64_t separateBytes = 0;
  /// Program points of the kernel, for the picture.
  unsigned numPoints = 0;
  /// Why the kernel kept one buffer after the other, when it did.
  std::string notPlannedReason;
  /// Where barriers were inserted so that reuse is safe.
  llvm::SmallVector<mlir::Location> insertedBarriers;
  /// The user's own gpu.dynamic_shared_memory is used.
  bool usesDynamicSharedMemory = false;
  /// Threads per block when known at compile time, else 0.
  uint64_t threadsPerBlock = 0;
};

/// What the report says about the target.
struct ReportTarget {
  /// cpu, cuda, cuda-emu or vulkan; empty when not known (gpumem-opt).
  std::string name;
  /// NVIDIA chip for limits and occupancy, or empty.
  std::string chip;
  /// Workgroup memory of a block at most, when the target has a limit and
  /// no chip says it.
  uint64_t limitBytes = 0;
};

/// Threads per block of the kernel `kernel` of `gpu.module` `module` when
/// every gpu.launch_func of it in `top` launches the same constant block
/// size, else 0.
uint64_t getLaunchedThreadsPerBlock(mlir::ModuleOp top, llvm::StringRef module,
                                    llvm::StringRef kernel);

/// Writes the plans as text for people.
void printPlansAsText(llvm::ArrayRef<KernelPlan> plans,
                      const ReportTarget &target, llvm::raw_ostream &os);

/// Writes the plans as one JSON object.
void printPlansAsJSON(llvm::ArrayRef<KernelPlan> plans,
                      const ReportTarget &target, llvm::raw_ostream &os);

/// Writes the plans as an SVG picture: a panel per kernel, program points
/// across, byte offsets down, a box per buffer.
void printPlansAsSVG(llvm::ArrayRef<KernelPlan> plans, llvm::raw_ostream &os);

} // namespace gpumem

#endif // GPUMEM_TRANSFORMS_WORKGROUPMEMORYPLAN_H
