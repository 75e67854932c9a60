//===----------------------------------------------------------------------===//
// gpumem-check-nvidia-op-requirements: ops the chip or PTX version of a
// gpu.module's #nvvm.target lacks are located errors before any lowering,
// never an `LLVM ERROR: Cannot select` in NVPTX or a ptxas failure.
//
// Algorithm: read the target's chip (sm_XY, with or without the `a` of
// arch-specific features) and PTX version (its `+ptxNN`, else the chip's
// minimum, as the attach pass fills it in), then walk the gpu.module once.
// For each op, find what it needs from the tables below:
//  - tensor-core matrices of gpu.subgroup_mma_* and nvvm.wmma.*: the row of
//    kWMMA whose element type and shape the matrix has (for an A, B or C
//    fragment alone, the least demanding row that has it); a shape or type
//    no row has, or one upstream's gpu lowering does not take, is an error;
//  - nvgpu.mma.sync and nvvm.mma.sync: the row of kMMASync for the A
//    element type and the shape;
//  - other ops: kOps by name (a name ending in '.' is a prefix).
// A requirement is a minimum SM (or exactly an `a` chip) and a minimum PTX
// version; the first one the target misses is the error, naming the op,
// what needs it and the target. The numbers are PTX ISA's tables as LLVM
// 22's NVPTX backend selects them (tried per chip; the inline-PTX ones with
// ptxas of CUDA 13). NVVM ops that declare a minimum SM themselves
// (RequiresSMInterface) are left to the gpu.module verifier, which checks
// them against the target as soon as it is attached.
//===----------------------------------------------------------------------===//

#include "gpumem/Support/NVIDIATarget.h"
#include "gpumem/Target/CUDA/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "gpumem-check-nvidia-op-requirements"

namespace gpumem {
#define GEN_PASS_DEF_GPUMEMCHECKNVIDIAOPREQUIREMENTSPASS
#include "gpumem/Target/CUDA/Passes.h.inc"
} // namespace gpumem

using namespace mlir;
using namespace gpumem;

namespace {

//===----------------------------------------------------------------------===//
// Tables
//===----------------------------------------------------------------------===//

/// What an instruction needs: SM `sm` or newer (with `archSpecific`: exactly
/// the chip sm_<sm>a) and PTX `ptx` or newer.
struct Requirement {
  unsigned sm = 0;
  bool archSpecific = false;
  Version10 ptx = 0;
};

/// One wmma shape of one multiplicand type (PTX ISA, "Matrix Shape" and
/// "Matrix Data-types" of wmma). `lowered`: upstream's lowering of the
/// gpu.subgroup_mma ops takes it (its s8/u8 fragments of the 32x8 and 8x32
/// shapes have the wrong number of registers and crash the translation).
struct WMMARow {
  llvm::StringLiteral ab;
  /// Accumulator types, comma separated.
  llvm::StringLiteral accumulators;
  int64_t m, n, k;
  Requirement needs;
  bool lowered;
};

const WMMARow kWMMA[] = {
    {"f16", "f16,f32", 16, 16, 16, {70, false, 60}, true},
    {"f16", "f16,f32", 32, 8, 16, {70, false, 61}, true},
    {"f16", "f16,f32", 8, 32, 16, {70, false, 61}, true},
    {"s8", "s32", 16, 16, 16, {72, false, 63}, true},
    {"u8", "s32", 16, 16, 16, {72, false, 63}, true},
    {"s8", "s32", 32, 8, 16, {72, false, 63}, false},
    {"u8", "s32", 32, 8, 16, {72, false, 63}, false},
    {"s8", "s32", 8, 32, 16, {72, false, 63}, false},
    {"u8", "s32", 8, 32, 16, {72, false, 63}, false},
    {"s4", "s32", 8, 8, 32, {75, false, 63}, false},
    {"u4", "s32", 8, 8, 32, {75, false, 63}, false},
    {"b1", "s32", 8, 8, 128, {75, false, 63}, false},
    {"bf16", "f32", 16, 16, 16, {80, false, 70}, false},
    {"bf16", "f32", 32, 8, 16, {80, false, 70}, false},
    {"bf16", "f32", 8, 32, 16, {80, false, 70}, false},
    {"tf32", "f32", 16, 16, 8, {80, false, 70}, true},
    {"f64", "f64", 8, 8, 4, {80, false, 70}, true},
};

/// One mma.sync shape of one multiplicand type (PTX ISA, "Matrix Shape" of
/// mma).
struct MMASyncRow {
  llvm::StringLiteral ab;
  int64_t m, n, k;
  Requirement needs;
};

const MMASyncRow kMMASync[] = {
    {"f16", 8, 8, 4, {70, false, 64}},    {"f16", 16, 8, 8, {75, false, 65}},
    {"f16", 16, 8, 16, {80, false, 70}},  {"bf16", 16, 8, 8, {80, false, 70}},
    {"bf16", 16, 8, 16, {80, false, 70}}, {"tf32", 16, 8, 4, {80, false, 70}},
    {"tf32", 16, 8, 8, {80, false, 70}},  {"f64", 8, 8, 4, {80, false, 70}},
    {"s8", 8, 8, 16, {75, false, 63}},    {"u8", 8, 8, 16, {75, false, 63}},
    {"s8", 16, 8, 16, {80, false, 70}},   {"u8", 16, 8, 16, {80, false, 70}},
    {"s8", 16, 8, 32, {80, false, 70}},   {"u8", 16, 8, 32, {80, false, 70}},
    {"s4", 8, 8, 32, {75, false, 63}},    {"u4", 8, 8, 32, {75, false, 63}},
    {"s4", 16, 8, 32, {80, false, 70}},   {"u4", 16, 8, 32, {80, false, 70}},
    {"s4", 16, 8, 64, {80, false, 70}},   {"u4", 16, 8, 64, {80, false, 70}},
    {"b1", 8, 8, 128, {75, false, 63}},   {"b1", 16, 8, 128, {80, false, 70}},
    {"b1", 16, 8, 256, {80, false, 70}},  {"e4m3", 16, 8, 32, {89, false, 84}},
    {"e5m2", 16, 8, 32, {89, false, 84}},
};

/// Ops whose requirement does not depend on their operands. A name ending
/// in '.' matches every op it begins; the first match wins.
struct OpRow {
  llvm::StringLiteral name;
  Requirement needs;
};

const OpRow kOps[] = {
    {"nvgpu.ldmatrix", {75, false, 65}},
    {"nvgpu.mma.sp.sync", {80, false, 71}},
    {"nvgpu.device_async_copy", {80, false, 70}},
    {"nvgpu.device_async_create_group", {80, false, 70}},
    {"nvgpu.device_async_wait", {80, false, 70}},
    {"nvgpu.mbarrier.arrive.expect_tx", {90, false, 80}},
    {"nvgpu.mbarrier.try_wait.parity", {90, false, 78}},
    {"nvgpu.mbarrier.init", {80, false, 70}},
    {"nvgpu.mbarrier.arrive", {80, false, 70}},
    {"nvgpu.mbarrier.arrive.nocomplete", {80, false, 70}},
    {"nvgpu.mbarrier.test.wait", {80, false, 70}},
    {"nvgpu.tma.fence.descriptor", {90, false, 83}},
    {"nvgpu.tma.async.load", {90, false, 80}},
    {"nvgpu.tma.async.store", {90, false, 80}},
    {"nvgpu.tma.prefetch.descriptor", {90, false, 80}},
    {"nvgpu.warpgroup.mma", {90, true, 80}},
    {"nvvm.ldmatrix", {75, false, 65}},
    {"nvvm.stmatrix", {90, false, 78}},
    {"nvvm.mma.sp.sync", {80, false, 71}},
    {"nvvm.cp.async.bulk.", {90, false, 80}},
    {"nvvm.cp.async.", {80, false, 70}},
    {"nvvm.mbarrier.try_wait.", {90, false, 78}},
    {"nvvm.mbarrier.expect_tx", {90, false, 80}},
    {"nvvm.mbarrier.complete_tx", {90, false, 80}},
    {"nvvm.mbarrier.arrive.expect_tx", {90, false, 80}},
    {"nvvm.mbarrier.arrive_drop.expect_tx", {90, false, 80}},
    {"nvvm.mbarrier.", {80, false, 70}},
    {"nvvm.fence.mbarrier.init", {90, false, 80}},
    {"nvvm.fence.proxy.acquire", {90, false, 83}},
    {"nvvm.fence.proxy.release", {90, false, 83}},
    {"nvvm.elect.sync", {90, false, 80}},
    {"nvvm.setmaxregister", {90, true, 80}},
    {"nvvm.wgmma.mma_async", {90, true, 80}},
};

//===----------------------------------------------------------------------===//
// The target
//===----------------------------------------------------------------------===//

struct Target {
  std::string chip;
  unsigned sm = 0;
  bool archSpecific = false;
  /// 0 when unknown (a chip outside gpumem's table and no +ptxNN).
  Version10 ptx = 0;
};

/// The targets of `module`'s #nvvm.target attributes (one per chip it is
/// compiled for), those gpumem can read.
SmallVector<Target> getTargets(gpu::GPUModuleOp module) {
  SmallVector<Target> result;
  ArrayAttr targets = module.getTargetsAttr();
  if (!targets)
    return result;
  for (Attribute attr : targets) {
    auto nvvm = dyn_cast<NVVM::NVVMTargetAttr>(attr);
    if (!nvvm)
      continue;
    Target target;
    target.chip = nvvm.getChip().str();
    StringRef digits = StringRef(target.chip);
    if (!digits.consume_front("sm_"))
      continue;
    target.archSpecific = digits.consume_back("a");
    if (digits.getAsInteger(10, target.sm))
      continue;
    bool malformed = false;
    std::optional<Version10> ptx =
        parsePtxFeature(nvvm.getFeatures(), malformed);
    if (ptx && !malformed)
      target.ptx = *ptx;
    else if (const NVIDIAChip *chip = lookupNVIDIAChip(target.chip))
      target.ptx = chip->minPtx;
    result.push_back(target);
  }
  return result;
}

//===----------------------------------------------------------------------===//
// What an op needs
//===----------------------------------------------------------------------===//

/// What an op needs, and for what ("for m16n16k8 tf32 matrices"); or an
/// error already reported.
struct Need {
  Requirement needs;
  std::string what;
};

std::string shapeName(int64_t m, int64_t n, int64_t k) {
  return "m" + std::to_string(m) + "n" + std::to_string(n) + "k" +
         std::to_string(k);
}

/// PTX's name of a gpu.mma_matrix's element type ("" for none).
std::string getPTXType(gpu::MMAMatrixType type) {
  Type element = type.getElementType();
  if (element.isF16())
    return "f16";
  if (element.isF32())
    return type.getOperand() == "COp" ? "f32" : "tf32";
  if (element.isF64())
    return "f64";
  if (element.isSignedInteger(8))
    return "s8";
  if (element.isUnsignedInteger(8))
    return "u8";
  if (element.isInteger(32))
    return "s32";
  return "";
}

bool hasAccumulator(const WMMARow &row, StringRef type) {
  SmallVector<StringRef> accumulators;
  StringRef(row.accumulators).split(accumulators, ',');
  return llvm::is_contained(accumulators, type);
}

/// Whether `a` asks less of a chip than `b`.
bool isLess(const Requirement &a, const Requirement &b) {
  return std::tie(a.archSpecific, a.sm, a.ptx) <
         std::tie(b.archSpecific, b.sm, b.ptx);
}

/// The shapes (MxK, KxN or MxN for an A, B or C fragment, or mMnNkK for
/// none) the rows of kWMMA for `type` give, restricted to lowered ones when
/// `lowered`.
std::string listWMMAShapes(StringRef type, StringRef operand, bool lowered) {
  SmallVector<std::string> shapes;
  for (const WMMARow &row : kWMMA) {
    if (lowered && !row.lowered)
      continue;
    bool accumulator = operand == "COp";
    if (accumulator ? !hasAccumulator(row, type) : row.ab != type)
      continue;
    std::string shape;
    if (operand == "AOp")
      shape = std::to_string(row.m) + "x" + std::to_string(row.k);
    else if (operand == "BOp")
      shape = std::to_string(row.k) + "x" + std::to_string(row.n);
    else if (operand == "COp")
      shape = std::to_string(row.m) + "x" + std::to_string(row.n);
    else
      shape = shapeName(row.m, row.n, row.k);
    if (!llvm::is_contained(shapes, shape))
      shapes.push_back(shape);
  }
  if (shapes.size() < 2)
    return llvm::join(shapes, "");
  return llvm::join(ArrayRef(shapes).drop_back(), ", ") + " or " +
         shapes.back();
}

StringRef describeOperand(StringRef operand) {
  return operand == "AOp" ? "A" : operand == "BOp" ? "B" : "C";
}

/// The requirement of a wmma fragment of `type` (gpu.mma_matrix) held by
/// `op`; failure after a diagnostic when no lowered row has it.
FailureOr<Need> checkFragment(Operation *op, gpu::MMAMatrixType type) {
  std::string ptxType = getPTXType(type);
  StringRef operand = type.getOperand();
  int64_t rows = type.getShape()[0], cols = type.getShape()[1];
  const WMMARow *best = nullptr;
  for (const WMMARow &row : kWMMA) {
    if (!row.lowered)
      continue;
    bool matches = false;
    if (operand == "AOp")
      matches = row.ab == ptxType && row.m == rows && row.k == cols;
    else if (operand == "BOp")
      matches = row.ab == ptxType && row.k == rows && row.n == cols;
    else
      matches = hasAccumulator(row, ptxType) && row.m == rows && row.n == cols;
    if (matches && (!best || isLess(row.needs, best->needs)))
      best = &row;
  }
  StringRef kind = describeOperand(operand);
  std::string matrix = (kind == "A" ? "an " : "a ") + kind.str() +
                       " matrix of " + std::to_string(rows) + "x" +
                       std::to_string(cols) + " " + ptxType;
  if (!best) {
    std::string shapes = listWMMAShapes(ptxType, operand, /*lowered=*/true);
    if (shapes.empty())
      return op->emitOpError()
             << "has " << (kind == "A" ? "an " : "a ") << kind << " matrix of "
             << ptxType << ", which no NVIDIA tensor-core instruction takes";
    return op->emitOpError()
           << "has " << matrix
           << ", a shape gpumem's NVIDIA tensor-core lowering does not take; "
           << ptxType << " " << kind << " matrices may be " << shapes;
  }
  return Need{best->needs, "for " + matrix};
}

/// gpu.subgroup_mma_compute: the row of its A type and shape.
FailureOr<Need> checkCompute(gpu::SubgroupMmaComputeOp op) {
  auto a = cast<gpu::MMAMatrixType>(op.getOpA().getType());
  auto b = cast<gpu::MMAMatrixType>(op.getOpB().getType());
  auto c = cast<gpu::MMAMatrixType>(op.getOpC().getType());
  std::string aType = getPTXType(a), bType = getPTXType(b),
              cType = getPTXType(c);
  if (aType != bType)
    return op.emitOpError() << "multiplies " << aType << " by " << bType
                            << " matrices; NVIDIA tensor cores take A and B "
                               "matrices of one element type";
  int64_t m = c.getShape()[0], n = c.getShape()[1], k = a.getShape()[1];
  std::string shape = shapeName(m, n, k);
  for (const WMMARow &row : kWMMA) {
    if (row.ab != aType || row.m != m || row.n != n || row.k != k)
      continue;
    if (!row.lowered)
      return op.emitOpError()
             << "multiplies " << shape << " " << aType
             << " matrices, which upstream's NVVM lowering does not take; "
             << aType << " matrices take "
             << listWMMAShapes(aType, "", /*lowered=*/true);
    if (!hasAccumulator(row, cType))
      return op.emitOpError()
             << "accumulates " << aType << " products in " << cType
             << ", which NVIDIA tensor cores do not; they take "
             << llvm::join(llvm::split(StringRef(row.accumulators), ','),
                           " or ");
    return Need{row.needs, "for " + shape + " " + aType + " matrices"};
  }
  std::string shapes = listWMMAShapes(aType, "", /*lowered=*/true);
  if (shapes.empty())
    return op.emitOpError() << "multiplies " << aType
                            << " matrices, which no NVIDIA tensor-core "
                               "instruction takes";
  return op.emitOpError() << "multiplies " << shape << " " << aType
                          << " matrices, a shape no NVIDIA tensor-core "
                             "instruction takes; "
                          << aType << " matrices take " << shapes;
}

/// nvvm.wmma.*: the row of its shape and type, if PTX has one (NVVM's
/// verifier rejects the rest).
std::optional<Need> checkNVVMWMMA(int64_t m, int64_t n, int64_t k,
                                  NVVM::MMATypes type, bool accumulator) {
  std::string name = NVVM::stringifyMMATypes(type).str();
  if (name == "s32")
    accumulator = true;
  const WMMARow *best = nullptr;
  for (const WMMARow &row : kWMMA) {
    if (row.m != m || row.n != n || row.k != k)
      continue;
    bool matches = accumulator ? hasAccumulator(row, name) : row.ab == name;
    if (matches && (!best || isLess(row.needs, best->needs)))
      best = &row;
  }
  if (!best)
    return std::nullopt;
  return Need{best->needs,
              "for " + shapeName(m, n, k) + " " + name + " matrices"};
}

/// PTX's name of the multiplicand type of an nvgpu.mma.sync operand.
std::string getMMASyncType(Type element, bool tf32) {
  if (element.isF16())
    return "f16";
  if (element.isBF16())
    return "bf16";
  if (element.isF32())
    return tf32 ? "tf32" : "";
  if (element.isF64())
    return "f64";
  if (element.isInteger(8))
    return "s8";
  if (element.isInteger(4))
    return "s4";
  if (element.isInteger(1))
    return "b1";
  return "";
}

std::optional<Need> checkMMASync(StringRef type, int64_t m, int64_t n,
                                 int64_t k) {
  for (const MMASyncRow &row : kMMASync)
    if (row.ab == type && row.m == m && row.n == n && row.k == k)
      return Need{row.needs,
                  "for " + shapeName(m, n, k) + " " + type.str() + " matrices"};
  return std::nullopt;
}

std::optional<Need> checkByName(StringRef name) {
  for (const OpRow &row : kOps) {
    StringRef pattern = row.name;
    if (pattern.ends_with(".") ? name.starts_with(pattern) : name == pattern)
      return Need{row.needs, ""};
  }
  return std::nullopt;
}

/// What `op` needs: std::nullopt for nothing, failure after a diagnostic.
FailureOr<std::optional<Need>> getNeed(Operation *op) {
  if (auto compute = dyn_cast<gpu::SubgroupMmaComputeOp>(op)) {
    FailureOr<Need> need = checkCompute(compute);
    if (failed(need))
      return failure();
    return std::optional<Need>(*need);
  }
  if (isa<gpu::SubgroupMmaLoadMatrixOp, gpu::SubgroupMmaStoreMatrixOp,
          gpu::SubgroupMmaConstantMatrixOp>(op)) {
    Type matrix = isa<gpu::SubgroupMmaStoreMatrixOp>(op)
                      ? op->getOperand(0).getType()
                      : op->getResult(0).getType();
    FailureOr<Need> need = checkFragment(op, cast<gpu::MMAMatrixType>(matrix));
    if (failed(need))
      return failure();
    return std::optional<Need>(*need);
  }
  if (auto mma = dyn_cast<nvgpu::MmaSyncOp>(op)) {
    std::array<int64_t, 3> shape = mma.getMmaShapeAsArray();
    std::string type =
        getMMASyncType(mma.getMatrixA().getType().getElementType(),
                       mma.getTf32Enabled().value_or(false));
    return checkMMASync(type, shape[0], shape[1], shape[2]);
  }
  if (auto mma = dyn_cast<NVVM::MmaOp>(op)) {
    std::optional<NVVM::MMATypes> type = mma.getMultiplicandAPtxType();
    if (!type)
      return std::optional<Need>();
    NVVM::MMAShapeAttr shape = mma.getShape();
    return checkMMASync(NVVM::stringifyMMATypes(*type), shape.getM(),
                        shape.getN(), shape.getK());
  }
  if (auto load = dyn_cast<NVVM::WMMALoadOp>(op))
    return checkNVVMWMMA(load.getM(), load.getN(), load.getK(),
                         load.getEltype(), load.getFrag() == NVVM::MMAFrag::c);
  if (auto store = dyn_cast<NVVM::WMMAStoreOp>(op))
    return checkNVVMWMMA(store.getM(), store.getN(), store.getK(),
                         store.getEltype(), /*accumulator=*/true);
  if (auto mma = dyn_cast<NVVM::WMMAMmaOp>(op))
    return checkNVVMWMMA(mma.getM(), mma.getN(), mma.getK(), mma.getEltypeA(),
                         /*accumulator=*/false);
  // fence.proxy orders the async proxy (sm_90) except for its alias kind.
  if (auto fence = dyn_cast<NVVM::FenceProxyOp>(op)) {
    if (fence.getKind() == NVVM::ProxyKind::alias)
      return std::optional<Need>(Need{{70, false, 75}, ""});
    return std::optional<Need>(Need{{90, false, 80}, ""});
  }
  if (std::optional<Need> need = checkByName(op->getName().getStringRef()))
    return need;
  return std::optional<Need>();
}

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

std::string describeNeed(const Need &need) {
  return need.what.empty() ? "" : " " + need.what;
}

/// Reports `need` at `op` when `target` misses it; returns whether it did.
bool reportUnmet(Operation *op, const Need &need, const Target &target) {
  const Requirement &req = need.needs;
  std::string chip = "sm_" + std::to_string(req.sm);
  if (req.archSpecific && (!target.archSpecific || target.sm != req.sm)) {
    op->emitOpError() << "needs " << chip << "a" << describeNeed(need)
                      << " (the arch-specific features of " << chip
                      << "); the target chip is " << target.chip;
    return true;
  }
  if (!req.archSpecific && target.sm < req.sm) {
    op->emitOpError() << "needs " << chip << " or newer" << describeNeed(need)
                      << "; the target chip is " << target.chip;
    return true;
  }
  if (target.ptx && target.ptx < req.ptx) {
    op->emitOpError() << "needs PTX " << formatVersion(req.ptx) << " or later"
                      << describeNeed(need) << "; the target is " << target.chip
                      << " with PTX " << formatVersion(target.ptx)
                      << " (features=+ptx" << req.ptx << " raises it)";
    return true;
  }
  return false;
}

struct CheckNVIDIAOpRequirementsPass
    : gpumem::impl::GPUMemCheckNVIDIAOpRequirementsPassBase<
          CheckNVIDIAOpRequirementsPass> {
  using Base::Base;

  void runOnOperation() override {
    gpu::GPUModuleOp module = getOperation();
    SmallVector<Target> targets = getTargets(module);
    if (targets.empty())
      return;
    // Reported for the first chip that misses it.
    auto reportUnmetOnAny = [&](Operation *op, const Need &need) {
      return llvm::any_of(targets, [&](const Target &target) {
        return reportUnmet(op, need, target);
      });
    };
    bool failed = false;
    module.walk([&](Operation *op) {
      // A function that takes or returns a matrix holds its fragment too:
      // one with no registers crashes NVPTX's argument lowering. Matrices
      // the body's ops use are checked (and reported) at those ops.
      if (auto function = dyn_cast<FunctionOpInterface>(op)) {
        SmallVector<Type> types(function.getArgumentTypes());
        llvm::append_range(types, function.getResultTypes());
        llvm::DenseSet<Type> used;
        function->walk([&](Operation *inner) {
          if (inner == op)
            return;
          used.insert(inner->getOperandTypes().begin(),
                      inner->getOperandTypes().end());
          used.insert(inner->getResultTypes().begin(),
                      inner->getResultTypes().end());
        });
        for (Type type : types) {
          auto matrix = dyn_cast<gpu::MMAMatrixType>(type);
          if (!matrix || used.contains(type))
            continue;
          FailureOr<Need> need = checkFragment(op, matrix);
          if (mlir::failed(need)) {
            failed = true;
            return;
          }
          failed |= reportUnmetOnAny(op, *need);
        }
        return;
      }
      FailureOr<std::optional<Need>> need = getNeed(op);
      if (mlir::failed(need)) {
        failed = true;
        return;
      }
      if (*need) {
        LLVM_DEBUG(llvm::dbgs()
                   << op->getName() << " needs sm_" << (*need)->needs.sm
                   << ", PTX " << (*need)->needs.ptx << "\n");
        failed |= reportUnmetOnAny(op, **need);
      }
    });
    if (failed)
      signalPassFailure();
  }
};

} // namespace
