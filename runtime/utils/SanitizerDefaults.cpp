//===----------------------------------------------------------------------===//
// Sanitizer builds only: the defaults of the programs gpumem runs, linked
// into gpumem-run (whose JIT'd programs run in its process) and into the
// executables gpumem-compile links. Test programs, like most MLIR
// integration tests, allocate without freeing and leave streams open at
// exit; what the sanitizers check in them is memory errors, so
// LeakSanitizer is off there. The compiler tools and the unit tests keep it
// on. ASAN_OPTIONS in the environment still overrides this.
//===----------------------------------------------------------------------===//

extern "C" __attribute__((visibility("default"), used)) const char *
__asan_default_options() {
  return "detect_leaks=0";
}
