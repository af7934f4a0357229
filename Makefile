# seedgen: `make seed` builds every seed in Seeds/ into build/seeds/, `make test` runs the tests.
# Both install the system libraries first when they are missing (see `deps`).

SWIFT ?= swift
SEEDS_OUT := build/seeds
SEEDGEN := .build/release/seedgen
SYSTEM_PACKAGES := libxml2-dev libsqlite3-dev pkg-config

.PHONY: all deps seed test bench bench-runtime release clean kill-test sanitize fuzz

all: seed

# libxml2 and sqlite3 headers, found through pkg-config. Installed with apt-get when we may
# (root, or sudo without a password); otherwise stop with the one command to run.
deps:
	@if command -v pkg-config >/dev/null 2>&1 && pkg-config --exists libxml-2.0 sqlite3; then \
		exit 0; \
	elif ! command -v apt-get >/dev/null 2>&1; then \
		echo "seedgen needs libxml2 and sqlite3 development files found by pkg-config (Debian: $(SYSTEM_PACKAGES))."; exit 1; \
	elif [ "$$(id -u)" = 0 ]; then \
		apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y $(SYSTEM_PACKAGES); \
	elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then \
		sudo apt-get update && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y $(SYSTEM_PACKAGES); \
	else \
		echo "Missing libxml2/sqlite3 development files. Run:"; \
		echo "  sudo apt-get install -y $(SYSTEM_PACKAGES)"; exit 1; \
	fi

release: deps
	$(SWIFT) build -c release --product seedgen

# Every folder Seeds/<Name>/ holds <Name>.xcdatamodeld and its source data files;
# each becomes build/seeds/<Name>.sqlite, which must then verify clean.
seed: release
	@mkdir -p $(SEEDS_OUT)
	@set -e; for dir in Seeds/*/; do \
		name=$$(basename "$$dir"); \
		model="$$dir$$name.xcdatamodeld"; \
		[ -d "$$model" ] || { echo "$$dir: no $$name.xcdatamodeld"; exit 1; }; \
		inputs=$$(find "$$dir" -maxdepth 1 -type f ! -name '*.md' ! -name '.*' | sort); \
		echo "== $$name"; \
		$(SEEDGEN) build --model "$$model" --output "$(SEEDS_OUT)/$$name.sqlite" $$inputs; \
		$(SEEDGEN) verify --model "$$model" "$(SEEDS_OUT)/$$name.sqlite"; \
	done

test: deps
	$(SWIFT) test

# Speed and memory against the C floor (../shared/bench): median ratio and peak memory.
BENCH_EVENTS ?= 1000000
BENCH_RUNS ?= 5
BENCH_DIR ?= build/bench
bench: release bench-runtime
	python3 ../shared/bench/compare.py $(BENCH_EVENTS) --runs $(BENCH_RUNS) --seedgen $(SEEDGEN)

# The runtime: open + initialisationCheck on 1M rows, and install of a ~100 MB seed vs cp + fsync.
bench-runtime: deps
	$(SWIFT) build -c release --product seedgen-bench
	@mkdir -p $(BENCH_DIR)
	@[ -f $(BENCH_DIR)/events-1m.xml ] || python3 ../shared/bench/gen_events.py 1000000 $(BENCH_DIR)/events-1m.xml
	@[ -f $(BENCH_DIR)/events-2m.xml ] || python3 ../shared/bench/gen_events.py 2000000 $(BENCH_DIR)/events-2m.xml
	.build/release/seedgen-bench $(BENCH_DIR)/events-1m.xml $(BENCH_DIR)/events-2m.xml --runs $(BENCH_RUNS)

# 100 builds killed with SIGKILL at random moments (make test kills 10): the older store stays
# byte for byte or a whole new one replaces it; the next build leaves no temporary behind.
KILLS ?= 100
kill-test: deps
	SEEDGEN_KILLS=$(KILLS) $(SWIFT) test --filter BuildKillTests

# The whole test suite under AddressSanitizer, then under ThreadSanitizer (each its own build folder;
# the programs the tests start are built with the sanitizer too). Leak reports are off: on Linux,
# XCTest and Foundation leave allocations at exit that LeakSanitizer reports (none of ours).
sanitize: deps
	ASAN_OPTIONS=detect_leaks=0 $(SWIFT) test --sanitize=address --scratch-path .build-asan
	$(SWIFT) test --sanitize=thread --scratch-path .build-tsan

# libFuzzer (swiftc -sanitize=fuzzer,address; a SwiftPM target cannot link a fuzzer), one target
# each for the NSPredicate parser and the model loader, SECONDS each (default 60). Seeds are in
# Tests/Fuzz/corpus/<target>; what the fuzzer adds stays in build/fuzz/<target>. A crash leaves
# its input as build/fuzz/crash-* and stops with an error. Leak checks are off: on Linux,
# Foundation's own allocations are reported at exit.
SECONDS ?= 60
FUZZ_FLAGS := -O -sanitize=fuzzer,address -parse-as-library -package-name seedgen
FUZZ_DIR := build/fuzz
fuzz: deps
	@mkdir -p $(FUZZ_DIR)/predicate $(FUZZ_DIR)/model
	swiftc $(FUZZ_FLAGS) -module-name SeedStoreFuzz Tests/Fuzz/PredicateFuzz.swift \
		Sources/SeedStore/Query/Predicate/FetchPredicate.swift Sources/SeedStore/Query/Predicate/FetchPredicate+Parsing.swift \
		-o $(FUZZ_DIR)/predicate-fuzz
	swiftc $(FUZZ_FLAGS) -module-name SeedModelFuzz -I Sources/SeedgenLibXML2 \
		$$(pkg-config --cflags libxml-2.0 | sed 's/-I/-Xcc -I/g') Tests/Fuzz/ModelFuzz.swift \
		$$(ls Sources/SeedModel/*.swift | grep -v VersionHasher) -lxml2 -o $(FUZZ_DIR)/model-fuzz
	cp -n Tests/Fuzz/corpus/predicate/* $(FUZZ_DIR)/predicate/
	cp -n Tests/Fuzz/corpus/model/* $(FUZZ_DIR)/model/
	cd $(FUZZ_DIR) && ASAN_OPTIONS=detect_leaks=0 ./predicate-fuzz -max_total_time=$(SECONDS) -max_len=4096 -detect_leaks=0 -print_final_stats=1 predicate
	cd $(FUZZ_DIR) && ASAN_OPTIONS=detect_leaks=0 ./model-fuzz -max_total_time=$(SECONDS) -max_len=16384 -detect_leaks=0 -print_final_stats=1 model

clean:
	rm -rf build .build .build-asan .build-tsan
