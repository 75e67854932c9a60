//===----------------------------------------------------------------------===//
// linkTargetCopies (MultiTargetExecutable.h): several targets' host code in
// one LLVM module.
//
// Each copy is prepared on its own, then all are linked:
//  1. its @main is checked and wrapped as `i32 <prefix>entry()`;
//  2. llvm.global_ctors and llvm.global_dtors are taken out, in the order
//     they would run, so that nothing of the copy runs before it is chosen;
//  3. every definition gets the copy's prefix ("__gpumem_cuda_"), so the
//     copies' symbols never meet;
//  4. every declaration that the target's runtime library defines (read from
//     the library's dynamic symbol table, so nothing is guessed from names)
//     becomes a prefixed function that calls through a slot of the copy's
//     slot array; everything else it declares (libc, the runner utilities)
//     is shared by all copies and resolved by the linker as before;
//  5. a GPUMemTargetImage constant describes the copy (name, runtime,
//     slots, constructors, destructors, entry); it references all of the
//     copy, so the linker keeps it.
// The linked module's main passes the images, in the copies' order, to
// gpumemRunTargetImages (runtime/select).
//===----------------------------------------------------------------------===//

#include "gpumem/Tools/MultiTargetExecutable.h"

#include "gpumem/Runtime/TargetSelection.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Object/Binary.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Support/Path.h"

#include <algorithm>

using namespace llvm;
using mlir::failure;
using mlir::FailureOr;
using mlir::LogicalResult;
using mlir::success;

namespace {

/// The functions and variables `path`'s dynamic symbol table defines and
/// exports.
FailureOr<StringSet<>> readExports(StringRef path) {
  Expected<object::OwningBinary<object::Binary>> binary =
      object::createBinary(path);
  if (!binary) {
    gpumem::reportToolError("cannot read the runtime " + path + ": " +
                            toString(binary.takeError()));
    return failure();
  }
  auto *elf = dyn_cast<object::ELFObjectFileBase>(binary->getBinary());
  if (!elf) {
    gpumem::reportToolError("the runtime " + path + " is not an ELF library");
    return failure();
  }
  StringSet<> exports;
  for (const object::ELFSymbolRef &symbol : elf->getDynamicSymbolIterators()) {
    Expected<uint32_t> flags = symbol.getFlags();
    Expected<StringRef> name = symbol.getName();
    if (!flags || !name) {
      consumeError(flags.takeError());
      consumeError(name.takeError());
      continue;
    }
    if (!(*flags & object::SymbolRef::SF_Undefined) &&
        (*flags & object::SymbolRef::SF_Global))
      exports.insert(*name);
  }
  return exports;
}

/// The functions `module`'s `arrayName` (llvm.global_ctors or _dtors)
/// lists, in the order they run, after erasing the array: constructors by
/// ascending priority, destructors by descending, ties in list order.
std::vector<Function *> takeStructors(Module &module, StringRef arrayName,
                                      bool ascending) {
  GlobalVariable *array = module.getNamedGlobal(arrayName);
  if (!array)
    return {};
  std::vector<std::pair<uint64_t, Function *>> entries;
  if (auto *init = dyn_cast_or_null<ConstantArray>(
          array->hasInitializer() ? array->getInitializer() : nullptr))
    for (Value *operand : init->operands()) {
      auto *entry = dyn_cast<ConstantStruct>(operand);
      if (!entry || entry->getNumOperands() < 2)
        continue;
      auto *priority = dyn_cast<ConstantInt>(entry->getOperand(0));
      auto *function =
          dyn_cast<Function>(entry->getOperand(1)->stripPointerCasts());
      if (priority && function)
        entries.emplace_back(priority->getZExtValue(), function);
    }
  array->eraseFromParent();
  std::stable_sort(entries.begin(), entries.end(),
                   [&](const auto &a, const auto &b) {
                     return ascending ? a.first < b.first : a.first > b.first;
                   });
  std::vector<Function *> functions;
  for (const auto &entry : entries)
    functions.push_back(entry.second);
  return functions;
}

/// A private constant C string.
Constant *makeString(Module &module, StringRef text, const Twine &name) {
  Constant *data = ConstantDataArray::getString(module.getContext(), text);
  auto *global =
      new GlobalVariable(module, data->getType(), /*isConstant=*/true,
                         GlobalValue::PrivateLinkage, data, name);
  global->setUnnamedAddr(GlobalValue::UnnamedAddr::Global);
  return global;
}

/// A private constant array of pointers, or null when `elements` is empty.
Constant *makePointerArray(Module &module, ArrayRef<Constant *> elements,
                           const Twine &name) {
  auto *pointer = PointerType::getUnqual(module.getContext());
  if (elements.empty())
    return ConstantPointerNull::get(pointer);
  auto *type = ArrayType::get(pointer, elements.size());
  return new GlobalVariable(module, type, /*isConstant=*/true,
                            GlobalValue::PrivateLinkage,
                            ConstantArray::get(type, elements), name);
}

/// GPUMemTargetImage as LLVM sees it (TargetSelection.h).
StructType *getImageType(LLVMContext &context) {
  Type *pointer = PointerType::getUnqual(context);
  Type *i32 = Type::getInt32Ty(context);
  return StructType::get(context,
                         {pointer, pointer, pointer, i32, i32, pointer, pointer,
                          i32, pointer, i32, pointer, pointer});
}

/// `module`'s @main wrapped as `i32 <prefix>entry()`, after renaming.
FailureOr<Function *> makeEntry(Module &module, StringRef targetName,
                                StringRef prefix) {
  Function *main = module.getFunction((prefix + "main").str());
  if (!main || main->isDeclaration()) {
    gpumem::reportToolError("the program has no function @main");
    return failure();
  }
  Type *result = main->getReturnType();
  if (!main->arg_empty() || !(result->isVoidTy() || result->isIntegerTy(32))) {
    gpumem::reportToolError("@main must take no arguments and return nothing "
                            "or i32 (the " +
                            targetName + " target's copy)");
    return failure();
  }
  IRBuilder<> builder(module.getContext());
  auto *entry =
      Function::Create(FunctionType::get(builder.getInt32Ty(), false),
                       GlobalValue::InternalLinkage, prefix + "entry", module);
  builder.SetInsertPoint(BasicBlock::Create(module.getContext(), "", entry));
  CallInst *call = builder.CreateCall(main);
  builder.CreateRet(result->isVoidTy() ? builder.getInt32(0)
                                       : static_cast<Value *>(call));
  return entry;
}

/// Turns each declaration of `module` that the runtime exports into a
/// function that calls through its slot; returns the slot array (null when
/// there is none) and the runtime names in slot order.
FailureOr<GlobalVariable *> routeRuntimeCalls(Module &module,
                                              const StringSet<> &exports,
                                              StringRef prefix,
                                              std::vector<std::string> &names) {
  std::vector<Function *> routed;
  for (Function &function : module.functions())
    if (function.isDeclaration() && !function.isIntrinsic() &&
        exports.contains(function.getName()))
      routed.push_back(&function);
  for (GlobalVariable &variable : module.globals())
    if (variable.isDeclaration() && exports.contains(variable.getName())) {
      gpumem::reportToolError("the program reads the runtime's variable " +
                              variable.getName() +
                              ", which a multi-target executable cannot "
                              "route to the chosen runtime");
      return failure();
    }
  if (routed.empty())
    return static_cast<GlobalVariable *>(nullptr);
  LLVMContext &context = module.getContext();
  auto *pointer = PointerType::getUnqual(context);
  auto *slotsType = ArrayType::get(pointer, routed.size());
  auto *slots = new GlobalVariable(
      module, slotsType, /*isConstant=*/false, GlobalValue::InternalLinkage,
      ConstantAggregateZero::get(slotsType), prefix + "runtime_slots");
  IRBuilder<> builder(context);
  for (auto [index, function] : llvm::enumerate(routed)) {
    if (function->isVarArg()) {
      gpumem::reportToolError("the runtime function " + function->getName() +
                              " takes variable arguments, which a "
                              "multi-target executable cannot route");
      return failure();
    }
    names.push_back(function->getName().str());
    function->setName(prefix + function->getName());
    function->setLinkage(GlobalValue::InternalLinkage);
    builder.SetInsertPoint(BasicBlock::Create(context, "", function));
    Value *slot =
        builder.CreateConstInBoundsGEP2_64(slotsType, slots, 0, index);
    Value *callee = builder.CreateLoad(pointer, slot);
    SmallVector<Value *> arguments(llvm::make_pointer_range(function->args()));
    CallInst *call =
        builder.CreateCall(function->getFunctionType(), callee, arguments);
    call->setCallingConv(function->getCallingConv());
    call->setAttributes(function->getAttributes());
    call->setTailCall();
    if (function->getReturnType()->isVoidTy())
      builder.CreateRetVoid();
    else
      builder.CreateRet(call);
  }
  return slots;
}

/// Prepares one copy as the file comment says; returns its image.
FailureOr<Constant *> prepareCopy(gpumem::TargetCopy &copy,
                                  const std::string &runtimeDirectory) {
  Module &module = *copy.module;
  const gpumem::TargetInfo &info = gpumem::getTargetInfo(copy.target);
  std::string prefix = std::string("__gpumem_") + info.name + "_";
  std::replace(prefix.begin(), prefix.end(), '-', '_');
  std::string library = gpumem::runtimeLibraryFile(copy.target);
  SmallString<256> libraryPath(runtimeDirectory);
  sys::path::append(libraryPath, library);
  FailureOr<StringSet<>> exports = readExports(libraryPath);
  if (failed(exports))
    return failure();

  std::vector<Function *> constructors =
      takeStructors(module, "llvm.global_ctors", /*ascending=*/true);
  std::vector<Function *> destructors =
      takeStructors(module, "llvm.global_dtors", /*ascending=*/false);
  for (GlobalValue &value : module.global_values()) {
    if (value.isDeclaration() || !value.hasName() ||
        value.getName().starts_with("llvm."))
      continue;
    value.setName(prefix + value.getName());
    if (auto *object = dyn_cast<GlobalObject>(&value))
      if (const Comdat *comdat = object->getComdat()) {
        Comdat *renamed =
            module.getOrInsertComdat(prefix + comdat->getName().str());
        renamed->setSelectionKind(comdat->getSelectionKind());
        object->setComdat(renamed);
      }
  }
  FailureOr<Function *> entry = makeEntry(module, info.name, prefix);
  if (failed(entry))
    return failure();
  std::vector<std::string> names;
  FailureOr<GlobalVariable *> slots =
      routeRuntimeCalls(module, *exports, prefix, names);
  if (failed(slots))
    return failure();

  LLVMContext &context = module.getContext();
  SmallVector<Constant *> nameConstants;
  for (const std::string &name : names)
    nameConstants.push_back(makeString(module, name, prefix + "symbol_name"));
  auto asConstants = [](const std::vector<Function *> &functions) {
    return SmallVector<Constant *>(functions.begin(), functions.end());
  };
  Type *i32 = Type::getInt32Ty(context);
  auto count = [&](size_t n) { return ConstantInt::get(i32, n); };
  Constant *slotsOrNull =
      *slots ? static_cast<Constant *>(*slots)
             : ConstantPointerNull::get(PointerType::getUnqual(context));
  return ConstantStruct::get(
      getImageType(context),
      {makeString(module, info.name, prefix + "name"),
       makeString(module, library, prefix + "runtime"),
       makeString(module, runtimeDirectory, prefix + "runtime_directory"),
       count(gpumem::runsOnCPUCores(copy.target) ? GPUMEM_DEVICE_CPU
                                                 : GPUMEM_DEVICE_GPU),
       count(names.size()),
       makePointerArray(module, nameConstants, prefix + "symbol_names"),
       slotsOrNull, count(constructors.size()),
       makePointerArray(module, asConstants(constructors),
                        prefix + "constructors"),
       count(destructors.size()),
       makePointerArray(module, asConstants(destructors),
                        prefix + "destructors"),
       *entry});
}

} // namespace

FailureOr<std::unique_ptr<Module>>
gpumem::linkTargetCopies(std::vector<TargetCopy> copies,
                         const std::string &runtimeDirectory) {
  assert(!copies.empty() && "at least one copy");
  LLVMContext &context = copies.front().module->getContext();
  StructType *imageType = getImageType(context);
  // Each image is held by an external global of its copy until the copies
  // are linked, so that the linker keeps everything it refers to.
  std::vector<std::string> imageNames;
  for (TargetCopy &copy : copies) {
    FailureOr<Constant *> image = prepareCopy(copy, runtimeDirectory);
    if (failed(image))
      return failure();
    std::string name =
        std::string("__gpumem_image_") + getTargetInfo(copy.target).name;
    new GlobalVariable(*copy.module, imageType, /*isConstant=*/true,
                       GlobalValue::ExternalLinkage, *image, name);
    imageNames.push_back(name);
    copy.module->setDataLayout(copies.front().module->getDataLayout());
    copy.module->setTargetTriple(copies.front().module->getTargetTriple());
  }
  std::unique_ptr<Module> linked = std::move(copies.front().module);
  Linker linker(*linked);
  for (TargetCopy &copy : llvm::drop_begin(copies))
    if (linker.linkInModule(std::move(copy.module))) {
      reportToolError("cannot link the targets' host code into one module");
      return failure();
    }

  // The images side by side, as gpumemRunTargetImages reads them.
  SmallVector<Constant *> images;
  for (const std::string &name : imageNames) {
    GlobalVariable *image = linked->getNamedGlobal(name);
    images.push_back(image->getInitializer());
  }
  auto *imagesType = ArrayType::get(imageType, images.size());
  auto *imageArray = new GlobalVariable(
      *linked, imagesType, /*isConstant=*/true, GlobalValue::PrivateLinkage,
      ConstantArray::get(imagesType, images), "__gpumem_target_images");
  for (const std::string &name : imageNames)
    linked->getNamedGlobal(name)->eraseFromParent();

  IRBuilder<> builder(context);
  Type *i32 = builder.getInt32Ty();
  Type *pointer = builder.getPtrTy();
  FunctionCallee run = linked->getOrInsertFunction("gpumemRunTargetImages", i32,
                                                   i32, pointer, pointer, i32);
  auto *main = Function::Create(FunctionType::get(i32, {i32, pointer}, false),
                                GlobalValue::ExternalLinkage, "main", *linked);
  builder.SetInsertPoint(BasicBlock::Create(context, "", main));
  builder.CreateRet(
      builder.CreateCall(run, {main->getArg(0), main->getArg(1), imageArray,
                               builder.getInt32(images.size())}));
  return linked;
}
