//===----------------------------------------------------------------------===//
// Placement of workgroup buffers for gpumem-plan-workgroup-memory (step 2 of
// PlanWorkgroupMemory.cpp, which finds the conflicts and makes the plan IR).
//
// First fit (placeFirstFit): each buffer, in a given order, at the lowest
// offset aligned as it asks (16 bytes at least) whose bytes no conflicting
// buffer placed before it holds; the candidates are 0 and the aligned end of
// every conflicting placed buffer, and the end of the one that ends last is
// always free. Four orders are tried (program order, largest first, longest
// live range first, most aligned first) and the offsets of the smallest
// total kept, the first order on a tie.
//
// Slots (placeInSlots), without byte views: buffers, in program order, join
// the first slot of their own type none of whose buffers conflicts with
// them, else open one; slots follow one another, each aligned as its most
// demanding buffer.
//===----------------------------------------------------------------------===//

#include "WorkgroupFirstFit.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/MathExtras.h"

#include <limits>

#define DEBUG_TYPE "gpumem-plan-workgroup-memory"

using namespace mlir;
using namespace gpumem;

/// Places `buffers` (indices `order`) first fit. Returns the total bytes.
static uint64_t placeFirstFitInOrder(MutableArrayRef<PlannedBuffer> buffers,
                                     ArrayRef<unsigned> order,
                                     BufferConflicts conflicts) {
  SmallVector<unsigned> placed;
  uint64_t total = 0;
  for (unsigned i : order) {
    PlannedBuffer &buffer = buffers[i];
    // Candidate offsets: 0 and the end of every conflicting placed buffer.
    SmallVector<uint64_t> candidates{0};
    for (unsigned j : placed)
      if (conflicts[i][j])
        candidates.push_back(llvm::alignTo(buffers[j].offset + buffers[j].bytes,
                                           buffer.alignment));
    llvm::sort(candidates);
    [[maybe_unused]] bool found = false;
    for (uint64_t offset : candidates) {
      bool fits = llvm::none_of(placed, [&](unsigned j) {
        return conflicts[i][j] &&
               offset < buffers[j].offset + buffers[j].bytes &&
               buffers[j].offset < offset + buffer.bytes;
      });
      if (fits) {
        buffer.offset = offset;
        found = true;
        break;
      }
    }
    // The end of the conflicting buffer that ends last is always free.
    assert(found && "first fit found no offset");
    total = std::max(total, buffer.offset + buffer.bytes);
    placed.push_back(i);
  }
  return total;
}

uint64_t gpumem::placeFirstFit(KernelPlan &plan, ArrayRef<unsigned> planned,
                               BufferConflicts conflicts) {
  auto rangeLength = [&](unsigned i) {
    const WorkgroupLiveRange &range = plan.buffers[i].range;
    return range.uses.empty() ? 0 : range.end - range.start;
  };
  SmallVector<SmallVector<unsigned>> orders(4, SmallVector<unsigned>(planned));
  llvm::stable_sort(orders[1], [&](unsigned a, unsigned b) {
    return plan.buffers[a].bytes > plan.buffers[b].bytes;
  });
  llvm::stable_sort(orders[2], [&](unsigned a, unsigned b) {
    return rangeLength(a) > rangeLength(b);
  });
  // Most aligned first: the others fill the gaps their alignment leaves.
  llvm::stable_sort(orders[3], [&](unsigned a, unsigned b) {
    const PlannedBuffer &first = plan.buffers[a], &second = plan.buffers[b];
    return first.alignment != second.alignment
               ? first.alignment > second.alignment
               : first.bytes > second.bytes;
  });
  [[maybe_unused]] static const char *const orderNames[] = {
      "program order", "largest first", "longest range first",
      "most aligned first"};
  uint64_t best = std::numeric_limits<uint64_t>::max();
  [[maybe_unused]] unsigned bestOrder = 0;
  SmallVector<uint64_t> bestOffsets;
  for (auto [index, order] : llvm::enumerate(orders)) {
    uint64_t total = placeFirstFitInOrder(plan.buffers, order, conflicts);
    LLVM_DEBUG({
      llvm::dbgs() << "  first fit, " << orderNames[index] << ": " << total
                   << " bytes, offsets";
      for (unsigned i : order)
        llvm::dbgs() << " #" << i << "@" << plan.buffers[i].offset;
      llvm::dbgs() << "\n";
    });
    if (total < best) {
      best = total;
      bestOrder = index;
      bestOffsets.clear();
      for (PlannedBuffer &buffer : plan.buffers)
        bestOffsets.push_back(buffer.offset);
    }
  }
  assert(!bestOffsets.empty() && "planning places two buffers at least");
  LLVM_DEBUG(llvm::dbgs() << "  chosen: " << orderNames[bestOrder] << ", "
                          << best << " bytes\n");
  for (auto [buffer, offset] : llvm::zip(plan.buffers, bestOffsets))
    buffer.offset = offset;
  return llvm::alignTo(best, kArenaAlignment);
}

uint64_t gpumem::placeInSlots(KernelPlan &plan, ArrayRef<unsigned> planned,
                              BufferConflicts conflicts) {
  SmallVector<SmallVector<unsigned>> slots;
  for (unsigned i : planned) {
    auto *slot = llvm::find_if(slots, [&](ArrayRef<unsigned> members) {
      return plan.buffers[members.front()].type == plan.buffers[i].type &&
             llvm::none_of(members,
                           [&](unsigned j) { return conflicts[i][j]; });
    });
    if (slot != slots.end())
      slot->push_back(i);
    else
      slots.push_back({i});
  }
  uint64_t total = 0;
  for (ArrayRef<unsigned> members : slots) {
    uint64_t alignment = 1;
    for (unsigned i : members)
      alignment = std::max(alignment, plan.buffers[i].alignment);
    uint64_t offset = llvm::alignTo(total, alignment);
    for (unsigned i : members)
      plan.buffers[i].offset = offset;
    total = offset + plan.buffers[members.front()].bytes;
  }
  return llvm::alignTo(total, kArenaAlignment);
}
