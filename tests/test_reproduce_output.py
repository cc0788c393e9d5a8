"""``hopsim reproduce`` prints a short account (N of M claims hold, the ones that do not, the
paths), not every claim: those are in claims.md, and on the terminal with --claims. Here the
paper beside hopsim (--no-ns2); with ns-2.35's column: tests/test_ns2_reference.py."""

from __future__ import annotations

import csv
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from hopsim.cli.reproduce import SHOWN_CLAIMS


def _reproduce(*args: str) -> subprocess.CompletedProcess[str]:
    cmd = [sys.executable, "-m", "hopsim", "reproduce", "dsn-variants", "--quick", "--no-ns2"]
    cmd += args
    env = {**os.environ, "COLUMNS": "250"}  # claims on one line each
    return subprocess.run(cmd, capture_output=True, text=True, timeout=600, env=env)


@pytest.fixture(scope="module")
def first(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    out = tmp_path_factory.mktemp("dsn")
    proc = _reproduce("--out", str(out), "--progress", "off")
    assert proc.returncode == 0, proc.stderr
    return out, proc.stdout


def test_the_account_is_short_and_names_what_does_not_hold(first):
    out, text = first
    with (out / "claims.csv").open() as fh:
        claims = list(csv.DictReader(fh))
    held = sum(c["verdict"].startswith("holds") for c in claims)
    assert f"{held} of {len(claims)} claims hold" in text
    # Every claim that does not hold, up to SHOWN_CLAIMS, on a line starting with its verdict.
    others = [c for c in claims if not c["verdict"].startswith("holds")]
    shown = [line for line in text.splitlines() if line.startswith("  ") and ": " in line]
    listed = [c for c in others if any(line.strip().startswith(c["verdict"]) for line in shown)]
    assert len(listed) >= min(len(others), SHOWN_CLAIMS)
    if len(others) > SHOWN_CLAIMS:
        assert f"... and {len(others) - SHOWN_CLAIMS} more" in text
    assert len(text.splitlines()) < 45, "a short account, not ~200 lines of claims"
    for label in ("claims:", "points:", "figures:"):
        (line,) = [x for x in text.splitlines() if x.startswith(label)]
        path = Path(re.split(r"\s", line.split(": ", 1)[1])[0])
        assert path.exists(), line


def test_claims_prints_every_claim(first):
    out, short = first
    proc = _reproduce("--out", str(out), "--progress", "off", "--claims")
    assert proc.returncode == 0, proc.stderr
    assert "the paper beside hopsim" in proc.stdout and "the paper beside" not in short
    assert "runs: 0 run now" in proc.stdout, "resumed from the store"
    with (out / "claims.csv").open() as fh:
        claims = list(csv.DictReader(fh))
    for c in claims:
        assert c["claim"][:12] in proc.stdout, c["claim"]  # long cells fold
