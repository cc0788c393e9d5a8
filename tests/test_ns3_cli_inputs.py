"""The ns-3 side-by-side programs' command lines (issue 30): a bad option value, an output file
that cannot be written and a --table file that is not a comparison are refused, exit 2, with
the option named, before any ns-3 build or run (these tests need no ns-3)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
HWMP = ROOT / "sweeps" / "crosscheck" / "grid-crossing-4flows-hwmp.toml"


def _run(module: str, *args: str) -> subprocess.CompletedProcess[str]:
    cmd = [sys.executable, "-m", f"hopsim.crosscheck.{module}", *args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=60, cwd=ROOT)


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--seeds", "-2"], "argument --seeds: '-2': a whole number of replications, 1 or more"),
        (["--hops", "1", "0"], "argument --hops: '0': a whole number of hops, 1 or more"),
        (["--duration", "nan"], "argument --duration: 'nan': seconds, a number above 0"),
        (["--duration", "-5"], "argument --duration: '-5': seconds, a number above 0"),
        (["--json", "/proc/hopsim-none/y.json"], "cannot be written: no such folder"),
        (["--json", "/tmp"], "'/tmp': cannot be written: it is a folder"),
        (["--json", "pyproject.toml/x.json"], "'pyproject.toml' is a file, not a folder"),
    ],
)
def test_ns3run_refuses_bad_options_before_running(args: list[str], says: str) -> None:
    proc = _run("ns3run", *args)
    assert proc.returncode == 2, proc.stderr
    assert says in proc.stderr, proc.stderr
    assert "Traceback" not in proc.stderr and not proc.stdout


@pytest.mark.parametrize(
    ("content", "says"),
    [
        (None, "cannot read it (No such file or directory)"),
        ("", "not a comparison written by --json (JSONDecodeError"),
        ('{"hops": [1]}', "not a comparison written by --json (KeyError('variants')"),
        ("[1, 2]", "not a comparison written by --json (TypeError"),
        ("[" * 5000, "line 1: not allowed, arrays and inline tables are nested deeper than 64"),
    ],
)
def test_ns3run_table_of_a_file_that_is_no_comparison(
    tmp_path: Path, content: str | None, says: str
) -> None:
    path = tmp_path / "t.json"
    if content is not None:
        path.write_text(content)
    proc = _run("ns3run", "--table", str(path))
    assert proc.returncode == 2, proc.stderr
    assert f"error: --table {path}: {says}" in proc.stderr, proc.stderr
    assert "Traceback" not in proc.stderr


def test_ns3run_table_of_an_endless_file() -> None:
    proc = _run("ns3run", "--table", "/dev/zero")
    assert proc.returncode == 2, proc.stderr
    assert "the comparison file is larger than 64 MiB" in proc.stderr


def test_ns3mesh_refuses_an_unwritable_json_before_running() -> None:
    proc = _run("ns3mesh", str(HWMP), "--json", "/proc/hopsim-none/y.json")
    assert proc.returncode == 2, proc.stderr
    assert "argument --json: '/proc/hopsim-none/y.json': cannot be written" in proc.stderr
    assert "hopsim/" not in proc.stdout, "refused before any run"
