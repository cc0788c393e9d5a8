"""Options accepted and silently ignored (issue 30): ``hopsim view`` takes a scenario FILE
or a sweep's output folder DIR, and each form has options of its own; the other form's
options were dropped without a word (``--max-pages -1`` with a FILE, ``--window`` with a
DIR). Each is refused, exit 2, naming the option, its value and the form it applies to."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from hopsim.scenario import dumps_toml
from simhelpers import run_cli

SCENARIO: dict[str, Any] = {
    "duration_s": 1.0,
    "topology": {"kind": "chain", "hops": 1, "spacing_m": 200.0},
    "flows": [{"src": 0, "dst": 1, "transport": "udp", "interval_s": 0.1}],
}


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--max-pages", "-1"], "--max-pages -1: not allowed with a scenario FILE"),
        (["--sweep", "x"], "--sweep x: not allowed with a scenario FILE"),
    ],
)
def test_view_file_refuses_the_folder_options(tmp_path: Path, args: list[str], needle: str) -> None:
    path = tmp_path / "s.toml"
    path.write_text(dumps_toml(SCENARIO))
    page = tmp_path / "s.html"
    proc = run_cli("view", str(path), "-o", str(page), *args)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr
    assert needle in proc.stderr and "sweep's output folder DIR only" in proc.stderr
    assert not page.exists(), "refused before the run"


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--window", "1:2"], "--window 1:2: not allowed with a sweep's output folder DIR"),
        (["--seed", "3"], "--seed 3: not allowed with a sweep's output folder DIR"),
        (["--set", "duration_s=3"], "--set duration_s=3: not allowed with a sweep's output"),
    ],
)
def test_view_folder_refuses_the_file_options(tmp_path: Path, args: list[str], needle: str) -> None:
    folder = tmp_path / "store"
    folder.mkdir()
    (folder / "results.sqlite").write_bytes(b"")  # refused before the store is opened
    proc = run_cli("view", str(folder), *args)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert needle in proc.stderr and "a scenario FILE only" in proc.stderr, proc.stderr
