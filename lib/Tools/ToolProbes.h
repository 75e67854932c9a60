//===----------------------------------------------------------------------===//
// What the tools' support files share privately: the symbols of gpumem's
// runtimes the tools load to ask about devices.
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_LIB_TOOLS_TOOLPROBES_H
#define GPUMEM_LIB_TOOLS_TOOLPROBES_H

namespace gpumem {

/// The symbol `name` of gpumem's Vulkan runtime (a device probe such as
/// gpumemVulkanDeviceKind), or null without the runtime or the symbol.
void *vulkanProbe(const char *name);

} // namespace gpumem

#endif // GPUMEM_LIB_TOOLS_TOOLPROBES_H
