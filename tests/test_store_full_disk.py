"""A sweep whose store fills the disk (issue 30): it stops with one message saying what
happened and how far it got, every run stored before the disk filled is intact and
bit-identical to a fresh run, and after freeing space the same command runs only the rest;
killed again and again while the disk fills, it loses nothing; the ns-2.35 reference results
are rewritten whole or left as they were.

The disk is a tmpfs with a size limit; where one cannot be mounted (not root, a container
without the capability) the test is skipped."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from hopsim import _core
from hopsim.output import OutputUnwritable
from hopsim.scenario import dumps_toml
from hopsim.studies import ns2ref
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
#: Runs of about 0.1 s (TCP, 200-250 s), so that ever later kills land while runs are stored.
KILLED_SWEEP: dict[str, Any] = {
    "name": "fulldisk",
    "scenario": {
        "topology": {"kind": "chain", "hops": 2, "spacing_m": 200.0},
        "routing": {"protocol": "static"},
        "flows": [{"src": 0, "dst": 2, "transport": "tcp"}],
    },
    "sweep": {"duration_s": [200.0 + i for i in range(POINTS)]},
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


def test_sweep_killed_again_and_again_on_a_filling_disk_loses_nothing(
    tmp_path: Path, small_disk: Path
) -> None:
    # The sweep is killed (SIGKILL, its whole process group) ever later, until one attempt
    # ends by itself on the full disk: kills land before any run, while runs are stored
    # (counted) and as the disk fills.
    # After each, every stored run is intact and equals a fresh run, and none is lost.
    path = tmp_path / "sweep.toml"
    path.write_text(dumps_toml(KILLED_SWEEP))
    out = small_disk / "store"
    cmd = [sys.executable, "-m", "hopsim", "sweep", str(path), "-o", str(out), "-j", "2"]
    stored: dict[str, Any] = {}
    kills = 0
    for attempt in range(1, 200):
        proc = subprocess.Popen(
            [*cmd, "--progress", "off"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=True,
        )
        try:
            proc.wait(timeout=0.02 * attempt)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        now = _stored(out)
        kills += proc.returncode == -signal.SIGKILL and len(now) > len(stored)
        assert all(now.get(k) == v for k, v in stored.items()), "a stored run changed or went"
        stored = now
        if proc.returncode != -signal.SIGKILL:
            err = proc.stderr.read() if proc.stderr else ""
            assert proc.returncode == 1 and "database or disk is full" in err, err
            break
    else:
        pytest.fail("the disk never filled")
    assert kills >= 2, f"only {kills} kills landed after runs were stored"
    assert 0 < len(stored) < POINTS, len(stored)
    for key, result in stored.items():
        assert _without_wall_time(result) == _without_wall_time(_fresh(result["scenario"])), key
    subprocess.run(["mount", "-o", "remount,size=8m", str(small_disk)], check=True)
    assert _sweep(path, out).returncode == 0
    final = _stored(out)
    assert len(final) == POINTS and all(final[k] == v for k, v in stored.items())


def _stored(out: Path) -> dict[str, Any]:
    if not (out / "results.sqlite").exists():
        return {}
    with ResultStore(out, create=False) as store:
        return {run.run_key: store.result(run.run_key) for run in store.runs("fulldisk")}


def test_a_reference_that_cannot_be_written_is_left_as_it_was(small_disk: Path) -> None:
    # The shipped reference results are rewritten whole (a temporary file, then a rename):
    # on a full disk the old file stays byte for byte, no partial file is left, and the
    # error names the file and the reason.
    src = ns2ref.reference_path("chen-cwl")
    ref = ns2ref.load_reference("chen-cwl", src)
    assert ref is not None
    target = small_disk / src.name
    target.write_bytes(src.read_bytes()[: 64 * 1024])  # any old content will do
    before = target.read_bytes()
    fd = os.open(small_disk / "filler", os.O_WRONLY | os.O_CREAT)
    try:
        while os.write(fd, b"\0" * 4096):
            pass
    except OSError:
        pass
    finally:
        os.close(fd)
    with pytest.raises(OutputUnwritable) as exc:
        ns2ref._save(ref, target)
    assert f"{str(target)!r}: no space left on the device; it is left as it was" in str(exc.value)
    assert target.read_bytes() == before
    assert sorted(p.name for p in small_disk.iterdir()) == ["chen-cwl.json.gz", "filler"]
