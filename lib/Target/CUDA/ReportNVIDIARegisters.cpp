//===----------------------------------------------------------------------===//
// gpumem-report-nvidia-registers: registers and occupancy of each kernel,
// read from the cubins ptxas made.
//
// Algorithm, per cubin object (`#gpu.object<#nvvm.target<chip = ...>, bin
// = ...>`) of every gpu.binary:
//  1. Read the ELF: the global `.nv.info` section is a list of entries
//     {u8 format, u8 attribute, u16 size-or-value, payload}; an
//     EIATTR_REGCOUNT entry (attribute 0x2f, format EIFMT_SVAL) holds a
//     symbol index and the kernel's registers per thread. The size of
//     `.nv.shared.<kernel>` is its static shared memory; ptxas counts the
//     runtime's reserved bytes in it when `.nv.shared.reserved.0` exists.
//  2. Block size from the kernel's launches (constant and agreed), then
//     occupancy with registers (NVIDIATarget.h).
//===----------------------------------------------------------------------===//

#include "gpumem/Support/NVIDIATarget.h"
#include "gpumem/Target/CUDA/Passes.h"
#include "gpumem/Transforms/RegisterReport.h"
#include "gpumem/Transforms/WorkgroupMemoryPlan.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

namespace gpumem {
#define GEN_PASS_DEF_GPUMEMREPORTNVIDIAREGISTERSPASS
#include "gpumem/Target/CUDA/Passes.h.inc"
} // namespace gpumem

using namespace mlir;

namespace {

/// What ptxas says one kernel uses.
struct KernelResources {
  std::string name;
  unsigned registers = 0;
  uint64_t sharedBytes = 0;
};

constexpr uint8_t kFormatSVal = 0x04;
constexpr uint8_t kAttributeRegCount = 0x2f;

/// The kernels of a cubin with their registers and static shared memory;
/// an empty list when `bytes` is not an ELF file ptxas wrote.
SmallVector<KernelResources> readCubin(StringRef bytes,
                                       const gpumem::NVIDIAChip &chip) {
  SmallVector<KernelResources> kernels;
  auto object = llvm::object::ObjectFile::createELFObjectFile(
      llvm::MemoryBufferRef(bytes, "cubin"));
  if (!object) {
    llvm::consumeError(object.takeError());
    return kernels;
  }
  auto *elf = dyn_cast<llvm::object::ELF64LEObjectFile>(object->get());
  if (!elf)
    return kernels;
  const auto &file = elf->getELFFile();
  auto sections = file.sections();
  if (!sections) {
    llvm::consumeError(sections.takeError());
    return kernels;
  }
  const llvm::object::ELF64LE::Shdr *symbolTable = nullptr;
  for (const auto &section : *sections)
    if (section.sh_type == llvm::ELF::SHT_SYMTAB)
      symbolTable = &section;
  if (!symbolTable)
    return kernels;
  auto symbols = file.symbols(symbolTable);
  auto names = file.getStringTableForSymtab(*symbolTable);
  if (!symbols || !names) {
    llvm::consumeError(symbols.takeError());
    llvm::consumeError(names.takeError());
    return kernels;
  }
  auto symbolName = [&](uint32_t index) -> std::string {
    if (index >= symbols->size())
      return "";
    auto name = (*symbols)[index].getName(*names);
    if (!name) {
      llvm::consumeError(name.takeError());
      return "";
    }
    return name->str();
  };

  llvm::StringMap<uint64_t> shared;
  bool reservedCounted = false;
  ArrayRef<uint8_t> info;
  for (const auto &section : *sections) {
    auto name = file.getSectionName(section);
    if (!name) {
      llvm::consumeError(name.takeError());
      continue;
    }
    if (*name == ".nv.shared.reserved.0")
      reservedCounted = true;
    else if (name->consume_front(".nv.shared."))
      shared[*name] = section.sh_size;
    else if (*name == ".nv.info") {
      auto contents = file.getSectionContents(section);
      if (!contents) {
        llvm::consumeError(contents.takeError());
        continue;
      }
      info = *contents;
    }
  }
  for (size_t at = 0; at + 4 <= info.size();) {
    uint8_t format = info[at], attribute = info[at + 1];
    uint16_t size = info[at + 2] | uint16_t(info[at + 3]) << 8;
    if (format != kFormatSVal) {
      at += 4;
      continue;
    }
    if (attribute == kAttributeRegCount && size == 8 &&
        at + 12 <= info.size()) {
      auto word = [&](size_t offset) {
        return uint32_t(info[offset]) | uint32_t(info[offset + 1]) << 8 |
               uint32_t(info[offset + 2]) << 16 |
               uint32_t(info[offset + 3]) << 24;
      };
      KernelResources kernel;
      kernel.name = symbolName(word(at + 4));
      kernel.registers = word(at + 8);
      uint64_t bytes = shared.lookup(kernel.name);
      if (reservedCounted && bytes >= chip.reservedSharedBytesPerBlock)
        bytes -= chip.reservedSharedBytesPerBlock;
      kernel.sharedBytes = bytes;
      if (!kernel.name.empty())
        kernels.push_back(kernel);
    }
    at += 4 + size;
  }
  llvm::sort(kernels, [](const KernelResources &a, const KernelResources &b) {
    return a.name < b.name;
  });
  return kernels;
}

struct ReportNVIDIARegistersPass
    : gpumem::impl::GPUMemReportNVIDIARegistersPassBase<
          ReportNVIDIARegistersPass> {
  using Base::Base;
  void runOnOperation() override;
};

/// One kernel's line of the report.
struct KernelRecord {
  std::string module;
  const gpumem::NVIDIAChip *chip;
  KernelResources resources;
  uint64_t threads;
  gpumem::NVIDIAOccupancy occupancy;
};

llvm::json::Object toJSON(const KernelRecord &record) {
  llvm::json::Object object{
      {"registers_per_thread", int64_t(record.resources.registers)},
      {"ptxas_static_bytes", int64_t(record.resources.sharedBytes)}};
  if (record.threads)
    object["occupancy_with_registers"] = llvm::json::Object{
        {"blocks_per_sm", int64_t(record.occupancy.blocks())},
        {"by_registers", int64_t(record.occupancy.blocksByRegisters)},
        {"by_shared_memory", int64_t(record.occupancy.blocksBySharedMemory)},
        {"by_threads", int64_t(record.occupancy.blocksByThreads)}};
  return object;
}

void printText(const KernelRecord &record, llvm::raw_ostream &os) {
  const KernelResources &kernel = record.resources;
  os << "registers of kernel @" << record.module << "::@" << kernel.name
     << " on " << record.chip->name << " (ptxas): " << kernel.registers
     << " per thread, " << kernel.sharedBytes << " bytes static shared memory";
  if (record.threads)
    os << "; occupancy " << record.occupancy.blocks() << " blocks per SM ("
       << record.occupancy.blocksByRegisters << " by registers, "
       << record.occupancy.blocksBySharedMemory << " by shared memory, "
       << record.occupancy.blocksByThreads << " by threads)";
  else
    os << "; block size not known at compile time";
  os << "\n";
}

void ReportNVIDIARegistersPass::runOnOperation() {
  ModuleOp module = getOperation();
  SmallVector<KernelRecord> records;
  module.walk([&](gpu::BinaryOp binary) {
    for (Attribute attribute : binary.getObjects()) {
      auto object = dyn_cast<gpu::ObjectAttr>(attribute);
      auto target =
          object ? dyn_cast<NVVM::NVVMTargetAttr>(object.getTarget()) : nullptr;
      if (!target || object.getFormat() != gpu::CompilationTarget::Binary)
        continue;
      const gpumem::NVIDIAChip *chip =
          gpumem::lookupNVIDIAChip(target.getChip());
      if (!chip)
        continue;
      for (const KernelResources &kernel :
           readCubin(object.getObject().getValue(), *chip)) {
        uint64_t threads = gpumem::getLaunchedThreadsPerBlock(
            module, binary.getName(), kernel.name);
        records.push_back(
            {binary.getName().str(), chip, kernel, threads,
             gpumem::getNVIDIAOccupancy(*chip, kernel.sharedBytes, threads,
                                        kernel.registers)});
      }
    }
  });
  SmallVector<gpumem::KernelRegisterEntry> entries;
  for (const KernelRecord &record : records) {
    std::string text;
    llvm::raw_string_ostream os(text);
    printText(record, os);
    entries.push_back({record.module, record.resources.name,
                       record.chip->name.str(), toJSON(record), text});
  }
  if (failed(gpumem::writeKernelRegisterReport(module, report, reportFile,
                                               entries)))
    signalPassFailure();
}

} // namespace
