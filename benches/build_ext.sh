#!/usr/bin/env bash
# Builds the extension into python/hopsim with `maturin develop --release` (the Makefile calls
# it; docs/speed.md, "Profile-guided build"):
#   build_ext.sh plain   one release build
#   build_ext.sh pgo     profile-guided: an instrumented build (target/pgo-gen) runs the training
#                        scenarios of benches/pgo_train.py, $PROFDATA (llvm-profdata of rustc's
#                        own LLVM version) merges the counts into target/pgo/merged.profdata,
#                        and the final build (target/pgo-use) is optimised with them.
# Profile-guided optimisation changes how the code is laid out and inlined, never what it
# computes: results are bit-identical (tests/test_extension_golden.py runs the golden set through
# the built extension).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
root="$(pwd)"
case "${1:-}" in
  plain)
    exec maturin develop --release
    ;;
  pgo)
    : "${PROFDATA:?PROFDATA must name llvm-profdata}"
    raw="$root/target/pgo/raw"
    rm -rf "$raw"
    mkdir -p "$raw"
    RUSTFLAGS="-Cprofile-generate=$raw" CARGO_TARGET_DIR="$root/target/pgo-gen" \
      maturin develop --release
    # The instrumented build scripts and proc macros wrote counts of their own: only the
    # training runs' are kept.
    rm -f "$raw"/*.profraw
    LLVM_PROFILE_FILE="$raw/train-%p-%m.profraw" python benches/pgo_train.py
    "$PROFDATA" merge -o "$root/target/pgo/merged.profdata" "$raw"
    RUSTFLAGS="-Cprofile-use=$root/target/pgo/merged.profdata" \
      CARGO_TARGET_DIR="$root/target/pgo-use" maturin develop --release
    ;;
  *)
    echo "usage: $0 plain|pgo" >&2
    exit 2
    ;;
esac
