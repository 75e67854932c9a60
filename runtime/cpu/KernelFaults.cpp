//===----------------------------------------------------------------------===//
// The fault handlers run on an alternate signal stack (a fiber that
// overflows its stack faults in the guard page below it, with no stack
// left). When the faulting thread is running a block, the runner reports
// it and ends the process with code 1: a fault in one of its fibers' guard
// pages as a stack overflow, any other as "kernel 'K' crashed (SIGSEGV:
// ...) in block (..) thread (..)" with the launch and a hint to run with
// --sanitize. Anything else goes to the handler that was there before (an
// LLVM tool's, say), or to the default action.
//===----------------------------------------------------------------------===//

#include "KernelFaults.h"
#include "BlockRunner.h"

#include <csignal>
#include <iterator>
#include <mutex>
#include <sys/mman.h>

using namespace gpumem::cpu;

namespace {

constexpr int kSignals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL};
struct sigaction previousActions[std::size(kSignals)];

/// The runner whose block runs on this thread, or null.
thread_local const BlockRunner *kernelRunner = nullptr;

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

void onFault(int signal, siginfo_t *info, void *context) {
  if (const BlockRunner *runner = kernelRunner) {
    if (signal == SIGSEGV)
      runner->reportOverflow(info->si_addr);    // returns when not an overflow
    runner->reportFault(signal, info->si_addr); // does not return
  }
  size_t which = 0;
  while (kSignals[which] != signal)
    ++which;
  const struct sigaction &previous = previousActions[which];
  if ((previous.sa_flags & SA_SIGINFO) && previous.sa_sigaction) {
    previous.sa_sigaction(signal, info, context);
    return;
  }
  if (previous.sa_handler != SIG_DFL && previous.sa_handler != SIG_IGN) {
    previous.sa_handler(signal);
    return;
  }
  // Returning re-executes the faulting instruction, which now kills the
  // process.
  ::signal(signal, SIG_DFL);
}

void installHandlers() {
  struct sigaction action = {};
  action.sa_sigaction = onFault;
  action.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigemptyset(&action.sa_mask);
  for (size_t i = 0; i < std::size(kSignals); ++i)
    sigaction(kSignals[i], &action, &previousActions[i]);
}

} // namespace

void gpumem::cpu::enterKernel(const BlockRunner *runner) {
  static std::once_flag installed;
  std::call_once(installed, installHandlers);
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
  kernelRunner = runner;
}

void gpumem::cpu::leaveKernel() { kernelRunner = nullptr; }
