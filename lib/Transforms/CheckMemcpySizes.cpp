//===----------------------------------------------------------------------===//
// gpumem-check-memcpy-sizes: a gpu.memcpy between memrefs whose sizes are
// known only at run time stops the program when they differ.
//
// Upstream's verifier rejects copies between different static shapes, and
// gpu-to-llvm copies as many bytes as the source holds: a smaller
// destination overflows silently. Algorithm, for every gpu.memcpy in host
// code with a dynamic dimension on either side: compute both sizes in bytes
// (the element type is the same on both sides) from memref.dim; when they
// differ, call the runtimes'
// gpumemMemcpySizeMismatch(source bytes, destination bytes, "file:line:col")
// which reports the copy and exits. The location is a constant string
// global of the module.
//===----------------------------------------------------------------------===//

#include "gpumem/Transforms/Passes.h"
#include "gpumem/Transforms/SourceLocation.h"
#include "gpumem/Transforms/WorkgroupMemory.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"

namespace gpumem {
#define GEN_PASS_DEF_GPUMEMCHECKMEMCPYSIZESPASS
#include "gpumem/Transforms/Passes.h.inc"
} // namespace gpumem

using namespace mlir;

namespace {

constexpr StringLiteral kMismatchFunction = "gpumemMemcpySizeMismatch";

/// The bytes of `memref`, its dynamic dimensions read with memref.dim.
Value bufferBytes(OpBuilder &builder, Location loc, Value memref,
                  uint64_t elementBytes) {
  auto type = cast<MemRefType>(memref.getType());
  SmallVector<Value> dynamicSizes;
  for (auto [index, size] : llvm::enumerate(type.getShape()))
    if (ShapedType::isDynamic(size))
      dynamicSizes.push_back(
          memref::DimOp::create(builder, loc, memref, index));
  return gpumem::createBufferBytes(builder, loc, type, dynamicSizes,
                                   elementBytes);
}

/// "file:line:col" of `loc`, or "an unknown location".
std::string describe(Location loc) {
  return gpumem::fileLineColumn(loc).value_or("an unknown location");
}

struct CheckMemcpySizesPass
    : gpumem::impl::GPUMemCheckMemcpySizesPassBase<CheckMemcpySizesPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<gpu::MemcpyOp> copies;
    module.walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (isa<gpu::GPUModuleOp, gpu::LaunchOp>(op))
        return WalkResult::skip();
      if (auto copy = dyn_cast<gpu::MemcpyOp>(op)) {
        auto src = cast<MemRefType>(copy.getSrc().getType());
        auto dst = cast<MemRefType>(copy.getDst().getType());
        if (!src.hasStaticShape() || !dst.hasStaticShape())
          copies.push_back(copy);
      }
      return WalkResult::advance();
    });
    if (copies.empty())
      return;

    SymbolTable symbols(module);
    OpBuilder builder = OpBuilder::atBlockEnd(module.getBody());
    MLIRContext *context = &getContext();
    auto indexType = IndexType::get(context);
    auto i64 = IntegerType::get(context, 64);
    if (!symbols.lookup(kMismatchFunction)) {
      auto fn = func::FuncOp::create(
          builder, module.getLoc(), kMismatchFunction,
          FunctionType::get(context, {i64, i64, indexType}, {}));
      fn.setPrivate();
      symbols.insert(fn);
    }
    for (gpu::MemcpyOp copy : copies)
      check(copy, symbols);
  }

  /// Inserts the comparison and the report before `copy`.
  void check(gpu::MemcpyOp copy, SymbolTable &symbols) {
    ModuleOp module = getOperation();
    Location loc = copy.getLoc();
    OpBuilder builder(copy);
    auto elementType =
        cast<MemRefType>(copy.getSrc().getType()).getElementType();
    uint64_t elementBytes = DataLayout::closest(copy).getTypeSize(elementType);
    Value srcBytes = bufferBytes(builder, loc, copy.getSrc(), elementBytes);
    Value dstBytes = bufferBytes(builder, loc, copy.getDst(), elementBytes);
    Value differ = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ne,
                                         srcBytes, dstBytes);
    auto ifOp = scf::IfOp::create(builder, loc, differ);
    builder.setInsertionPointToStart(&ifOp.getThenRegion().front());
    auto toI64 = [&](Value bytes) {
      return arith::IndexCastOp::create(builder, loc, builder.getI64Type(),
                                        bytes)
          .getResult();
    };
    Value where = locationString(builder, loc, module, symbols);
    func::CallOp::create(builder, loc, kMismatchFunction, TypeRange(),
                         ValueRange{toI64(srcBytes), toI64(dstBytes), where});
  }

  /// The address of a NUL-terminated constant global naming `loc`.
  Value locationString(OpBuilder &builder, Location loc, ModuleOp module,
                       SymbolTable &symbols) {
    std::string text = describe(loc);
    text.push_back('\0');
    auto type = MemRefType::get({int64_t(text.size())}, builder.getI8Type());
    SmallVector<int8_t> bytes(text.begin(), text.end());
    auto data = DenseElementsAttr::get(
        RankedTensorType::get(type.getShape(), builder.getI8Type()),
        ArrayRef<int8_t>(bytes));
    OpBuilder globalBuilder = OpBuilder::atBlockBegin(module.getBody());
    auto global = memref::GlobalOp::create(
        globalBuilder, loc, builder.getStringAttr("__gpumem_memcpy_at"),
        builder.getStringAttr("private"), TypeAttr::get(type), data,
        builder.getUnitAttr(), /*alignment=*/IntegerAttr());
    symbols.insert(global); // renamed when the name is taken
    Value memref =
        memref::GetGlobalOp::create(builder, loc, type, global.getSymName());
    return memref::ExtractAlignedPointerAsIndexOp::create(builder, loc, memref);
  }
};

} // namespace
