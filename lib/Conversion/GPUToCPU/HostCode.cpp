//===----------------------------------------------------------------------===//
// Helpers shared by the GPU-to-CPU conversion passes.
//===----------------------------------------------------------------------===//

#include "HostCode.h"

#include "mlir/Conversion/GPUCommon/GPUCommonPass.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"

#include "llvm/ADT/Hashing.h"
#include "llvm/Support/Format.h"

using namespace mlir;

std::unique_ptr<LLVMTypeConverter>
gpumem::cpu::createHostTypeConverter(MLIRContext *context) {
  auto converter = std::make_unique<LLVMTypeConverter>(context);
  populateGpuMemorySpaceAttributeConversions(
      *converter, [](gpu::AddressSpace) -> unsigned { return 0; });
  converter->addTypeAttributeConversion(
      [](BaseMemRefType type, IntegerAttr) -> Attribute {
        return IntegerAttr::get(IntegerType::get(type.getContext(), 64), 0);
      });
  return converter;
}

std::string gpumem::cpu::formatLocation(Location loc) {
  if (auto fileLoc = loc->findInstanceOf<FileLineColLoc>())
    return (fileLoc.getFilename().getValue() + ":" +
            Twine(fileLoc.getLine()) + ":" + Twine(fileLoc.getColumn()))
        .str();
  return "unknown location";
}

Value gpumem::cpu::getStringPointer(OpBuilder &builder, Location loc,
                                    Operation *symbolTableOp, StringRef text) {
  std::string name;
  llvm::raw_string_ostream(name)
      << "__gpumem_str_" << llvm::format_hex_no_prefix(llvm::hash_value(text), 16);
  auto global = dyn_cast_if_present<LLVM::GlobalOp>(
      SymbolTable::lookupSymbolIn(symbolTableOp, name));
  if (!global) {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(&symbolTableOp->getRegion(0).front());
    std::string data = text.str();
    data.push_back('\0');
    auto type = LLVM::LLVMArrayType::get(builder.getI8Type(), data.size());
    global = LLVM::GlobalOp::create(builder, loc, type, /*isConstant=*/true,
                                    LLVM::Linkage::Private, name,
                                    builder.getStringAttr(data));
  }
  return LLVM::AddressOfOp::create(builder, loc, global);
}
