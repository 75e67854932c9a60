//===----------------------------------------------------------------------===//
// gpumem-report-amdgpu-registers: registers, LDS, scratch and occupancy of
// each kernel, read from the HSA code objects ld.lld made.
//
// Algorithm, per code object (`#gpu.object<#rocdl.target<chip = ...>, bin
// = ...>`) of every gpu.binary:
//  1. Read the ELF's notes: the one named "AMDGPU" of type
//     NT_AMDGPU_METADATA holds the code object's metadata in MessagePack, a
//     map whose "amdhsa.kernels" is an array of one map per kernel with
//     ".name", ".group_segment_fixed_size" (static LDS bytes),
//     ".private_segment_fixed_size" (scratch bytes per lane), ".vgpr_count"
//     (with the AGPRs on gfx90a and later), ".agpr_count" (chips with
//     AGPRs), ".sgpr_count" and ".wavefront_size".
//  2. Block size from the kernel's launches (constant and agreed), then
//     waves per SIMD by VGPRs, SGPRs and LDS (AMDGPUTarget.h).
// The JSON merge mirrors gpumem-report-nvidia-registers'.
//===----------------------------------------------------------------------===//

#include "CodeObjects.h"

#include "gpumem/Support/AMDGPUTarget.h"
#include "gpumem/Target/ROCm/Passes.h"
#include "gpumem/Transforms/RegisterReport.h"
#include "gpumem/Transforms/WorkgroupMemoryPlan.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"

#include "llvm/BinaryFormat/MsgPackDocument.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

namespace gpumem {
#define GEN_PASS_DEF_GPUMEMREPORTAMDGPUREGISTERSPASS
#include "gpumem/Target/ROCm/Passes.h.inc"
} // namespace gpumem

using namespace mlir;

namespace {

/// What the code object's metadata says one kernel uses.
struct KernelResources {
  std::string name;
  unsigned vgprs = 0;
  std::optional<unsigned> agprs;
  unsigned sgprs = 0;
  uint64_t ldsBytes = 0;
  uint64_t scratchBytes = 0;
  unsigned wavefrontSize = 0;
};

/// The integer under `key` of a metadata map, or `fallback`.
uint64_t getInteger(llvm::msgpack::MapDocNode &map, StringRef key,
                    uint64_t fallback = 0) {
  auto it = map.find(key);
  if (it == map.end())
    return fallback;
  const llvm::msgpack::DocNode &node = it->second;
  if (node.getKind() == llvm::msgpack::Type::UInt)
    return node.getUInt();
  if (node.getKind() == llvm::msgpack::Type::Int)
    return node.getInt();
  return fallback;
}

/// The kernels of `amdhsa.kernels` in one metadata note.
void readMetadata(StringRef blob, unsigned chipWavefront,
                  SmallVectorImpl<KernelResources> &kernels) {
  llvm::msgpack::Document document;
  if (!document.readFromBlob(blob, /*Multi=*/false) ||
      !document.getRoot().isMap())
    return;
  llvm::msgpack::MapDocNode &root = document.getRoot().getMap();
  auto list = root.find("amdhsa.kernels");
  if (list == root.end() || !list->second.isArray())
    return;
  for (llvm::msgpack::DocNode &entry : list->second.getArray()) {
    if (!entry.isMap())
      continue;
    llvm::msgpack::MapDocNode &map = entry.getMap();
    auto name = map.find(".name");
    if (name == map.end() ||
        name->second.getKind() != llvm::msgpack::Type::String)
      continue;
    KernelResources kernel;
    kernel.name = name->second.getString().str();
    kernel.vgprs = getInteger(map, ".vgpr_count");
    if (map.find(".agpr_count") != map.end())
      kernel.agprs = getInteger(map, ".agpr_count");
    kernel.sgprs = getInteger(map, ".sgpr_count");
    kernel.ldsBytes = getInteger(map, ".group_segment_fixed_size");
    kernel.scratchBytes = getInteger(map, ".private_segment_fixed_size");
    kernel.wavefrontSize = getInteger(map, ".wavefront_size", chipWavefront);
    kernels.push_back(std::move(kernel));
  }
}

/// The kernels of a code object; an empty list when `bytes` is not an ELF
/// file with AMDGPU metadata.
SmallVector<KernelResources> readCodeObject(StringRef bytes,
                                            unsigned chipWavefront) {
  SmallVector<KernelResources> kernels;
  auto object = llvm::object::ObjectFile::createELFObjectFile(
      llvm::MemoryBufferRef(bytes, "code object"));
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
  for (const auto &section : *sections) {
    if (section.sh_type != llvm::ELF::SHT_NOTE)
      continue;
    llvm::Error error = llvm::Error::success();
    for (const auto &note : file.notes(section, error))
      if (note.getName() == "AMDGPU" &&
          note.getType() == llvm::ELF::NT_AMDGPU_METADATA)
        readMetadata(note.getDescAsStringRef(4), chipWavefront, kernels);
    if (error)
      llvm::consumeError(std::move(error));
  }
  llvm::sort(kernels, [](const KernelResources &a, const KernelResources &b) {
    return a.name < b.name;
  });
  return kernels;
}

struct ReportAMDGPURegistersPass
    : gpumem::impl::GPUMemReportAMDGPURegistersPassBase<
          ReportAMDGPURegistersPass> {
  using Base::Base;
  void runOnOperation() override;
};

/// One kernel's line of the report.
struct KernelRecord {
  std::string module;
  const gpumem::AMDGPUChip *chip;
  KernelResources resources;
  uint64_t threads;
  gpumem::AMDGPUOccupancy occupancy;
};

llvm::json::Object toJSON(const KernelRecord &record) {
  const KernelResources &kernel = record.resources;
  llvm::json::Object object{
      {"vgprs", int64_t(kernel.vgprs)},
      {"sgprs", int64_t(kernel.sgprs)},
      {"lds_bytes", int64_t(kernel.ldsBytes)},
      {"scratch_bytes_per_lane", int64_t(kernel.scratchBytes)},
      {"wavefront_size", int64_t(kernel.wavefrontSize)}};
  if (kernel.agprs)
    object["agprs"] = int64_t(*kernel.agprs);
  llvm::json::Object occupancy{
      {"waves_per_simd", int64_t(record.occupancy.waves())},
      {"max_waves_per_simd", int64_t(record.occupancy.maxWaves)},
      {"by_vgprs", int64_t(record.occupancy.byVGPRs)},
      {"by_sgprs", int64_t(record.occupancy.bySGPRs)}};
  if (record.threads)
    occupancy["by_lds"] = int64_t(record.occupancy.byLDS);
  object["occupancy_with_registers"] = std::move(occupancy);
  return object;
}

void printText(const KernelRecord &record, llvm::raw_ostream &os) {
  const KernelResources &kernel = record.resources;
  const gpumem::AMDGPUOccupancy &occupancy = record.occupancy;
  os << "registers of kernel @" << record.module << "::@" << kernel.name
     << " on " << record.chip->name << " (code object): " << kernel.vgprs
     << " VGPRs, ";
  if (kernel.agprs)
    os << *kernel.agprs << " AGPRs, ";
  os << kernel.sgprs << " SGPRs, " << kernel.ldsBytes << " bytes LDS, "
     << kernel.scratchBytes << " bytes scratch; occupancy " << occupancy.waves()
     << " waves per SIMD (" << occupancy.byVGPRs << " by VGPRs, "
     << occupancy.bySGPRs << " by SGPRs, ";
  if (record.threads)
    os << occupancy.byLDS << " by LDS";
  else
    os << "LDS not counted: block size not known at compile time";
  os << ")\n";
}

void ReportAMDGPURegistersPass::runOnOperation() {
  ModuleOp module = getOperation();
  SmallVector<KernelRecord> records;
  module.walk([&](gpu::BinaryOp binary) {
    for (const gpumem::rocm::CodeObject &code :
         gpumem::rocm::getCodeObjects(binary)) {
      const gpumem::AMDGPUChip *chip =
          gpumem::lookupAMDGPUChip(code.target.getChip());
      if (!chip)
        continue;
      for (const KernelResources &kernel :
           readCodeObject(code.object.getObject().getValue(),
                          chip->defaultWavefrontSize)) {
        uint64_t threads = gpumem::getLaunchedThreadsPerBlock(
            module, binary.getName(), kernel.name);
        records.push_back({binary.getName().str(), chip, kernel, threads,
                           gpumem::getAMDGPUOccupancy(
                               *chip, kernel.wavefrontSize, kernel.vgprs,
                               kernel.sgprs, kernel.ldsBytes, threads)});
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
