//===----------------------------------------------------------------------===//
// A fiber that overflows its stack faults in the guard page below it. The
// SIGSEGV handler runs on an alternate signal stack (the faulting stack is
// full); when the thread is running fibers and the address is in one of its
// runner's guard pages, it prints "gpumem: error: kernel ...: thread ...
// overflowed its fiber stack ..." with write(2) and _exits with code 1.
// Any other fault goes to the handler that was there before, or to the
// default action.
//===----------------------------------------------------------------------===//

#include "StackOverflow.h"
#include "BlockRunner.h"

#include <csignal>
#include <mutex>
#include <sys/mman.h>

using namespace gpumem::cpu;

namespace {

struct sigaction previousAction;

/// The runner whose fibers run on this thread, or null.
thread_local const BlockRunner *fiberRunner = nullptr;

/// This thread's alternate signal stack, when the runtime made it.
struct AlternateStack {
  static constexpr size_t bytes = 64 << 10;
  bool checked = false;
  void *memory = nullptr;
  ~AlternateStack() {
    if (!memory)
      return;
    stack_t disable = {};
    disable.ss_flags = SS_DISABLE;
    sigaltstack(&disable, nullptr);
    munmap(memory, bytes);
  }
};
thread_local AlternateStack alternateStack;

void onSegmentationFault(int signal, siginfo_t *info, void *context) {
  if (const BlockRunner *runner = fiberRunner)
    runner->reportOverflow(info->si_addr); // returns when not an overflow
  if ((previousAction.sa_flags & SA_SIGINFO) && previousAction.sa_sigaction) {
    previousAction.sa_sigaction(signal, info, context);
    return;
  }
  if (previousAction.sa_handler != SIG_DFL &&
      previousAction.sa_handler != SIG_IGN) {
    previousAction.sa_handler(signal);
    return;
  }
  // Returning re-executes the faulting access, which now kills the process.
  ::signal(SIGSEGV, SIG_DFL);
}

void installHandler() {
  struct sigaction action = {};
  action.sa_sigaction = onSegmentationFault;
  action.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigemptyset(&action.sa_mask);
  sigaction(SIGSEGV, &action, &previousAction);
}

} // namespace

void gpumem::cpu::enterFibers(const BlockRunner *runner) {
  static std::once_flag installed;
  std::call_once(installed, installHandler);
  if (!alternateStack.checked) {
    alternateStack.checked = true;
    stack_t current;
    if (sigaltstack(nullptr, &current) == 0 &&
        (current.ss_flags & SS_DISABLE)) {
      void *memory =
          mmap(nullptr, AlternateStack::bytes, PROT_READ | PROT_WRITE,
               MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      if (memory != MAP_FAILED) {
        stack_t stack = {};
        stack.ss_sp = memory;
        stack.ss_size = AlternateStack::bytes;
        if (sigaltstack(&stack, nullptr) == 0)
          alternateStack.memory = memory;
        else
          munmap(memory, AlternateStack::bytes);
      }
    }
  }
  fiberRunner = runner;
}

void gpumem::cpu::leaveFibers() { fiberRunner = nullptr; }
