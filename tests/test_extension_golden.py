"""The built extension reproduces the golden set bit for bit.

The Rust golden test (crates/hopsim-core/tests/golden.rs) runs the core as cargo builds it.
The extension Python loads may be built differently: profile-guided where llvm-profdata is
installed (benches/build_ext.sh, docs/speed.md). Such a build may only change how the code is
laid out and inlined, never a result, so every golden scenario run through the extension must
give the recorded document exactly (the time-series cases are covered by the Rust test).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

GOLDEN = Path(__file__).resolve().parent.parent / "crates" / "hopsim-core" / "tests" / "golden"
CASES = sorted(p.stem for p in GOLDEN.glob("*.toml"))


def first_difference(a: object, b: object, at: str) -> str | None:
    """The first place where the documents differ (dotted path), or None."""
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                return f"{at}.{k}: only in one document"
            d = first_difference(a[k], b[k], f"{at}.{k}")
            if d:
                return d
        return None
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (p, q) in enumerate(zip(a, b, strict=True)):
            d = first_difference(p, q, f"{at}[{i}]")
            if d:
                return d
        return None
    # Exact equality, floats included (and the same type: 1 is not 1.0 in the document).
    if type(a) is type(b) and a == b:
        return None
    return f"{at}: expected {a!r} but got {b!r}"


def test_golden_set_is_large() -> None:
    assert len(CASES) >= 30, CASES


@pytest.mark.parametrize("stem", CASES)
def test_extension_matches_golden(stem: str) -> None:
    from hopsim import _core

    scenario = tomllib.loads((GOLDEN / f"{stem}.toml").read_text())
    doc = json.loads(_core.run_json(json.dumps(scenario)))
    doc.pop("hopsim_version", None)
    expected = json.loads((GOLDEN / f"{stem}.json").read_text())
    assert first_difference(expected, doc, stem) is None, first_difference(expected, doc, stem)
