//===----------------------------------------------------------------------===//
// Fiber stack overflows reported as errors instead of crashes.
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_RUNTIME_CPU_STACKOVERFLOW_H
#define GPUMEM_RUNTIME_CPU_STACKOVERFLOW_H

namespace gpumem::cpu {

class BlockRunner;

/// Marks the calling thread as running `runner`'s fibers until
/// leaveFibers(). The first call in a process installs a SIGSEGV handler
/// (chained to the previous one); the first call on a thread gives it an
/// alternate signal stack, unless it has one.
void enterFibers(const BlockRunner *runner);
void leaveFibers();

} // namespace gpumem::cpu

#endif // GPUMEM_RUNTIME_CPU_STACKOVERFLOW_H
