//===----------------------------------------------------------------------===//
// Dynamic workgroup memory on the vulkan target.
//
// Logical SPIR-V has no byte buffer that views of other types can share, so
// a kernel's gpu.dynamic_shared_memory becomes one Workgroup array of
// 32-bit words whose length the runtime sets by specialization
// (SpecializationPatches.h):
//  1. makeDynamicSharedRoots, before views are expanded: the kernel gets a
//     workgroup attribution memref<1xi32> (the serializer patches its
//     length) and, when memref.dim asks for the size, an index argument
//     read from the push constants. Each memref.view of the dynamic memory
//     at byte shift s to memref<...xT> becomes a reinterpret_cast of a
//     placeholder root memref<?xT> (an unrealized cast of the word array
//     and s),
//     so the preparer linearizes accesses through it like through any root.
//     Other uses see a placeholder of i8 elements.
//  2. lowerDynamicSharedAccesses, after linearization: element i of a
//     placeholder of 4-byte T is the word s/4 + i (bitcast for f32); of
//     8-byte T the words s/4 + 2i and the next, low word first; atomics
//     must be on i32 or f32 (through bitcasts, VulkanAtomics.h). Elements of
//     8 or 16 bits live inside a word, at byte b = s + i * size: a load
//     reads word b/4 and shifts right by 8 * (b % 4); a store clears its
//     bits of the word and sets the new ones with two atomics (threads
//     store neighbouring elements of one word at once). The aligned
//     pointer of a placeholder is the array's notional address plus s.
//===----------------------------------------------------------------------===//

#include "DynamicWorkgroupMemory.h"
#include "VulkanAtomics.h"
#include "VulkanKernelRecords.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace gpumem::vulkan;

namespace {

bool isWordElement(Type type) { return type.isInteger(32) || type.isF32(); }
bool isDoubleWordElement(Type type) {
  return type.isInteger(64) || type.isF64();
}
/// The bits of an integer element that lives inside a word (8 or 16), else
/// 0. (16-bit floats become 32-bit ones in shaders without the Float16
/// capability, so their bits are not at hand.)
unsigned subWordBits(Type type) {
  if (type.isInteger(8))
    return 8;
  if (type.isInteger(16))
    return 16;
  return 0;
}

/// The word of element `index` of a placeholder of sub-word elements, and
/// the element's shift in it, in bits (an i32).
std::pair<Value, Value> subWordPlace(OpBuilder &builder, Location loc,
                                     Value byteShift, Value index,
                                     unsigned bits) {
  Value bytes = arith::AddIOp::create(
      builder, loc, byteShift,
      arith::MulIOp::create(
          builder, loc, index,
          arith::ConstantIndexOp::create(builder, loc, bits / 8)));
  Value word = arith::ShRUIOp::create(
      builder, loc, bytes, arith::ConstantIndexOp::create(builder, loc, 2));
  Value within = arith::AndIOp::create(
      builder, loc, bytes, arith::ConstantIndexOp::create(builder, loc, 3));
  Type i32 = builder.getI32Type();
  Value shift = arith::MulIOp::create(
      builder, loc, arith::IndexCastOp::create(builder, loc, i32, within),
      arith::ConstantIntOp::create(builder, loc, i32, 8));
  return {word, shift};
}

/// Sizes and identity strides of a memref.view's result.
void viewShape(OpBuilder &builder, memref::ViewOp view,
               SmallVectorImpl<OpFoldResult> &sizes,
               SmallVectorImpl<OpFoldResult> &strides) {
  MemRefType type = view.getType();
  Location loc = view.getLoc();
  auto dynamicSizes = view.getSizes();
  unsigned next = 0;
  for (int64_t size : type.getShape())
    sizes.push_back(ShapedType::isDynamic(size)
                        ? OpFoldResult(dynamicSizes[next++])
                        : OpFoldResult(builder.getIndexAttr(size)));
  strides.resize(sizes.size());
  OpFoldResult stride = builder.getIndexAttr(1);
  for (int64_t i = type.getRank() - 1; i >= 0; --i) {
    strides[i] = stride;
    auto staticStride = getConstantIntValue(stride);
    auto staticSize = getConstantIntValue(sizes[i]);
    if (staticStride && staticSize) {
      stride = builder.getIndexAttr(*staticStride * *staticSize);
      continue;
    }
    Value product = arith::MulIOp::create(
        builder, loc, getValueOrCreateConstantIndexOp(builder, loc, stride),
        getValueOrCreateConstantIndexOp(builder, loc, sizes[i]));
    stride = product;
  }
}

/// The byte shift of placeholder `root`: its cast's second operand (an
/// operand, so that rewrites of the kernel keep it up to date).
Value byteShiftOf(Value root) { return root.getDefiningOp()->getOperand(1); }

/// The word index of element `index` of placeholder `root`.
Value wordIndex(OpBuilder &builder, Location loc, Value root, Value index,
                Type element) {
  Value two = arith::ConstantIndexOp::create(builder, loc, 2);
  Value first = arith::ShRUIOp::create(builder, loc, byteShiftOf(root), two);
  if (isDoubleWordElement(element))
    index = arith::ShLIOp::create(
        builder, loc, index, arith::ConstantIndexOp::create(builder, loc, 1));
  return arith::AddIOp::create(builder, loc, first, index);
}

LogicalResult lowerLoad(memref::LoadOp load, Value words, Value view) {
  OpBuilder builder(load);
  Location loc = load.getLoc();
  Type element = load.getType();
  if (unsigned bits = subWordBits(element)) {
    auto [word, shift] = subWordPlace(builder, loc, byteShiftOf(view),
                                      load.getIndices().front(), bits);
    Value loaded = memref::LoadOp::create(builder, loc, words, word);
    Value shifted = arith::ShRUIOp::create(builder, loc, loaded, shift);
    Value value = arith::TruncIOp::create(builder, loc, element, shifted);
    load.replaceAllUsesWith(value);
    load.erase();
    return success();
  }
  Value index =
      wordIndex(builder, loc, view, load.getIndices().front(), element);
  Value low = memref::LoadOp::create(builder, loc, words, index);
  Value value = low;
  if (isDoubleWordElement(element)) {
    Value next = arith::AddIOp::create(
        builder, loc, index, arith::ConstantIndexOp::create(builder, loc, 1));
    Value high = memref::LoadOp::create(builder, loc, words, next);
    Type i64 = builder.getI64Type();
    Value wideHigh = arith::ExtUIOp::create(builder, loc, i64, high);
    Value shifted = arith::ShLIOp::create(
        builder, loc, wideHigh,
        arith::ConstantIntOp::create(builder, loc, i64, 32));
    value = arith::OrIOp::create(
        builder, loc, shifted, arith::ExtUIOp::create(builder, loc, i64, low));
  }
  if (value.getType() != element)
    value = arith::BitcastOp::create(builder, loc, element, value);
  load.replaceAllUsesWith(value);
  load.erase();
  return success();
}

LogicalResult lowerStore(memref::StoreOp store, Value words, Value view) {
  OpBuilder builder(store);
  Location loc = store.getLoc();
  Value value = store.getValueToStore();
  Type element = value.getType();
  if (unsigned bits = subWordBits(element)) {
    auto [word, shift] = subWordPlace(builder, loc, byteShiftOf(view),
                                      store.getIndices().front(), bits);
    Type i32 = builder.getI32Type();
    Value wide = arith::ShLIOp::create(
        builder, loc, arith::ExtUIOp::create(builder, loc, i32, value), shift);
    Value ones = arith::ConstantIntOp::create(builder, loc, i32,
                                              (int64_t(1) << bits) - 1);
    Value keep = arith::XOrIOp::create(
        builder, loc, arith::ShLIOp::create(builder, loc, ones, shift),
        arith::ConstantIntOp::create(builder, loc, i32, -1));
    memref::AtomicRMWOp::create(builder, loc, arith::AtomicRMWKind::andi, keep,
                                words, ValueRange{word});
    memref::AtomicRMWOp::create(builder, loc, arith::AtomicRMWKind::ori, wide,
                                words, ValueRange{word});
    store.erase();
    return success();
  }
  Value index =
      wordIndex(builder, loc, view, store.getIndices().front(), element);
  if (isWordElement(element)) {
    if (!element.isInteger(32))
      value =
          arith::BitcastOp::create(builder, loc, builder.getI32Type(), value);
    memref::StoreOp::create(builder, loc, value, words, index);
  } else {
    Type i32 = builder.getI32Type(), i64 = builder.getI64Type();
    if (!element.isInteger(64))
      value = arith::BitcastOp::create(builder, loc, i64, value);
    Value high = arith::ShRUIOp::create(
        builder, loc, value,
        arith::ConstantIntOp::create(builder, loc, i64, 32));
    memref::StoreOp::create(builder, loc,
                            arith::TruncIOp::create(builder, loc, i32, value),
                            words, index);
    Value next = arith::AddIOp::create(
        builder, loc, index, arith::ConstantIndexOp::create(builder, loc, 1));
    memref::StoreOp::create(builder, loc,
                            arith::TruncIOp::create(builder, loc, i32, high),
                            words, next);
  }
  store.erase();
  return success();
}

} // namespace

FailureOr<DynamicSharedRoots>
gpumem::vulkan::makeDynamicSharedRoots(gpu::GPUFuncOp kernel,
                                       uint32_t bytesPushOffset) {
  DynamicSharedRoots roots;
  SmallVector<gpu::DynamicSharedMemoryOp> dynamics;
  kernel.walk([&](gpu::DynamicSharedMemoryOp op) { dynamics.push_back(op); });
  if (dynamics.empty())
    return roots;
  MLIRContext *context = kernel.getContext();
  Location loc = kernel.getLoc();
  IntegerType i32 = IntegerType::get(context, 32);
  Attribute workgroup =
      gpu::AddressSpaceAttr::get(context, gpu::AddressSpace::Workgroup);
  roots.words = kernel.addWorkgroupAttribution(
      MemRefType::get({1}, i32, MemRefLayoutAttrInterface(), workgroup), loc);
  kernel->setAttr(
      kDynamicSharedAttrName,
      IntegerAttr::get(i32, kernel.getNumWorkgroupAttributions() - 1));

  Value bytes;
  auto dynamicBytes = [&]() -> FailureOr<Value> {
    if (bytes)
      return bytes;
    unsigned position = kernel.getNumArguments();
    if (failed(kernel.insertArgument(position, IndexType::get(context),
                                     DictionaryAttr::get(context), loc))) {
      kernel.emitOpError() << "cannot take the size of its dynamic shared "
                              "memory as an argument";
      return failure();
    }
    kernel.setArgAttr(position, kPushOffsetAttrName,
                      IntegerAttr::get(i32, bytesPushOffset));
    bytes = kernel.getArgument(position);
    return bytes;
  };

  for (gpu::DynamicSharedMemoryOp dynamic : dynamics) {
    OpBuilder builder(dynamic);
    Value zero = arith::ConstantIndexOp::create(builder, dynamic.getLoc(), 0);
    Value bytePlaceholder;
    for (OpOperand &use : llvm::make_early_inc_range(dynamic->getUses())) {
      Operation *user = use.getOwner();
      if (auto dim = dyn_cast<memref::DimOp>(user)) {
        FailureOr<Value> size = dynamicBytes();
        if (failed(size))
          return failure();
        dim.replaceAllUsesWith(*size);
        dim.erase();
        continue;
      }
      auto view = dyn_cast<memref::ViewOp>(user);
      if (!view) {
        // Pointers and anything else: the checks after linearization say
        // what is supported.
        if (!bytePlaceholder) {
          bytePlaceholder = UnrealizedConversionCastOp::create(
                                builder, dynamic.getLoc(), dynamic.getType(),
                                ValueRange{roots.words, zero})
                                .getResult(0);
          roots.views.push_back(bytePlaceholder);
        }
        use.set(bytePlaceholder);
        continue;
      }
      Type element = view.getType().getElementType();
      if (!isWordElement(element) && !isDoubleWordElement(element) &&
          !subWordBits(element))
        return view.emitOpError()
               << "views dynamic shared memory as elements of " << element
               << "; the vulkan target addresses dynamic shared memory in "
                  "32-bit words and views it as 8-, 16-, 32- or 64-bit "
                  "integers and 32- or 64-bit floats";
      OpBuilder at(view);
      auto rootType = MemRefType::get({ShapedType::kDynamic}, element,
                                      MemRefLayoutAttrInterface(), workgroup);
      Value root = UnrealizedConversionCastOp::create(
                       at, view.getLoc(), rootType,
                       ValueRange{roots.words, view.getByteShift()})
                       .getResult(0);
      SmallVector<OpFoldResult> sizes, strides;
      viewShape(at, view, sizes, strides);
      Value cast = memref::ReinterpretCastOp::create(
          at, view.getLoc(), view.getType(), root, at.getIndexAttr(0), sizes,
          strides);
      roots.views.push_back(root);
      view.replaceAllUsesWith(cast);
      view.erase();
    }
    dynamic.erase();
  }
  return roots;
}

LogicalResult
gpumem::vulkan::lowerDynamicSharedAccesses(DynamicSharedRoots &roots,
                                           int64_t address) {
  for (Value view : roots.views) {
    Type element = cast<MemRefType>(view.getType()).getElementType();
    for (Operation *user : llvm::make_early_inc_range(view.getUsers())) {
      // Views whose accesses now index the root.
      if (isa<memref::ReinterpretCastOp, memref::ExtractStridedMetadataOp>(
              user) &&
          user->use_empty()) {
        user->erase();
        continue;
      }
      if (auto pointer =
              dyn_cast<memref::ExtractAlignedPointerAsIndexOp>(user)) {
        OpBuilder builder(pointer);
        Value base =
            arith::ConstantIndexOp::create(builder, pointer.getLoc(), address);
        Value shifted = arith::AddIOp::create(builder, pointer.getLoc(), base,
                                              byteShiftOf(view));
        pointer.replaceAllUsesWith(shifted);
        pointer.erase();
        continue;
      }
      if (auto load = dyn_cast<memref::LoadOp>(user)) {
        if (failed(lowerLoad(load, roots.words, view)))
          return failure();
        continue;
      }
      if (auto store = dyn_cast<memref::StoreOp>(user)) {
        if (failed(lowerStore(store, roots.words, view)))
          return failure();
        continue;
      }
      if (auto generic = dyn_cast<memref::GenericAtomicRMWOp>(user);
          generic && element.isF32()) {
        OpBuilder builder(user);
        Value index = wordIndex(builder, user->getLoc(), view,
                                generic.getIndices().front(), element);
        retypeFloatGenericAtomic(generic, roots.words, index);
        continue;
      }
      if (isa<memref::AtomicRMWOp, memref::GenericAtomicRMWOp>(user)) {
        if (!element.isInteger(32))
          return user->emitOpError()
                 << "on " << element
                 << " elements of dynamic shared memory is not supported by "
                    "the vulkan target (atomics there are on i32 and f32 "
                    "only)";
        // The memref is operand 1 of atomic_rmw, 0 of generic_atomic_rmw;
        // the single linear index follows it.
        unsigned memrefOperand = isa<memref::AtomicRMWOp>(user) ? 1 : 0;
        OpBuilder builder(user);
        Value index = wordIndex(builder, user->getLoc(), view,
                                user->getOperand(memrefOperand + 1), element);
        user->setOperand(memrefOperand, roots.words);
        user->setOperand(memrefOperand + 1, index);
        continue;
      }
      // A view still in use: what uses it is to blame.
      Operation *culprit = user;
      if (isa<memref::ReinterpretCastOp>(user) && !user->use_empty())
        culprit = *user->getUsers().begin();
      return culprit->emitOpError()
             << "uses dynamic shared memory in a way the vulkan target does "
                "not support (loads, stores and atomics through memref.view, "
                "memref.dim and memref.extract_aligned_pointer_as_index)";
    }
    view.getDefiningOp()->erase();
  }
  return success();
}
