//===----------------------------------------------------------------------===//
// Telling AddressSanitizer about fiber switches.
//
// ASan knows one stack per thread. A jump onto a fiber stack it was not told
// about makes it misjudge frames there (false stack-buffer-overflow reports,
// a corrupted fake stack). So every switch is bracketed as its fiber
// interface asks: startSwitch just before the jump, naming the stack being
// entered (and saving the leaving context's fake stack, or null when that
// context ends for good); finishSwitch just after arriving, restoring the
// fake stack saved when this context left and learning the stack that was
// left. A stack about to be reused from its top is unpoisoned first, since
// the frames of its last fiber were abandoned, not unwound. Without ASan
// every function here is an empty inline.
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_RUNTIME_CPU_FIBERSANITIZER_H
#define GPUMEM_RUNTIME_CPU_FIBERSANITIZER_H

#include <cstddef>

// GPUMEM_ADDRESS_SANITIZER is defined by the build (GPUMEM_SANITIZE), which
// hides __SANITIZE_ADDRESS__ from LLVM's headers.
#if !defined(GPUMEM_ADDRESS_SANITIZER) && defined(__has_feature)
#if __has_feature(address_sanitizer)
#define GPUMEM_ADDRESS_SANITIZER 1
#endif
#endif

#ifdef GPUMEM_ADDRESS_SANITIZER
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif

namespace gpumem::cpu::fiber_sanitizer {

/// A stack as ASan's fiber interface names one: its lowest address and size.
struct StackExtent {
  const void *bottom = nullptr;
  size_t size = 0;
};

/// Before jumping to the context that runs on `to`. `fakeStackSave` keeps
/// the leaving context's fake stack for its finishSwitch; null when the
/// leaving context never runs again.
inline void startSwitch(void **fakeStackSave, StackExtent to) {
#ifdef GPUMEM_ADDRESS_SANITIZER
  __sanitizer_start_switch_fiber(fakeStackSave, to.bottom, to.size);
#else
  (void)fakeStackSave, (void)to;
#endif
}

/// Right after arriving. `fakeStack` is what this context's startSwitch
/// saved (null on its first arrival); `from`, when given, receives the
/// stack just left.
inline void finishSwitch(void *fakeStack, StackExtent *from) {
#ifdef GPUMEM_ADDRESS_SANITIZER
  const void *bottom = nullptr;
  size_t size = 0;
  __sanitizer_finish_switch_fiber(fakeStack, &bottom, &size);
  if (from)
    *from = {bottom, size};
#else
  (void)fakeStack, (void)from;
#endif
}

/// Clears ASan's poisoning of a stack that is reused or unmapped.
inline void unpoisonStack(StackExtent stack) {
#ifdef GPUMEM_ADDRESS_SANITIZER
  ASAN_UNPOISON_MEMORY_REGION(stack.bottom, stack.size);
#else
  (void)stack;
#endif
}

} // namespace gpumem::cpu::fiber_sanitizer

#endif // GPUMEM_RUNTIME_CPU_FIBERSANITIZER_H
