# Link with LLVM's ld.lld (Debian's lld-22, which make deps installs for the
# rocm target anyway): it links gpumem's tools and runtimes several times
# faster than GNU ld. g++ finds it through -B, since Debian names it
# ld.lld only inside LLVM's own bin folder. -DGPUMEM_USE_LLD=OFF, or a
# machine without it, links with the compiler's default linker.
option(GPUMEM_USE_LLD "Link with LLVM's ld.lld when it is installed" ON)
if(GPUMEM_USE_LLD AND EXISTS ${LLVM_TOOLS_BINARY_DIR}/ld.lld)
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    add_link_options(-B${LLVM_TOOLS_BINARY_DIR} -fuse-ld=lld)
  else()
    add_link_options(--ld-path=${LLVM_TOOLS_BINARY_DIR}/ld.lld)
  endif()
  message(STATUS "Linking with ${LLVM_TOOLS_BINARY_DIR}/ld.lld")
endif()
