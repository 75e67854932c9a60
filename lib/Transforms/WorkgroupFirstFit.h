//===----------------------------------------------------------------------===//
// Placement of gpumem-plan-workgroup-memory (PlanWorkgroupMemory.cpp): the
// offsets of workgroup buffers, given which of them may not share bytes.
// WorkgroupFirstFit.cpp says how.
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_LIB_TRANSFORMS_WORKGROUPFIRSTFIT_H
#define GPUMEM_LIB_TRANSFORMS_WORKGROUPFIRSTFIT_H

#include "gpumem/Transforms/WorkgroupMemory.h"
#include "gpumem/Transforms/WorkgroupMemoryPlan.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>

namespace gpumem {

/// Workgroup buffers are aligned to 16 bytes at least; the planner's arena
/// too, and to the most any of its buffers asks for.
constexpr uint64_t kArenaAlignment = kMinWorkgroupAlignment;

/// `conflicts[i][j]` says whether buffers i and j of a plan may not share
/// bytes.
using BufferConflicts = llvm::ArrayRef<llvm::SmallVector<bool>>;

/// Places the `planned` buffers of `plan` (given in program order) first fit
/// in each of four orders and keeps the offsets of the smallest. Returns the
/// arena's bytes, a multiple of kArenaAlignment.
uint64_t placeFirstFit(KernelPlan &plan, llvm::ArrayRef<unsigned> planned,
                       BufferConflicts conflicts);

/// Places the `planned` buffers of `plan` (in program order) in slots of one
/// type each, for targets without byte views. Returns the arena's bytes, a
/// multiple of kArenaAlignment.
uint64_t placeInSlots(KernelPlan &plan, llvm::ArrayRef<unsigned> planned,
                      BufferConflicts conflicts);

} // namespace gpumem

#endif // GPUMEM_LIB_TRANSFORMS_WORKGROUPFIRSTFIT_H
