//===----------------------------------------------------------------------===//
// libdevice on the host. convert-gpu-to-nvvm turns math ops into calls of
// libdevice's __nv_* functions; the NVPTX backend links libdevice. On the
// host, a __nv_F whose libm counterpart F computes the same function (to
// within the two libraries' documented ulp bounds) is renamed to F, and the
// object links libm; __nv_fast_F (approximations on a GPU) becomes the
// accurate F. __nv_rsqrt(f) and __nv_powi(f), which libm lacks, get bodies
// here. docs/cuda-emu.md lists where results may differ from a GPU.
//
// The only other functions a cuda-emu module may call without defining them
// are the host's malloc and free (CUDA's device heap) and the two CUDA
// runtime entry points NVVM code uses, vprintf and __assertfail, which
// NVVMOps.cpp turns into runtime services.
//===----------------------------------------------------------------------===//

#include "NVVMToCPU.h"

#include "mlir/IR/SymbolTable.h"

#include "llvm/ADT/StringSet.h"

using namespace mlir;
using namespace gpumem::cudaemu;

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

/// libdevice functions defined here (see defineLibdeviceHelpers).
constexpr llvm::StringLiteral kHelpers[] = {"__nv_rsqrt", "__nv_rsqrtf",
                                            "__nv_powi", "__nv_powif"};

/// Functions the host provides that NVVM code may call.
constexpr llvm::StringLiteral kHostFunctions[] = {"malloc", "free", "vprintf",
                                                  "__assertfail"};

const llvm::StringSet<> &libmFunctions() {
  static const llvm::StringSet<> names = [] {
    llvm::StringSet<> set;
    for (StringRef name : kLibm) {
      set.insert(name);
      set.insert((name + "f").str());
    }
    return set;
  }();
  return names;
}

/// The libm function `libdevice` (a __nv_ name) maps to, or "".
std::string libmCounterpart(StringRef libdevice) {
  StringRef base = libdevice;
  if (!base.consume_front("__nv_"))
    return "";
  base.consume_front("fast_");
  return libmFunctions().contains(base) ? base.str() : "";
}

} // namespace

LogicalResult gpumem::cudaemu::mapLibdeviceCalls(gpu::GPUModuleOp module) {
  SymbolTable symbols(module);
  for (auto func :
       llvm::make_early_inc_range(module.getOps<LLVM::LLVMFuncOp>())) {
    if (!func.isExternal())
      continue;
    StringRef name = func.getName();
    std::string libm = libmCounterpart(name);
    if (!libm.empty()) {
      if (Operation *existing = symbols.lookup(libm)) {
        // The module already declares the libm function: calls go there.
        if (failed(SymbolTable::replaceAllSymbolUses(
                func, StringAttr::get(module.getContext(), libm), module)))
          return func.emitOpError()
                 << "could not be renamed to '" << libm << "'";
        (void)existing;
        func.erase();
        continue;
      }
      if (failed(symbols.rename(func, libm)))
        return func.emitOpError() << "could not be renamed to '" << libm << "'";
      continue;
    }
    if (llvm::is_contained(kHelpers, name) ||
        llvm::is_contained(kHostFunctions, name) ||
        libmFunctions().contains(name))
      continue;
    std::optional<SymbolTable::UseRange> uses = func.getSymbolUses(module);
    Operation *where = func;
    if (uses && !uses->empty())
      where = uses->begin()->getUser();
    return where->emitError()
           << "calls '" << name
           << "', which the cuda-emu target does not provide (it provides "
              "libdevice's math functions, malloc, free, vprintf and "
              "__assertfail)";
  }
  return success();
}

LogicalResult gpumem::cudaemu::defineLibdeviceHelpers(gpu::GPUModuleOp module) {
  for (auto func : module.getOps<LLVM::LLVMFuncOp>()) {
    StringRef name = func.getName();
    if (!func.isExternal() || !llvm::is_contained(kHelpers, name))
      continue;
    LLVM::LLVMFunctionType type = func.getFunctionType();
    bool isPowi = name.starts_with("__nv_powi");
    unsigned expected = isPowi ? 2 : 1;
    Type result = type.getReturnType();
    if (type.getNumParams() != expected || !isa<FloatType>(result) ||
        type.getParams()[0] != result ||
        (isPowi && !type.getParams()[1].isInteger(32)))
      return func.emitOpError()
             << "does not have libdevice's signature for '" << name << "'";
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
  }
  return success();
}
