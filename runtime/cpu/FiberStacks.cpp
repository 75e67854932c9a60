//===----------------------------------------------------------------------===//
// Fiber stacks: one anonymous mapping per stack, its lowest 60 KiB made
// PROT_NONE as a guard: a frame up to that size that overflows faults
// even without stack probes (StackOverflow.cpp turns the fault into an
// error). Guard pages cost address space only. Not 64 KiB: with the
// default 64 KiB stacks, mappings 128 KiB apart put every fiber's hot top
// of stack into the same cache sets (barrier-heavy kernels ran 30% slower).
// Under valgrind each stack is registered so that switching to it is not
// mistaken for a huge stack frame; under ASan a stack is unpoisoned before
// it is unmapped, since the address range may come back as other memory.
//===----------------------------------------------------------------------===//

#include "FiberStacks.h"
#include "FiberSanitizer.h"
#include "Support.h"

#include <cerrno>
#include <cstring>
#include <sys/mman.h>
#include <unistd.h>

#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#define GPUMEM_STACK_REGISTER(low, high) VALGRIND_STACK_REGISTER(low, high)
#define GPUMEM_STACK_DEREGISTER(id) VALGRIND_STACK_DEREGISTER(id)
#else
#define GPUMEM_STACK_REGISTER(low, high) 0u
#define GPUMEM_STACK_DEREGISTER(id) (void)(id)
#endif

using namespace gpumem::cpu;

FiberStacks::FiberStacks(size_t bytes) {
  size_t page = size_t(::sysconf(_SC_PAGESIZE));
  guardBytes = alignTo(60 << 10, page);
  usableBytes = alignTo(bytes, page);
  mapBytes = guardBytes + usableBytes;
}

FiberStacks::~FiberStacks() {
  for (Stack &stack : stacks) {
    GPUMEM_STACK_DEREGISTER(stack.debugId);
    // The address range may be mapped again as other memory.
    fiber_sanitizer::unpoisonStack({stack.base + guardBytes, usableBytes});
    ::munmap(stack.base, mapBytes);
  }
}

void FiberStacks::reserve(size_t count) {
  stacks.reserve(count);
  while (stacks.size() < count) {
    void *map =
        ::mmap(nullptr, mapBytes, PROT_READ | PROT_WRITE,
               MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
    if (map == MAP_FAILED)
      fatal("cannot map a fiber stack of %zu bytes (%zu stacks so far): %s",
            usableBytes, stacks.size(), std::strerror(errno));
    char *base = static_cast<char *>(map);
    if (::mprotect(base, guardBytes, PROT_NONE) != 0)
      fatal("cannot protect a fiber stack's guard page: %s",
            std::strerror(errno));
    unsigned id = GPUMEM_STACK_REGISTER(base + guardBytes, base + mapBytes);
    stacks.push_back({base, id});
  }
}

bool FiberStacks::inGuard(const void *address) const {
  auto *byte = static_cast<const char *>(address);
  for (const Stack &stack : stacks)
    if (byte >= stack.base && byte < stack.base + guardBytes)
      return true;
  return false;
}
