# gpumem: the two commands a newcomer needs.
#   make run   installs what is missing, builds, runs the headline example
#   make test  installs what is missing, builds, runs every test
# make test first checks that every C and C++ file is formatted as
# .clang-format says (scripts/check-format.sh; --fix formats them).
# make test prints each phase's time at its end (scripts/test-times.sh).
# Also: make deps, make build, make docs, make clean, make fuzz (a longer
# fuzzing run: FUZZ_SECONDS, FUZZ_SEED; findings in build/fuzz), and
# make test-sanitize (the second half of make test: the project built with
# AddressSanitizer and UndefinedBehaviorSanitizer in build-sanitize/, at -O1
# with assertions, and the lit and unit suites run there), and make
# bench-pocl (installs PoCL, then compares the cpu target with it:
# bench/pocl.sh), and make bench-hipcc (installs Debian's hipcc, then
# compares the rocm target's gfx90a assembly with hipcc's:
# bench/rocm/hipcc-compare.sh).

BUILD      ?= build
BUILD_TYPE ?= Release
SANITIZE_BUILD ?= build-sanitize
# Debian packages the build and the tests need (the Vulkan loader, its
# headers and Mesa's lavapipe give the vulkan target a device on any machine;
# ld.lld and the ROCm device libraries make the rocm target's code objects).
PACKAGES := cmake ninja-build g++ python3 ccache \
            llvm-22-dev llvm-22-tools libmlir-22-dev mlir-22-tools \
            lld-22 rocm-device-libs \
            libboost-context-dev libgtest-dev libbenchmark-dev \
            libvulkan-dev libvulkan1 mesa-vulkan-drivers spirv-tools glslang-tools \
            clang-format-22
# Only for bench/pocl.sh (make bench-pocl): PoCL and the OpenCL loader.
BENCH_PACKAGES := pocl-opencl-icd ocl-icd-opencl-dev opencl-headers
# Only for bench/rocm/hipcc-compare.sh (make bench-hipcc): AMD's HIP
# compiler, which brings clang-15 and the ROCm device libraries.
BENCH_HIPCC_PACKAGES := hipcc
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

FUZZ_SECONDS ?= 1800
FUZZ_SEED    ?= $(shell date +%s)

.PHONY: all deps build test test-sanitize run docs clean fuzz bench-pocl bench-hipcc

all: build

# Idempotent: asks apt-get only for packages that are not installed yet.
deps:
	@missing=""; \
	for p in $(PACKAGES) $(EXTRA_PACKAGES); do \
	  dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q '^install ok installed' || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "gpumem: installing$$missing"; \
	  $(SUDO) apt-get update -q && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -q --no-install-recommends $$missing; \
	else \
	  echo "gpumem: all packages present"; \
	fi

$(BUILD)/build.ninja:
	cmake -G Ninja -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=$(BUILD_TYPE)

build: deps $(BUILD)/build.ninja
	cmake --build $(BUILD)

# make test times each phase (scripts/phase.sh) and ends with the table,
# lit's ten slowest tests of each half and the compiler cache's hit rate
# (scripts/test-times.sh).
TIMES := $(BUILD)/test-times.txt
PHASE := scripts/phase.sh $(TIMES)
LIT   := /usr/lib/llvm-22/bin/lit -v

test:
	@scripts/test-times.sh start $(TIMES)
	@$(PHASE) deps $(MAKE) --no-print-directory deps
	@$(PHASE) configure $(MAKE) --no-print-directory $(BUILD)/build.ninja
	@$(PHASE) build cmake --build $(BUILD)
	@$(PHASE) format scripts/check-format.sh
	@$(PHASE) lit $(LIT) -o $(BUILD)/lit-results.json $(BUILD)/test
	@$(PHASE) unit ctest --test-dir $(BUILD) --output-on-failure
	@$(MAKE) --no-print-directory test-sanitize
	@scripts/test-times.sh report $(TIMES) $(BUILD)/lit-results.json \
	  $(SANITIZE_BUILD)/lit-results.json

$(SANITIZE_BUILD)/build.ninja:
	cmake -G Ninja -S . -B $(SANITIZE_BUILD) -DCMAKE_BUILD_TYPE=Debug \
	  -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g1" -DCMAKE_C_FLAGS_DEBUG="-O1 -g1" \
	  -DGPUMEM_SANITIZE=address,undefined

test-sanitize:
	@$(PHASE) "sanitize deps" $(MAKE) --no-print-directory deps
	@$(PHASE) "sanitize configure" $(MAKE) --no-print-directory $(SANITIZE_BUILD)/build.ninja
	@$(PHASE) "sanitize build" cmake --build $(SANITIZE_BUILD)
	@$(PHASE) "sanitize lit" $(LIT) -o $(SANITIZE_BUILD)/lit-results.json $(SANITIZE_BUILD)/test
	@$(PHASE) "sanitize unit" ctest --test-dir $(SANITIZE_BUILD) --output-on-failure

run: build
	scripts/run-example.sh $(BUILD)

fuzz: build
	scripts/fuzz.py --build $(BUILD) --seed $(FUZZ_SEED) --seconds $(FUZZ_SECONDS) --out $(BUILD)/fuzz

docs: build
	cmake --build $(BUILD) --target gpumem-docs

clean:
	rm -rf $(BUILD) $(SANITIZE_BUILD)

# The cpu target against PoCL (bench/pocl.sh); installs PoCL first.
bench-pocl:
	$(MAKE) --no-print-directory deps EXTRA_PACKAGES="$(BENCH_PACKAGES)"
	$(MAKE) --no-print-directory build
	bench/pocl.sh $(BUILD)

# The rocm target against hipcc, statically (bench/rocm/hipcc-compare.sh);
# installs hipcc first. No AMD GPU is needed.
bench-hipcc:
	$(MAKE) --no-print-directory deps EXTRA_PACKAGES="$(BENCH_HIPCC_PACKAGES)"
	$(MAKE) --no-print-directory build
	bench/rocm/hipcc-compare.sh $(BUILD)
