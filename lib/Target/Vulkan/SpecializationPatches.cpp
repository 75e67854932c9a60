//===----------------------------------------------------------------------===//
// Specialization constants patched into serialized SPIR-V, where MLIR's
// SPIR-V dialect cannot express them.
//
// Dynamic workgroup arrays. One pass finds the OpName of each variable
// named kDynamicSharedVariablePrefix + kernel, the variable, its pointer
// type, the struct it points to and the array inside. Before the first
// such variable go an OpSpecConstant (SpecId
// GPUMEM_VULKAN_SPEC_DYNAMIC_SHARED_WORDS) and a new array of the same
// element type with that length, a struct of it and a pointer to that; the
// variables take the new pointer type. Access chains into them keep their
// element pointer types, so nothing else changes.
//
// WorkgroupSize. One pass over the instructions finds the 32-bit unsigned
// integer type, its 3-vector, the end of the annotations (the first type,
// constant or global variable) and the first function. New ids come from the
// header's bound. Decorations go where the annotations end; the missing types,
// the three specialization constants and their composite go before the first
// function, after every other global declaration (nothing before refers to
// them).
//===----------------------------------------------------------------------===//

#include "SpecializationPatches.h"
#include "gpumem/Runtime/VulkanKernelABI.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <cstring>

using namespace gpumem::vulkan;

namespace {

enum : uint32_t {
  kMagic = 0x07230203,
  kOpTypeInt = 21,
  kOpTypeVector = 23,
  kOpTypeArray = 28,
  kOpTypeStruct = 30,
  kOpTypePointer = 32,
  kOpVariable = 59,
  kOpName = 5,
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

/// The string operand of an OpName at `at`.
llvm::StringRef nameOf(llvm::ArrayRef<uint32_t> words, size_t at) {
  uint32_t length = lengthOf(words[at]);
  const char *begin = reinterpret_cast<const char *>(&words[at + 2]);
  size_t bytes = (length - 2) * sizeof(uint32_t);
  return llvm::StringRef(begin, strnlen(begin, bytes));
}

/// Where a module's sections begin: the first type, constant or global
/// variable (the end of the annotations) and the first function.
struct Sections {
  size_t annotationsEnd = 0;
  size_t functionsBegin = 0;
};

/// Calls `visit(at, opcode, length)` for each instruction before the first
/// function; false when `words` is not a SPIR-V module with both sections.
bool walkDeclarations(
    llvm::ArrayRef<uint32_t> words, Sections &sections,
    llvm::function_ref<void(size_t, uint32_t, uint32_t)> visit) {
  if (words.size() < 5 || words[0] != kMagic)
    return false;
  for (size_t at = 5; at < words.size();) {
    uint32_t length = lengthOf(words[at]), opcode = opcodeOf(words[at]);
    if (length == 0 || at + length > words.size())
      return false;
    if (!sections.annotationsEnd && isGlobalDeclaration(opcode))
      sections.annotationsEnd = at;
    if (opcode == kOpFunction) {
      sections.functionsBegin = at;
      break;
    }
    visit(at, opcode, length);
    at += length;
  }
  return sections.annotationsEnd && sections.functionsBegin;
}

} // namespace

bool gpumem::vulkan::specializeDynamicSharedArrays(
    llvm::SmallVectorImpl<uint32_t> &words) {
  llvm::DenseSet<uint32_t> named;
  llvm::DenseMap<uint32_t, size_t> definitions; // result id -> position
  llvm::SmallVector<size_t> variables;
  uint32_t uintType = 0;
  size_t uintTypeAt = 0;
  Sections sections;
  auto visit = [&](size_t at, uint32_t opcode, uint32_t length) {
    if (opcode == kOpName && length > 2 &&
        nameOf(words, at).starts_with(kDynamicSharedVariablePrefix))
      named.insert(words[at + 1]);
    if (opcode == kOpTypeInt && length == 4 && words[at + 2] == 32 &&
        words[at + 3] == 0 && !uintType) {
      uintType = words[at + 1];
      uintTypeAt = at;
    }
    if ((opcode == kOpTypeArray || opcode == kOpTypeStruct ||
         opcode == kOpTypePointer) &&
        length >= 3)
      definitions[words[at + 1]] = at;
    if (opcode == kOpVariable && length >= 4 && named.contains(words[at + 2]))
      variables.push_back(at);
  };
  if (!walkDeclarations(words, sections, visit))
    return false;
  if (variables.empty())
    return true;
  // The variable's type: a pointer to a struct of one array.
  auto definition = [&](uint32_t id, uint32_t opcode) -> size_t {
    auto found = definitions.find(id);
    if (found == definitions.end() || opcodeOf(words[found->second]) != opcode)
      return 0;
    return found->second;
  };
  size_t pointer = definition(words[variables.front() + 1], kOpTypePointer);
  if (!pointer || lengthOf(words[pointer]) != 4)
    return false;
  uint32_t storageClass = words[pointer + 2];
  size_t structure = definition(words[pointer + 3], kOpTypeStruct);
  if (!structure || lengthOf(words[structure]) != 3)
    return false;
  size_t array = definition(words[structure + 2], kOpTypeArray);
  // The length's type must be declared before the new declarations.
  if (!array || !uintType || uintTypeAt > variables.front())
    return false;
  uint32_t element = words[array + 2];

  uint32_t &bound = words[3];
  uint32_t length = bound++, newArray = bound++, newStruct = bound++,
           newPointer = bound++;
  llvm::SmallVector<uint32_t> declarations = {instruction(kOpSpecConstant, 4),
                                              uintType,
                                              length,
                                              1,
                                              instruction(kOpTypeArray, 4),
                                              newArray,
                                              element,
                                              length,
                                              instruction(kOpTypeStruct, 3),
                                              newStruct,
                                              newArray,
                                              instruction(kOpTypePointer, 4),
                                              newPointer,
                                              storageClass,
                                              newStruct};
  for (size_t variable : variables)
    words[variable + 1] = newPointer;
  words.insert(words.begin() + variables.front(), declarations.begin(),
               declarations.end());
  const uint32_t decoration[] = {instruction(kOpDecorate, 4), length,
                                 kDecorationSpecId,
                                 GPUMEM_VULKAN_SPEC_DYNAMIC_SHARED_WORDS};
  words.insert(words.begin() + sections.annotationsEnd, std::begin(decoration),
               std::end(decoration));
  return true;
}

bool gpumem::vulkan::specializeWorkgroupSize(
    llvm::SmallVectorImpl<uint32_t> &words) {
  uint32_t uintType = 0, vectorType = 0;
  Sections sections;
  auto visit = [&](size_t at, uint32_t opcode, uint32_t length) {
    if (opcode == kOpTypeInt && length == 4 && words[at + 2] == 32 &&
        words[at + 3] == 0)
      uintType = words[at + 1];
    if (opcode == kOpTypeVector && length == 4 && uintType &&
        words[at + 2] == uintType && words[at + 3] == 3)
      vectorType = words[at + 1];
  };
  if (!walkDeclarations(words, sections, visit))
    return false;
  size_t annotationsEnd = sections.annotationsEnd;
  size_t functionsBegin = sections.functionsBegin;

  uint32_t &bound = words[3];
  llvm::SmallVector<uint32_t> declarations;
  if (!uintType) {
    uintType = bound++;
    declarations.append({instruction(kOpTypeInt, 4), uintType, 32, 0});
  }
  if (!vectorType) {
    vectorType = bound++;
    declarations.append(
        {instruction(kOpTypeVector, 4), vectorType, uintType, 3});
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
