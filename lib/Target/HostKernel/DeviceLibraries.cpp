//===----------------------------------------------------------------------===//
// A GPU's device math library on the host (DeviceLibraries.h). A library
// function whose libm counterpart computes the same function (to within
// the two libraries' documented ulp bounds) is renamed to it, or, when the
// module declares the libm function already, its calls are redirected
// there; the object links libm. Every other declaration must be a helper
// the target defines (reciprocal square root, integer power: bodies of LLVM
// ops), or a host or runtime function; anything else is an error at its
// first call.
//===----------------------------------------------------------------------===//

#include "DeviceLibraries.h"
#include "SanitizeMemRefAccesses.h"

#include "mlir/IR/SymbolTable.h"

#include "llvm/ADT/StringSet.h"

using namespace mlir;

namespace {

/// libm functions (double forms; the float forms add "f").
constexpr llvm::StringLiteral kLibm[] = {
    "acos",  "acosh",  "asin",      "asinh", "atan",      "atan2",  "atanh",
    "cbrt",  "ceil",   "copysign",  "cos",   "cosh",      "erf",    "erfc",
    "exp",   "exp10",  "exp2",      "expm1", "fabs",      "fdim",   "floor",
    "fma",   "fmax",   "fmin",      "fmod",  "hypot",     "lgamma", "log",
    "log10", "log1p",  "log2",      "logb",  "nearbyint", "pow",    "remainder",
    "rint",  "round",  "roundeven", "sin",   "sinh",      "sqrt",   "tan",
    "tanh",  "tgamma", "trunc"};

} // namespace

bool gpumem::hostkernel::isLibmFunction(StringRef name) {
  static const llvm::StringSet<> names = [] {
    llvm::StringSet<> set;
    for (StringRef base : kLibm) {
      set.insert(base);
      set.insert((base + "f").str());
    }
    return set;
  }();
  return names.contains(name);
}

LogicalResult
gpumem::hostkernel::mapDeviceLibraryCalls(gpu::GPUModuleOp module,
                                          const DeviceLibrary &library) {
  SymbolTable symbols(module);
  for (auto func :
       llvm::make_early_inc_range(module.getOps<LLVM::LLVMFuncOp>())) {
    if (!func.isExternal())
      continue;
    StringRef name = func.getName();
    std::string libm = library.libmCounterpart(name);
    if (!libm.empty()) {
      if (symbols.lookup(libm)) {
        // The module already declares the libm function: calls go there.
        if (failed(SymbolTable::replaceAllSymbolUses(
                func, StringAttr::get(module.getContext(), libm), module)))
          return func.emitOpError()
                 << "could not be renamed to '" << libm << "'";
        func.erase();
        continue;
      }
      if (failed(symbols.rename(func, libm)))
        return func.emitOpError() << "could not be renamed to '" << libm << "'";
      continue;
    }
    if (llvm::any_of(library.helpers,
                     [&](const DeviceLibraryHelper &helper) {
                       return helper.name == name;
                     }) ||
        llvm::is_contained(library.hostFunctions, name) ||
        isLibmFunction(name) || getSanitizerService(name))
      continue;
    std::optional<SymbolTable::UseRange> uses = func.getSymbolUses(module);
    Operation *where = func;
    if (uses && !uses->empty())
      where = uses->begin()->getUser();
    return where->emitError()
           << "calls '" << name << "', which the " << library.targetName
           << " target does not provide (it provides " << library.provides
           << ")";
  }
  return success();
}

namespace {

/// Gives the declaration `func` the body of `helper` and internal linkage.
LogicalResult defineMathHelper(LLVM::LLVMFuncOp func,
                               gpumem::hostkernel::MathHelper helper) {
  using gpumem::hostkernel::MathHelper;
  LLVM::LLVMFunctionType type = func.getFunctionType();
  bool isPowi = helper == MathHelper::PowerOfInteger;
  unsigned expected = isPowi ? 2 : 1;
  Type result = type.getReturnType();
  if (type.getNumParams() != expected || !isa<FloatType>(result) ||
      type.getParams()[0] != result ||
      (isPowi && !type.getParams()[1].isInteger(32)))
    return func.emitOpError() << "does not have the signature of '"
                              << func.getName() << "' in its GPU library";
  OpBuilder builder(func.getContext());
  Block *entry = func.addEntryBlock(builder);
  builder.setInsertionPointToStart(entry);
  Location loc = func.getLoc();
  Value x = entry->getArgument(0);
  Value value;
  if (isPowi) {
    value =
        LLVM::PowIOp::create(builder, loc, result, x, entry->getArgument(1));
  } else {
    Value one = LLVM::ConstantOp::create(builder, loc, result,
                                         builder.getFloatAttr(result, 1.0));
    value = LLVM::FDivOp::create(builder, loc, one,
                                 LLVM::SqrtOp::create(builder, loc, x));
  }
  LLVM::ReturnOp::create(builder, loc, value);
  func.setLinkage(LLVM::Linkage::Internal);
  return success();
}

} // namespace

LogicalResult
gpumem::hostkernel::defineDeviceLibraryHelpers(gpu::GPUModuleOp module,
                                               const DeviceLibrary &library) {
  for (auto func : module.getOps<LLVM::LLVMFuncOp>()) {
    if (!func.isExternal())
      continue;
    for (const DeviceLibraryHelper &helper : library.helpers)
      if (func.getName() == helper.name &&
          failed(defineMathHelper(func, helper.helper)))
        return failure();
  }
  return success();
}
