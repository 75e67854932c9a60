//===----------------------------------------------------------------------===//
// Error reporting shared by the rocm runtime's parts: every error stops the
// program with one line "gpumem: error: ..." on stderr and exit code 1
// (runtime/common/Fatal.h), as in the other runtimes.
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_RUNTIME_ROCM_SUPPORT_H
#define GPUMEM_RUNTIME_ROCM_SUPPORT_H

#include "Fatal.h"

namespace gpumem::rocm {

using gpumem::runtime::fatal;

} // namespace gpumem::rocm

#endif // GPUMEM_RUNTIME_ROCM_SUPPORT_H
