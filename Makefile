# The two commands of the README: `make demo` and `make test`. Both set up what is missing first.
PRESET ?= release
BUILD_DIR := build/$(PRESET)
KFORGE := $(BUILD_DIR)/kforge
# make demo: evaluate the shipped solutions on the GPU if one is present, else on the CPU.
DEMO_DB ?= kforge.db

.PHONY: all setup configure build demo test clean

all: build

setup:
	@tools/setup.sh

configure: setup
	@mkdir -p build; if [ ! -f $(BUILD_DIR)/build.ninja ]; then \
	  cmake --preset $(PRESET) -DKFORGE_PYTHON="$$(tools/find-python.sh)" >$(BUILD_DIR).configure.log 2>&1 \
	    || { cat $(BUILD_DIR).configure.log; exit 1; }; fi

build: configure
	@cmake --build --preset $(PRESET) -- --quiet

demo: build
	@$(KFORGE) eval solutions --db $(DEMO_DB)
	@$(KFORGE) report --db $(DEMO_DB)

test: build
	@ctest --preset $(PRESET)

clean:
	rm -rf build
