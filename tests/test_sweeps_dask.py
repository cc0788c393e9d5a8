"""Sweeps on a real Dask cluster: a scheduler and two workers started on 127.0.0.1 by the test
(``dask scheduler`` / ``dask worker`` subprocesses), compared with the local process pool, a
worker killed mid-sweep, and an unreachable scheduler."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from distributed import Client

from hopsim import ScenarioError
from hopsim.sweeps import STORE_FILE, ResultStore, load_sweep, run_sweep
from test_sweeps import DATA, UDP, store_snapshot, until_ci_doc

DASK = Path(sys.executable).with_name("dask")


class Cluster:
    """A scheduler and workers, each a subprocess in its own process group, listening on
    127.0.0.1 only (the HTTP endpoints too: they bind 0.0.0.0:8787 unless told)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.procs: list[subprocess.Popen] = []
        self.workers: list[subprocess.Popen] = []
        self.address = ""

    def _spawn(self, name: str, *args: str) -> subprocess.Popen:
        log = (self.folder / f"{name}.log").open("w")
        # Scratch space in the test's folder, not /tmp/dask-scratch-space (SIGKILL leaves it).
        env = {**os.environ, "DASK_TEMPORARY_DIRECTORY": str(self.folder / "scratch")}
        proc = subprocess.Popen(
            [str(DASK), *args],
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            env=env,
        )
        log.close()
        self.procs.append(proc)
        return proc

    def start(self, n_workers: int) -> None:
        info = self.folder / "scheduler.json"
        self._spawn(
            "scheduler", "scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
            "--dashboard-address", "127.0.0.1:0", "--scheduler-file", str(info),
        )  # fmt: skip
        deadline = time.monotonic() + 60
        while not self.address:
            if time.monotonic() > deadline or self.procs[0].poll() is not None:
                raise RuntimeError("the Dask scheduler did not start: " + self.log("scheduler"))
            try:
                self.address = json.loads(info.read_text())["address"]
            except (OSError, ValueError, KeyError):
                time.sleep(0.1)
        for i in range(n_workers):
            args = ["--host", "127.0.0.1", "--name", f"w{i}", "--nthreads", "1", "--nworkers", "1"]
            args += ["--no-dashboard", "--dashboard-address", "127.0.0.1:0"]
            args += ["--local-directory", str(self.folder / f"worker{i}")]
            self.workers.append(self._spawn(f"worker{i}", "worker", self.address, *args))
        with Client(self.address, timeout="30s", set_as_default=False) as client:
            client.wait_for_workers(n_workers, timeout=60)

    def log(self, name: str) -> str:
        return (self.folder / f"{name}.log").read_text()

    def executed(self) -> list[int]:
        """Tasks each worker executed."""
        with Client(self.address, timeout="30s", set_as_default=False) as client:
            counts = client.run(lambda dask_worker: dask_worker.state.executed_count)
        return sorted(counts.values())

    def kill_worker(self, i: int) -> None:
        """SIGKILL worker i's whole process group (its nanny and the worker process)."""
        os.killpg(self.workers[i].pid, signal.SIGKILL)

    def stop(self) -> None:
        for proc in reversed(self.procs):
            with contextlib.suppress(ProcessLookupError):  # already gone
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=30)


@pytest.fixture
def cluster(tmp_path):
    """A factory: ``cluster(n_workers)`` -> a started :class:`Cluster` (killed afterwards)."""
    made: list[Cluster] = []

    def start(n_workers: int = 2) -> Cluster:
        c = Cluster(tmp_path)
        made.append(c)
        c.start(n_workers)
        return c

    yield start
    for c in made:
        c.stop()


@pytest.mark.slow
def test_dask_sweep_stores_exactly_what_the_local_pool_stores(tmp_path, cluster):
    dask = cluster(2)
    spec = load_sweep(UDP)
    report = run_sweep(spec, tmp_path / "dask", scheduler=dask.address, progress="off")
    assert (report.total, report.done, report.failed) == (16, 16, 0)
    assert "2 workers" in report.executor and dask.address in report.executor
    # Both workers took part (runs are spread, not all sent to one).
    assert all(n >= 1 for n in dask.executed()) and sum(dask.executed()) == 16
    run_sweep(spec, tmp_path / "local", jobs=2, progress="off")
    on_dask, local = store_snapshot(tmp_path / "dask"), store_snapshot(tmp_path / "local")
    assert len(on_dask["runs"]) == 16
    # Same run keys, metrics, seeds, scenarios and byte-identical result documents.
    assert on_dask == local
    # Rerunning on the cluster skips everything the store already holds.
    again = run_sweep(spec, tmp_path / "dask", scheduler=dask.address, progress="off")
    assert (again.done, again.skipped) == (0, 16)
    # --until-ci adds rounds of replications: the same decisions and runs as locally.
    ci = load_sweep(until_ci_doc())
    kwargs = {"until_ci": 0.05, "max_replications": 10, "progress": "off"}
    report = run_sweep(ci, tmp_path / "dask-ci", scheduler=dask.address, **kwargs)
    assert report.rounds > 1 and report.failed == 0
    run_sweep(ci, tmp_path / "local-ci", jobs=2, **kwargs)
    assert store_snapshot(tmp_path / "dask-ci") == store_snapshot(tmp_path / "local-ci")
    assert "Traceback" not in dask.log("scheduler")


def _count(out: Path) -> int:
    try:
        db = sqlite3.connect(f"file:{out / STORE_FILE}?mode=ro", uri=True, timeout=5)
        try:
            return int(db.execute("SELECT COUNT(*) FROM runs").fetchone()[0])
        finally:
            db.close()
    except sqlite3.Error:  # not created yet
        return 0


@pytest.mark.slow
def test_killing_a_worker_mid_sweep_still_completes_it(tmp_path, cluster):
    dask = cluster(2)
    spec = load_sweep(DATA / "tcp_chain.toml")  # 40 runs of ~0.1-0.3 s
    out = tmp_path / "out"
    killed_at: list[int] = []

    def killer() -> None:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            n = _count(out)
            if n >= 6:
                dask.kill_worker(0)
                killed_at.append(n)
                return
            time.sleep(0.02)

    thread = threading.Thread(target=killer, daemon=True)
    thread.start()
    report = run_sweep(spec, out, scheduler=dask.address, progress="off")
    thread.join(timeout=5)
    assert killed_at and killed_at[0] < 40, f"the worker was not killed mid-sweep: {killed_at}"
    assert dask.workers[0].wait(timeout=10) == -signal.SIGKILL
    # Every run stored exactly once: none lost with the worker, none delivered twice.
    assert (report.total, report.done, report.skipped, report.failed) == (40, 40, 0, 0)
    with ResultStore(out, create=False) as store:
        runs = store.runs("tcp-chain")
        assert store.count() == len(runs) == len({r.run_key for r in runs}) == 40
        assert sorted((r.point, r.replication) for r in runs) == [
            (p, r) for p in range(5) for r in range(8)
        ]
        assert store.failures() == []


def test_unreachable_scheduler_fails_at_once_and_writes_nothing(tmp_path):
    out = tmp_path / "out"
    t0 = time.monotonic()
    with pytest.raises(ScenarioError) as exc:
        run_sweep(load_sweep(UDP), out, scheduler="tcp://127.0.0.1:1", progress="off")
    assert time.monotonic() - t0 < 5.0
    message = str(exc.value)
    assert "--scheduler tcp://127.0.0.1:1" in message and "dask scheduler" in message
    with pytest.raises(ScenarioError, match="not a scheduler address"):
        run_sweep(load_sweep(UDP), out, scheduler="127.0.0.1:1", progress="off")
    assert not out.exists()
