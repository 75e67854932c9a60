//===----------------------------------------------------------------------===//
// gpumem-check-device-code: device code no target can lower, rejected with a
// located error before any lowering sees it.
//
// Algorithm: one walk of the module. At the top level of the module and of
// every gpu.module, an op that is neither a symbol nor a terminator is an
// error (no lowering or translation handles code outside functions);
// an llvm.mlir.global anywhere must have an LLVM-compatible type. Inside
// device code (gpu.launch bodies, gpu.func bodies and functions of a
// gpu.module), every memref.alloca and memref.alloc is checked against the
// memory spaces it can live in, and every gpu.func attribution must have a
// static shape. Every llvm.inline_asm's operand references ($N, ${N:m})
// must name one of its operands: LLVM's assembly printers abort on one
// that does not. Every memref type of a value, function signature or
// memref.global (each type reported once) must have a strided layout, and
// in host code an integer memory space or none: the LLVM lowerings have no
// descriptor for other layouts and map #gpu.address_space only in device
// code, and fail with an error without a location. Block and grid sizes a
// function declares (known_block_size, nvvm.maxntid, ...) must be at
// least 1: LLVM's NVPTX backend rejects a negative one without a location.
// The gpu ops that exist only in device code (gpu.barrier, gpu.thread_id,
// gpu.shuffle, ...) must not be in host code, which no lowering of the
// host handles.
//===----------------------------------------------------------------------===//

#include "gpumem/Transforms/Passes.h"
#include "gpumem/Transforms/WorkgroupMemory.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMTypes.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

namespace gpumem {
#define GEN_PASS_DEF_GPUMEMCHECKDEVICECODEPASS
#include "gpumem/Transforms/Passes.h.inc"
} // namespace gpumem

using namespace mlir;

namespace {

/// The number of operands `constraints` gives an inline assembly string:
/// its constraint codes but the clobbers (`~{...}`).
unsigned countAsmOperands(StringRef constraints) {
  if (constraints.trim().empty())
    return 0;
  SmallVector<StringRef> codes;
  constraints.split(codes, ',');
  return llvm::count_if(
      codes, [](StringRef code) { return !code.trim().starts_with("~"); });
}

/// Checks the operand references of `op`'s assembly string against its
/// operands; returns whether one named none.
bool checkInlineAsm(LLVM::InlineAsmOp op) {
  StringRef text = op.getAsmString();
  unsigned operands = countAsmOperands(op.getConstraints());
  for (size_t i = 0; i + 1 < text.size(); ++i) {
    if (text[i] != '$')
      continue;
    char next = text[i + 1];
    if (next == '$' || next == '(' || next == '|' || next == ')') {
      ++i;
      continue;
    }
    StringRef rest = text.drop_front(i + 1);
    bool braced = rest.consume_front("{");
    size_t digits = rest.find_first_not_of("0123456789");
    StringRef number = rest.take_front(digits);
    if (number.empty())
      continue;
    uint64_t index = 0;
    if (number.getAsInteger(10, index) || index >= operands) {
      op.emitOpError() << "refers to operand "
                       << (braced ? "${" + number.str() + "}"
                                  : "$" + number.str())
                       << " in its assembly string, but has " << operands
                       << " operand" << (operands == 1 ? "" : "s")
                       << " (outputs and inputs, numbered from 0)";
      return true;
    }
    i += number.size();
  }
  return false;
}

bool isDeviceCode(Operation *op) {
  return op->getParentOfType<gpu::LaunchOp>() ||
         op->getParentOfType<gpu::GPUModuleOp>();
}

/// True when `op` is host code: outside gpu.launch bodies, gpu.modules and
/// `deviceFunctions`.
bool isHostCode(Operation *op, const DenseSet<Operation *> &deviceFunctions) {
  if (isDeviceCode(op) || isa<gpu::GPUModuleOp>(op))
    return false;
  for (Operation *parent = op; parent; parent = parent->getParentOp())
    if (deviceFunctions.contains(parent))
      return false;
  return true;
}

/// True when `op` exists only in device code: the gpu ops that read a
/// thread's, block's or warp's identity or synchronize them.
bool isDeviceOnlyOp(Operation *op) {
  return isa<gpu::BarrierOp, gpu::ThreadIdOp, gpu::BlockIdOp, gpu::BlockDimOp,
             gpu::GridDimOp, gpu::GlobalIdOp, gpu::LaneIdOp, gpu::SubgroupIdOp,
             gpu::NumSubgroupsOp, gpu::SubgroupSizeOp, gpu::ClusterIdOp,
             gpu::ClusterDimOp, gpu::ClusterBlockIdOp, gpu::ClusterDimBlocksOp,
             gpu::ShuffleOp, gpu::AllReduceOp, gpu::SubgroupReduceOp,
             gpu::DynamicSharedMemoryOp, gpu::PrintfOp,
             gpu::SubgroupMmaLoadMatrixOp, gpu::SubgroupMmaStoreMatrixOp,
             gpu::SubgroupMmaComputeOp, gpu::SubgroupMmaConstantMatrixOp,
             gpu::SubgroupMmaElementwiseOp>(op);
}

/// Why no lowering converts `type` (in host code when `host`): empty when
/// one does.
std::string whyNotLowered(Type type, bool host) {
  auto memref = dyn_cast<BaseMemRefType>(type);
  if (!memref)
    return "";
  if (auto ranked = dyn_cast<MemRefType>(type); ranked && !ranked.isStrided())
    return ", whose layout is not strided; the lowerings take identity and "
           "strided<...> layouts only";
  Attribute space = memref.getMemorySpace();
  if (host && space && !isa<IntegerAttr>(space))
    return " in host code, whose memory space is not an integer; host code "
           "takes memory spaces given as integers only (no memory space for "
           "host memory)";
  return "";
}

/// The functions outside gpu.modules that device code calls, directly or
/// through others: outlining copies them into the kernels' gpu.module.
DenseSet<Operation *> getDeviceFunctions(ModuleOp module) {
  SymbolTableCollection symbols;
  DenseSet<Operation *> functions;
  SmallVector<Operation *> worklist;
  auto visit = [&](Operation *root) {
    root->walk([&](CallOpInterface call) {
      auto callee =
          dyn_cast_if_present<SymbolRefAttr>(call.getCallableForCallee());
      if (!callee)
        return;
      Operation *function = symbols.lookupNearestSymbolFrom(call, callee);
      if (function && functions.insert(function).second)
        worklist.push_back(function);
    });
  };
  module.walk([&](Operation *op) {
    if (isa<gpu::LaunchOp, gpu::GPUModuleOp>(op)) {
      visit(op);
      return WalkResult::skip();
    }
    return WalkResult::advance();
  });
  while (!worklist.empty())
    visit(worklist.pop_back_val());
  return functions;
}

/// Reports each memref type `op` defines (results, block arguments of its
/// regions, a function's signature, a memref.global's type) that no
/// lowering converts, once per type in `reported`; returns whether it did.
/// Host code is what is outside gpu.launch bodies, gpu.modules and
/// `deviceFunctions`.
bool checkTypes(Operation *op, const DenseSet<Operation *> &deviceFunctions,
                DenseSet<Type> &reported) {
  bool host = isHostCode(op, deviceFunctions);
  // gpumem-hoist-workgroup-allocs says more about a workgroup allocation in
  // host code (where to allocate it instead): left to it, with its type.
  if (host && isa<memref::AllocOp, memref::AllocaOp>(op) &&
      gpumem::isWorkgroupMemRef(op->getResult(0).getType())) {
    reported.insert(op->getResult(0).getType());
    return false;
  }
  bool failed = false;
  auto check = [&](Type type, bool hostType, StringRef what, unsigned index) {
    std::string why = whyNotLowered(type, hostType);
    if (why.empty() || !reported.insert(type).second)
      return;
    op->emitOpError() << "has " << what << " " << index << " of type " << type
                      << why;
    failed = true;
  };
  for (auto [index, type] : llvm::enumerate(op->getResultTypes()))
    check(type, host, "result", index);
  if (auto global = dyn_cast<memref::GlobalOp>(op))
    check(global.getType(), host, "type", 0);
  auto function = dyn_cast<FunctionOpInterface>(op);
  if (function) {
    for (auto [index, type] : llvm::enumerate(function.getArgumentTypes()))
      check(type, host, "argument", index);
    for (auto [index, type] : llvm::enumerate(function.getResultTypes()))
      check(type, host, "function result", index);
  }
  // The body of a gpu.launch is device code.
  bool bodyHost = host && !isa<gpu::LaunchOp>(op);
  for (Region &region : op->getRegions())
    for (Block &block : region)
      if (!(function && block.isEntryBlock()))
        for (BlockArgument arg : block.getArguments())
          check(arg.getType(), bodyHost, "block argument", arg.getArgNumber());
  return failed;
}

/// Reports a block or grid size below 1 that function `op` declares;
/// returns whether there was one.
bool checkDeclaredSizes(FunctionOpInterface op) {
  static const char *const names[] = {
      "known_block_size",    "known_grid_size", "gpu.known_block_size",
      "gpu.known_grid_size", "nvvm.maxntid",    "nvvm.reqntid",
      "nvvm.cluster_dim"};
  for (const char *name : names) {
    auto sizes = op->getAttrOfType<DenseI32ArrayAttr>(name);
    if (!sizes)
      continue;
    for (auto [dim, size] : llvm::enumerate(sizes.asArrayRef())) {
      if (size >= 1)
        continue;
      op->emitOpError() << "declares " << name << " " << size
                        << " in dimension "
                        << "xyz"[std::min<size_t>(dim, 2)]
                        << "; block and grid sizes are at least 1";
      return true;
    }
  }
  return false;
}

struct CheckDeviceCodePass
    : gpumem::impl::GPUMemCheckDeviceCodePassBase<CheckDeviceCodePass> {
  /// Attributions are laid out at compile time: each needs a static shape.
  /// Returns whether one did not.
  static bool checkAttributions(gpu::GPUFuncOp func) {
    auto check =
        [&](ArrayRef<BlockArgument> attributions, StringRef kind) {
          for (auto [index, attribution] : llvm::enumerate(attributions)) {
            auto type = dyn_cast<MemRefType>(attribution.getType());
            if (type && type.hasStaticShape())
              continue;
            func.emitOpError()
                << "has " << kind << " attribution " << index << " of type "
                << attribution.getType()
                << "; attributions need a static shape (a buffer sized at run "
                   "time is a memref.alloc or memref.alloca in the kernel)";
            return true;
          }
          return false;
        };
    bool workgroup = check(func.getWorkgroupAttributions(), "workgroup");
    return check(func.getPrivateAttributions(), "private") || workgroup;
  }

  void runOnOperation() override {
    bool failed = false;
    DenseSet<Type> reported;
    DenseSet<Operation *> deviceFunctions = getDeviceFunctions(getOperation());
    // Definitions before uses: a type is reported where it first appears.
    getOperation().walk<WalkOrder::PreOrder>(
        [&](Operation *op) {
          if (isDeviceOnlyOp(op) && isHostCode(op, deviceFunctions)) {
            op->emitOpError()
                << "is device code in host code; it belongs in a gpu.launch "
                   "body, a gpu.func or a function called only from them";
            failed = true;
            return;
          }
          failed |= checkTypes(op, deviceFunctions, reported);
          if (auto function = dyn_cast<FunctionOpInterface>(op))
            failed |= checkDeclaredSizes(function);
        });
    getOperation().walk([&](Operation *op) {
      Operation *parent = op->getParentOp();
      if (isa_and_present<gpu::GPUModuleOp, ModuleOp>(parent) &&
          !op->hasTrait<OpTrait::IsTerminator>() &&
          !isa<SymbolOpInterface>(op)) {
        op->emitOpError() << "is at the top level of "
                          << (isa<ModuleOp>(parent) ? "the module"
                                                    : "a gpu.module")
                          << ", outside any function; only functions and "
                             "globals belong there";
        failed = true;
        return;
      }
      if (auto func = dyn_cast<gpu::GPUFuncOp>(op)) {
        failed |= checkAttributions(func);
        return;
      }
      if (auto inlineAsm = dyn_cast<LLVM::InlineAsmOp>(op)) {
        failed |= checkInlineAsm(inlineAsm);
        return;
      }
      if (auto global = dyn_cast<LLVM::GlobalOp>(op)) {
        if (!LLVM::isCompatibleType(global.getGlobalType())) {
          global.emitOpError()
              << "has type " << global.getGlobalType()
              << ", which is not an LLVM type (index has no size in LLVM IR: "
                 "use i64 or i32)";
          failed = true;
        }
        return;
      }
      if (!isa<memref::AllocaOp, memref::AllocOp>(op) || !isDeviceCode(op))
        return;
      auto type = cast<MemRefType>(op->getResult(0).getType());
      int64_t space = gpumem::getAddressSpaceNumber(type.getMemorySpace());
      bool isAlloca = isa<memref::AllocaOp>(op);
      bool legal = isAlloca ? (space == 0 || space == 3 || space == 5)
                            : (space == 0 || space == 1 || space == 3);
      if (legal)
        return;
      InFlightDiagnostic diag = op->emitOpError()
                                << "allocates in memory space ";
      if (auto integer = dyn_cast<IntegerAttr>(type.getMemorySpace()))
        diag << integer.getInt();
      else
        diag << type.getMemorySpace();
      diag << " inside device code; ";
      if (isAlloca)
        diag << "an alloca is private (no memory space, 5 or "
                "#gpu.address_space<private>) or workgroup (3 or "
                "#gpu.address_space<workgroup>) memory";
      else
        diag << "an alloc is device (no memory space, 1 or "
                "#gpu.address_space<global>) or workgroup (3 or "
                "#gpu.address_space<workgroup>) memory";
      failed = true;
    });
    if (failed)
      signalPassFailure();
  }
};

} // namespace
