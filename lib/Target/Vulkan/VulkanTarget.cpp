//===----------------------------------------------------------------------===//
// Serialization of a gpu.module for gpumem's `vulkan` target.
//
// The gpu.module holds one spirv.module (gpumem-convert-gpu-to-vulkan-spirv
// put it there) and the kernels' launch records (VulkanKernelRecords.h).
// The SPIR-V module is serialized with upstream's serializer, its workgroup
// size made the specialization constants the runtime sets at pipeline
// creation (SpecializationPatches.h), checked by SPIRV-Tools' validator
// (ValidateSPIRV.h), and wrapped in
// the image of include/gpumem/Runtime/VulkanKernelABI.h: header, SPIR-V
// words, then each kernel's record and parameters. `format=isa` gives the
// SPIR-V module as text instead, for inspection.
//===----------------------------------------------------------------------===//

#include "../TargetObject.h"
#include "SpecializationPatches.h"
#include "ValidateSPIRV.h"
#include "VulkanKernelRecords.h"
#include "gpumem/Dialect/GPUMem/IR/GPUMem.h"
#include "gpumem/Target/Vulkan/Target.h"

#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/Target/SPIRV/Serialization.h"

#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace gpumem;
using namespace gpumem::vulkan;

DenseI32ArrayAttr KernelRecord::toAttr(MLIRContext *context) const {
  SmallVector<int32_t> values = {
      int32_t(header.bindingCount), int32_t(header.pushConstantBytes),
      int32_t(header.flags), int32_t(header.staticSharedBytes)};
  for (const GPUMemVulkanParam &param : params)
    values.append({int32_t(param.kind), int32_t(param.binding),
                   int32_t(param.elementBytes), int32_t(param.pushOffset),
                   int32_t(param.hostBytes), int32_t(param.pushBytes)});
  return DenseI32ArrayAttr::get(context, values);
}

FailureOr<KernelRecord> KernelRecord::fromAttr(DenseI32ArrayAttr attr) {
  ArrayRef<int32_t> values = attr.asArrayRef();
  if (values.size() < 4 || (values.size() - 4) % 6 != 0)
    return failure();
  KernelRecord record;
  record.header.bindingCount = uint32_t(values[0]);
  record.header.pushConstantBytes = uint32_t(values[1]);
  record.header.flags = uint32_t(values[2]);
  record.header.staticSharedBytes = uint32_t(values[3]);
  for (size_t i = 4; i < values.size(); i += 6)
    record.params.push_back({uint32_t(values[i]), uint32_t(values[i + 1]),
                             uint32_t(values[i + 2]), uint32_t(values[i + 3]),
                             uint32_t(values[i + 4]), uint32_t(values[i + 5])});
  record.header.paramCount = record.params.size();
  return record;
}

ArrayAttr gpumem::vulkan::sitesToAttr(MLIRContext *context,
                                      ArrayRef<DiagnosticSite> sites) {
  Builder builder(context);
  SmallVector<Attribute> entries;
  for (const DiagnosticSite &site : sites)
    entries.push_back(builder.getArrayAttr(
        {builder.getI32IntegerAttr(site.kind), builder.getStringAttr(site.text),
         builder.getStringAttr(site.location),
         builder.getDenseI32ArrayAttr(site.argKinds)}));
  return builder.getArrayAttr(entries);
}

FailureOr<SmallVector<DiagnosticSite>>
gpumem::vulkan::sitesFromAttr(ArrayAttr attr) {
  SmallVector<DiagnosticSite> sites;
  for (Attribute entry : attr) {
    auto fields = dyn_cast<ArrayAttr>(entry);
    if (!fields || fields.size() != 4)
      return failure();
    auto kind = dyn_cast<IntegerAttr>(fields[0]);
    auto text = dyn_cast<StringAttr>(fields[1]);
    auto location = dyn_cast<StringAttr>(fields[2]);
    auto args = dyn_cast<DenseI32ArrayAttr>(fields[3]);
    if (!kind || !text || !location || !args)
      return failure();
    sites.push_back({uint32_t(kind.getInt()), text.str(), location.str(),
                     SmallVector<int32_t>(args.asArrayRef())});
  }
  return sites;
}

namespace {

/// Appends the bytes of `value` (little-endian hosts only, as the image is).
template <typename T> void append(SmallVector<char, 0> &image, const T &value) {
  const char *bytes = reinterpret_cast<const char *>(&value);
  image.append(bytes, bytes + sizeof(T));
}

/// Lists in every entry point's interface each global variable its static
/// call tree may use: upstream's ABI lowering lists only those the entry
/// function itself references, so a built-in read in a device function
/// (an assert's thread id) would be missing. Input and Output variables
/// before SPIR-V 1.4, all of them from 1.4 on; listing more than are used
/// is allowed.
void completeEntryPointInterfaces(spirv::ModuleOp spirvModule) {
  bool allStorageClasses =
      spirvModule.getVceTriple() &&
      spirvModule.getVceTriple()->getVersion() >= spirv::Version::V_1_4;
  SmallVector<Attribute> interface;
  for (auto global : spirvModule.getOps<spirv::GlobalVariableOp>()) {
    auto pointer = cast<spirv::PointerType>(global.getType());
    spirv::StorageClass storage = pointer.getStorageClass();
    if (allStorageClasses || storage == spirv::StorageClass::Input ||
        storage == spirv::StorageClass::Output)
      interface.push_back(SymbolRefAttr::get(global.getSymNameAttr()));
  }
  ArrayAttr interfaceAttr = ArrayAttr::get(spirvModule.getContext(), interface);
  for (auto entryPoint : spirvModule.getOps<spirv::EntryPointOp>())
    entryPoint.setInterfaceAttr(interfaceAttr);
}

/// Adds GroupNonUniform to the module's capabilities when a variable is a
/// subgroup built-in: spirv-update-vce derives capabilities from ops, not
/// from the BuiltIn decorations that require this one.
void addBuiltInCapabilities(spirv::ModuleOp spirvModule) {
  std::optional<spirv::VerCapExtAttr> triple = spirvModule.getVceTriple();
  if (!triple)
    return;
  bool subgroupBuiltIn = false;
  for (auto global : spirvModule.getOps<spirv::GlobalVariableOp>()) {
    StringAttr name = global.getBuiltInAttr();
    std::optional<spirv::BuiltIn> builtin =
        name ? spirv::symbolizeBuiltIn(name.getValue()) : std::nullopt;
    subgroupBuiltIn |=
        builtin && (*builtin == spirv::BuiltIn::SubgroupSize ||
                    *builtin == spirv::BuiltIn::NumSubgroups ||
                    *builtin == spirv::BuiltIn::SubgroupId ||
                    *builtin == spirv::BuiltIn::SubgroupLocalInvocationId);
  }
  SmallVector<spirv::Capability> capabilities(triple->getCapabilities());
  if (!subgroupBuiltIn ||
      llvm::is_contained(capabilities, spirv::Capability::GroupNonUniform))
    return;
  capabilities.push_back(spirv::Capability::GroupNonUniform);
  SmallVector<spirv::Extension> extensions(triple->getExtensions());
  // The capability is SPIR-V 1.3's (spirv-update-vce may have lowered the
  // version below it).
  spirv::Version version =
      std::max(triple->getVersion(), spirv::Version::V_1_3);
  spirvModule.setVceTripleAttr(spirv::VerCapExtAttr::get(
      version, capabilities, extensions, spirvModule.getContext()));
}

/// The image of `module`, or failure after a diagnostic.
FailureOr<SmallVector<char, 0>> buildImage(gpu::GPUModuleOp module,
                                           spirv::ModuleOp spirvModule) {
  completeEntryPointInterfaces(spirvModule);
  addBuiltInCapabilities(spirvModule);
  SmallVector<uint32_t, 0> words;
  if (failed(spirv::serialize(spirvModule, words)))
    return failure();
  if (!specializeDynamicSharedArrays(words))
    return module.emitError()
           << "cannot size its dynamic workgroup arrays by specialization in "
              "its SPIR-V";
  if (!specializeWorkgroupSize(words))
    return module.emitError()
           << "cannot add the block-size specialization to its SPIR-V";
  // What reaches the driver has passed the validator: an invalid module is
  // gpumem's bug, reported here rather than run with undefined results.
  std::string invalid = validateForVulkan(words);
  if (!invalid.empty())
    return module.emitError()
           << "internal error: the SPIR-V made for this gpu.module is "
              "invalid (spirv-val: "
           << invalid << ")";
  auto records = module->getAttrOfType<DictionaryAttr>(kKernelRecordsAttrName);
  if (!records)
    return module.emitError()
           << "has no kernel records ('" << kKernelRecordsAttrName
           << "'): run gpumem-prepare-vulkan-kernels first";
  SmallVector<char, 0> image;
  GPUMemVulkanImage header = {GPUMEM_VULKAN_IMAGE_MAGIC,
                              GPUMEM_VULKAN_ABI_VERSION,
                              uint32_t(records.size()), uint32_t(words.size())};
  append(image, header);
  for (uint32_t word : words)
    append(image, word);
  for (NamedAttribute entry : records) {
    auto array = dyn_cast<DenseI32ArrayAttr>(entry.getValue());
    FailureOr<KernelRecord> record = failure();
    if (array)
      record = KernelRecord::fromAttr(array);
    if (failed(record))
      return module.emitError()
             << "has a malformed kernel record for '" << entry.getName() << "'";
    StringRef name = entry.getName().getValue();
    record->header.nameBytes = name.size();
    append(image, record->header);
    image.append(name.begin(), name.end());
    image.resize(llvm::alignTo(image.size(), 4), 0);
    for (const GPUMemVulkanParam &param : record->params)
      append(image, param);
  }
  auto sitesAttr = module->getAttrOfType<ArrayAttr>(kSitesAttrName);
  if (!sitesAttr)
    return image;
  FailureOr<SmallVector<DiagnosticSite>> sites = sitesFromAttr(sitesAttr);
  if (failed(sites))
    return module.emitError()
           << "has a malformed site table ('" << kSitesAttrName << "')";
  auto appendText = [&](StringRef text) {
    image.append(text.begin(), text.end());
    image.resize(llvm::alignTo(image.size(), 4), 0);
  };
  append(image, uint32_t(sites->size()));
  for (const DiagnosticSite &site : *sites) {
    append(image, GPUMemVulkanSite{site.kind, uint32_t(site.argKinds.size()),
                                   uint32_t(site.text.size()),
                                   uint32_t(site.location.size())});
    for (int32_t kind : site.argKinds)
      append(image, uint32_t(kind));
    appendText(site.text);
    appendText(site.location);
  }
  return image;
}

} // namespace

namespace {

/// #gpumem.vulkan's gpu::TargetAttrInterface, attached by
/// registerVulkanTargetInterfaceExternalModels.
struct VulkanTargetAttrImpl
    : public gpu::TargetAttrInterface::FallbackModel<VulkanTargetAttrImpl> {
  std::optional<SmallVector<char, 0>>
  serializeToObject(Attribute attribute, Operation *op,
                    const gpu::TargetOptions &options) const {
    auto module = dyn_cast<gpu::GPUModuleOp>(op);
    if (!module) {
      op->emitError() << "the vulkan target serializes gpu.module ops only";
      return std::nullopt;
    }
    auto spirvModules = module.getOps<spirv::ModuleOp>();
    if (llvm::range_size(spirvModules) != 1) {
      module.emitError() << "must hold exactly one spirv.module for the vulkan "
                            "target (run gpumem-convert-gpu-to-vulkan-spirv)";
      return std::nullopt;
    }
    spirv::ModuleOp spirvModule = *spirvModules.begin();
    if (options.getCompilationTarget() == gpu::CompilationTarget::Assembly) {
      SmallVector<char, 0> text;
      llvm::raw_svector_ostream os(text);
      spirvModule.print(os);
      return text;
    }
    FailureOr<SmallVector<char, 0>> image = buildImage(module, spirvModule);
    if (failed(image))
      return std::nullopt;
    return std::move(*image);
  }

  Attribute createObject(Attribute attribute, Operation *module,
                         const SmallVector<char, 0> &object,
                         const gpu::TargetOptions &options) const {
    return makeTargetObject(attribute, object, options);
  }
};

} // namespace

void gpumem::registerVulkanTargetInterfaceExternalModels(
    DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *context, GPUMemDialect *) {
    VulkanTargetAttr::attachInterface<VulkanTargetAttrImpl>(*context);
  });
}
