//===----------------------------------------------------------------------===//
// The fiber stacks of one worker.
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_RUNTIME_CPU_FIBERSTACKS_H
#define GPUMEM_RUNTIME_CPU_FIBERSTACKS_H

#include <cstddef>
#include <vector>

namespace gpumem::cpu {

/// Stacks of a fixed size, each mapped separately above a PROT_NONE guard
/// area (an overflow faults instead of corrupting its neighbour), created
/// on demand and kept for the worker's lifetime. Pages are committed only
/// when touched.
class FiberStacks {
public:
  explicit FiberStacks(size_t bytes);
  FiberStacks(const FiberStacks &) = delete;
  FiberStacks &operator=(const FiberStacks &) = delete;
  ~FiberStacks();

  /// Makes at least `count` stacks available.
  void reserve(size_t count);
  /// The highest address of stack `index` (stacks grow down).
  void *top(size_t index) const { return stacks[index].base + mapBytes; }
  /// Usable bytes of each stack.
  size_t bytes() const { return usableBytes; }
  /// Whether `address` lies in one of the guard areas.
  bool inGuard(const void *address) const;

private:
  struct Stack {
    char *base;       ///< start of the mapping (the guard area)
    unsigned debugId; ///< valgrind's stack id, or 0
  };
  std::vector<Stack> stacks;
  size_t usableBytes; ///< page-rounded stack size
  size_t guardBytes;  ///< 60 KiB
  size_t mapBytes;    ///< guardBytes + usableBytes
};

} // namespace gpumem::cpu

#endif // GPUMEM_RUNTIME_CPU_FIBERSTACKS_H
