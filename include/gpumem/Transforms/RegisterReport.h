//===----------------------------------------------------------------------===//
// The register part of --smem-report, which a GPU target's pass adds once
// its backend has made the code (cuda: the cubins' .nv.info, rocm: the code
// objects' amdhsa.kernels metadata): one entry per kernel, written as text,
// JSON lines, or merged into the JSON report gpumem-plan-workgroup-memory
// wrote.
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_TRANSFORMS_REGISTERREPORT_H
#define GPUMEM_TRANSFORMS_REGISTERREPORT_H

#include "gpumem/Transforms/OptionTypes.h"

#include "mlir/IR/Operation.h"

#include "llvm/Support/JSON.h"

#include <string>

namespace gpumem {

/// One kernel's registers as a target's report pass read them.
struct KernelRegisterEntry {
  std::string module;
  std::string kernel;
  /// The chip the figures are for ("sm_90", "gfx90a").
  std::string chip;
  /// What it adds to the kernel's object of the JSON report.
  llvm::json::Object fields;
  /// Its line of the text report, newline included.
  std::string text;
};

/// Writes `entries` as `format` says: with JSON and a `reportFile`, their
/// fields and chip are added to the kernels of the JSON report in that
/// file (a kernel compiled for several chips gets the first chip's fields
/// and, under "chips", every chip's);
/// otherwise one JSON object (fields, module and kernel) or text line per
/// entry is appended to `reportFile`, "-" being stderr. Failure after an
/// error at `anchor`.
mlir::LogicalResult
writeKernelRegisterReport(mlir::Operation *anchor, ReportFormat format,
                          llvm::StringRef reportFile,
                          llvm::ArrayRef<KernelRegisterEntry> entries);

} // namespace gpumem

#endif // GPUMEM_TRANSFORMS_REGISTERREPORT_H
