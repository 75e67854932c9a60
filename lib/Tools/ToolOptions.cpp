//===----------------------------------------------------------------------===//
// The tools' --target and its companions (ToolSupport.h): which targets a
// command line names, which of them runs here, which chip each compiles
// for, and whether the options fit them.
//
// --target takes one target, auto, or a comma-separated list. A list makes
// gpumem-compile write one executable for all of its targets, and makes
// gpumem-run run the first one that can run here. Each option applies to
// the listed targets it is for (--chip=sm_90 to the NVIDIA ones,
// --subgroup-size to vulkan, --sanitize to the targets that sanitize); it
// is an error only when none of them takes it. --chip takes chips of both
// vendors, comma-separated: several NVIDIA ones for the cuda target (one
// fatbin of them), one AMD one.
//===----------------------------------------------------------------------===//

#include "gpumem/Tools/ToolSupport.h"

#include "gpumem/Support/AMDGPUTarget.h"
#include "gpumem/Support/HostCPU.h"
#include "gpumem/Support/NVIDIATarget.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using gpumem::Target;
using gpumem::TargetInfo;

static const char *targetName(Target target) {
  return gpumem::getTargetInfo(target).name;
}

/// "cpu, cuda, cuda-emu, vulkan or auto": what --target takes.
static std::string expectedTargets() {
  SmallVector<StringRef> names;
  for (const TargetInfo &info : gpumem::getTargets())
    names.push_back(info.name);
  names.push_back("auto");
  return gpumem::joinExpectedNames(names);
}

/// The names a comma-separated option holds, in order.
static SmallVector<StringRef> splitList(StringRef list) {
  SmallVector<StringRef> names;
  list.split(names, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/true);
  for (StringRef &name : names)
    name = name.trim();
  return names;
}

bool gpumem::isTargetList(const TargetOptions &options) {
  return StringRef(options.target).contains(',');
}

/// The targets of a --target list, each known and named once.
static FailureOr<SmallVector<Target>> parseTargetList(StringRef list) {
  SmallVector<Target> targets;
  for (StringRef name : splitList(list)) {
    const TargetInfo *info = gpumem::lookupTarget(name);
    if (!info) {
      gpumem::reportToolError(
          "unknown target '" + name + "' in --target=" + list +
          "; a list names targets from " +
          gpumem::joinExpectedNames(llvm::to_vector(
              llvm::map_range(gpumem::getTargets(), [](const TargetInfo &info) {
                return StringRef(info.name);
              }))));
      return failure();
    }
    if (llvm::is_contained(targets, info->target)) {
      gpumem::reportToolError("--target=" + list + " names " + info->name +
                              " twice");
      return failure();
    }
    targets.push_back(info->target);
  }
  return targets;
}

bool gpumem::runsOnCPUCores(Target target) {
  return StringRef(getTargetInfo(target).runtimeLibrary) ==
         "gpumem_cpu_runtime";
}

/// Why `target` is not the one to take here from a list, or "" when it is:
/// its probe finds a device, and a GPU for the GPU targets (a Vulkan CPU
/// driver such as lavapipe is not one), as a multi-target executable
/// decides.
static std::string whyPassedOver(Target target) {
  std::string detail;
  std::string why = gpumem::getTargetInfo(target).probe(detail);
  if (!why.empty())
    return why;
  if (target == Target::Vulkan && gpumem::vulkanDeviceKind() != 2)
    return "its device is not a GPU (" + detail +
           "): a list takes vulkan only on a GPU, --target=vulkan alone "
           "runs there";
  return "";
}

FailureOr<SmallVector<Target>>
gpumem::resolveTargets(const TargetOptions &options) {
  if (isTargetList(options))
    return parseTargetList(options.target);
  FailureOr<Target> target = resolveTarget(options);
  if (failed(target))
    return failure();
  return SmallVector<Target>{*target};
}

FailureOr<Target> gpumem::resolveTarget(const TargetOptions &options) {
  StringRef name = options.target;
  if (const TargetInfo *info = lookupTarget(name))
    return info->target;
  if (name == "auto") {
    if (isCudaDeviceUsable())
      return Target::CUDA;
    if (vulkanDeviceKind() == 2)
      return Target::Vulkan;
    if (options.verbose)
      for (Target target : {Target::CUDA, Target::Vulkan})
        llvm::errs() << "gpumem: --target=auto passes over "
                     << getTargetInfo(target).name << ": "
                     << whyPassedOver(target) << "\n";
    return Target::CPU;
  }
  if (isTargetList(options)) {
    FailureOr<SmallVector<Target>> targets = parseTargetList(name);
    if (failed(targets))
      return failure();
    std::string reasons;
    for (Target target : *targets) {
      std::string why = whyPassedOver(target);
      if (why.empty())
        return target;
      std::string reason = std::string(getTargetInfo(target).name) + ": " + why;
      if (options.verbose)
        llvm::errs() << "gpumem: --target=" << name << " passes over " << reason
                     << "\n";
      reasons += "; " + reason;
    }
    reportToolError("none of the targets of --target=" + name + " runs here" +
                    reasons);
    return failure();
  }
  reportToolError("unknown --target '" + name + "'; expected " +
                  expectedTargets() + ", or a comma-separated list");
  return failure();
}

/// Whether `info` takes AMD chips (else NVIDIA's, when it takes any).
static bool takesAMDChips(const TargetInfo &info) {
  return info.defaultChip && StringRef(info.defaultChip).starts_with("gfx");
}

std::string gpumem::chipForTarget(const TargetOptions &options, Target target) {
  const TargetInfo &info = getTargetInfo(target);
  if (!info.defaultChip)
    return "";
  std::string chips;
  for (StringRef chip : splitList(options.chip))
    if (!chip.empty() && chip.starts_with("gfx") == takesAMDChips(info))
      chips += (chips.empty() ? "" : ",") + chip.str();
  return chips;
}

/// Checks each chip of --chip is known.
static LogicalResult checkChips(StringRef list) {
  if (list.empty())
    return success();
  for (StringRef chip : splitList(list)) {
    bool nvidiaChip = gpumem::lookupNVIDIAChip(chip);
    bool amdChip = gpumem::lookupAMDGPUChip(chip);
    if (!nvidiaChip && !amdChip) {
      if (chip.starts_with("gfx"))
        gpumem::reportToolError("unknown AMD chip '" + chip +
                                "' for --chip; gpumem knows " +
                                gpumem::listAMDGPUChips());
      else if (chip.starts_with("sm_"))
        gpumem::reportToolError("unknown NVIDIA chip '" + chip +
                                "' for --chip; for example sm_80 or sm_90");
      else
        gpumem::reportToolError("unknown chip '" + chip +
                                "' for --chip; for example sm_90 (NVIDIA) or "
                                "gfx90a (AMD)");
      return failure();
    }
  }
  return success();
}

LogicalResult gpumem::checkToolOptions(const TargetOptions &options) {
  StringRef name = options.target;
  if (name != "auto" && !lookupTarget(name) && !isTargetList(options)) {
    reportToolError("unknown --target '" + name + "'; expected " +
                    expectedTargets() + ", or a comma-separated list");
    return failure();
  }
  if (isTargetList(options) && failed(parseTargetList(name)))
    return failure();
  if (options.cpu != "host" && !isKnownHostCPU(options.cpu)) {
    reportToolError("unknown --cpu '" + options.cpu +
                    "' for this machine's target; for example x86-64, or "
                    "host for this machine's CPU");
    return failure();
  }
  // --host-buffers, --sanitize and --smem-report were checked as they were
  // parsed (ToolEnumParser, ToolSanitizeParser).
  bool sanitize = !options.sanitize.getValue().empty();
  if (failed(checkChips(options.chip)))
    return failure();
  // The combinations need the targets; "auto" resolves here only when
  // another option depends on it.
  if (options.sanitizeDeviceLog &&
      options.sanitize.getValue().flags != GPUMEM_CHECK_MEMCHECK) {
    reportToolError("--sanitize-device-log is for --sanitize=memcheck, the "
                    "check the device code makes itself");
    return failure();
  }
  bool dependsOnTarget = !options.chip.empty() || sanitize ||
                         options.subgroupSize != 32 || options.wavefrontSize ||
                         options.maxSharedMemory.getNumOccurrences();
  if (!dependsOnTarget)
    return success();
  FailureOr<SmallVector<Target>> targets = resolveTargets(options);
  if (failed(targets))
    return failure();
  // An option is wrong when no target takes it; the message names the
  // first target.
  auto noneTakes = [&](llvm::function_ref<bool(const TargetInfo &)> takes) {
    return llvm::none_of(
        *targets, [&](Target target) { return takes(getTargetInfo(target)); });
  };
  const TargetInfo &info = getTargetInfo(targets->front());
  const char *which = targets->size() == 1 ? "the" : "the listed";
  if (options.subgroupSize != 32 && noneTakes([](const TargetInfo &info) {
        return info.takesDeviceLimits();
      })) {
    reportToolError(
        "--subgroup-size=" + Twine(options.subgroupSize.getValue()) +
        " is for --target=vulkan; " + which + " " + info.name +
        " target's warps have " +
        (info.fixedSubgroupSize ? Twine(info.fixedSubgroupSize) + " lanes"
                                : Twine("the lanes of its chip's wavefront")));
    return failure();
  }
  if (options.wavefrontSize && noneTakes([](const TargetInfo &info) {
        return info.takesWavefrontSize();
      })) {
    reportToolError(
        "--wavefront-size=" + Twine(options.wavefrontSize.getValue()) +
        " is for --target=rocm and rocm-emu, not " + info.name);
    return failure();
  }
  if (sanitize &&
      noneTakes([](const TargetInfo &info) { return info.sanitizes; })) {
    reportToolError(Twine("--sanitize runs on the cpu, cuda-emu and "
                          "rocm-emu targets (memcheck on cuda too), not ") +
                    info.name + "; use --target=cpu");
    return failure();
  }
  if (options.sanitizeDeviceLog &&
      (targets->size() != 1 || targets->front() != Target::CUDAEmu)) {
    reportToolError(Twine("--sanitize-device-log is for --target=cuda-emu "
                          "(the cuda target always reports so), not ") +
                    info.name);
    return failure();
  }
  // On the GPU only memcheck runs: the other checks need the runtime's
  // shadows of every byte and its scheduler.
  int32_t beyondMemcheck =
      options.sanitize.getValue().flags & ~int32_t(GPUMEM_CHECK_MEMCHECK);
  if (beyondMemcheck && llvm::is_contained(*targets, Target::CUDA)) {
    reportToolError("--target=cuda checks memcheck only, in the device code; "
                    "racecheck, initcheck and synccheck run on the cpu, "
                    "cuda-emu and rocm-emu targets: use --sanitize=memcheck, "
                    "or --target=cuda-emu");
    return failure();
  }
  if (options.maxSharedMemory.getNumOccurrences() &&
      noneTakes(
          [](const TargetInfo &info) { return info.takesDeviceLimits(); })) {
    reportToolError(Twine("--max-shared-memory is for --target=vulkan; ") +
                    which + " " + info.name +
                    " target's limit comes from its chip or runtime");
    return failure();
  }
  if (options.maxSharedMemory.getNumOccurrences() &&
      options.maxSharedMemory < 16384) {
    reportToolError(
        "--max-shared-memory=" + Twine(options.maxSharedMemory.getValue()) +
        " is below Vulkan's minimum of 16384 bytes");
    return failure();
  }
  // The emulated targets run one chip's device code.
  struct Emulated {
    Target target;
    const char *vendor, *compiler;
  };
  for (Emulated emulated : {Emulated{Target::CUDAEmu, "NVIDIA", "cuda"},
                            Emulated{Target::ROCmEmu, "AMD", "rocm"}})
    if (llvm::is_contained(*targets, emulated.target) &&
        StringRef(chipForTarget(options, emulated.target)).contains(',')) {
      reportToolError("--chip=" + options.chip + " names several " +
                      emulated.vendor + " chips; the " + emulated.compiler +
                      " target compiles for several, the " +
                      targetName(emulated.target) +
                      " target runs one chip's code");
      return failure();
    }
  for (StringRef chip : splitList(options.chip)) {
    if (options.chip.empty())
      break;
    bool amdChip = chip.starts_with("gfx");
    if (!noneTakes([&](const TargetInfo &info) {
          return info.defaultChip && takesAMDChips(info) == amdChip;
        }))
      continue;
    const Target *chipTarget = llvm::find_if(*targets, [](Target target) {
      return getTargetInfo(target).defaultChip != nullptr;
    });
    if (chipTarget != targets->end()) {
      reportToolError("--chip=" + chip + " is " +
                      (amdChip ? "an AMD" : "an NVIDIA") + " chip; " + which +
                      " " + targetName(*chipTarget) + " target takes " +
                      (amdChip ? "NVIDIA" : "AMD") + " chips");
      return failure();
    }
    reportToolError("--chip=" + chip +
                    " names a GPU chip, for --target=cuda, cuda-emu, rocm "
                    "and rocm-emu; " +
                    which + " " + info.name + " target has no chip");
    return failure();
  }
  return success();
}
