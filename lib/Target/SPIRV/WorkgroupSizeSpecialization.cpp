//===----------------------------------------------------------------------===//
// Patching the WorkgroupSize specialization into serialized SPIR-V.
//
// One pass over the instructions finds the 32-bit unsigned integer type,
// its 3-vector, the end of the annotations (the first type, constant or
// global variable) and the first function. New ids come from the header's
// bound. Decorations go where the annotations end; the missing types, the
// three specialization constants and their composite go before the first
// function, after every other global declaration (nothing before refers to
// them).
//===----------------------------------------------------------------------===//

#include "WorkgroupSizeSpecialization.h"
#include "gpumem/Runtime/VulkanKernelABI.h"

using namespace gpumem::vulkan;

namespace {

enum : uint32_t {
  kMagic = 0x07230203,
  kOpTypeInt = 21,
  kOpTypeVector = 23,
  kOpSpecConstant = 50,
  kOpSpecConstantComposite = 51,
  kOpFunction = 54,
  kOpDecorate = 71,
  kDecorationSpecId = 1,
  kDecorationBuiltIn = 11,
  kBuiltInWorkgroupSize = 25,
};

uint32_t opcodeOf(uint32_t word) { return word & 0xffff; }
uint32_t lengthOf(uint32_t word) { return word >> 16; }
uint32_t instruction(uint32_t opcode, uint32_t length) {
  return (length << 16) | opcode;
}

/// Types, constants and global variables: where the annotations end.
bool isGlobalDeclaration(uint32_t opcode) {
  return (opcode >= 19 && opcode <= 39) || (opcode >= 41 && opcode <= 52) ||
         opcode == 59 || opcode == 322;
}

} // namespace

bool gpumem::vulkan::specializeWorkgroupSize(
    llvm::SmallVectorImpl<uint32_t> &words) {
  if (words.size() < 5 || words[0] != kMagic)
    return false;
  uint32_t uintType = 0, vectorType = 0;
  size_t annotationsEnd = 0, functionsBegin = 0;
  for (size_t at = 5; at < words.size();) {
    uint32_t length = lengthOf(words[at]), opcode = opcodeOf(words[at]);
    if (length == 0 || at + length > words.size())
      return false;
    if (!annotationsEnd && isGlobalDeclaration(opcode))
      annotationsEnd = at;
    if (opcode == kOpTypeInt && length == 4 && words[at + 2] == 32 &&
        words[at + 3] == 0)
      uintType = words[at + 1];
    if (opcode == kOpTypeVector && length == 4 && uintType &&
        words[at + 2] == uintType && words[at + 3] == 3)
      vectorType = words[at + 1];
    if (opcode == kOpFunction) {
      functionsBegin = at;
      break;
    }
    at += length;
  }
  if (!annotationsEnd || !functionsBegin)
    return false;

  uint32_t &bound = words[3];
  llvm::SmallVector<uint32_t> declarations;
  if (!uintType) {
    uintType = bound++;
    declarations.append({instruction(kOpTypeInt, 4), uintType, 32, 0});
  }
  if (!vectorType) {
    vectorType = bound++;
    declarations.append({instruction(kOpTypeVector, 4), vectorType, uintType, 3});
  }
  uint32_t sizes[3];
  for (uint32_t &size : sizes) {
    size = bound++;
    declarations.append({instruction(kOpSpecConstant, 4), uintType, size, 1});
  }
  uint32_t composite = bound++;
  declarations.append({instruction(kOpSpecConstantComposite, 6), vectorType,
                       composite, sizes[0], sizes[1], sizes[2]});

  const uint32_t specIds[3] = {GPUMEM_VULKAN_SPEC_BLOCK_X,
                               GPUMEM_VULKAN_SPEC_BLOCK_Y,
                               GPUMEM_VULKAN_SPEC_BLOCK_Z};
  llvm::SmallVector<uint32_t> decorations;
  for (int d = 0; d < 3; ++d)
    decorations.append(
        {instruction(kOpDecorate, 4), sizes[d], kDecorationSpecId, specIds[d]});
  decorations.append({instruction(kOpDecorate, 4), composite,
                      kDecorationBuiltIn, kBuiltInWorkgroupSize});

  // The later position first, so the earlier one stays valid.
  words.insert(words.begin() + functionsBegin, declarations.begin(),
               declarations.end());
  words.insert(words.begin() + annotationsEnd, decorations.begin(),
               decorations.end());
  return true;
}
