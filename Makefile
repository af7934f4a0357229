# seedgen: `make seed` builds every seed in Seeds/ into build/seeds/, `make test` runs the tests.
# Both install the system libraries first when they are missing (see `deps`).

SWIFT ?= swift
SEEDS_OUT := build/seeds
SEEDGEN := .build/release/seedgen
SYSTEM_PACKAGES := libxml2-dev libsqlite3-dev libssl-dev pkg-config

.PHONY: all deps seed test bench bench-runtime release install clean kill-test sanitize fuzz property docs plugin plugin-swiftdata

all: seed

# libxml2 and sqlite3 headers, found through pkg-config. Installed with apt-get when we may
# (root, or sudo without a password); otherwise stop with the one command to run.
deps:
	@if command -v pkg-config >/dev/null 2>&1 && pkg-config --exists libxml-2.0 sqlite3 libcrypto; then \
		exit 0; \
	elif ! command -v apt-get >/dev/null 2>&1; then \
		echo "seedgen needs libxml2, sqlite3 and libcrypto development files found by pkg-config (Debian: $(SYSTEM_PACKAGES))."; exit 1; \
	elif [ "$$(id -u)" = 0 ]; then \
		apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y $(SYSTEM_PACKAGES); \
	elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then \
		sudo apt-get update && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y $(SYSTEM_PACKAGES); \
	else \
		echo "Missing libxml2/sqlite3/libcrypto development files. Run:"; \
		echo "  sudo apt-get install -y $(SYSTEM_PACKAGES)"; exit 1; \
	fi

# seedgen optimised, and beside it seedgen-swiftdata, the reader of SwiftData sources, built
# unoptimised: it only parses a model's few files, and swift-syntax compiled with optimisation
# alone takes longer than the rest of seedgen (over 14 minutes on 2 cores, not finished).
SWIFTDATA_HELPER := seedgen-swiftdata
release: deps
	$(SWIFT) build -c release --product seedgen
	$(SWIFT) build --product $(SWIFTDATA_HELPER)
	ln -sf ../debug/$(SWIFTDATA_HELPER) .build/release/$(SWIFTDATA_HELPER)

# `make install PREFIX=~/.local` puts seedgen in PREFIX/bin (default /usr/local).
PREFIX ?= /usr/local
install: release
	install -d $(PREFIX)/bin
	install -m 755 .build/release/seedgen $(PREFIX)/bin/seedgen
	install -m 755 .build/debug/$(SWIFTDATA_HELPER) $(PREFIX)/bin/$(SWIFTDATA_HELPER)

# Every folder Seeds/<Name>/ holds its model, <Name>.xcdatamodeld or a SwiftData app's
# Model/ folder of @Model sources, and its source data files; each becomes
# build/seeds/<Name>.sqlite, which must then verify clean.
seed: release
	@mkdir -p $(SEEDS_OUT)
	@set -e; for dir in Seeds/*/; do \
		name=$$(basename "$$dir"); \
		model="$$dir$$name.xcdatamodeld"; \
		[ -d "$$model" ] || model="$$dir"Model; \
		[ -d "$$model" ] || { echo "$$dir: no $$name.xcdatamodeld and no Model/ folder of SwiftData sources"; exit 1; }; \
		inputs=$$(find "$$dir" -maxdepth 1 -type f ! -name '*.md' ! -name '.*' ! -name seedgen.json | sort); \
		echo "== $$name"; \
		$(SEEDGEN) build --model "$$model" --output "$(SEEDS_OUT)/$$name.sqlite" $$inputs; \
		$(SEEDGEN) verify --as-built --model "$$model" "$(SEEDS_OUT)/$$name.sqlite"; \
	done

test: deps
	$(SWIFT) test

# Speed and memory against the C floors (../shared/bench), every workload: flat events, the keyed
# relational catalog as entity XML and as an XML plist (BENCH_ROWS rows each, BENCH_RUNS runs), and
# the EM-Plan-shaped nested plist against the same objects as flat entity XML (Tests/Bench/emplan.py,
# BENCH_ROWS players), and the catalog as JSON and CSV against the same objects as entity XML
# (Tests/Bench/formats.py), and `seedgen migrate` of the catalog against SQLite's copy of the same
# store (Tests/Bench/migrate.py), and `seedgen diff` and `seedgen update` of two catalogs 1% apart
# against building the newer one (Tests/Bench/seed-update.py), and `seedgen install` (the policy
# .update's first start) of the catalog built with --updatable and without against cp + fsync of
# the seed (Tests/Bench/install.py), and one SwiftData [String] of
# BENCH_ROWS strings as JSON, plist and CSV against its input's size (Tests/Bench/string-lists.py);
# then one line per workload: the median ratio and peak memory.
BENCH_ROWS ?= 1000000
BENCH_RUNS ?= 5
BENCH_DIR ?= build/bench
BENCH_WORKLOADS ?= events catalog catalog-plist emplan formats migrate seed-update install string-lists
bench: release bench-runtime
	@mkdir -p $(BENCH_DIR)
	@set -e; for workload in $(BENCH_WORKLOADS); do \
		if [ -f Tests/Bench/$$workload.py ]; then \
			command="python3 Tests/Bench/$$workload.py $(BENCH_ROWS) --runs $(BENCH_RUNS) --seedgen $(SEEDGEN)"; \
		else \
			command="python3 ../shared/bench/compare.py $(BENCH_ROWS) --workload $$workload --runs $(BENCH_RUNS) --seedgen $(SEEDGEN)"; \
		fi; \
		$$command >$(BENCH_DIR)/$$workload.log 2>&1 || { cat $(BENCH_DIR)/$$workload.log; exit 1; }; \
		cat $(BENCH_DIR)/$$workload.log; \
	done
	@echo "== $(BENCH_ROWS) rows, $(BENCH_RUNS) runs each:"
	@for workload in $(BENCH_WORKLOADS); do printf '%-14s %s\n' "$$workload" "$$(tail -1 $(BENCH_DIR)/$$workload.log)"; done

# The runtime: open + initialisationCheck on 1M rows, and install of a ~100 MB seed vs cp + fsync.
bench-runtime: deps
	$(SWIFT) build -c release --product seedgen-bench
	@mkdir -p $(BENCH_DIR)
	@[ -f $(BENCH_DIR)/events-1m.xml ] || python3 ../shared/bench/gen_events.py 1000000 $(BENCH_DIR)/events-1m.xml
	@[ -f $(BENCH_DIR)/events-2m.xml ] || python3 ../shared/bench/gen_events.py 2000000 $(BENCH_DIR)/events-2m.xml
	.build/release/seedgen-bench $(BENCH_DIR)/events-1m.xml $(BENCH_DIR)/events-2m.xml --runs $(BENCH_RUNS)

# The properties at length (make test runs 150 cases): PROPERTY_CASES generated object sets,
# each written in every source format, built, compared and dumped back; migrated; and a third
# as many seed updates (seed 1, seed 2 made from it, a user's changes; make test runs 50); and as
# many generated model pairs migrated (Composites and relationship reshapes among the changes),
# each also dry-run and broken on purpose (make test runs 120); and as many random seed pairs of
# recipes whose ingredients have no key, updated: unchanged ones keep Z_PK and recipe (make test runs 25);
# and as many random recipe seeds with a user's edits, updated twice from a packed record and from
# the full one: the same rows, Z_PKs and report (make test runs 40).
PROPERTY_CASES ?= 3000
property: deps
	SEEDGEN_PROPERTY_CASES=$(PROPERTY_CASES) $(SWIFT) test --filter 'RoundTripPropertyTests|MigrationPropertyTests|UpdatePropertyTests|ModelPairPropertyTests|SwiftDataSourceRoundTripTests|SwiftDataValueTests|StoreInPlaceTests|StoreDigestStreamTests|KeyedMergeOrderTests|KeylessIdentityTests|PackedRecordTests'

# 100 builds killed with SIGKILL at random moments (make test kills 10): the older store stays
# byte for byte or a whole new one replaces it; the next build leaves no temporary behind. Then
# 100 migrations of a 1,000,000-row store killed for each way its seed record goes (kept with a
# digest rule, its objects named by their values; the same built with keys; digested and named
# again, their values changed) (make test: 5 of 20,000 rows each): the store is wholly the old
# version or the new one, and the next run leaves nothing beside it. Then 100 seed
# updates of a 100,000-book store killed (make test: 5 of 5,000): wholly the old state or the
# new, and the next run ends where an uninterrupted update does.
KILLS ?= 100
# SeedgenPlugin on a Core Data app package (Tests/PluginExample): its cold build compiles seedgen
# and the runtime once more (2 min 33 s alone from a cold build folder; inside make test, where it
# competed with every other test, 5 min of the run's wall time), so it is a target of its own.
plugin: deps
	SEEDGEN_PLUGIN=1 $(SWIFT) test --filter SeedgenPluginTests

# SeedgenSwiftDataPlugin on a SwiftData app package (Tests/SwiftDataPluginExample): its build
# compiles swift-syntax for the plugin's reader, so it is a target of its own, not part of make test.
plugin-swiftdata: deps
	SEEDGEN_SWIFTDATA_PLUGIN=1 $(SWIFT) test --filter SeedgenSwiftDataPluginTests

kill-test: deps
	SEEDGEN_KILLS=$(KILLS) SEEDGEN_KILL_ROWS=1000000 SEEDGEN_KILL_OBJECTS=100000 $(SWIFT) test --filter 'BuildKillTests|MigrationKillTests|UpdateKillTests'

# The whole test suite under AddressSanitizer, then under ThreadSanitizer (each its own build folder;
# the programs the tests start are built with the sanitizer too). Leak reports are off: on Linux,
# XCTest and Foundation leave allocations at exit that LeakSanitizer reports (none of ours).
sanitize: deps
	ASAN_OPTIONS=detect_leaks=0 $(SWIFT) test --sanitize=address --scratch-path .build-asan
	$(SWIFT) test --sanitize=thread --scratch-path .build-tsan

# libFuzzer: the libraries are built by SwiftPM with AddressSanitizer and libFuzzer's coverage
# (.build-fuzz), then each target in Tests/Fuzz/<Name>Fuzz.swift is linked with swiftc
# -sanitize=fuzzer,address (a SwiftPM product cannot link a fuzzer: libFuzzer brings its own main).
# `make fuzz SECONDS=N` runs every target N seconds (default 60); FUZZ_TARGETS="verify import" a few.
# Seeds are in Tests/Fuzz/corpus/<target>; what the fuzzer adds stays in build/fuzz/<target>. Inputs
# that once failed are kept in Tests/Fuzz/regressions/<target>, run by `make test` and by the fuzzer.
# A crash leaves its input as build/fuzz/crash-* and stops with an error. Leak checks are off:
# on Linux, Foundation's own allocations are reported at exit.
SECONDS ?= 60
# Budgets: an input that takes more than FUZZ_RSS_MB of memory (resident, or in one allocation)
# or more than FUZZ_TIMEOUT seconds is a finding (oom-*/timeout-*), not a pass. AddressSanitizer's
# own shadow memory counts, so the bound is wider than `make test`'s 96 MiB plus twice the input.
FUZZ_RSS_MB ?= 1024
FUZZ_TIMEOUT ?= 3
# FUZZ_JOBS=2 runs a target in libFuzzer's fork mode on two processes (the budgets hold in each);
# the count it prints is the sum of their executions.
FUZZ_JOBS ?= 1
FUZZ_FORK = $(if $(filter-out 1,$(FUZZ_JOBS)),-fork=$(FUZZ_JOBS),)
# Each input of the reader targets builds a scratch store: on a tmpfs (/dev/shm) that runs 1.75x
# as many inputs a second as on disk (375 against 214 for json, 3,000 inputs).
FUZZ_TMP ?= $(shell [ -d /dev/shm ] && [ -w /dev/shm ] && echo /dev/shm/seedgen-fuzz-$$PPID || echo $(CURDIR)/$(FUZZ_DIR)/tmp)
# corpus:harness:longest input; FUZZ_TARGETS="verify import" runs a few.
FUZZ_ALL := predicate:Predicate:4096 model:Model:16384 compile:Compile:2048 metadata:Metadata:4096 \
	xml:Import:8192 plist:Import:8192 bplist:Import:8192 json:Import:8192 csv:Import:8192 verify:Verify:2048
FUZZ_TARGETS ?= $(foreach t,$(FUZZ_ALL),$(firstword $(subst :, ,$(t))))
FUZZ_DIR := build/fuzz
FUZZ_BUILD := .build-fuzz/$(shell uname -m)-unknown-linux-gnu/release
FUZZ_MODULES := SeedModel SeedModelLoader SeedStore SeedImport SeedDump SystemPackage CSystem
# SwiftPM names the package after its folder (a clone in ~/work/main is package `main`).
FUZZ_PACKAGE := $(shell basename '$(CURDIR)' | tr 'A-Z' 'a-z' | tr -c 'a-z0-9_\n' '_')
# A Swift module links the objects of its current sources (its `sources` list): an object left by a
# file since moved or removed would otherwise be linked twice or against symbols that are gone.
FUZZ_LINK = -O -sanitize=fuzzer,address -parse-as-library -package-name $(FUZZ_PACKAGE) -I $(FUZZ_BUILD)/Modules \
	-I Sources/SeedgenSQLite -I Sources/SeedgenLibXML2 -I Sources/SeedgenLibCrypto $$(pkg-config --cflags libxml-2.0 | sed 's/-I/-Xcc -I/g') \
	$$(find .build-fuzz/checkouts -name module.modulemap -path '*/C*' | sed 's/^/-Xcc -fmodule-map-file=/') \
	$$(for m in $(FUZZ_MODULES); do d=$(FUZZ_BUILD)/$$m.build; if [ -f $$d/sources ]; then \
		tr -d "'" <$$d/sources | while IFS= read -r s; do echo "$$d/$$(basename "$$s").o"; done; \
		else find $$d -name '*.o'; fi; done) -lxml2 -lsqlite3 -lcrypto
fuzz: deps
	@for target in SeedImport SeedDump SeedModelLoader; do \
		$(SWIFT) build -c release --build-path .build-fuzz --sanitize address \
			-Xswiftc -sanitize-coverage=edge,inline-8bit-counters,pc-table,trace-cmp --target $$target || exit 1; \
	done
	@set -e; for target in $(FUZZ_TARGETS); do \
		spec=$$(echo "$(FUZZ_ALL)" | tr ' ' '\n' | grep "^$$target:") || { echo "no fuzz target $$target"; exit 1; }; \
		harness=$$(echo $$spec | cut -d: -f2); length=$$(echo $$spec | cut -d: -f3); \
		mkdir -p $(FUZZ_DIR)/$$target; \
		swiftc $(FUZZ_LINK) Tests/Fuzz/$${harness}Fuzz.swift Tests/Fuzz/FuzzFixture.swift -o $(FUZZ_DIR)/$$harness-fuzz \
			>$(FUZZ_DIR)/$$harness-link.log 2>&1 || { grep error: $(FUZZ_DIR)/$$harness-link.log; exit 1; }; \
		cp -n Tests/Fuzz/corpus/$$target/* $(FUZZ_DIR)/$$target/; \
		echo "== fuzz $$target ($(SECONDS) s, at most $(FUZZ_RSS_MB) MB and $(FUZZ_TIMEOUT) s an input)"; \
		mkdir -p $(FUZZ_TMP); \
		(cd $(FUZZ_DIR) && SEEDGEN_ROOT=$(CURDIR) SEEDGEN_FUZZ_TARGET=$$target TMPDIR=$(FUZZ_TMP) ASAN_OPTIONS=detect_leaks=0 ./$$harness-fuzz $(FUZZ_FORK) -max_total_time=$(SECONDS) \
			-max_len=$$length -timeout=$(FUZZ_TIMEOUT) -rss_limit_mb=$(FUZZ_RSS_MB) -malloc_limit_mb=$(FUZZ_RSS_MB) -detect_leaks=0 -print_final_stats=1 $$target $$(ls -d $(CURDIR)/Tests/Fuzz/regressions/$$target 2>/dev/null) >$$target.log 2>&1 || true); \
		grep -E '^#[0-9]+[[:space:]]+DONE|^stat::number_of_executed_units' $(FUZZ_DIR)/$$target.log || grep -E '^#[0-9]+: cov' $(FUZZ_DIR)/$$target.log | tail -1 | grep . || tail -5 $(FUZZ_DIR)/$$target.log; \
		rm -rf $(FUZZ_TMP); \
		if ls $(FUZZ_DIR) | grep -qE '^(crash|timeout|oom|leak)-'; then \
			echo "fuzz $$target: the input that failed is in $(FUZZ_DIR) (log: $(FUZZ_DIR)/$$target.log)"; exit 1; fi; \
	done

# The documentation: first the command-line reference, Sources/seedgen/seedgen.docc, made anew
# from the commands' own help by swift-argument-parser's plugin (a release build; the seed apps'
# references it also writes are not kept) — a committed one that is stale fails; then each
# module's DocC catalog built with its symbols by swift-docc-plugin into build/docs/<Target>,
# where a broken symbol or article link, or any other warning, fails.
DOC_TARGETS := SeedModel SeedModelLoader SeedSwiftDataLoader SeedStore SeedEvolution SeedImport SeedRuntime seedgen
docs: deps
	$(SWIFT) package --disable-sandbox --allow-writing-to-package-directory generate-docc-reference
	rm -rf Examples/emplan/emplan.docc Examples/laptimer/laptimer.docc Examples/locations/locations.docc
	@git diff --quiet -- Sources/seedgen/seedgen.docc || { git --no-pager diff --stat -- Sources/seedgen/seedgen.docc; \
		echo "docs: the committed command-line reference was stale; commit Sources/seedgen/seedgen.docc as regenerated"; exit 1; }
	@mkdir -p build/docs; for target in $(DOC_TARGETS); do \
		rm -rf build/docs/$$target; \
		$(SWIFT) package --disable-sandbox generate-documentation --target $$target --warnings-as-errors \
			--output-path build/docs/$$target >build/docs-$$target.log 2>&1 || { grep -E 'error|warning' build/docs-$$target.log; exit 1; }; \
		echo "docs: build/docs/$$target"; \
	done

clean:
	rm -rf build .build .build-asan .build-tsan .build-fuzz .build-plugin-example
