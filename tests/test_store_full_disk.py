"""A sweep whose store fills the disk (issue 30): it stops with one message saying what
happened and how far it got, every run stored before the disk filled is intact and
bit-identical to a fresh run, and after freeing space the same command runs only the rest.

The disk is a tmpfs with a size limit; where one cannot be mounted (not root, a container
without the capability) the test is skipped."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from hopsim import _core
from hopsim.scenario import dumps_toml
from hopsim.sweeps import ResultStore

POINTS = 50
SWEEP: dict[str, Any] = {
    "name": "fulldisk",
    "scenario": {
        "duration_s": 2.0,
        "topology": {"kind": "chain", "hops": 2, "spacing_m": 200.0},
        "routing": {"protocol": "static"},
        "flows": [{"src": 0, "dst": 2, "transport": "udp", "interval_s": 0.1}],
    },
    "sweep": {"flows.0.interval_s": [round(0.1 + 0.01 * i, 2) for i in range(POINTS)]},
}
#: Room for a handful of runs (each stores its whole result document, about 20 kB).
DISK = "256k"


def _mount(path: Path, *options: str) -> bool:
    cmd = ["mount", "-t", "tmpfs", "-o", ",".join(options), "tmpfs", str(path)]
    return os.geteuid() == 0 and subprocess.run(cmd, capture_output=True).returncode == 0


@pytest.fixture()
def small_disk(tmp_path: Path) -> Iterator[Path]:
    disk = tmp_path / "disk"
    disk.mkdir()
    if not _mount(disk, f"size={DISK}"):
        pytest.skip("cannot mount a tmpfs with a size limit here (needs root and mount(2))")
    try:
        yield disk
    finally:
        subprocess.run(["umount", str(disk)], check=True)


def _sweep(path: Path, out: Path) -> subprocess.CompletedProcess[str]:
    cmd = [sys.executable, "-m", "hopsim", "sweep", str(path), "-o", str(out), "-j", "2"]
    return subprocess.run(cmd + ["--progress", "off"], capture_output=True, text=True, timeout=300)


def _fresh(scenario: dict[str, Any]) -> dict[str, Any]:
    return dict(json.loads(_core.run_json(json.dumps(scenario))))


def test_sweep_on_a_full_disk_keeps_every_stored_run(tmp_path: Path, small_disk: Path) -> None:
    path = tmp_path / "sweep.toml"
    path.write_text(dumps_toml(SWEEP))
    out = small_disk / "store"
    proc = _sweep(path, out)
    assert proc.returncode == 1, proc.stderr
    assert "Traceback" not in proc.stderr
    assert "database or disk is full" in proc.stderr, proc.stderr
    said = re.search(r"this command stored (\d+) finished runs", proc.stderr)
    assert said, proc.stderr

    with ResultStore(out, create=False) as store:
        stored = {run.run_key: store.result(run.run_key) for run in store.runs("fulldisk")}
    kept = len(stored)
    assert 0 < kept < POINTS, "the disk must fill part way through"
    assert int(said.group(1)) == kept, "the message counts the runs that are in the store"
    for key, result in stored.items():
        fresh = _fresh(result["scenario"])
        assert _without_wall_time(result) == _without_wall_time(fresh), f"run {key} differs"

    # Room again: the same command runs only what is missing and loses nothing.
    subprocess.run(["mount", "-o", "remount,size=8m", str(small_disk)], check=True)
    proc = _sweep(path, out)
    assert proc.returncode == 0, proc.stderr
    assert f"{POINTS} runs, {kept} already stored, {POINTS - kept} run now" in proc.stderr
    with ResultStore(out, create=False) as store:
        assert len(store.runs("fulldisk")) == POINTS
        assert all(store.result(key) == result for key, result in stored.items())


def _without_wall_time(doc: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in doc.items() if k != "wall_time_s"}
