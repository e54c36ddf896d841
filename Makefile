# Thin wrapper around CMake. The README's two commands: `make reproduce` and `make test`.
BUILD    ?= build
TYPE     ?= Release
JOBS     ?= $(shell nproc)
TIER     ?= quick
# chromium: the report_renders test renders the HTML report headless and checks its text.
PACKAGES := cmake g++ make git libeigen3-dev libtbb-dev libfmt-dev libtomlplusplus-dev \
            libboost-test-dev libbenchmark-dev libcli11-dev gnuplot-nox chromium \
            clang libclang-rt-14-dev
# clang and libclang-rt-14-dev: the fuzz_study_loader CTest entry (tools/fuzz.sh); skipped without them.

.PHONY: all deps configure build test reproduce bench sanitize clean

all: build

# Install the Debian packages that are missing (needs root or sudo; skipped when all are present).
deps:
	@missing=$$(for p in $(PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	  echo "Installing:" $$missing; \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing; \
	fi

configure: deps
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=$(TYPE) $(CMAKE_ARGS)

build: configure
	cmake --build $(BUILD) -j $(JOBS)

# Every test through CTest: unit tests and (when present) the quick tier of every study.
test: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

# The main job: run every study at the quick tier and write the reports under results/.
reproduce: build
	./$(BUILD)/grainlab reproduce --tier $(TIER)

bench: build
	@for b in $(BUILD)/bench_*; do echo "== $$b"; $$b; done

# Debug build with AddressSanitizer and UndefinedBehaviorSanitizer, then the unit tests.
sanitize:
	$(MAKE) test BUILD=build-asan TYPE=Debug CMAKE_ARGS=-DGRAINLAB_SANITIZE=ON
 
clean:
	rm -rf $(BUILD)
