//===----------------------------------------------------------------------===//
// installBackendErrorHandler and addBackendErrorLocations (BackendErrors.h).
// A pass instrumentation keeps a per-thread stack of (location, pass) as
// passes start and end, since a fatal error is raised on the thread that
// runs the pass; the handler prints the innermost one as
// `file:line:col: error: ...` and leaves with _exit(1): LLVM would abort
// (and print a stack dump) if the handler returned, and exit() from a pass
// thread could run destructors under other threads' feet.
//===----------------------------------------------------------------------===//

#include "gpumem/Support/BackendErrors.h"

#include "mlir/IR/Location.h"
#include "mlir/IR/Operation.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassInstrumentation.h"
#include "mlir/Pass/PassManager.h"

#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/raw_ostream.h"

#include <mutex>
#include <string>
#include <unistd.h>
#include <vector>

using namespace mlir;

namespace {

struct RunningPass {
  const void *location;
  llvm::StringRef pass;
};

thread_local std::vector<RunningPass> running;
std::string inputFile = "<stdin>";

/// "file:line:col" of `location`, or empty when it has none.
std::string format(Location location) {
  if (auto file = location->findInstanceOf<FileLineColLoc>())
    return (file.getFilename().strref() + ":" + llvm::Twine(file.getLine()) +
            ":" + llvm::Twine(file.getColumn()))
        .str();
  return "";
}

void handleFatalError(void *, const char *reason, bool) {
  std::string where, pass;
  if (!running.empty()) {
    where = format(Location::getFromOpaquePointer(running.back().location));
    pass = running.back().pass.str();
  }
  if (where.empty())
    where = inputFile + ":1:1";
  // Its first line, and the function a selection failure names; the DAG
  // dump between them means nothing to a user.
  llvm::StringRef text(reason);
  llvm::StringRef first = text.split('\n').first.trim();
  size_t function = text.find("In function: ");
  llvm::errs() << where << ": error: LLVM's code generator stopped";
  if (!pass.empty())
    llvm::errs() << " in " << pass;
  llvm::errs() << ": " << first;
  if (function != llvm::StringRef::npos)
    llvm::errs() << " (in function @"
                 << text.substr(function + 13).split('\n').first.trim() << ")";
  llvm::errs() << "; gpumem's checks let this device code through, a gpumem "
                  "bug worth reporting with the input\n";
  llvm::errs().flush();
  llvm::sys::RunInterruptHandlers();
  _exit(1);
}

struct BackendErrorLocations : PassInstrumentation {
  void runBeforePass(Pass *pass, Operation *op) override {
    // A pass over the whole module (gpu-module-to-binary) works on its
    // device code: the first gpu.module's location says more than the
    // module's, which is often the file's 0:0.
    Location location = op->getLoc();
    if (op->getNumRegions() == 1 && op->getRegion(0).hasOneBlock())
      for (Operation &child : op->getRegion(0).front())
        if (child.getName().getStringRef() == "gpu.module") {
          location = child.getLoc();
          break;
        }
    running.push_back({location.getAsOpaquePointer(), pass->getArgument()});
  }
  void runAfterPass(Pass *, Operation *) override { pop(); }
  void runAfterPassFailed(Pass *, Operation *) override { pop(); }

private:
  static void pop() {
    if (!running.empty())
      running.pop_back();
  }
};

} // namespace

void gpumem::installBackendErrorHandler(llvm::StringRef input) {
  static std::once_flag once;
  if (!input.empty() && input != "-")
    inputFile = input.str();
  std::call_once(once, [] {
    llvm::install_fatal_error_handler(handleFatalError, nullptr);
  });
}

void gpumem::addBackendErrorLocations(PassManager &pm) {
  pm.addInstrumentation(std::make_unique<BackendErrorLocations>());
}
