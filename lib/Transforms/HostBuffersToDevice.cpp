//===----------------------------------------------------------------------===//
// gpumem-host-buffers-to-device: host memrefs used inside gpu.launch bodies
// (or passed to gpu.launch_func) become usable on the device, by copies
// (mode=copy), managed memory (mode=managed) or host registration
// (mode=register). docs/memory.md states the rules and why.
//
// Algorithm, per host function (one outside any gpu.module):
//  1-3. Analysis (HostBufferAnalysis.h): the host buffers the function's
//     launches use, traced to their roots; their host accesses (with
//     escapes) and what each launch may do to them.
//  4. copy mode (HostBufferCopies.h): in the blocks that hold the buffer,
//     runs of launches with no host access between them form groups; each
//     group gets a device buffer, a copy in unless the buffer is fresh, a
//     copy out when a member may write it, and a gpu.dealloc. An
//     asynchronous launch is a group of its own, chained to its tokens.
//  5. managed mode: a memref.alloc whose uses are views, memory accesses,
//     calls, launches and memref.dealloc becomes gpu.alloc host_shared, its
//     deallocs gpu.dealloc; every other buffer is handled as in copy mode.
//  6. register mode: gpu.host_register of the buffer (cast to unranked)
//     after its definition (function entry for arguments and globals),
//     gpu.host_unregister before its memref.dealloc, else at the end of the
//     defining block or before the function's returns. Allocations that are
//     registered get a page alignment, so two never share a page. Constant
//     globals are copied as in copy mode.
// Every buffer's treatment is decided, and every copy group planned, on the
// unchanged IR; then the IR is rewritten.
//===----------------------------------------------------------------------===//

#include "HostBufferAnalysis.h"
#include "HostBufferCopies.h"

#include "gpumem/Transforms/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "gpumem-host-buffers-to-device"

namespace gpumem {
#define GEN_PASS_DEF_GPUMEMHOSTBUFFERSTODEVICEPASS
#include "gpumem/Transforms/Passes.h.inc"
} // namespace gpumem

using namespace mlir;
using namespace gpumem::hostbuffers;

namespace {

using Mode = gpumem::HostBufferMode;

/// The alignment given to allocations that register mode registers: one
/// host page, so that two registered ranges never share a page.
constexpr int64_t kPageAlignment = 4096;

/// Rewrites the host buffers of one host function.
class FunctionRewriter {
public:
  FunctionRewriter(FunctionOpInterface func, Mode mode,
                   SymbolTableCollection &symbols)
      : func(func), mode(mode), symbols(symbols) {}

  LogicalResult run();

  unsigned numDeviceBuffers = 0, numCopiesIn = 0, numCopiesOut = 0,
           numManaged = 0, numRegistered = 0;

private:
  void rewriteManaged(HostBuffer &buffer);
  void rewriteRegistered(HostBuffer &buffer);

  FunctionOpInterface func;
  Mode mode;
  SymbolTableCollection &symbols;
};

void FunctionRewriter::rewriteManaged(HostBuffer &buffer) {
  auto alloc = cast<memref::AllocOp>(buffer.def);
  OpBuilder builder(alloc);
  auto managed = gpu::AllocOp::create(
      builder, alloc.getLoc(), alloc.getType(), Type(), ValueRange(),
      alloc.getDynamicSizes(), alloc.getSymbolOperands(), /*hostShared=*/true);
  alloc.getResult().replaceAllUsesWith(managed.getMemref());
  alloc.erase();
  for (memref::DeallocOp dealloc : buffer.deallocs) {
    builder.setInsertionPoint(dealloc);
    gpu::DeallocOp::create(builder, dealloc.getLoc(), Type(), ValueRange(),
                           dealloc.getMemref());
    dealloc.erase();
  }
  ++numManaged;
}

void FunctionRewriter::rewriteRegistered(HostBuffer &buffer) {
  Block *scope = buffer.scope;
  OpBuilder builder(func.getContext());
  if (buffer.def)
    builder.setInsertionPointAfter(buffer.def);
  else
    builder.setInsertionPointToStart(scope);
  Location loc = buffer.getLoc();
  if (auto alloc = dyn_cast_if_present<memref::AllocOp>(buffer.def)) {
    if (alloc.getAlignment().value_or(0) < kPageAlignment)
      alloc.setAlignment(kPageAlignment);
  } else if (auto alloca = dyn_cast_if_present<memref::AllocaOp>(buffer.def)) {
    if (alloca.getAlignment().value_or(0) < kPageAlignment)
      alloca.setAlignment(kPageAlignment);
  } else if (buffer.kind == RootKind::Global) {
    if (buffer.global.getAlignment().value_or(0) < kPageAlignment)
      buffer.global.setAlignment(kPageAlignment);
  }
  Value host = buffer.createHostValue(builder, loc);
  Value unranked = host;
  if (auto ranked = dyn_cast<MemRefType>(host.getType()))
    unranked =
        memref::CastOp::create(builder, loc,
                               UnrankedMemRefType::get(ranked.getElementType(),
                                                       ranked.getMemorySpace()),
                               host);
  gpu::HostRegisterOp::create(builder, loc, unranked);
  ++numRegistered;

  // Unregistered before its memref.dealloc, else when its block ends.
  if (!buffer.deallocs.empty()) {
    for (memref::DeallocOp dealloc : buffer.deallocs) {
      builder.setInsertionPoint(dealloc);
      gpu::HostUnregisterOp::create(builder, dealloc.getLoc(), unranked);
    }
    return;
  }
  DominanceInfo dominance(func);
  for (Block &block : *scope->getParent()) {
    if (block.empty() || !block.mightHaveTerminator())
      continue;
    Operation *terminator = block.getTerminator();
    if (terminator->getNumSuccessors() != 0 ||
        !dominance.dominates(scope, &block))
      continue;
    builder.setInsertionPoint(terminator);
    gpu::HostUnregisterOp::create(builder, terminator->getLoc(), unranked);
  }
}

LogicalResult FunctionRewriter::run() {
  HostBufferAnalysis analysis(func, symbols);
  analysis.run();
  auto &buffers = analysis.getBuffers();
  if (buffers.empty())
    return success();

  // Decide per buffer, plan every group on the unchanged IR, then rewrite.
  SmallVector<HostBuffer *> managed, registered;
  SmallVector<CopyGroup> groups;
  HostBufferCopies copies(func, analysis);
  bool failed = false;
  for (auto &entry : buffers) {
    HostBuffer &buffer = *entry.second;
    if (buffer.registeredByUser ||
        (buffer.launches.empty() && buffer.launchFuncs.empty()))
      continue;
    bool used = llvm::any_of(buffer.deviceAccess,
                             [](auto &entry) { return entry.second.any(); });
    if (!used) {
      LLVM_DEBUG(llvm::dbgs() << "host buffer at " << buffer.getLoc()
                              << ": no launch reads or writes it\n");
      continue;
    }
    if (mode == Mode::Managed && buffer.managedCandidate) {
      LLVM_DEBUG(llvm::dbgs()
                 << "host buffer at " << buffer.getLoc() << ": managed\n");
      managed.push_back(&buffer);
      continue;
    }
    if (mode == Mode::Register && !buffer.isConstantGlobal()) {
      LLVM_DEBUG(llvm::dbgs()
                 << "host buffer at " << buffer.getLoc() << ": registered\n");
      registered.push_back(&buffer);
      continue;
    }
    if (mlir::failed(copies.checkCopyable(buffer))) {
      failed = true;
      continue;
    }
    copies.plan(buffer, groups);
  }
  if (failed)
    return failure();
  for (CopyGroup &group : groups)
    copies.emit(group);
  numDeviceBuffers = copies.numDeviceBuffers;
  numCopiesIn = copies.numCopiesIn;
  numCopiesOut = copies.numCopiesOut;
  for (HostBuffer *buffer : managed)
    rewriteManaged(*buffer);
  for (HostBuffer *buffer : registered)
    rewriteRegistered(*buffer);
  return success();
}

struct HostBuffersToDevicePass
    : gpumem::impl::GPUMemHostBuffersToDevicePassBase<HostBuffersToDevicePass> {
  using Base::Base;

  void runOnOperation() override {
    Mode parsed = mode;
    if (parsed == Mode::None)
      return; // the program as written
    SymbolTableCollection symbols;
    SmallVector<FunctionOpInterface> functions;
    getOperation().walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (isa<gpu::GPUModuleOp>(op))
        return WalkResult::skip(); // device code
      if (auto function = dyn_cast<FunctionOpInterface>(op)) {
        if (!function.isExternal())
          functions.push_back(function);
        return WalkResult::skip();
      }
      return WalkResult::advance();
    });
    bool failed = false;
    for (FunctionOpInterface function : functions) {
      FunctionRewriter rewriter(function, parsed, symbols);
      if (mlir::failed(rewriter.run()))
        failed = true;
      numDeviceBuffers += rewriter.numDeviceBuffers;
      numCopiesIn += rewriter.numCopiesIn;
      numCopiesOut += rewriter.numCopiesOut;
      numManaged += rewriter.numManaged;
      numRegistered += rewriter.numRegistered;
    }
    if (failed)
      signalPassFailure();
  }
};

} // namespace
