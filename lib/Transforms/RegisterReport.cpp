//===----------------------------------------------------------------------===//
// writeKernelRegisterReport (RegisterReport.h). Merging into the JSON report
// reads the file gpumem-plan-workgroup-memory wrote, adds each entry's fields
// to the kernel object with the same module and kernel (the first chip's at
// its top, every chip's under "chips" when there are several), and writes
// it back;
// the other forms append, so several passes' lines follow each other.
//===----------------------------------------------------------------------===//

#include "gpumem/Transforms/RegisterReport.h"

#include "mlir/IR/Diagnostics.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

/// Adds the entries' fields to the kernels of the JSON report in `path`.
static LogicalResult
mergeIntoJSON(StringRef path, ArrayRef<gpumem::KernelRegisterEntry> entries) {
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    return failure();
  llvm::Expected<llvm::json::Value> value =
      llvm::json::parse((*buffer)->getBuffer());
  if (!value) {
    llvm::consumeError(value.takeError());
    return failure();
  }
  llvm::json::Object *top = value->getAsObject();
  llvm::json::Array *kernels = top ? top->getArray("kernels") : nullptr;
  if (!kernels)
    return failure();
  for (llvm::json::Value &slot : *kernels) {
    llvm::json::Object *kernel = slot.getAsObject();
    if (!kernel)
      continue;
    SmallVector<const gpumem::KernelRegisterEntry *> found;
    for (const gpumem::KernelRegisterEntry &entry : entries)
      if (kernel->getString("module") == StringRef(entry.module) &&
          kernel->getString("kernel") == StringRef(entry.kernel))
        found.push_back(&entry);
    if (found.empty())
      continue;
    // The first chip's figures where one chip's used to be; with several
    // chips, each chip's under "chips" too.
    for (const auto &field : found.front()->fields)
      (*kernel)[field.first] = field.second;
    (*kernel)["chip"] = found.front()->chip;
    if (found.size() < 2)
      continue;
    llvm::json::Object chips;
    for (const gpumem::KernelRegisterEntry *entry : found)
      chips[entry->chip] = llvm::json::Object(entry->fields);
    (*kernel)["chips"] = std::move(chips);
  }
  std::error_code error;
  llvm::raw_fd_ostream os(path, error);
  if (error)
    return failure();
  os << llvm::formatv("{0:2}", llvm::json::Value(std::move(*value))) << "\n";
  return success();
}

LogicalResult
gpumem::writeKernelRegisterReport(Operation *anchor, ReportFormat format,
                                  StringRef reportFile,
                                  ArrayRef<KernelRegisterEntry> entries) {
  if (format == ReportFormat::JSON && reportFile != "-") {
    if (failed(mergeIntoJSON(reportFile, entries)))
      return anchor->emitError() << "cannot add registers to the JSON report '"
                                 << reportFile << "'";
    return success();
  }
  std::error_code error;
  std::unique_ptr<llvm::raw_fd_ostream> file;
  if (reportFile != "-") {
    file = std::make_unique<llvm::raw_fd_ostream>(reportFile, error,
                                                  llvm::sys::fs::OF_Append);
    if (error)
      return anchor->emitError() << "cannot write the register report to '"
                                 << reportFile << "': " << error.message();
  }
  llvm::raw_ostream &os = file ? *file : llvm::errs();
  for (const KernelRegisterEntry &entry : entries) {
    if (format != ReportFormat::JSON) {
      os << entry.text;
      continue;
    }
    llvm::json::Object object = entry.fields;
    object["module"] = entry.module;
    object["kernel"] = entry.kernel;
    object["chip"] = entry.chip;
    os << llvm::json::Value(std::move(object)) << "\n";
  }
  return success();
}
