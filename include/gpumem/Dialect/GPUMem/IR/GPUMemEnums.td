//===----------------------------------------------------------------------===//
// The gpumem dialect's enums, as I32 attributes that print as bare keywords.
// Their values are the runtime ABI of gpumemMemPrefetch and gpumemMemAdvise
// (runtime/cuda/CUDARuntime.h, runtime/cpu/CPURuntime.h). Apart from
// GPUMem.td, which includes the gpu dialect's .td files, so that
// -gen-enum-decls sees only these.
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_DIALECT_GPUMEM_IR_GPUMEMENUMS
#define GPUMEM_DIALECT_GPUMEM_IR_GPUMEMENUMS

include "mlir/IR/EnumAttr.td"

def GPUMem_PrefetchDestination : I32EnumAttr<"PrefetchDestination",
    "where gpumem.prefetch moves managed memory to", [
      I32EnumAttrCase<"Device", 0, "device">,
      I32EnumAttrCase<"Host", 1, "host">
    ]> {
  let cppNamespace = "::gpumem";
}

def GPUMem_MemoryAdvice : I32EnumAttr<"MemoryAdvice",
    "a usage hint gpumem.advise gives for managed memory", [
      I32EnumAttrCase<"ReadMostly", 0, "read_mostly">,
      I32EnumAttrCase<"UnsetReadMostly", 1, "unset_read_mostly">,
      I32EnumAttrCase<"PreferredLocationDevice", 2,
                      "preferred_location_device">,
      I32EnumAttrCase<"PreferredLocationHost", 3, "preferred_location_host">,
      I32EnumAttrCase<"UnsetPreferredLocation", 4, "unset_preferred_location">,
      I32EnumAttrCase<"AccessedByDevice", 5, "accessed_by_device">,
      I32EnumAttrCase<"UnsetAccessedByDevice", 6, "unset_accessed_by_device">
    ]> {
  let cppNamespace = "::gpumem";
}

#endif // GPUMEM_DIALECT_GPUMEM_IR_GPUMEMENUMS
