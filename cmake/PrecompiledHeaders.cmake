# Precompiled MLIR and LLVM headers for gpumem's compiler libraries and
# tools. Parsing the dialect headers (GPU, LLVM, NVVM, ROCDL, MemRef, ...)
# is most of every unit's time: a 73-line pass spends 30 of its 35 s in
# the parser (g++ -ftime-report). The headers below are the ones most
# units include (counted over lib/ and tools/); one target,
# GPUMemPrecompiledHeaders, compiles them once per build folder, and every
# target named in gpumem_precompile_mlir_headers() reuses that one file
# (REUSE_FROM: the same flags, so one .gch serves them all). A unit then
# takes 3-8 s instead of 20-35 s.
#
# A unit still includes what it uses: the header is forced in only to be
# parsed faster. -DCMAKE_DISABLE_PRECOMPILE_HEADERS=ON builds without it,
# which is how a missing include shows.
set(GPUMEM_PRECOMPILED_HEADERS
  <mlir/Dialect/Arith/IR/Arith.h>
  <mlir/Dialect/ControlFlow/IR/ControlFlowOps.h>
  <mlir/Dialect/Func/IR/FuncOps.h>
  <mlir/Dialect/GPU/IR/GPUDialect.h>
  <mlir/Dialect/LLVMIR/LLVMDialect.h>
  <mlir/Dialect/LLVMIR/NVVMDialect.h>
  <mlir/Dialect/LLVMIR/ROCDLDialect.h>
  <mlir/Dialect/MemRef/IR/MemRef.h>
  <mlir/Dialect/SCF/IR/SCF.h>
  <mlir/Dialect/Vector/IR/VectorOps.h>
  <mlir/IR/Builders.h>
  <mlir/IR/BuiltinOps.h>
  <mlir/IR/IRMapping.h>
  <mlir/IR/Matchers.h>
  <mlir/IR/PatternMatch.h>
  <mlir/IR/SymbolTable.h>
  <mlir/Interfaces/DataLayoutInterfaces.h>
  <mlir/Interfaces/SideEffectInterfaces.h>
  <mlir/Pass/Pass.h>
  <mlir/Pass/PassManager.h>
  <mlir/Transforms/DialectConversion.h>
  <llvm/ADT/DenseMap.h>
  <llvm/ADT/SetVector.h>
  <llvm/ADT/StringExtras.h>
  <llvm/Support/raw_ostream.h>
  )

set(anchor ${GPUMEM_BINARY_DIR}/PrecompiledHeaders.cpp)
if(NOT EXISTS ${anchor})
  file(WRITE ${anchor} "// The unit that owns gpumem's precompiled headers.\n")
endif()
add_library(GPUMemPrecompiledHeaders OBJECT ${anchor})
target_precompile_headers(GPUMemPrecompiledHeaders PRIVATE
  ${GPUMEM_PRECOMPILED_HEADERS})

# gpumem_precompile_mlir_headers(target...): each target's units start
# from the precompiled headers. A target whose compile options differ from
# the header's is left out: g++ parses some of them into the code of
# inline functions (GPUMemToolSupport's -fno-sanitize=vptr in the
# sanitizer build, which the precompiled header's inline functions would
# not have).
function(gpumem_precompile_mlir_headers)
  get_target_property(header_options GPUMemPrecompiledHeaders COMPILE_OPTIONS)
  foreach(target ${ARGN})
    get_target_property(options ${target} COMPILE_OPTIONS)
    if("${options}" STREQUAL "${header_options}")
      target_precompile_headers(${target} REUSE_FROM GPUMemPrecompiledHeaders)
    endif()
  endforeach()
endfunction()
