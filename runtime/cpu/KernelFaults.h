//===----------------------------------------------------------------------===//
// Faults in kernels (SIGSEGV, SIGBUS, SIGFPE, SIGILL) reported as errors
// that name the kernel, block and thread, instead of crashes.
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_RUNTIME_CPU_KERNELFAULTS_H
#define GPUMEM_RUNTIME_CPU_KERNELFAULTS_H

namespace gpumem::cpu {

class BlockRunner;

/// Marks the calling thread as running a block of `runner` until
/// leaveKernel(). The first call in a process installs the fault handlers
/// (chained to the previous ones); the first call on a thread gives it an
/// alternate signal stack, unless it has one.
void enterKernel(const BlockRunner *runner);
void leaveKernel();

} // namespace gpumem::cpu

#endif // GPUMEM_RUNTIME_CPU_KERNELFAULTS_H
