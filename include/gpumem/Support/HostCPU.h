//===----------------------------------------------------------------------===//
// Checking a host CPU name before LLVM sees it: LLVM only warns about an
// unknown one ("not a recognized processor") and may then abort.
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_SUPPORT_HOSTCPU_H
#define GPUMEM_SUPPORT_HOSTCPU_H

#include "llvm/ADT/StringRef.h"

namespace gpumem {

/// Whether `cpu` names a CPU of this machine's LLVM target ("x86-64",
/// "znver3", ...). An empty name is this machine's CPU and always valid.
bool isKnownHostCPU(llvm::StringRef cpu);

} // namespace gpumem

#endif // GPUMEM_SUPPORT_HOSTCPU_H
