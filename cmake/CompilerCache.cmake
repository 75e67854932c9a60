# The compiler cache: when Debian's ccache is installed (make deps installs
# it), every C and C++ compile goes through it, configured so that a fresh
# clone in another folder of the same machine hits the objects an earlier
# clone stored:
#   CCACHE_BASEDIR  the source tree (both build folders are inside it):
#                   absolute paths under it are hashed and passed as
#                   relative ones;
#   CCACHE_NOHASHDIR  the sanitizer build's -g1 does not put the working
#                   folder in the hash (an object from another clone names
#                   that clone's folder as its compilation folder, and its
#                   source files relative to it: only a debugger sees it);
#   CCACHE_INODECACHE  a file's hash is kept by inode and time: without
#                   it every compile hashes the 1.4 GB precompiled header
#                   again (most of a warm build's time);
#   CCACHE_SLOPPINESS  what precompiled headers need (cmake/
#                   PrecompiledHeaders.cmake), and include files as new as the
#                   clone itself still hit in direct mode.
# Nothing depends on the cache: without ccache, or with
# -DGPUMEM_COMPILER_CACHE=OFF, the build is the same, only slower. `make
# test` prints the hit rate (ccache --print-stats) at its end.
option(GPUMEM_COMPILER_CACHE "Compile through ccache when it is installed" ON)
find_program(GPUMEM_CCACHE ccache)
if(GPUMEM_COMPILER_CACHE AND GPUMEM_CCACHE
   AND NOT CMAKE_CXX_COMPILER_LAUNCHER AND NOT CMAKE_C_COMPILER_LAUNCHER)
  set(launcher ${CMAKE_COMMAND} -E env
    CCACHE_BASEDIR=${GPUMEM_SOURCE_DIR}
    CCACHE_NOHASHDIR=1
    CCACHE_INODECACHE=1
    CCACHE_SLOPPINESS=pch_defines,time_macros,include_file_mtime,include_file_ctime
    ${GPUMEM_CCACHE})
  set(CMAKE_C_COMPILER_LAUNCHER ${launcher})
  set(CMAKE_CXX_COMPILER_LAUNCHER ${launcher})
  message(STATUS "Compiling through ${GPUMEM_CCACHE}")
endif()
