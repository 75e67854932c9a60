//===----------------------------------------------------------------------===//
// gpumem-promote-printf-args-for-nvvm: gpu.printf arguments as CUDA's printf
// reads them.
//
// CUDA's host side formats device printf from a buffer in which every
// integer conversion without a length modifier takes 4 bytes at 4-byte
// alignment; upstream's NVVM lowering stores an i1, i8 or i16 argument at
// its own size. Algorithm: every integer argument of a gpu.printf narrower
// than 32 bits is extended to i32 in front of the op (zero-extended for i1,
// sign-extended otherwise, like the cpu target's libc call).
//===----------------------------------------------------------------------===//

#include "gpumem/Target/CUDA/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"

namespace gpumem {
#define GEN_PASS_DEF_GPUMEMPROMOTEPRINTFARGSFORNVVMPASS
#include "gpumem/Target/CUDA/Passes.h.inc"
} // namespace gpumem

using namespace mlir;

namespace {

struct PromotePrintfArgsForNVVMPass
    : gpumem::impl::GPUMemPromotePrintfArgsForNVVMPassBase<
          PromotePrintfArgsForNVVMPass> {
  void runOnOperation() override {
    getOperation().walk([](gpu::PrintfOp printf) {
      OpBuilder builder(printf);
      Type i32 = builder.getI32Type();
      for (OpOperand &operand : printf->getOpOperands()) {
        auto type = dyn_cast<IntegerType>(operand.get().getType());
        if (!type || type.getWidth() >= 32)
          continue;
        Location loc = printf.getLoc();
        Value wide =
            type.getWidth() == 1
                ? arith::ExtUIOp::create(builder, loc, i32, operand.get())
                      .getResult()
                : arith::ExtSIOp::create(builder, loc, i32, operand.get())
                      .getResult();
        operand.set(wide);
      }
    });
  }
};

} // namespace
