# hopsim: build, run and test.
#
#   make demo    set everything up (venv, deps, release build of the extension) and run the main
#                job: one chain scenario, then the DSN study's variant comparison in quick mode
#   make test    the same set-up plus test deps; Rust tests (release and debug), the linters,
#                a short fuzzing campaign, pytest, then wheel-check and docs
#   make wheel   the abi3 wheel (one wheel for CPython >= 3.10, the compiled module inside) in dist/
#   make wheel-check  make wheel, then install it into a fresh virtualenv without cargo or rustc
#                on the PATH and run hopsim from it, outside the repository
#   make docs    the documentation site (mkdocs-material, docs/ and mkdocs.yml) into site/, in
#                strict mode: a broken link fails it
#   make bench   engine benchmarks (cargo bench), then benches/speed.py: hopsim beside ns-2.35
#                (when installed), large networks, the CLI's start-up, sweeps on local processes
#                and a local Dask cluster (docs/speed.md); BENCH_QUICK=1 for a short pass,
#                BENCH_JSON=PATH to write the figures as JSON
#   make fuzz    a long fuzzing campaign (FUZZ_INPUTS generated scenarios on stable Rust, then
#                FUZZ_SECONDS of libFuzzer with cargo fuzz where nightly Rust is installed,
#                then the Python property tests with FUZZ_EXAMPLES examples each)
#   make cost-guard  the engine's instruction counts (valgrind) against benches/cost_baseline.json
#   make lint    cargo fmt --check, cargo clippy -D warnings, ruff
#   make ns2-reference  run the four ns-2 studies in ns-2.35 (quick and full mode; hours) and
#                make the reference results hopsim ships (python/hopsim/studies/ns2ref/)
#   make clean   remove build products and the virtual environment
#
# Set-up is idempotent: stamps record what was done, and the extension is rebuilt only when a
# .rs file, a Cargo.toml, Cargo.lock or pyproject.toml changed (or the built module is missing).
# The extension is profile-guided where llvm-profdata of rustc's LLVM is installed (PGO=0: a
# plain release build; see PGO below and docs/speed.md).

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
DOCS_STAMP := $(VENV)/.docs-deps-installed
EXT_STAMP  := python/hopsim/.ext-built

RUST_SRC := Cargo.toml $(wildcard Cargo.lock) \
            $(shell find crates -name '*.rs' -o -name 'Cargo.toml' 2>/dev/null)

# Rebuild the extension whenever the compiled module itself is missing.
ifeq ($(wildcard python/hopsim/_core*.so python/hopsim/_core*.pyd),)
EXT_FORCE := FORCE
endif

# Profile-guided optimisation (docs/speed.md, "Profile-guided build"): where llvm-profdata of
# rustc's own LLVM version is installed (make pgo-tools installs it; make bench runs that
# first), the extension is built instrumented, runs the training scenarios of
# benches/pgo_train.py, and is built again with the merged profile (benches/build_ext.sh).
# With PGO=0, or without that llvm-profdata: one plain release build. The stamp records which
# was built, so a change of either rebuilds.
PGO ?= 1
LLVM_MAJOR := $(shell rustc -vV 2>/dev/null | sed -n 's/^LLVM version: \([0-9]*\).*/\1/p')
PROFDATA := $(if $(LLVM_MAJOR),$(shell command -v llvm-profdata-$(LLVM_MAJOR) 2>/dev/null))
EXT_MODE := $(if $(and $(filter-out 0,$(PGO)),$(PROFDATA)),pgo,plain)
PGO_PROFILE := $(CURDIR)/target/pgo/merged.profdata
# The release builds that use the profile (the wheel, cargo bench) share the final build's
# target directory.
PGO_ENV := $(if $(filter pgo,$(EXT_MODE)),RUSTFLAGS="-Cprofile-use=$(PGO_PROFILE)" \
  CARGO_TARGET_DIR="$(CURDIR)/target/pgo-use")
ifneq ($(shell cat $(EXT_STAMP) 2>/dev/null),$(EXT_MODE))
EXT_FORCE := FORCE
endif

# Prints one optional-dependency group of pyproject.toml, one requirement a line.
EXTRA_REQS = $(BIN)/python -c 'import sys, tomllib; \
  print("\n".join(tomllib.load(open("pyproject.toml", "rb"))["project"]["optional-dependencies"][sys.argv[1]]))'

.PHONY: demo test setup setup-build wheel-pgo wheel-build setup-test test-tools bench bench-run pgo-tools fuzz fuzz-smoke lint \
        ns2-reference cost-guard \
        fmt clean FORCE wheel wheel-check docs

## ---------------------------------------------------------------- set-up

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(DEPS_STAMP): $(BIN)/python pyproject.toml
	$(PIP) install --quiet --upgrade pip
	$(PIP) install --quiet "maturin>=1.9.4,<2"
	touch $@

# maturin develop builds the extension in release mode, installs the package in editable mode
# (python/ on the path, the compiled module next to the sources) and installs its dependencies.
# The module is built for the stable ABI (_core.abi3.so); a version-specific _core.cpython-*.so
# left by an older build would shadow it, so it goes.
$(EXT_STAMP): $(DEPS_STAMP) $(RUST_SRC) pyproject.toml benches/build_ext.sh \
    benches/pgo_train.py $(EXT_FORCE)
	@echo "building the extension (release, $(EXT_MODE); log: $(VENV)/maturin.log)"
	@VIRTUAL_ENV="$(abspath $(VENV))" PATH="$(abspath $(BIN)):$$PATH" PROFDATA="$(PROFDATA)" \
	  benches/build_ext.sh $(EXT_MODE) > $(VENV)/maturin.log 2>&1 \
	  || { tail -n 60 $(VENV)/maturin.log; exit 1; }
	rm -f python/hopsim/_core.cpython-*.so
	echo $(EXT_MODE) > $@

$(TEST_STAMP): $(DEPS_STAMP) pyproject.toml
	$(EXTRA_REQS) test > $(VENV)/requirements-test.txt
	$(PIP) install --quiet -r $(VENV)/requirements-test.txt
	touch $@

$(ANALYSIS_STAMP): $(DEPS_STAMP) pyproject.toml
	$(EXTRA_REQS) analysis > $(VENV)/requirements-analysis.txt
	$(PIP) install --quiet -r $(VENV)/requirements-analysis.txt
	touch $@

$(DOCS_STAMP): $(DEPS_STAMP) pyproject.toml
	$(EXTRA_REQS) docs > $(VENV)/requirements-docs.txt
	$(PIP) install --quiet -r $(VENV)/requirements-docs.txt
	touch $@

$(LINT_STAMP): $(DEPS_STAMP) pyproject.toml
	$(EXTRA_REQS) lint > $(VENV)/requirements-lint.txt
	$(PIP) install --quiet -r $(VENV)/requirements-lint.txt
	touch $@

# llvm-profdata first (pgo-tools), then a new make that sees it: every set-up builds the
# profile-guided extension where the machine allows it, and says which build it made.
setup: pgo-tools
	$(MAKE) --no-print-directory setup-build

setup-build: $(EXT_STAMP) $(ANALYSIS_STAMP)
	@if [ "$$(cat $(EXT_STAMP))" = pgo ]; then \
	  echo "hopsim: the profile-guided build (llvm-profdata-$(LLVM_MAJOR))"; \
	else \
	  echo "hopsim: a plain release build, about a third slower than the profile-guided one:" \
	    "install llvm-profdata-$(LLVM_MAJOR) (Debian: apt-get install llvm-$(LLVM_MAJOR)) and run" \
	    "make setup again$(if $(filter 0,$(PGO)), (or leave out PGO=0))"; \
	fi

setup-test: setup $(TEST_STAMP) test-tools

# Debian's tshark and tcptrace read the pcap traces in the tests, ns-2.35 (package ns2,
# command ns) runs beside hopsim in the crosscheck tests, headless Chromium (driven by
# selenium through chromium-driver) opens the run explorer's pages, g++ builds the ns-3
# chain scenario, and valgrind counts the engine's instructions for the cost guard; installed
# when missing (as root, non-interactively). Without apt-get those
# tests are skipped and say why.
# ns-3 itself comes from PyPI's ns3 wheel (headers and shared libraries, 69 MB to download,
# 305 MB installed, about 10 s): --no-deps, as its Python bindings (cppyy) are not used. Where
# no wheel fits this Python, the ns-3 tests are skipped and say why.
NS3_WHEEL := ns3==3.44.post0

test-tools:
	if ! command -v tshark >/dev/null || ! command -v tcptrace >/dev/null \
	    || ! command -v ns >/dev/null || ! command -v chromedriver >/dev/null \
	    || ! command -v g++ >/dev/null || ! command -v valgrind >/dev/null; then \
	  if command -v apt-get >/dev/null; then \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
	      tshark tcptrace ns2 chromium chromium-driver g++ valgrind; \
	  else \
	    echo "warning: tshark/tcptrace/ns/chromium/g++/valgrind missing and no apt-get: their tests will be skipped"; \
	  fi; \
	fi
	if [ ! -f "$$($(BIN)/python -c 'import importlib.util as u; s = u.find_spec("ns3"); \
	    print(s.submodule_search_locations[0] if s else "-")')/include/ns3/core-module.h" ]; then \
	  $(PIP) install --quiet --no-deps "$(NS3_WHEEL)" \
	    || echo "warning: $(NS3_WHEEL) could not be installed: the ns-3 tests will be skipped"; \
	fi

# llvm-profdata of rustc's LLVM version for the profile-guided build (Debian's llvm-N).
pgo-tools:
	if [ "$(PGO)" != 0 ] && [ -n "$(LLVM_MAJOR)" ] && [ -z "$(PROFDATA)" ]; then \
	  if command -v apt-get >/dev/null; then \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
	      llvm-$(LLVM_MAJOR) \
	      || echo "warning: llvm-$(LLVM_MAJOR) could not be installed: a plain build"; \
	  else \
	    echo "warning: no llvm-profdata-$(LLVM_MAJOR) and no apt-get: a plain build"; \
	  fi; \
	fi

FORCE:

## ---------------------------------------------------------------- main targets

demo: setup
	$(BIN)/hopsim run scenarios/chain7_udp.toml
	$(BIN)/hopsim reproduce dsn-variants --quick

# hopsim-py is a cdylib for Python; it has no Rust tests and is exercised by pytest instead.
# The Rust tests run twice: in release (the speed users get) and in the debug profile, whose
# debug assertions and overflow checks must hold too. Then the linters (cargo fmt, clippy
# -D warnings, ruff), the cost guard and a bounded fuzzing campaign.
test: setup-test
	cargo test --workspace --exclude hopsim-py --release
	cargo test --workspace --exclude hopsim-py
	$(MAKE) --no-print-directory lint
	$(MAKE) --no-print-directory cost-guard
	$(MAKE) --no-print-directory fuzz-smoke
	rc=0; $(BIN)/python -m pytest -q tests || rc=$$?; \
	  if [ $$rc -eq 5 ]; then echo "pytest: no tests were collected"; rc=0; fi; exit $$rc
	$(MAKE) --no-print-directory wheel-check
	$(MAKE) --no-print-directory docs

# The engine's instruction counts on three runs against benches/cost_baseline.json: fails past
# +3% (docs/speed.md, "The cost guard"). After a wanted change in cost:
#   $(BIN)/python benches/cost_guard.py --update --why "..."   (and say why in the commit)
cost-guard: $(EXT_STAMP)
	$(BIN)/python benches/cost_guard.py

# --bench '*': the benchmark targets only (not the unit tests, which cargo bench lists as
# ignored). benches/speed.py runs every row in a fresh process (peak memory per row) and prints one table.
BENCH_QUICK ?=
BENCH_JSON  ?=
# ns-2.35's answers for `hopsim reproduce` (docs/interfaces.md, "Command line"); needs `ns`.
NS2_STUDIES := chen-cwl chen-manet dsn-variants vegas-w
ns2-reference: $(EXT_STAMP)
	for s in $(NS2_STUDIES); do \
	  $(BIN)/hopsim reproduce $$s --quick --ns2 --write-reference --out results/$$s-quick \
	    --progress lines || exit 1; \
	  $(BIN)/hopsim reproduce $$s --ns2 --write-reference --out results/$$s \
	    --progress lines || exit 1; \
	done

bench: pgo-tools
	$(MAKE) --no-print-directory bench-run

# A new make, so that the llvm-profdata pgo-tools installed is seen.
bench-run: $(EXT_STAMP)
	$(PGO_ENV) cargo bench -p hopsim-core --bench '*'
	$(BIN)/python benches/speed.py $(if $(filter-out 0,$(BENCH_QUICK)),--quick) \
	  $(if $(BENCH_JSON),--json $(BENCH_JSON))
	$(BIN)/python benches/gym_speed.py $(if $(filter-out 0,$(BENCH_QUICK)),--quick)
	$(BIN)/python benches/sweep_warmup.py $(if $(filter-out 0,$(BENCH_QUICK)),--quick)
	$(BIN)/python benches/routing_speed.py $(if $(filter-out 0,$(BENCH_QUICK)),--quick)

## ---------------------------------------------------------------- wheel and docs site

# One wheel for every CPython >= 3.10 (pyo3's abi3-py310 feature), built in target/ like the
# extension of the venv (so mostly cached).
# Profile-guided like the extension when that was (its profile comes from that build).
# Always profile-guided: a wheel is what users install without building.
wheel: pgo-tools
	$(MAKE) --no-print-directory wheel-pgo
	$(MAKE) --no-print-directory wheel-build

wheel-pgo:
	@if [ "$(EXT_MODE)" != pgo ]; then \
	  echo "make wheel: cannot build the profile-guided wheel: no llvm-profdata-$(LLVM_MAJOR)" \
	    "(Debian: apt-get install llvm-$(LLVM_MAJOR))$(if $(filter 0,$(PGO)), and PGO=0 is set)" >&2; \
	  exit 1; \
	fi

wheel-build: $(DEPS_STAMP) $(EXT_STAMP)
	rm -f dist/hopsim-*.whl
	$(PGO_ENV) $(BIN)/maturin build --release --out dist --interpreter $(BIN)/python

# The wheel must carry every module and data file of python/hopsim (the study sweeps among
# them) and the compiled module, and work where no Rust toolchain is: it is installed into a
# fresh virtualenv (dependencies from PyPI, through pip's cache) whose PATH has no cargo or
# rustc, and run from a folder outside the repository. WHEEL_PYTHON: the interpreter to test
# with (any CPython >= 3.10).
WHEEL_PYTHON ?= $(PYTHON)
WHEEL_FILES = hopsim/_core.abi3.so \
  $(patsubst python/%,%,$(shell find python/hopsim -name __pycache__ -prune -o -type f \
      \( -name '*.py' -o -name '*.pyi' -o -name '*.toml' -o -name '*.cc' -o -name py.typed \
      -o -name '*.json.gz' \) -print))
CHECK_ENV = env -u PYTHONPATH -u PYTHONHOME -u VIRTUAL_ENV -u CARGO_HOME -u RUSTUP_HOME \
  PATH="$$path"

wheel-check: wheel
	@whl="$$(echo $(CURDIR)/dist/hopsim-*.whl)"; \
	echo "wheel-check: $${whl##*/} into a fresh virtualenv, no cargo or rustc on the PATH"; \
	$(BIN)/python -c 'import sys, zipfile; \
	  missing = set(sys.argv[2:]) - set(zipfile.ZipFile(sys.argv[1]).namelist()); \
	  sys.exit(f"wheel-check: not in the wheel: {sorted(missing)}" if missing else 0)' \
	  "$$whl" $(WHEEL_FILES); \
	tmp="$$(mktemp -d)"; trap 'rm -rf "$$tmp"' EXIT; \
	$(WHEEL_PYTHON) -m venv "$$tmp/venv"; \
	path="$$tmp/venv/bin$$(IFS=:; for d in $$PATH; do \
	  [ -e "$$d/cargo" ] || [ -e "$$d/rustc" ] || printf ':%s' "$$d"; done)"; \
	cd "$$tmp"; \
	if $(CHECK_ENV) bash -c 'command -v cargo || command -v rustc'; then \
	  echo "wheel-check: cargo or rustc is still on the PATH" >&2; exit 1; fi; \
	$(CHECK_ENV) python -m pip install --quiet --disable-pip-version-check "$$whl"; \
	$(CHECK_ENV) hopsim run "$(CURDIR)/scenarios/one_hop_saturated.toml" \
	  --set duration_s=5 --set warmup_s=1 --json > result.json; \
	$(CHECK_ENV) python -c 'import json; f = json.load(open("result.json"))["flows"][0]; \
	  assert f["packets_delivered"] > 0, f; \
	  print("wheel-check: hopsim run:", f["goodput_kbps"], "kbit/s")'; \
	$(CHECK_ENV) hopsim reproduce --list > catalogue.txt; grep -q chen-cwl catalogue.txt; \
	$(CHECK_ENV) python -c 'from hopsim.studies import CATALOGUE, get_study; \
	  from hopsim.studies.common import SWEEP_DIR; from hopsim.sweeps.spec import load_sweep; \
	  files = [f for n in CATALOGUE for f in get_study(n).sweeps if isinstance(f, str)]; \
	  n = sum(len(load_sweep(SWEEP_DIR / f).points) for f in files); \
	  print(f"wheel-check: {len(files)} study sweep files, {n} points valid")'; \
	$(CHECK_ENV) python -c 'from hopsim.studies import CATALOGUE, get_study; \
	  from hopsim.studies.ns2ref import load_reference; \
	  refs = [n for n in CATALOGUE if get_study(n).ns2 and load_reference(n)]; \
	  assert len(refs) == 4, refs; print("wheel-check: ns-2.35 reference results of", refs)'; \
	version="$$($(CHECK_ENV) python -c 'import hopsim, hopsim._core as c; \
	  assert "site-packages" in c.__file__, c.__file__; print(hopsim.__version__)')"; \
	case "$$whl" in */hopsim-$$version-*) ;; \
	  *) echo "wheel-check: hopsim.__version__ $$version, wheel $$whl" >&2; exit 1;; esac; \
	echo "wheel-check: $${whl##*/} works ($$($(CHECK_ENV) python --version), hopsim $$version)"

docs: $(DOCS_STAMP)
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --site-dir site

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
	HOPSIM_FUZZ_EXAMPLES=$(FUZZ_EXAMPLES) $(BIN)/python -m pytest -q tests/test_fuzz_inputs.py tests/test_fuzz_steer.py

lint: $(LINT_STAMP) $(EXT_STAMP)
	cargo fmt --all --check
	cargo fmt --manifest-path fuzz/Cargo.toml --check
	cargo clippy --workspace --all-targets -- -D warnings
	cargo clippy --manifest-path fuzz/Cargo.toml --release -- -D warnings
	$(BIN)/ruff check python tests benches examples
	$(BIN)/ruff format --check python tests benches examples

fmt: $(LINT_STAMP)
	cargo fmt --all
	$(BIN)/ruff format python tests benches examples
	$(BIN)/ruff check --fix python tests benches examples

clean:
	cargo clean
	rm -rf $(VENV) $(EXT_STAMP) python/hopsim/_core*.so python/hopsim/_core*.pyd dist site
	find python tests -name __pycache__ -type d -prune -exec rm -rf {} +
