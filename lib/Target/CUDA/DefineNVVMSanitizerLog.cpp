//===----------------------------------------------------------------------===//
// gpumem-define-nvvm-sanitizer-log: --sanitize=memcheck in code that runs on
// an NVIDIA GPU, which reports through a log in global memory
// (include/gpumem/Runtime/DeviceSanitizerLog.h).
//
// The memref checks declare the report functions they call
// (__gpumem_sanitizer_accessError, ...AccessErrorShared, ...divisionError).
// Algorithm: the module gets the zero-initialized global log and the
// functions get bodies, written below as MLIR text with the layout's
// constants and parsed once per module:
//   record(kind, detail, what, location, index, size, base):
//     who = linear block id << THREAD_BITS | linear thread id
//     for each slot i < min(count, RECORDS) whose kind, what and location
//       are this site's: hits += 1, first = min(first, who); return
//     slot = atomic count++
//     slot >= RECORDS: dropped += 1; return
//     fill the slot (strings copied, cut to their fields), then publish
//     its kind with a release store
// Each report function converts its arguments and calls record, which is
// kept out of line so that the checks add one call to the error path only.
// The runtime reads the log after each launch (runtime/cuda/SanitizerLog.cpp,
// and cuda-emu's with --sanitize-device-log) and reports it with
// runtime/common/SanitizerReports.cpp.
//===----------------------------------------------------------------------===//

#include "gpumem/Runtime/DeviceSanitizerLog.h"
#include "gpumem/Target/CUDA/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"

#include <cstddef>

namespace gpumem {
#define GEN_PASS_DEF_GPUMEMDEFINENVVMSANITIZERLOGPASS
#include "gpumem/Target/CUDA/Passes.h.inc"
} // namespace gpumem

using namespace mlir;

namespace {

constexpr llvm::StringLiteral kPrefix = "__gpumem_sanitizer_";

/// The log, the record function and the report functions, with the
/// names of DeviceSanitizerLog.h's constants after a '$' ($RECORD and $LOG:
/// the record's and the log's struct types; $ACCESS, $SHARED_ACCESS,
/// $DIVISION: the kinds).
constexpr const char *kDefinitions = R"mlir(
llvm.mlir.global external @__gpumem_sanitizer_log() {addr_space = 1 : i32, alignment = 8 : i64} : $LOG {
  %0 = llvm.mlir.zero : $LOG
  llvm.return %0 : $LOG
}

// Copies the C string at %from into the %n-byte field at %to, cut.
llvm.func internal @__gpumem_sanitizer_copy(%to: !llvm.ptr, %from: !llvm.ptr, %n: i64) attributes {no_inline} {
  %zero = llvm.mlir.constant(0 : i64) : i64
  %one = llvm.mlir.constant(1 : i64) : i64
  %nul = llvm.mlir.constant(0 : i8) : i8
  %last = llvm.sub %n, %one : i64
  llvm.br ^loop(%zero : i64)
^loop(%i: i64):
  %more = llvm.icmp "ult" %i, %last : i64
  llvm.cond_br %more, ^body, ^done(%i : i64)
^body:
  %src = llvm.getelementptr %from[%i] : (!llvm.ptr, i64) -> !llvm.ptr, i8
  %c = llvm.load %src : !llvm.ptr -> i8
  %dst = llvm.getelementptr %to[%i] : (!llvm.ptr, i64) -> !llvm.ptr, i8
  llvm.store %c, %dst : i8, !llvm.ptr
  %end = llvm.icmp "eq" %c, %nul : i8
  %next = llvm.add %i, %one : i64
  llvm.cond_br %end, ^exit, ^loop(%next : i64)
^done(%at: i64):
  %tail = llvm.getelementptr %to[%at] : (!llvm.ptr, i64) -> !llvm.ptr, i8
  llvm.store %nul, %tail : i8, !llvm.ptr
  llvm.br ^exit
^exit:
  llvm.return
}

llvm.func internal @__gpumem_sanitizer_record(%kind: i32, %detail: i32, %what: !llvm.ptr, %location: !llvm.ptr, %index: i64, %size: i64, %base: i64) attributes {no_inline} {
  %global = llvm.mlir.addressof @__gpumem_sanitizer_log : !llvm.ptr<1>
  %log = llvm.addrspacecast %global : !llvm.ptr<1> to !llvm.ptr
  %tx = nvvm.read.ptx.sreg.tid.x : i32
  %ty = nvvm.read.ptx.sreg.tid.y : i32
  %tz = nvvm.read.ptx.sreg.tid.z : i32
  %ntx = nvvm.read.ptx.sreg.ntid.x : i32
  %nty = nvvm.read.ptx.sreg.ntid.y : i32
  %bx = nvvm.read.ptx.sreg.ctaid.x : i32
  %by = nvvm.read.ptx.sreg.ctaid.y : i32
  %bz = nvvm.read.ptx.sreg.ctaid.z : i32
  %nbx = nvvm.read.ptx.sreg.nctaid.x : i32
  %nby = nvvm.read.ptx.sreg.nctaid.y : i32
  %tx64 = llvm.zext %tx : i32 to i64
  %ty64 = llvm.zext %ty : i32 to i64
  %tz64 = llvm.zext %tz : i32 to i64
  %ntx64 = llvm.zext %ntx : i32 to i64
  %nty64 = llvm.zext %nty : i32 to i64
  %bx64 = llvm.zext %bx : i32 to i64
  %by64 = llvm.zext %by : i32 to i64
  %bz64 = llvm.zext %bz : i32 to i64
  %nbx64 = llvm.zext %nbx : i32 to i64
  %nby64 = llvm.zext %nby : i32 to i64
  %t1 = llvm.mul %nty64, %tz64 : i64
  %t2 = llvm.add %ty64, %t1 : i64
  %t3 = llvm.mul %ntx64, %t2 : i64
  %thread = llvm.add %tx64, %t3 : i64
  %b1 = llvm.mul %nby64, %bz64 : i64
  %b2 = llvm.add %by64, %b1 : i64
  %b3 = llvm.mul %nbx64, %b2 : i64
  %block = llvm.add %bx64, %b3 : i64
  %bits = llvm.mlir.constant($THREAD_BITS : i64) : i64
  %shifted = llvm.shl %block, %bits : i64
  %who = llvm.or %shifted, %thread : i64
  %whatAddress = llvm.ptrtoint %what : !llvm.ptr to i64
  %locationAddress = llvm.ptrtoint %location : !llvm.ptr to i64
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %c1 = llvm.mlir.constant(1 : i32) : i32
  %records = llvm.mlir.constant($RECORDS : i32) : i32
  %countAt = llvm.getelementptr %log[0, 0] : (!llvm.ptr) -> !llvm.ptr, $LOG
  %count = llvm.load %countAt atomic monotonic {alignment = 4 : i64} : !llvm.ptr -> i32
  %fewer = llvm.icmp "ult" %count, %records : i32
  %taken = llvm.select %fewer, %count, %records : i1, i32
  llvm.br ^scan(%c0 : i32)
^scan(%i: i32):
  %more = llvm.icmp "ult" %i, %taken : i32
  llvm.cond_br %more, ^check, ^append
^check:
  %slot = llvm.getelementptr %log[0, 2, %i] : (!llvm.ptr, i32) -> !llvm.ptr, $LOG
  %kindAt = llvm.getelementptr %slot[0, 6] : (!llvm.ptr) -> !llvm.ptr, $RECORD
  %seen = llvm.load %kindAt atomic acquire {alignment = 4 : i64} : !llvm.ptr -> i32
  %seenWhat = llvm.load %slot : !llvm.ptr -> i64
  %locationAt = llvm.getelementptr %slot[0, 1] : (!llvm.ptr) -> !llvm.ptr, $RECORD
  %seenLocation = llvm.load %locationAt : !llvm.ptr -> i64
  %sameKind = llvm.icmp "eq" %seen, %kind : i32
  %sameWhat = llvm.icmp "eq" %seenWhat, %whatAddress : i64
  %sameLocation = llvm.icmp "eq" %seenLocation, %locationAddress : i64
  %s1 = llvm.and %sameKind, %sameWhat : i1
  %same = llvm.and %s1, %sameLocation : i1
  %next = llvm.add %i, %c1 : i32
  llvm.cond_br %same, ^hit, ^scan(%next : i32)
^hit:
  %hitsAt = llvm.getelementptr %slot[0, 8] : (!llvm.ptr) -> !llvm.ptr, $RECORD
  %h = llvm.atomicrmw add %hitsAt, %c1 monotonic : !llvm.ptr, i32
  %firstAt = llvm.getelementptr %slot[0, 2] : (!llvm.ptr) -> !llvm.ptr, $RECORD
  %f = llvm.atomicrmw umin %firstAt, %who monotonic : !llvm.ptr, i64
  llvm.return
^append:
  %claimed = llvm.atomicrmw add %countAt, %c1 monotonic : !llvm.ptr, i32
  %room = llvm.icmp "ult" %claimed, %records : i32
  llvm.cond_br %room, ^fill, ^drop
^drop:
  %droppedAt = llvm.getelementptr %log[0, 1] : (!llvm.ptr) -> !llvm.ptr, $LOG
  %d = llvm.atomicrmw add %droppedAt, %c1 monotonic : !llvm.ptr, i32
  llvm.return
^fill:
  %new = llvm.getelementptr %log[0, 2, %claimed] : (!llvm.ptr, i32) -> !llvm.ptr, $LOG
  llvm.store %whatAddress, %new : i64, !llvm.ptr
  %newLocation = llvm.getelementptr %new[0, 1] : (!llvm.ptr) -> !llvm.ptr, $RECORD
  llvm.store %locationAddress, %newLocation : i64, !llvm.ptr
  %newFirst = llvm.getelementptr %new[0, 2] : (!llvm.ptr) -> !llvm.ptr, $RECORD
  llvm.store %who, %newFirst : i64, !llvm.ptr
  %newIndex = llvm.getelementptr %new[0, 3] : (!llvm.ptr) -> !llvm.ptr, $RECORD
  llvm.store %index, %newIndex : i64, !llvm.ptr
  %newSize = llvm.getelementptr %new[0, 4] : (!llvm.ptr) -> !llvm.ptr, $RECORD
  llvm.store %size, %newSize : i64, !llvm.ptr
  %newBase = llvm.getelementptr %new[0, 5] : (!llvm.ptr) -> !llvm.ptr, $RECORD
  llvm.store %base, %newBase : i64, !llvm.ptr
  %newDetail = llvm.getelementptr %new[0, 7] : (!llvm.ptr) -> !llvm.ptr, $RECORD
  llvm.store %detail, %newDetail : i32, !llvm.ptr
  %newHits = llvm.getelementptr %new[0, 8] : (!llvm.ptr) -> !llvm.ptr, $RECORD
  llvm.store %c1, %newHits : i32, !llvm.ptr
  %newWhat = llvm.getelementptr %new[0, 10] : (!llvm.ptr) -> !llvm.ptr, $RECORD
  %whatBytes = llvm.mlir.constant($WHAT_BYTES : i64) : i64
  llvm.call @__gpumem_sanitizer_copy(%newWhat, %what, %whatBytes) : (!llvm.ptr, !llvm.ptr, i64) -> ()
  %newText = llvm.getelementptr %new[0, 11] : (!llvm.ptr) -> !llvm.ptr, $RECORD
  %locationBytes = llvm.mlir.constant($LOCATION_BYTES : i64) : i64
  llvm.call @__gpumem_sanitizer_copy(%newText, %location, %locationBytes) : (!llvm.ptr, !llvm.ptr, i64) -> ()
  %newKind = llvm.getelementptr %new[0, 6] : (!llvm.ptr) -> !llvm.ptr, $RECORD
  llvm.store %kind, %newKind atomic release {alignment = 4 : i64} : i32, !llvm.ptr
  llvm.return
}

llvm.func @__gpumem_sanitizer_accessError(%what: !llvm.ptr, %location: !llvm.ptr, %dim: i64, %index: i64, %size: i64, %base: !llvm.ptr) {
  %kind = llvm.mlir.constant($ACCESS : i32) : i32
  %detail = llvm.trunc %dim : i64 to i32
  %at = llvm.ptrtoint %base : !llvm.ptr to i64
  llvm.call @__gpumem_sanitizer_record(%kind, %detail, %what, %location, %index, %size, %at) : (i32, i32, !llvm.ptr, !llvm.ptr, i64, i64, i64) -> ()
  llvm.return
}

llvm.func @__gpumem_sanitizer_accessErrorShared(%what: !llvm.ptr, %location: !llvm.ptr, %dim: i64, %index: i64, %size: i64, %base: !llvm.ptr<3>) {
  %kind = llvm.mlir.constant($SHARED_ACCESS : i32) : i32
  %detail = llvm.trunc %dim : i64 to i32
  %at = llvm.ptrtoint %base : !llvm.ptr<3> to i64
  llvm.call @__gpumem_sanitizer_record(%kind, %detail, %what, %location, %index, %size, %at) : (i32, i32, !llvm.ptr, !llvm.ptr, i64, i64, i64) -> ()
  llvm.return
}

llvm.func @__gpumem_sanitizer_divisionError(%overflow: i32, %what: !llvm.ptr, %location: !llvm.ptr) {
  %kind = llvm.mlir.constant($DIVISION : i32) : i32
  %zero = llvm.mlir.constant(0 : i64) : i64
  llvm.call @__gpumem_sanitizer_record(%kind, %overflow, %what, %location, %zero, %zero, %zero) : (i32, i32, !llvm.ptr, !llvm.ptr, i64, i64, i64) -> ()
  llvm.return
}
)mlir";

/// The functions of kDefinitions the memref checks call.
constexpr llvm::StringLiteral kReportFunctions[] = {
    "__gpumem_sanitizer_accessError", "__gpumem_sanitizer_accessErrorShared",
    "__gpumem_sanitizer_divisionError"};

std::string definitionsText() {
  // The record's fields, in the header's order.
  std::string record =
      "!llvm.struct<(i64, i64, i64, i64, i64, i64, i32, i32, i32, i32, "
      "array<" +
      std::to_string(GPUMEM_DEVICE_SANITIZER_WHAT_BYTES) + " x i8>, array<" +
      std::to_string(GPUMEM_DEVICE_SANITIZER_LOCATION_BYTES) + " x i8>)>";
  std::string log = "!llvm.struct<(i32, i32, array<" +
                    std::to_string(GPUMEM_DEVICE_SANITIZER_RECORDS) + " x " +
                    record + ">)>";
  // Longer names first: $RECORDS before $RECORD.
  std::pair<StringRef, std::string> values[] = {
      {"$RECORDS", std::to_string(GPUMEM_DEVICE_SANITIZER_RECORDS)},
      {"$RECORD", record},
      {"$WHAT_BYTES", std::to_string(GPUMEM_DEVICE_SANITIZER_WHAT_BYTES)},
      {"$LOCATION_BYTES",
       std::to_string(GPUMEM_DEVICE_SANITIZER_LOCATION_BYTES)},
      {"$THREAD_BITS", std::to_string(GPUMEM_DEVICE_SANITIZER_THREAD_BITS)},
      {"$LOG", log},
      {"$SHARED_ACCESS", std::to_string(GPUMEM_DEVICE_REPORT_SHARED_ACCESS)},
      {"$ACCESS", std::to_string(GPUMEM_DEVICE_REPORT_ACCESS)},
      {"$DIVISION", std::to_string(GPUMEM_DEVICE_REPORT_DIVISION)}};
  std::string text = kDefinitions;
  for (auto &[name, value] : values)
    for (size_t at; (at = text.find(name.str())) != std::string::npos;)
      text.replace(at, name.size(), value);
  return text;
}

// The text's struct mirrors the header's: field offsets the runtime reads.
static_assert(offsetof(GPUMemDeviceSanitizerRecord, kind) == 48 &&
                  offsetof(GPUMemDeviceSanitizerRecord, hits) == 56 &&
                  offsetof(GPUMemDeviceSanitizerRecord, what) == 64 &&
                  offsetof(GPUMemDeviceSanitizerLog, records) == 8,
              "DeviceSanitizerLog.h and kDefinitions disagree");

struct DefineNVVMSanitizerLogPass
    : gpumem::impl::GPUMemDefineNVVMSanitizerLogPassBase<
          DefineNVVMSanitizerLogPass> {
  void runOnOperation() override {
    gpu::GPUModuleOp module = getOperation();
    // What only the runtime's shadows can check is refused where it is
    // called.
    auto declared = [&](StringRef name) {
      auto func = module.lookupSymbol<LLVM::LLVMFuncOp>(name);
      return func && func.isExternal();
    };
    WalkResult unsupported = module.walk([&](LLVM::CallOp call) {
      StringRef callee = call.getCallee().value_or("");
      if (!callee.starts_with(kPrefix) || !declared(callee) ||
          llvm::is_contained(kReportFunctions, callee))
        return WalkResult::advance();
      call.emitError() << "--sanitize=racecheck and initcheck keep a shadow "
                          "of every byte in the runtime: they run on the "
                          "cpu, cuda-emu and rocm-emu targets, not in "
                          "device code ("
                       << callee << ")";
      return WalkResult::interrupt();
    });
    if (unsupported.wasInterrupted())
      return signalPassFailure();
    // Nothing to define: the checks call none, or they are defined already.
    if (llvm::none_of(kReportFunctions, declared))
      return;
    if (Operation *taken = module.lookupSymbol(GPUMEM_DEVICE_SANITIZER_LOG)) {
      taken->emitError() << "the symbol '" GPUMEM_DEVICE_SANITIZER_LOG
                            "' is the sanitizer's log; rename this one";
      return signalPassFailure();
    }
    OwningOpRef<ModuleOp> parsed = parseSourceString<ModuleOp>(
        definitionsText(), ParserConfig(&getContext()));
    if (!parsed) {
      module.emitError() << "internal error: the sanitizer's device "
                            "functions do not parse";
      return signalPassFailure();
    }
    Location loc = module.getLoc();
    // Declarations go first: the insertion point may not be one of them.
    for (Operation &op : *parsed->getBody()) {
      auto name =
          op.getAttrOfType<StringAttr>(SymbolTable::getSymbolAttrName());
      auto declaration = module.lookupSymbol<LLVM::LLVMFuncOp>(name);
      if (declaration && declaration.isExternal() &&
          declaration.getFunctionType() ==
              cast<LLVM::LLVMFuncOp>(op).getFunctionType())
        declaration.erase();
    }
    OpBuilder builder = OpBuilder::atBlockBegin(module.getBody());
    for (Operation &op : llvm::make_early_inc_range(*parsed->getBody())) {
      auto name =
          op.getAttrOfType<StringAttr>(SymbolTable::getSymbolAttrName());
      if (Operation *declared = module.lookupSymbol(name)) {
        declared->emitError() << "'" << name.getValue()
                              << "' is a function of the sanitizer, with type "
                              << cast<LLVM::LLVMFuncOp>(op).getFunctionType();
        return signalPassFailure();
      }
      op.remove();
      op.setLoc(loc);
      op.walk([&](Operation *nested) { nested->setLoc(loc); });
      builder.insert(&op);
    }
  }
};

} // namespace
