"""Sweeps stopped the hard way: ``hopsim sweep`` killed with SIGKILL and restarted, stopped
with Ctrl-C and resumed, and a local worker process killed under a running sweep. In every
case each run ends up stored exactly once and a restart runs only what is missing."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from hopsim.sweeps import ResultStore, load_sweep, run_sweep
from test_sweeps import DATA, store_snapshot
from test_sweeps_dask import _count

TCP = DATA / "tcp_chain.toml"  # 40 runs of ~0.1-0.3 s
TOTAL = 40
HOPSIM = Path(sys.executable).with_name("hopsim")
REPORT = re.compile(r"(\d+) runs, (\d+) already stored, (\d+) run now, (\d+) failed")


def _sweep_cmd(out: Path) -> list[str]:
    return [str(HOPSIM), "sweep", str(TCP), "--out", str(out), "--jobs", "2", "--progress", "off"]


def _start(out: Path, log: Path) -> subprocess.Popen:
    """``hopsim sweep`` in its own process group, as a shell runs a foreground job."""
    with log.open("w") as fh:
        return subprocess.Popen(
            _sweep_cmd(out), stdout=fh, stderr=subprocess.STDOUT, start_new_session=True
        )


def _wait_for_runs(proc: subprocess.Popen, out: Path, n: int) -> None:
    deadline = time.monotonic() + 120
    while _count(out) < n:
        assert proc.poll() is None, "the sweep ended before it could be stopped"
        assert time.monotonic() < deadline, "no runs stored within 120 s"
        time.sleep(0.02)


def _group(pgid: int) -> list[int]:
    """Live processes of a process group (zombies are dead: left out)."""
    pids = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        state, _ppid, pgrp = stat[stat.rindex(")") + 2 :].split()[:3]
        if int(pgrp) == pgid and state != "Z":
            pids.append(int(entry.name))
    return pids


def _no_process_left(pgid: int) -> None:
    deadline = time.monotonic() + 10
    while _group(pgid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _group(pgid) == [], "worker processes outlived the sweep"


def _resume(out: Path, stored: int) -> None:
    """Rerun the same command: it runs exactly the missing runs, and every run is there once."""
    before = {k: v for k, v in store_snapshot(out)["runs"].items()}
    with ResultStore(out, create=False) as store:
        stamps = {r.run_key: (r.finished_at, r.wall_s) for r in store.runs()}
    proc = subprocess.run(_sweep_cmd(out), capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    match = REPORT.search(" ".join(proc.stderr.split()))  # rich wraps long lines
    assert match, proc.stderr
    total, skipped, done, failed = map(int, match.groups())
    assert (total, skipped, done, failed) == (TOTAL, stored, TOTAL - stored, 0)
    after = store_snapshot(out)
    assert len(after["runs"]) == TOTAL
    assert {k: after["runs"][k] for k in before} == before  # stored runs left untouched
    with ResultStore(out, create=False) as store:
        runs = store.runs("tcp-chain")
        assert store.failures() == []
        assert {r.run_key: (r.finished_at, r.wall_s) for r in runs if r.run_key in stamps} == stamps
    assert len(runs) == len({r.run_key for r in runs}) == TOTAL
    assert sorted((r.point, r.replication) for r in runs) == [
        (p, r) for p in range(5) for r in range(8)
    ]


@pytest.mark.slow
def test_sweep_killed_with_sigkill_and_restarted_stores_every_run_once(tmp_path):
    out = tmp_path / "out"
    proc = _start(out, tmp_path / "first.log")
    try:
        _wait_for_runs(proc, out, 8)
        os.killpg(proc.pid, signal.SIGKILL)  # the sweep and its workers, mid-write maybe
    finally:
        proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGKILL
    _no_process_left(proc.pid)
    stored = _count(out)
    assert 8 <= stored < TOTAL, f"killed too late: {stored} of {TOTAL} runs stored"
    _resume(out, stored)


@pytest.mark.slow
def test_ctrl_c_stops_the_sweep_cleanly_and_the_rerun_resumes(tmp_path):
    out = tmp_path / "out"
    log = tmp_path / "first.log"
    proc = _start(out, log)
    try:
        _wait_for_runs(proc, out, 8)
        os.killpg(proc.pid, signal.SIGINT)  # what a terminal sends on Ctrl-C
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    text = log.read_text()
    assert proc.returncode == 130, text
    assert "Traceback" not in text
    match = re.search(r"interrupted: (\d+) finished runs are in", " ".join(text.split()))
    assert match, text
    stored = int(match.group(1))
    assert stored == _count(out) and 8 <= stored < TOTAL
    _no_process_left(proc.pid)
    _resume(out, stored)


def _pool_workers() -> list[int]:
    """This process's local pool workers (spawned children; not the resource tracker)."""
    pids = []
    for pid in _group(os.getpgrp()):
        try:
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace")
            stat = Path(f"/proc/{pid}/stat").read_text()
        except OSError:
            continue
        ppid = int(stat[stat.rindex(")") + 2 :].split()[1])
        if ppid == os.getpid() and "spawn_main" in cmdline:
            pids.append(pid)
    return pids


@pytest.mark.slow
def test_local_worker_killed_mid_sweep_is_replaced_and_its_run_retried(tmp_path):
    out = tmp_path / "out"
    killed: list[tuple[int, int]] = []

    def killer() -> None:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            n = _count(out)
            workers = _pool_workers()
            if n >= 6 and workers:
                os.kill(workers[0], signal.SIGKILL)
                killed.append((n, workers[0]))
                return
            time.sleep(0.02)

    thread = threading.Thread(target=killer, daemon=True)
    thread.start()
    report = run_sweep(load_sweep(TCP), out, jobs=2, progress="off")
    thread.join(timeout=5)
    assert killed and killed[0][0] < TOTAL, f"no worker killed mid-sweep: {killed}"
    assert (report.total, report.done, report.skipped, report.failed) == (TOTAL, TOTAL, 0, 0)
    with ResultStore(out, create=False) as store:
        runs = store.runs("tcp-chain")
        assert store.count() == len({r.run_key for r in runs}) == TOTAL
        assert store.failures() == []
