//===----------------------------------------------------------------------===//
// Helpers shared by the passes that reason about GPU address spaces.
// Workgroup memory is spelled `#gpu.address_space<workgroup>` or the integer
// 3 (NVVM numbering); private memory `#gpu.address_space<private>`, 5, or
// no memory space at all. Every spelling is treated alike.
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_TRANSFORMS_WORKGROUPMEMORY_H
#define GPUMEM_TRANSFORMS_WORKGROUPMEMORY_H

#include "gpumem/Runtime/Limits.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/ValueRange.h"
#include "mlir/Support/LLVM.h"
#include "llvm/Support/LogicalResult.h"

#include <cstdint>

namespace mlir {
class DataLayout;
class ModuleOp;
class OpBuilder;
namespace gpu {
class GPUFuncOp;
class GPUModuleOp;
class LaunchOp;
} // namespace gpu
} // namespace mlir

namespace gpumem {

/// True when `memorySpace` names GPU workgroup (shared) memory.
bool isWorkgroupMemorySpace(mlir::Attribute memorySpace);

/// The number of the address space `memorySpace` names, in NVVM's numbering:
/// an integer as written, #gpu.address_space<global/workgroup/private> as
/// 1, 3, 5, no memory space as 0; -1 for anything else.
int64_t getAddressSpaceNumber(mlir::Attribute memorySpace);

/// True when `type` is a memref in workgroup memory.
bool isWorkgroupMemRef(mlir::Type type);

/// The memory spaces a GPU has, for checkMemorySpaces: the numbers a
/// variable (memref.global, llvm.mlir.global) may live in and those any
/// memref or pointer may use, each with the text that lists them for a
/// message ("global 1, shared 3, constant 4"), and the GPUs' name
/// ("NVIDIA GPUs").
struct GPUMemorySpaces {
  llvm::ArrayRef<int64_t> variables;
  llvm::StringRef variablesText;
  llvm::ArrayRef<int64_t> values;
  llvm::StringRef valuesText;
  llvm::StringRef gpus;
};

/// Checks every op in the gpu.modules of `module` against `spaces`: a
/// variable or a result in a memory space the GPUs lack (or one that is
/// not a number) is an error at the op, which the backend would otherwise
/// meet as an LLVM ERROR.
mlir::LogicalResult checkMemorySpaces(mlir::ModuleOp module,
                                      const GPUMemorySpaces &spaces);

/// The bytes of a static workgroup buffer of `type`.
uint64_t getWorkgroupBufferBytes(mlir::MemRefType type,
                                 const mlir::DataLayout &layout);

/// Emits the bytes of a buffer of `type` whose dynamic dimensions are
/// `dynamicSizes` (in order) and whose elements take `elementBytes`: the
/// static part as one constant, times each dynamic size.
mlir::Value createBufferBytes(mlir::OpBuilder &builder, mlir::Location loc,
                              mlir::MemRefType type,
                              mlir::ValueRange dynamicSizes,
                              uint64_t elementBytes);

/// The alignment of a workgroup buffer of `type`: 16 bytes, or its element's
/// when that is larger (docs/workgroup-memory.md).
uint64_t getWorkgroupBufferAlignment(mlir::MemRefType type,
                                     const mlir::DataLayout &layout);

/// The alignment every workgroup buffer gets at least, and the largest one
/// every gpumem target guarantees (Limits.h); asking for more is an error
/// (docs/workgroup-memory.md).
constexpr uint64_t kMinWorkgroupAlignment = GPUMEM_WORKGROUP_ALIGNMENT;
constexpr uint64_t kMaxWorkgroupAlignment = GPUMEM_MAX_WORKGROUP_ALIGNMENT;

/// Checks an alignment asked for workgroup memory at `loc`: a power of two,
/// at most kMaxWorkgroupAlignment. Emits an error at `loc` otherwise.
mlir::LogicalResult checkWorkgroupAlignment(mlir::Location loc,
                                            uint64_t alignment);

/// The alignment workgroup attribution `index` of `kernel` asks for (its
/// `llvm.align` attribution attribute, which upstream's NVVM lowering also
/// reads), or 0.
uint64_t getRequestedAlignment(mlir::gpu::GPUFuncOp kernel, unsigned index);
void setRequestedAlignment(mlir::gpu::GPUFuncOp kernel, unsigned index,
                           uint64_t alignment);

/// The alignment of `kernel`'s workgroup attribution `index`, of `type`
/// (given, since a lowering may have moved the body away or retyped the
/// attribution): getWorkgroupBufferAlignment's, or what it asks for when
/// that is more.
uint64_t getAttributionAlignment(mlir::gpu::GPUFuncOp kernel, unsigned index,
                                 mlir::MemRefType type,
                                 const mlir::DataLayout &layout);

/// Adds a workgroup attribution of `type` to `kernel` before the others,
/// asking for `alignment` bytes when not 0.
mlir::BlockArgument prependWorkgroupAttribution(mlir::gpu::GPUFuncOp kernel,
                                                mlir::Type type,
                                                mlir::Location loc,
                                                uint64_t alignment);

/// Erases the workgroup attributions `indices` (ascending, counted among the
/// workgroup attributions) of `kernel`, whose uses are gone; the others keep
/// their attribution attributes.
void eraseWorkgroupAttributions(mlir::gpu::GPUFuncOp kernel,
                                llvm::ArrayRef<unsigned> indices);

/// The alignment dynamic shared memory needs in `module`: the most any
/// buffer placed there or view of it asks for, at least 16 bytes.
uint64_t getDynamicSharedAlignment(mlir::gpu::GPUModuleOp module);
/// Raises getDynamicSharedAlignment(module) to `alignment`.
void requireDynamicSharedAlignment(mlir::gpu::GPUModuleOp module,
                                   uint64_t alignment);

/// After a gpu.module's lowering to LLVM: its zero-size workgroup globals in
/// address space `sharedSpace` (gpu.dynamic_shared_memory) get external
/// linkage, the form NVPTX and AMDGPU place after all static shared memory,
/// aligned to getDynamicSharedAlignment; every other one in that space is
/// aligned to at least kMinWorkgroupAlignment.
void finalizeSharedGlobals(mlir::gpu::GPUModuleOp module, unsigned sharedSpace);

/// The attribute of a memref.view of dynamic shared memory that says how the
/// buffer it replaced was aligned (for the report).
constexpr llvm::StringLiteral kViewAlignmentAttrName = "gpumem.alignment";

/// The attribute of a memref.view that gpumem-plan-workgroup-memory made for
/// a buffer sharing bytes with another one: the buffer's number in its
/// kernel, from 1, for initcheck to tell the buffers' writes apart.
constexpr llvm::StringLiteral kSharedBytesBufferAttrName =
    "gpumem.shares_bytes";

/// The number (kSharedBytesBufferAttrName) of the planned buffer `memref`
/// views, through views, subviews and casts; 0 when it views none or the
/// chain cannot be followed (a block argument, a value a region yields).
uint32_t getSharedBytesBuffer(mlir::Value memref);

/// The alignment of `view`, a memref.view of dynamic shared memory: the most
/// of getWorkgroupBufferAlignment's for its type, its kViewAlignmentAttrName
/// and what a memref.assume_alignment of it assumes.
uint64_t getDynamicViewAlignment(mlir::Operation *view);

/// Keeps the locations of `launch`'s workgroup attributions (the
/// allocations they were hoisted from) and the alignments they ask for
/// (`alignments`, 0 for none, by attribution; missing ones keep what an
/// earlier call recorded) in the launch's own location, as metadata of a
/// fused location, which outlining gives the kernel.
void recordWorkgroupBufferLocations(mlir::gpu::LaunchOp launch,
                                    llvm::ArrayRef<uint64_t> alignments = {});

/// Gives `kernel`'s workgroup attributions the locations and alignments
/// recordWorkgroupBufferLocations kept for the launch it was outlined from
/// (the alignments as their `llvm.align`), and drops what was kept.
void applyRecordedBufferData(mlir::gpu::GPUFuncOp kernel);

} // namespace gpumem

#endif // GPUMEM_TRANSFORMS_WORKGROUPMEMORY_H
