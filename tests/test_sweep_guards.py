"""Guards of the commands that write an output folder (issue 12): one writer per folder,
output paths and sweep names that are safe as file names, strict sweep-file types, and the
run budget passed through sweeps."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

import hopsim
from hopsim import ScenarioError
from hopsim.sweeps import FolderBusy, ResultStore, folder_lock, load_sweep, run_sweep
from hopsim.sweeps.lock import LOCK_FILE

UDP_SCENARIO = {
    "duration_s": 20.0,
    "warmup_s": 1.0,
    "topology": {"kind": "chain", "hops": 2, "spacing_m": 200.0},
    "routing": {"protocol": "static"},
    "flows": [{"src": 0, "dst": 2, "transport": "udp", "interval_s": 0.05}],
}


def _sweep_doc(**extra: Any) -> dict[str, Any]:
    return {"name": "guards", "scenario": UDP_SCENARIO, "replications": 2, **extra}


def _hopsim(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    cmd = [sys.executable, "-m", "hopsim", *args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=300, cwd=cwd)


def _holder(folder: Path) -> subprocess.Popen[str]:
    """Another process that holds ``folder`` until it is killed."""
    code = textwrap.dedent(
        f"""
        import sys, time
        from hopsim.sweeps import folder_lock
        with folder_lock({str(folder)!r}):
            print("held", flush=True)
            time.sleep(600)
        """
    )
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None and proc.stdout.readline().strip() == "held"
    return proc


def _write_sweep(path: Path, doc: dict[str, Any]) -> Path:
    from hopsim.scenario import dumps_toml

    path.write_text(dumps_toml(doc))
    return path


# --- one writer per output folder ------------------------------------------------------


def test_a_second_writer_is_refused_and_the_lock_dies_with_its_holder(tmp_path: Path):
    out = tmp_path / "out"
    holder = _holder(out)
    try:
        spec = load_sweep(_sweep_doc())
        with pytest.raises(FolderBusy, match=f"pid {holder.pid} on "):
            run_sweep(spec, out, jobs=1, progress="off")
        assert not (out / "results.sqlite").exists(), "nothing was written beside the holder"
        sweep_file = _write_sweep(tmp_path / "g.toml", _sweep_doc())
        proc = _hopsim("sweep", str(sweep_file), "--out", str(out), "--progress", "off")
        assert proc.returncode == 2, proc.stderr
        assert "in use by another hopsim" in proc.stderr and "Traceback" not in proc.stderr
        assert "hopsim sweep" not in proc.stderr or str(holder.pid) in proc.stderr
    finally:
        holder.send_signal(signal.SIGKILL)
        holder.wait()
    # kill -9 leaves no stale lock: the kernel dropped it with the process.
    report = run_sweep(load_sweep(_sweep_doc()), out, jobs=1, progress="off")
    assert report.done == 2 and report.failed == 0
    assert f"pid {os.getpid()}" in (out / LOCK_FILE).read_text()


def test_the_lock_nests_within_a_process_and_is_released(tmp_path: Path):
    with folder_lock(tmp_path) as a, folder_lock(tmp_path) as b:
        assert a == b
        probe = subprocess.run(
            [sys.executable, "-c", f"from hopsim.sweeps import folder_lock\n"
             f"with folder_lock({str(tmp_path)!r}): pass"],
            capture_output=True, text=True, timeout=60,
        )  # fmt: skip
        assert probe.returncode != 0 and "FolderBusy" in probe.stderr
    # Released by the outer block: another process takes it.
    probe = subprocess.run(
        [sys.executable, "-c", f"from hopsim.sweeps import folder_lock\n"
         f"with folder_lock({str(tmp_path)!r}): print('ok')"],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert probe.stdout.strip() == "ok", probe.stderr


def test_reading_a_busy_folder_is_allowed(tmp_path: Path):
    run_sweep(load_sweep(_sweep_doc()), tmp_path, jobs=1, progress="off")
    holder = _holder(tmp_path)
    try:
        proc = _hopsim("results", str(tmp_path))
        assert proc.returncode == 0, proc.stderr
        assert "guards" in proc.stdout
    finally:
        holder.kill()
        holder.wait()


# --- output paths ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("out", "says"),
    [
        ("", "give a folder path"),
        ("/proc/hopsim-no/such", "cannot create the output folder"),
        ("FILE", "exists and is not a folder"),
    ],
    ids=["empty", "proc", "a-file"],
)
@pytest.mark.parametrize("command", ["sweep", "reproduce"])
def test_an_unusable_output_folder_is_bad_input(tmp_path: Path, out: str, says: str, command: str):
    (tmp_path / "FILE").write_text("x")
    sweep_file = _write_sweep(tmp_path / "g.toml", _sweep_doc())
    target = sweep_file if command == "sweep" else "chen-cwl"
    proc = _hopsim(command, str(target), "--quick", "--out", out, cwd=tmp_path)
    assert proc.returncode == 2, proc.stderr
    assert says in proc.stderr and "Traceback" not in proc.stderr
    assert not (tmp_path / "results.sqlite").exists(), "nothing written to the working folder"
    assert not (tmp_path / "results").exists()


# --- sweep names and keys ----------------------------------------------------------------


@pytest.mark.parametrize(
    "name",
    ["../../etc", "a/b", "", ".hidden", "-x", "a b", "tab\there", "x" * 101, 7, ["a"], "a\x00b"],
)
def test_a_name_that_is_not_a_file_name_is_refused(name: Any):
    with pytest.raises(ScenarioError, match=r"^name = .*not allowed.*letters, digits"):
        load_sweep(_sweep_doc(name=name))


@pytest.mark.parametrize("name", ["chain-cwl", "dsn_hops.v2", "a+b=c,d", "X" * 100])
def test_names_of_letters_digits_and_punctuation_are_kept(name: str):
    assert load_sweep(_sweep_doc(name=name)).name == name


def test_a_file_name_that_is_not_a_sweep_name_asks_for_one(tmp_path: Path):
    doc = _sweep_doc()
    del doc["name"]
    path = _write_sweep(tmp_path / "my sweep.toml", doc)
    with pytest.raises(ScenarioError, match="file's name 'my sweep'.*rename the file"):
        load_sweep(path)
    doc["name"] = "mine"
    assert load_sweep(_write_sweep(tmp_path / "my sweep.toml", doc)).name == "mine"


@pytest.mark.parametrize(
    ("metrics", "says"),
    [
        ("goodput_kbps", r'must be a list of metric names \(e.g. metrics = \["goodput_kbps"\]\)'),
        ([], "non-empty list"),
        ([1.5], "a metric name is a string"),
        ({"a": 1}, "non-empty list"),
    ],
)
def test_metrics_must_be_a_list_of_names(metrics: Any, says: str):
    with pytest.raises(ScenarioError, match=says):
        load_sweep(_sweep_doc(metrics=metrics))


@pytest.mark.parametrize(
    ("key", "value", "says"),
    [
        ("replications", "3", "integer 1..100000"),
        ("replications", 2.0, "integer 1..100000"),
        ("replications", True, "integer 1..100000"),
        ("seed", -1, "integer 0..2^64-1"),
        ("seed", 1.5, "integer 0..2^64-1"),
        ("sweep", [1, 2], "must be a table"),
        ("quick", "yes", "must be a table"),
        ("base", 3, "scenario file path"),
    ],
)
def test_sweep_keys_of_the_wrong_type_are_refused(key: str, value: Any, says: str):
    doc = _sweep_doc(**{key: value})
    if key == "base":
        del doc["scenario"]
    with pytest.raises(ScenarioError, match=f"{key}.*{re.escape(says)}"):
        load_sweep(doc)


# --- the run budget in sweeps --------------------------------------------------------------


def test_a_point_over_the_budget_is_refused_before_any_run(tmp_path: Path):
    # 20 s at one datagram per 50 ms over 2 hops: at least 400 packets, far over 100 events.
    with pytest.raises(ScenarioError, match=r"flows\.0\.interval_s.*max_events"):
        load_sweep(_sweep_doc(), budget={"max_events": 100})
    with pytest.raises(ScenarioError, match="unknown option 'max_time'"):
        load_sweep(_sweep_doc(), budget={"max_time": 1})


def test_runs_stopped_by_the_budget_fail_and_are_retried_with_a_larger_one(tmp_path: Path):
    doc = _sweep_doc(scenario={**UDP_SCENARIO, "flows": [{"src": 0, "dst": 2}]})  # TCP bulk
    small = load_sweep(doc, budget={"max_events": 20_000})
    report = run_sweep(small, tmp_path, jobs=1, progress="off")
    assert report.failed == 2 and report.done == 0
    assert all("max_events" in f for f in report.failures)
    # Same runs (the budget is not part of a run's key): a larger budget retries them ...
    big = load_sweep(doc, budget={"max_events": 10**9, "max_memory_mb": 512})
    assert big.digest() == small.digest()
    report = run_sweep(big, tmp_path, jobs=1, progress="off")
    assert report.done == 2 and report.failed == 0
    # ... and the budget changes no result: each stored run equals a plain run of it.
    with ResultStore(tmp_path) as store:
        runs = store.runs("guards")
        assert len(runs) == 2
        for run in runs:
            task = big.task(big.points[run.point], run.replication)
            plain = hopsim.run(task.scenario)
            assert store.result(run.run_key)["flows"] == plain.raw["flows"]


def test_the_cli_passes_the_budget_to_every_run(tmp_path: Path):
    sweep_file = _write_sweep(tmp_path / "g.toml", _sweep_doc())
    proc = _hopsim("sweep", str(sweep_file), "--out", str(tmp_path / "o"), "--max-events", "100")
    assert proc.returncode == 2 and "max_events" in proc.stderr, proc.stderr
    assert "Traceback" not in proc.stderr
    proc = _hopsim("sweep", str(sweep_file), "--out", str(tmp_path / "o"), "--max-events", "x")
    assert proc.returncode == 2 and "--max-events 'x'" in proc.stderr
    for command in ("crosscheck", "reproduce"):
        proc = _hopsim(command, "--help")
        assert "--max-events" in proc.stdout and "--max-memory-mb" in proc.stdout


@pytest.mark.parametrize(
    ("stem", "says"), [("", "give a file path"), ("/proc/hopsim-no/fig", "cannot write the figure")]
)
def test_an_unusable_figure_path_is_bad_input(tmp_path: Path, stem: str, says: str):
    doc = _sweep_doc(replications=1, sweep={"flows.0.interval_s": [0.05, 0.1]})
    run_sweep(load_sweep(doc), tmp_path, jobs=1, progress="off")
    x = "flows.0.interval_s"
    proc = _hopsim("plot", str(tmp_path), "--x", x, "--y", "goodput_kbps", "--out", stem)
    assert proc.returncode == 2, proc.stderr
    assert says in proc.stderr and "Traceback" not in proc.stderr


def test_sweeping_the_seed_is_refused():
    # Every replication's seed is derived from the sweep's `seed`: a swept seed would be
    # overridden, and its points would all be the same runs.
    with pytest.raises(ScenarioError, match=r'sweep "seed": not allowed.*replications'):
        load_sweep(_sweep_doc(sweep={"seed": [1, 2]}))


def test_a_set_table_fixes_keys_without_sweeping_them():
    spec = load_sweep(
        _sweep_doc(
            set={"mac": {"data_rate_mbps": 11.0}, "flows.0.payload_bytes": 512},
            sweep={"flows.0.interval_s": [0.05, 0.1]},
        )
    )
    assert spec.base["mac"]["data_rate_mbps"] == 11.0
    assert spec.base["flows"][0]["payload_bytes"] == 512
    assert spec.swept_keys == ["flows.0.interval_s"], "fixed keys are not swept"
    plain = load_sweep(_sweep_doc(sweep={"flows.0.interval_s": [0.05, 0.1]}))
    assert spec.digest() != plain.digest(), "other runs, another definition"
    with pytest.raises(ScenarioError, match=r'set "flows.0.interval_s": the key is also swept'):
        load_sweep(_sweep_doc(set={"flows.0.interval_s": 0.2}, sweep={"flows.0.interval_s": [1.0]}))
    with pytest.raises(ScenarioError, match=r"set = 3: must be a table"):
        load_sweep(_sweep_doc(set=3))
    with pytest.raises(ScenarioError, match=r"mac.data_rate_mbps"):
        load_sweep(_sweep_doc(set={"mac.data_rate_mbps": 3.0}))  # not an 802.11b rate


def test_a_sweep_names_an_unknown_simulator_before_any_run(tmp_path: Path) -> None:
    """sweeps runs other simulators only through its registry (crosscheck plugs ns-2 in):
    an unregistered name is refused with the names that are registered, before any run."""
    from hopsim.sweeps.simulators import HOPSIM, get_simulator, register_simulator

    spec = load_sweep({"name": "s", "scenario": UDP_SCENARIO, "metrics": ["goodput_kbps"]})
    spec.simulator = "ns9"
    with pytest.raises(
        ScenarioError, match=r"simulator 'ns9': not known here; registered: .*hopsim"
    ):
        run_sweep(spec, tmp_path / "out", jobs=1)
    assert ResultStore(tmp_path / "out").count() == 0
    assert get_simulator("hopsim") is HOPSIM
    with pytest.raises(TypeError, match="does not implement"):
        register_simulator(object())  # type: ignore[arg-type]
