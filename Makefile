# hopsim: build, run and test.
#
#   make demo    set everything up (venv, deps, release build of the extension) and run the main
#                job: one chain scenario, then the DSN study's variant comparison in quick mode
#   make test    the same set-up plus test deps; Rust tests (release) and pytest
#   make bench   engine benchmarks (cargo bench)
#   make fuzz    a long fuzzing campaign (FUZZ_INPUTS generated scenarios on stable Rust, then
#                FUZZ_SECONDS of libFuzzer with cargo fuzz where nightly Rust is installed,
#                then the Python property tests with FUZZ_EXAMPLES examples each)
#   make lint    cargo fmt --check, cargo clippy -D warnings, ruff
#   make clean   remove build products and the virtual environment
#
# Set-up is idempotent: stamps record what was done, and the extension is rebuilt only when a
# .rs file, a Cargo.toml, Cargo.lock or pyproject.toml changed (or the built module is missing).

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := demo

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
PIP    := $(BIN)/python -m pip --disable-pip-version-check

DEPS_STAMP := $(VENV)/.deps-installed
TEST_STAMP := $(VENV)/.test-deps-installed
LINT_STAMP := $(VENV)/.lint-deps-installed
ANALYSIS_STAMP := $(VENV)/.analysis-deps-installed
EXT_STAMP  := python/hopsim/.ext-built

RUST_SRC := Cargo.toml $(wildcard Cargo.lock) \
            $(shell find crates -name '*.rs' -o -name 'Cargo.toml' 2>/dev/null)

# Rebuild the extension whenever the compiled module itself is missing.
ifeq ($(wildcard python/hopsim/_core*.so python/hopsim/_core*.pyd),)
EXT_FORCE := FORCE
endif

# Prints one optional-dependency group of pyproject.toml, one requirement a line.
EXTRA_REQS = $(BIN)/python -c 'import sys, tomllib; \
  print("\n".join(tomllib.load(open("pyproject.toml", "rb"))["project"]["optional-dependencies"][sys.argv[1]]))'

.PHONY: demo test setup setup-test test-tools bench fuzz fuzz-smoke lint fmt clean FORCE

## ---------------------------------------------------------------- set-up

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(DEPS_STAMP): $(BIN)/python pyproject.toml
	$(PIP) install --quiet --upgrade pip
	$(PIP) install --quiet "maturin>=1.9.4,<2"
	touch $@

# maturin develop builds the extension in release mode, installs the package in editable mode
# (python/ on the path, the compiled module next to the sources) and installs its dependencies.
$(EXT_STAMP): $(DEPS_STAMP) $(RUST_SRC) pyproject.toml $(EXT_FORCE)
	VIRTUAL_ENV="$(abspath $(VENV))" PATH="$(abspath $(BIN)):$$PATH" \
	  $(BIN)/maturin develop --release
	touch $@

$(TEST_STAMP): $(DEPS_STAMP) pyproject.toml
	$(EXTRA_REQS) test > $(VENV)/requirements-test.txt
	$(PIP) install --quiet -r $(VENV)/requirements-test.txt
	touch $@

$(ANALYSIS_STAMP): $(DEPS_STAMP) pyproject.toml
	$(EXTRA_REQS) analysis > $(VENV)/requirements-analysis.txt
	$(PIP) install --quiet -r $(VENV)/requirements-analysis.txt
	touch $@

$(LINT_STAMP): $(DEPS_STAMP) pyproject.toml
	$(EXTRA_REQS) lint > $(VENV)/requirements-lint.txt
	$(PIP) install --quiet -r $(VENV)/requirements-lint.txt
	touch $@

setup: $(EXT_STAMP) $(ANALYSIS_STAMP)

setup-test: setup $(TEST_STAMP) test-tools

# Debian's tshark and tcptrace read the pcap traces in the tests, and ns-2.35 (package ns2,
# command ns) runs beside hopsim in the crosscheck tests; installed when missing (as root,
# non-interactively). Without apt-get those tests are skipped and say why.
test-tools:
	if ! command -v tshark >/dev/null || ! command -v tcptrace >/dev/null \
	    || ! command -v ns >/dev/null; then \
	  if command -v apt-get >/dev/null; then \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
	      tshark tcptrace ns2; \
	  else \
	    echo "warning: tshark/tcptrace/ns missing and no apt-get: their tests will be skipped"; \
	  fi; \
	fi

FORCE:

## ---------------------------------------------------------------- main targets

demo: setup
	$(BIN)/hopsim run scenarios/chain7_udp.toml
	$(BIN)/hopsim reproduce dsn-variants --quick

# hopsim-py is a cdylib for Python; it has no Rust tests and is exercised by pytest instead.
# The Rust tests run twice: in release (the speed users get) and in the debug profile, whose
# debug assertions and overflow checks must hold too. A bounded fuzzing campaign follows.
test: setup-test
	cargo test --workspace --exclude hopsim-py --release
	cargo test --workspace --exclude hopsim-py
	$(MAKE) --no-print-directory fuzz-smoke
	rc=0; $(BIN)/python -m pytest -q tests || rc=$$?; \
	  if [ $$rc -eq 5 ]; then echo "pytest: no tests were collected"; rc=0; fi; exit $$rc

bench:
	cargo bench -p hopsim-core

## ---------------------------------------------------------------- fuzzing (fuzz/README.md)

FUZZ_INPUTS   ?= 200000
FUZZ_SECONDS  ?= 600
FUZZ_EXAMPLES ?= 2000
CAMPAIGN := cargo run --quiet --release --manifest-path fuzz/Cargo.toml --bin campaign --

# About a minute: 10,000 generated scenarios and the regression corpus, each validated and run
# (debug assertions and overflow checks on) under a tight budget; fails on any panic, hang or
# runaway run.
fuzz-smoke:
	$(CAMPAIGN) 10000 1 --corpus fuzz/regressions

fuzz: setup-test
	$(CAMPAIGN) $(FUZZ_INPUTS) $$(date +%s) --corpus fuzz/regressions
	if cargo +nightly --version >/dev/null 2>&1; then \
	  command -v cargo-fuzz >/dev/null || cargo install --locked cargo-fuzz; \
	  cargo +nightly fuzz run scenario --features libfuzzer --fuzz-dir fuzz -- \
	    -max_total_time=$(FUZZ_SECONDS) -max_len=4096 -timeout=20 -rss_limit_mb=2048 \
	    -print_final_stats=1; \
	else \
	  echo "fuzz: no nightly Rust here, libFuzzer skipped (the stable campaign above ran)"; \
	fi
	HOPSIM_FUZZ_EXAMPLES=$(FUZZ_EXAMPLES) $(BIN)/python -m pytest -q tests/test_fuzz_inputs.py

lint: $(LINT_STAMP) $(EXT_STAMP)
	cargo fmt --all --check
	cargo fmt --manifest-path fuzz/Cargo.toml --check
	cargo clippy --workspace --all-targets -- -D warnings
	cargo clippy --manifest-path fuzz/Cargo.toml --release -- -D warnings
	$(BIN)/ruff check python tests
	$(BIN)/ruff format --check python tests

fmt: $(LINT_STAMP)
	cargo fmt --all
	$(BIN)/ruff format python tests
	$(BIN)/ruff check --fix python tests

clean:
	cargo clean
	rm -rf $(VENV) $(EXT_STAMP) python/hopsim/_core*.so python/hopsim/_core*.pyd
	find python tests -name __pycache__ -type d -prune -exec rm -rf {} +
