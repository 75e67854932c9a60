# What `cmake --install` puts under the prefix, for projects that use gpumem:
#   bin/                     gpumem-opt, gpumem-run, gpumem-compile,
#                            gpumem-objects (a Python script)
#   lib/                     the runtimes (libgpumem_cpu_runtime.so,
#                            libgpumem_cuda_runtime.so,
#                            libgpumem_rocm_runtime.so,
#                            libgpumem_vulkan_runtime.so, libgpumem_runner_utils.so),
#                            the start-up code of multi-target executables
#                            (libgpumem_target_selection.a) and the
#                            compiler's static libraries
#   include/gpumem/          headers, .td files and their TableGen'd .inc files
#   lib/cmake/gpumem/        gpumemConfig.cmake: find_package(gpumem); its
#                            imported libraries carry the include directories
#                            (gpumem's, MLIR's, LLVM's) and libMLIR/libLLVM
# examples/out-of-tree/ is a project that uses it; test/Install builds it and
# README's consumer against an installed prefix.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(GPUMEM_INSTALLED_LIBRARIES
  GPUMemDialect GPUMemSupport GPUMemTransforms GPUMemToLLVM
  GPUMemHostKernel GPUMemCPUTarget GPUMemCUDATarget GPUMemCUDAEmuTarget
  GPUMemROCmTarget GPUMemROCmEmuTarget GPUMemVulkanTarget
  GPUMemPipelines)
foreach(library ${GPUMEM_INSTALLED_LIBRARIES})
  target_include_directories(${library} INTERFACE
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
endforeach()
# Instrumented libraries need the sanitizers' runtimes in whatever links them.
if(GPUMEM_SANITIZE)
  foreach(library ${GPUMEM_INSTALLED_LIBRARIES})
    target_link_options(${library} INTERFACE
      $<INSTALL_INTERFACE:-fsanitize=${GPUMEM_SANITIZE}>)
  endforeach()
endif()
install(TARGETS ${GPUMEM_INSTALLED_LIBRARIES} EXPORT gpumemTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
# The installed tools find libMLIR.so and libLLVM.so where the build did.
set_target_properties(gpumem-opt gpumem-run gpumem-compile PROPERTIES
  INSTALL_RPATH "${LLVM_LIBRARY_DIR}")
install(TARGETS gpumem-opt gpumem-run gpumem-compile
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
# gpumem-objects reads gpu.binary ops and calls ptxas: Python only, it needs
# nothing else from the build (docs/decisions.md).
install(PROGRAMS ${GPUMEM_BINARY_DIR}/bin/gpumem-objects
  DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS gpumem_cpu_runtime gpumem_cuda_runtime gpumem_rocm_runtime
  gpumem_vulkan_runtime gpumem_runner_utils LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(TARGETS gpumem_target_selection ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
if(GPUMEM_SANITIZE)
  install(TARGETS gpumem_sanitizer_defaults
    ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
endif()
install(DIRECTORY ${GPUMEM_SOURCE_DIR}/include/gpumem
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  FILES_MATCHING PATTERN "*.h" PATTERN "*.td")
install(DIRECTORY ${GPUMEM_BINARY_DIR}/include/gpumem
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  FILES_MATCHING PATTERN "*.inc" PATTERN "CMakeFiles" EXCLUDE)
install(EXPORT gpumemTargets NAMESPACE gpumem::
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/gpumem)
# SPIRV-Tools, when the build found it (for the vulkan target), is a
# dependency of the package too: the libraries' link interface names its
# static library's imported target.
set(GPUMEM_SPIRV_TOOLS_DIR "${SPIRV-Tools_DIR}")
configure_package_config_file(${GPUMEM_SOURCE_DIR}/cmake/gpumemConfig.cmake.in
  ${GPUMEM_BINARY_DIR}/gpumemConfig.cmake
  INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/gpumem
  PATH_VARS CMAKE_INSTALL_INCLUDEDIR CMAKE_INSTALL_BINDIR CMAKE_INSTALL_LIBDIR)
write_basic_package_version_file(${GPUMEM_BINARY_DIR}/gpumemConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${GPUMEM_BINARY_DIR}/gpumemConfig.cmake
  ${GPUMEM_BINARY_DIR}/gpumemConfigVersion.cmake
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/gpumem)
