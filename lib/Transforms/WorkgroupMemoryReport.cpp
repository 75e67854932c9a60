//===----------------------------------------------------------------------===//
// The workgroup memory report of gpumem-plan-workgroup-memory: text for
// people, JSON for tools, SVG for the eye. Occupancy is the blocks per SM
// that shared memory alone allows on an NVIDIA chip (NVIDIATarget.h), with
// the planned bytes and with one buffer after the other. A ring of stages
// (decision 145) shows its stages and the bytes of each.
//===----------------------------------------------------------------------===//

#include "gpumem/Support/NVIDIATarget.h"
#include "gpumem/Transforms/SourceLocation.h"
#include "gpumem/Transforms/WorkgroupMemoryPlan.h"

#include "mlir/IR/Location.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/JSON.h"

using namespace mlir;
using namespace gpumem;

namespace {

/// "file:line:col" of `loc`, or "unknown".
std::string locationText(Location loc) {
  return fileLineColumn(loc).value_or("unknown");
}

/// "line:col" of `loc`, shorter for tables, or "?".
std::string lineColumn(Location loc) {
  if (auto file = loc->findInstanceOf<FileLineColLoc>())
    return std::to_string(file.getLine()) + ":" +
           std::to_string(file.getColumn());
  return "?";
}

std::string typeText(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << type;
  return text;
}

/// A buffer's shape and element type, such as 16x17xf32.
std::string shapeText(MemRefType type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  for (int64_t size : type.getShape()) {
    if (ShapedType::isDynamic(size))
      os << "?";
    else
      os << size;
    os << "x";
  }
  os << type.getElementType();
  return text;
}

/// The live range as the source lines of the first and last use.
std::string liveText(const WorkgroupLiveRange &range) {
  if (range.uses.empty())
    return "never used";
  if (range.whole)
    return "whole kernel";
  return lineColumn(range.firstUse->getLoc()) + ".." +
         lineColumn(range.lastUse->getLoc());
}

/// What the target allows and the occupancy a plan gives there.
struct Limits {
  const NVIDIAChip *chip = nullptr;
  uint64_t limitBytes = 0;
  std::optional<NVIDIAOccupancy> planned, separate;
};

Limits getLimits(const KernelPlan &plan, const ReportTarget &target) {
  Limits limits;
  limits.limitBytes = target.limitBytes;
  if (!target.chip.empty())
    limits.chip = lookupNVIDIAChip(target.chip);
  if (!limits.chip)
    return limits;
  limits.limitBytes = limits.chip->maxSharedBytesPerBlock;
  limits.planned =
      getNVIDIAOccupancy(*limits.chip, plan.plannedBytes, plan.threadsPerBlock);
  limits.separate = getNVIDIAOccupancy(*limits.chip, plan.separateBytes,
                                       plan.threadsPerBlock);
  return limits;
}

/// True when shared memory alone keeps fewer blocks resident than the
/// thread count and the SM's block limit would.
bool sharedMemoryLimits(const NVIDIAOccupancy &occupancy) {
  return occupancy.blocksBySharedMemory <
         std::min(occupancy.blocksByThreads, occupancy.blocksBySMLimit);
}

} // namespace

/// The bytes of padding below static buffer `index` of `plan`: from the
/// end of the highest static buffer that ends at or below its offset (or
/// from 0) to its offset, which its alignment cost.
static uint64_t getPaddingBytes(const KernelPlan &plan, unsigned index) {
  const PlannedBuffer &buffer = plan.buffers[index];
  uint64_t below = 0;
  for (const PlannedBuffer &other : plan.buffers)
    if (&other != &buffer && !other.dynamic &&
        other.offset + other.bytes <= buffer.offset)
      below = std::max(below, other.offset + other.bytes);
  return buffer.offset - below;
}

void gpumem::printPlansAsText(ArrayRef<KernelPlan> plans,
                              const ReportTarget &target,
                              llvm::raw_ostream &os) {
  for (const KernelPlan &plan : plans) {
    os << "workgroup memory of kernel @" << plan.moduleName << "::@"
       << plan.kernelName << " (" << locationText(plan.loc) << ")";
    if (!target.name.empty())
      os << ", target " << target.name;
    if (!target.chip.empty())
      os << " " << target.chip;
    os << "\n";
    if (!plan.buffers.empty())
      os << llvm::format("  %-4s %-10s %-16s %8s %5s %4s %8s  %-16s %s\n", "#",
                         "line", "buffer", "bytes", "align", "pad", "offset",
                         "live (lines)", "shares with");
    for (auto [i, buffer] : llvm::enumerate(plan.buffers)) {
      std::string shares;
      for (unsigned other : buffer.sharesWith)
        shares += (shares.empty() ? "#" : ", #") + std::to_string(other);
      std::string bytes = buffer.dynamic ? "dyn" : std::to_string(buffer.bytes);
      std::string offset =
          buffer.dynamic ? "dyn" : std::to_string(buffer.offset);
      std::string padding =
          buffer.dynamic ? "-" : std::to_string(getPaddingBytes(plan, i));
      os << llvm::format("  %-4s %-10s %-16s %8s %5llu %4s %8s  %-16s %s\n",
                         ("#" + std::to_string(i)).c_str(),
                         lineColumn(buffer.loc).c_str(),
                         shapeText(buffer.type).c_str(), bytes.c_str(),
                         (unsigned long long)buffer.alignment, padding.c_str(),
                         offset.c_str(), liveText(buffer.range).c_str(),
                         shares.empty() ? "-" : shares.c_str());
      if (buffer.stages)
        os << "       " << buffer.stages << " stages x "
           << buffer.getStageBytes() << " bytes, a ring the loop at "
           << lineColumn(*buffer.stageLoop) << " rotates\n";
    }
    os << "  static: " << plan.plannedBytes << " bytes planned, lower bound "
       << plan.lowerBoundBytes << ", " << plan.separateBytes
       << " without reuse";
    if (!plan.notPlannedReason.empty())
      os << " (not planned: " << plan.notPlannedReason << ")";
    os << "\n";
    unsigned dynamic =
        llvm::count_if(plan.buffers, [](const PlannedBuffer &buffer) {
          return buffer.dynamic;
        });
    if (plan.usesDynamicSharedMemory)
      os << "  dynamic: " << dynamic
         << " view(s) of dynamic shared memory, sized at each launch\n";
    for (Location barrier : plan.insertedBarriers)
      os << "  barrier inserted at " << locationText(barrier) << "\n";
    Limits limits = getLimits(plan, target);
    if (limits.chip) {
      os << "  limit: " << limits.chip->maxSharedBytesPerBlock
         << " bytes per block on " << limits.chip->name << " ("
         << limits.chip->staticSharedBytes << " static)";
      if (plan.plannedBytes > limits.chip->maxSharedBytesPerBlock)
        os << "; the kernel does not fit";
      else if (plan.plannedBytes > limits.chip->staticSharedBytes)
        os << "; moved to dynamic shared memory";
      os << "\n  occupancy: " << limits.planned->blocks() << " blocks per SM ("
         << limits.planned->blocksBySharedMemory << " by shared memory, "
         << limits.separate->blocksBySharedMemory << " without reuse";
      if (plan.threadsPerBlock)
        os << "; " << limits.planned->blocksByThreads << " by "
           << plan.threadsPerBlock << " threads per block";
      os << "; " << limits.planned->blocksBySMLimit << " per SM at most)";
      if (plan.usesDynamicSharedMemory)
        os << ", before dynamic shared memory";
      os << "\n";
      if (sharedMemoryLimits(*limits.planned))
        os << "  remark: shared memory limits occupancy\n";
    } else if (limits.limitBytes) {
      os << "  limit: " << limits.limitBytes << " bytes per block";
      if (plan.plannedBytes > limits.limitBytes)
        os << "; the kernel does not fit";
      os << "\n";
    }
  }
}

void gpumem::printPlansAsJSON(ArrayRef<KernelPlan> plans,
                              const ReportTarget &target,
                              llvm::raw_ostream &os) {
  llvm::json::OStream json(os, 2);
  json.object([&] {
    json.attribute("target", target.name);
    json.attribute("chip", target.chip);
    json.attributeArray("kernels", [&] {
      for (const KernelPlan &plan : plans) {
        Limits limits = getLimits(plan, target);
        json.object([&] {
          json.attribute("module", plan.moduleName);
          json.attribute("kernel", plan.kernelName);
          json.attribute("location", locationText(plan.loc));
          json.attribute("threads_per_block", int64_t(plan.threadsPerBlock));
          json.attribute("static_bytes", int64_t(plan.plannedBytes));
          json.attribute("lower_bound_bytes", int64_t(plan.lowerBoundBytes));
          json.attribute("bytes_without_reuse", int64_t(plan.separateBytes));
          json.attribute("not_planned_reason", plan.notPlannedReason);
          json.attribute("uses_dynamic_shared_memory",
                         plan.usesDynamicSharedMemory);
          json.attributeArray("buffers", [&] {
            for (auto [index, buffer] : llvm::enumerate(plan.buffers)) {
              json.object([&] {
                json.attribute("location", locationText(buffer.loc));
                json.attribute("type", typeText(buffer.type));
                json.attribute("element_type",
                               typeText(buffer.type.getElementType()));
                json.attributeArray("shape", [&] {
                  for (int64_t size : buffer.type.getShape())
                    if (ShapedType::isDynamic(size))
                      json.value(nullptr);
                    else
                      json.value(size);
                });
                json.attribute("dynamic", buffer.dynamic);
                json.attribute("stages",
                               int64_t(buffer.stages ? buffer.stages : 1));
                if (buffer.stageLoop)
                  json.attribute("stage_loop", locationText(*buffer.stageLoop));
                if (!buffer.dynamic) {
                  json.attribute("bytes", int64_t(buffer.bytes));
                  json.attribute("stage_bytes",
                                 int64_t(buffer.getStageBytes()));
                  json.attribute("offset", int64_t(buffer.offset));
                  json.attribute("padding",
                                 int64_t(getPaddingBytes(plan, index)));
                }
                json.attribute("alignment", int64_t(buffer.alignment));
                json.attribute("planned", buffer.planned);
                json.attributeObject("live", [&] {
                  const WorkgroupLiveRange &range = buffer.range;
                  json.attribute("used", !range.uses.empty());
                  json.attribute("whole_kernel", range.whole);
                  if (range.uses.empty())
                    return;
                  json.attribute("start", int64_t(range.start));
                  json.attribute("end", int64_t(range.end));
                  json.attribute("first_use",
                                 locationText(range.firstUse->getLoc()));
                  json.attribute("last_use",
                                 locationText(range.lastUse->getLoc()));
                });
                json.attributeArray("shares_with", [&] {
                  for (unsigned other : buffer.sharesWith)
                    json.value(int64_t(other));
                });
              });
            }
          });
          json.attributeArray("inserted_barriers", [&] {
            for (Location barrier : plan.insertedBarriers)
              json.value(locationText(barrier));
          });
          if (limits.limitBytes)
            json.attribute("limit_bytes", int64_t(limits.limitBytes));
          if (!limits.chip)
            return;
          json.attribute("static_limit_bytes",
                         int64_t(limits.chip->staticSharedBytes));
          json.attributeObject("occupancy", [&] {
            json.attribute("blocks_per_sm", int64_t(limits.planned->blocks()));
            json.attribute("by_shared_memory",
                           int64_t(limits.planned->blocksBySharedMemory));
            json.attribute("by_shared_memory_without_reuse",
                           int64_t(limits.separate->blocksBySharedMemory));
            json.attribute("by_threads",
                           int64_t(limits.planned->blocksByThreads));
            json.attribute("by_sm_limit",
                           int64_t(limits.planned->blocksBySMLimit));
            json.attribute("shared_memory_limits",
                           sharedMemoryLimits(*limits.planned));
          });
        });
      }
    });
  });
  os << "\n";
}

void gpumem::printPlansAsSVG(ArrayRef<KernelPlan> plans,
                             llvm::raw_ostream &os) {
  constexpr unsigned kWidth = 900, kLeft = 70, kPlotWidth = 520,
                     kPlotHeight = 200, kPanel = kPlotHeight + 70;
  unsigned height = std::max<size_t>(1, plans.size()) * kPanel + 10;
  os << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << kWidth
     << "\" height=\"" << height << "\" font-family=\"monospace\" "
     << "font-size=\"11\">\n";
  os << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  for (auto [k, plan] : llvm::enumerate(plans)) {
    unsigned top = k * kPanel + 30;
    uint64_t bytes = 16;
    for (const PlannedBuffer &buffer : plan.buffers)
      if (!buffer.dynamic)
        bytes = std::max(bytes, buffer.offset + buffer.bytes);
    double points = std::max(1u, plan.numPoints);
    os << "<text x=\"10\" y=\"" << top - 12 << "\" font-size=\"13\">";
    llvm::printHTMLEscaped("@" + plan.moduleName + "::@" + plan.kernelName +
                               ": " + std::to_string(plan.plannedBytes) +
                               " static bytes planned, lower bound " +
                               std::to_string(plan.lowerBoundBytes) + ", " +
                               std::to_string(plan.separateBytes) +
                               " without reuse",
                           os);
    os << "</text>\n";
    os << "<rect x=\"" << kLeft << "\" y=\"" << top << "\" width=\""
       << kPlotWidth << "\" height=\"" << kPlotHeight
       << "\" fill=\"none\" stroke=\"black\"/>\n";
    os << "<text x=\"" << kLeft << "\" y=\"" << top + kPlotHeight + 14
       << "\">program order &#8594;</text>\n";
    os << "<text x=\"5\" y=\"" << top + 10 << "\">0</text>\n";
    os << "<text x=\"5\" y=\"" << top + kPlotHeight << "\">" << bytes
       << " B</text>\n";
    for (auto [i, buffer] : llvm::enumerate(plan.buffers)) {
      unsigned legendY = top + 12 + 14 * i;
      os << "<text x=\"" << kLeft + kPlotWidth + 15 << "\" y=\"" << legendY
         << "\">";
      llvm::printHTMLEscaped(
          "#" + std::to_string(i) + " " + locationText(buffer.loc) + " " +
              (buffer.dynamic ? std::string("dynamic")
                              : std::to_string(buffer.bytes) + " B") +
              (buffer.stages ? ", " + std::to_string(buffer.stages) + " stages"
                             : std::string()),
          os);
      os << "</text>\n";
      if (buffer.dynamic || buffer.range.uses.empty())
        continue;
      double x = kLeft + kPlotWidth * (buffer.range.start / points);
      double w = std::max(
          2.0,
          kPlotWidth * ((buffer.range.end - buffer.range.start + 1) / points));
      double y = top + kPlotHeight * (double(buffer.offset) / bytes);
      double h = std::max(2.0, kPlotHeight * (double(buffer.bytes) / bytes));
      unsigned hue = (i * 67) % 360;
      os << llvm::format("<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
                         "height=\"%.1f\" fill=\"hsl(%u,70%%,75%%)\" "
                         "stroke=\"black\"/>\n",
                         x, y, w, h, hue);
      // A ring: a dashed line between its stages.
      for (int64_t stage = 1; stage < buffer.stages; ++stage)
        os << llvm::format("<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
                           "y2=\"%.1f\" stroke=\"black\" "
                           "stroke-dasharray=\"4 3\"/>\n",
                           x, y + h * stage / buffer.stages, x + w,
                           y + h * stage / buffer.stages);
      os << llvm::format("<text x=\"%.1f\" y=\"%.1f\">#%u</text>\n", x + 3,
                         y + std::min(h, 12.0), unsigned(i));
    }
  }
  os << "</svg>\n";
}
