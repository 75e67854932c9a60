//===----------------------------------------------------------------------===//
// SPIR-V validation before embedding (ValidateSPIRV.h): the environment is
// picked from the version word of the module's header, the validator's
// messages are collected with their instruction and joined.
//===----------------------------------------------------------------------===//

#include "ValidateSPIRV.h"

#include "spirv-tools/libspirv.hpp"

using namespace gpumem;

/// The Vulkan environment of a module whose header says SPIR-V `version`
/// (0x00MMmm00).
static spv_target_env environmentFor(uint32_t version) {
  uint32_t minor = (version >> 8) & 0xff;
  switch (minor) {
  case 4:
    return SPV_ENV_VULKAN_1_1_SPIRV_1_4;
  case 5:
    return SPV_ENV_VULKAN_1_2;
  case 6:
    return SPV_ENV_VULKAN_1_3;
  default:
    return SPV_ENV_VULKAN_1_1;
  }
}

std::string vulkan::validateForVulkan(llvm::ArrayRef<uint32_t> words) {
  if (words.size() < 5)
    return "the module is shorter than a SPIR-V header";
  spvtools::SpirvTools tools(environmentFor(words[1]));
  std::string messages;
  tools.SetMessageConsumer([&](spv_message_level_t, const char *,
                               const spv_position_t &position,
                               const char *message) {
    if (!messages.empty())
      messages += "; ";
    messages += message;
  });
  if (tools.Validate(words.data(), words.size()))
    return "";
  return messages.empty() ? std::string("the validator rejected it") : messages;
}
