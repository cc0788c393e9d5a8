"""Sweeps (python/hopsim/sweeps): sweep files, the result store, resuming, --until-ci and
determinism, all with real runs of small chains (a run takes a few ms).

Metrics and statistics are in test_sweep_stats.py; Dask in test_sweeps_dask.py; SIGKILL,
Ctrl-C and killed workers in test_sweeps_kill.py.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from hopsim import ScenarioError, _core, load, to_json
from hopsim.sweeps import (
    STORE_FILE,
    ResultStore,
    StoreError,
    derive_seed,
    load_sweep,
    metric_value,
    run_key,
    run_sweep,
    summarize,
)
from simhelpers import assert_no_traceback, check_result, run_cli

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

DATA = Path(__file__).resolve().parent / "data" / "sweeps"
UDP = DATA / "udp_chain.toml"
ROOT = Path(__file__).resolve().parents[1]


def udp_doc() -> dict:
    with UDP.open("rb") as fh:
        return tomllib.load(fh)


def store_snapshot(out: Path) -> dict:
    """What a store holds, minus where and when runs executed (wall time, host, time)."""
    db = sqlite3.connect(out / STORE_FILE)
    try:
        runs = {
            key: (seed, json.loads(scen), json.loads(metrics), result)
            for key, seed, scen, metrics, result in db.execute(
                "SELECT run_key, seed, scenario, metrics, result FROM runs"
            )
        }
        members = set(db.execute("SELECT sweep, digest, run_key, point, replication FROM members"))
    finally:
        db.close()
    return {"runs": runs, "members": members}


# ----------------------------------------------------------------------- sweep files


def test_sweep_file_expands_to_the_cartesian_product_of_lists_and_zip_groups():
    spec = load_sweep(UDP)
    assert spec.name == "udp-chain" and spec.replications == 2 and spec.seed == 7
    assert spec.axes == [["flows.0.interval_s"], ["topology.hops", "flows.0.dst"]]
    combos = [(p.params["flows.0.interval_s"], p.params["topology.hops"]) for p in spec.points]
    assert sorted(combos) == sorted((i, h) for i in (0.05, 0.01) for h in (1, 2, 3, 4))
    assert [p.index for p in spec.points] == list(range(8))
    # A zip group varies together: the destination is always the chain's last node.
    assert all(p.params["flows.0.dst"] == p.params["topology.hops"] for p in spec.points)
    tasks = spec.tasks()
    assert len(tasks) == 16
    for task in tasks:
        assert task.scenario["topology"]["hops"] == task.params["topology.hops"]
        assert task.scenario["flows"][0]["interval_s"] == task.params["flows.0.interval_s"]
        # Common random numbers: replication r has the same seed at every point.
        assert task.seed == task.scenario["seed"] == derive_seed(7, task.replication)
    assert derive_seed(7, 0) != derive_seed(7, 1) != derive_seed(8, 1)
    assert all(0 <= derive_seed(s, r) < 2**63 for s in (0, 1, 2**64 - 1) for r in range(5))


def test_quick_table_changes_replications_base_and_lists():
    quick = load_sweep(UDP, quick=True)
    assert quick.quick and quick.replications == 1 and quick.base["duration_s"] == 5.0
    assert sorted({p.params["topology.hops"] for p in quick.points}) == [1, 4]
    assert len(quick.points) == 4


def test_base_scenario_file_is_found_relative_to_the_sweep_file():
    spec = load_sweep(DATA / "base_file.toml")
    assert spec.base == load(ROOT / "scenarios" / "chain7_udp.toml")
    assert spec.name == "base_file" and spec.metrics == ("goodput_kbps", "max:mean_delay_ms")


def test_digest_ignores_replications_and_metrics_but_not_the_scenario():
    doc = udp_doc()
    digest = load_sweep(doc).digest()
    assert load_sweep({**doc, "replications": 5, "metrics": ["hops"]}).digest() == digest
    changed = {**doc, "scenario": {**doc["scenario"], "duration_s": 12.0}}
    assert load_sweep(changed).digest() != digest
    assert load_sweep({**doc, "seed": 8}).digest() != digest


_TEXT = UDP.read_text()
SCENARIO = _TEXT[_TEXT.index("[scenario]") : _TEXT.index("[sweep]")]
SWEEP = '[sweep]\n"topology.hops" = [1, 2]\n'

# case: (top-level lines, tables after [scenario], what the message must name)
BAD_FILES = {
    "unknown-key-in-known-table": (
        "",
        '[sweep]\n"tcp.varient" = ["reno"]\n',
        ["tcp.varient", "variant"],
    ),
    "unknown-key": ("", '[sweep]\n"topology.hopz" = [1, 2]\n', ["topology.hopz", "hops"]),
    "bad-list-index": (
        "",
        '[sweep]\n"flows.2.interval_s" = [0.1]\n',
        ["flows.2.interval_s", "0..0"],
    ),
    "value-rejected-by-core": ("", '[sweep]\n"topology.hops" = [1, -2]\n', ["topology.hops", "-2"]),
    "empty-list": ("", '[sweep]\n"topology.hops" = []\n', ['"topology.hops" = []', "empty"]),
    "not-a-list": ("", '[sweep]\n"topology.hops" = 3\n', ['"topology.hops" = 3', "list"]),
    "replications-0": ("replications = 0\n", SWEEP, ["replications = 0", "1..100000"]),
    "replications-negative": ("replications = -1\n", SWEEP, ["replications = -1", "integer"]),
    "replications-string": ('replications = "3"\n', SWEEP, ["replications = '3'", "integer"]),
    "zip-unequal": (
        "",
        '[[sweep.zip]]\n"topology.hops" = [1, 2, 3]\n"flows.0.dst" = [1, 2]\n',
        ["topology.hops: 3", "flows.0.dst: 2", "equally long"],
    ),
    "swept-twice": (
        "",
        '[sweep]\n"topology.hops" = [1]\n[[sweep.zip]]\n"topology.hops" = [2]\n',
        ["topology.hops", "twice"],
    ),
    "unknown-metric": ('metrics = ["goodput_kbs"]\n', SWEEP, ["goodput_kbs", "goodput_kbps"]),
    "unknown-aggregate": ('metrics = ["median:hops"]\n', SWEEP, ["median", "jain", "flowN"]),
    "unknown-total": ('metrics = ["totals.bogus"]\n', SWEEP, ["totals.bogus", "mac_retries"]),
    "unknown-top-key": ("replication = 3\n", SWEEP, ["'replication'", "replications"]),
    "quick-unswept-key": (
        "",
        SWEEP + '[quick]\nsweep = { "mac.data_rate_mbps" = [11.0] }\n',
        ['quick.sweep "mac.data_rate_mbps"', "not a swept key", "topology.hops"],
    ),
    "quick-unknown-key": ("", SWEEP + "[quick]\nreps = 1\n", ["'reps'", "replications"]),
    "toml-syntax": ("", '[sweep]\n"topology.hops" = [1, 2\n', ["TOML syntax error"]),
}


def _expect_rejected(path: Path, out: Path, needles: list[str], quick: bool = False) -> str:
    with pytest.raises((ScenarioError, FileNotFoundError)) as exc:
        run_sweep(load_sweep(path, quick=quick), out, jobs=1, progress="off")
    message = str(exc.value)
    for needle in needles:
        assert needle in message, f"{needle!r} not in {message!r}"
    assert not out.exists(), "a rejected sweep must write nothing"
    return message


def test_bad_file_template_is_valid_without_its_defect(tmp_path):
    path = tmp_path / "good.toml"
    path.write_text(SCENARIO + SWEEP + '[quick]\nsweep = { "topology.hops" = [1] }\n')
    assert len(load_sweep(path).points) == 2 and len(load_sweep(path, quick=True).points) == 1


@pytest.mark.parametrize("case", sorted(BAD_FILES))
def test_bad_sweep_file_fails_before_any_run_naming_the_key(tmp_path, case):
    top, tables, needles = BAD_FILES[case]
    path = tmp_path / "bad.toml"
    path.write_text(top + SCENARIO + tables)
    # Rejected in full mode too, [quick] included: a typo there must not wait for CI.
    _expect_rejected(path, tmp_path / "out", needles)
    _expect_rejected(path, tmp_path / "out", needles, quick=True)


@pytest.mark.parametrize(
    ("case", "extra"),
    [("unknown-key-in-known-table", []), ("replications-string", []), ("quick-unswept-key", []),
     ("empty-list", ["--scheduler", "tcp://127.0.0.1:1"])],
)  # fmt: skip
def test_hopsim_sweep_reports_a_bad_file_in_one_message(tmp_path, case, extra):
    top, tables, needles = BAD_FILES[case]
    path = tmp_path / "bad.toml"
    path.write_text(top + SCENARIO + tables)
    out = tmp_path / "out"
    proc = run_cli("sweep", str(path), "--out", str(out), "--progress", "off", *extra)
    assert proc.returncode == 2, proc.stderr
    assert_no_traceback(proc)
    message = " ".join(proc.stderr.split())  # rich wraps long lines
    assert all(n in message for n in needles), message
    assert not out.exists()


def test_hopsim_sweep_unreachable_scheduler_is_bad_input(tmp_path):
    out = tmp_path / "out"
    proc = run_cli("sweep", str(UDP), "--out", str(out), "--scheduler", "tcp://127.0.0.1:1")
    assert proc.returncode == 2, proc.stderr
    assert_no_traceback(proc)
    assert "--scheduler tcp://127.0.0.1:1" in " ".join(proc.stderr.split())
    assert not out.exists()


def test_base_must_be_given_exactly_once_and_exist(tmp_path):
    neither = tmp_path / "neither.toml"
    neither.write_text(SWEEP)
    _expect_rejected(neither, tmp_path / "out", ["base", "[scenario]", "exactly one"])
    both = tmp_path / "both.toml"
    both.write_text('base = "x.toml"\n' + SCENARIO + SWEEP)
    _expect_rejected(both, tmp_path / "out", ["exactly one"])
    missing = tmp_path / "missing.toml"
    missing.write_text('base = "nope/chain.toml"\n' + SWEEP)
    _expect_rejected(missing, tmp_path / "out", ["nope/chain.toml", "not found"])
    _expect_rejected(tmp_path / "absent.toml", tmp_path / "out", ["absent.toml", "not found"])


def test_bad_run_options_fail_before_anything_is_written(tmp_path):
    spec = load_sweep(UDP)
    out = tmp_path / "out"
    cases = [
        ({"jobs": 0}, "--jobs 0"),
        ({"until_ci": 1.5}, "--until-ci 1.5"),
        ({"until_ci": 0.1, "max_replications": 1}, "--max-replications 1"),
        ({"ci_metric": "goodput"}, "'goodput'"),
    ]
    for kwargs, needle in cases:
        with pytest.raises(ScenarioError, match=None) as exc:
            run_sweep(spec, out, progress="off", **{"jobs": 1, **kwargs})
        assert needle in str(exc.value)
        assert not out.exists()


# ----------------------------------------------------------------------- the store


def test_store_keys_duplicates_and_failures(tmp_path):
    scenario = {"seed": 1, "duration_s": 5.0}
    key = run_key(scenario, "0.1.0")
    assert key == run_key(dict(reversed(scenario.items())), "0.1.0")  # canonical JSON
    assert key != run_key({**scenario, "seed": 2}, "0.1.0")
    assert key != run_key(scenario, "0.1.1")  # a new version never reuses old runs
    with pytest.raises(FileNotFoundError, match="no result store"):
        ResultStore(tmp_path / "nothing", create=False)
    with ResultStore(tmp_path / "s") as store:
        store.add_failure(key, "demo", {"a": 1}, 0, 1, "boom")
        assert [f["error"] for f in store.failures()] == ["boom"]
        assert store.add_run(key, 1, scenario, {"m": 1.0}, '{"flows": []}', 0.1, "0.1.0")
        assert not store.add_run(key, 1, scenario, {"m": 2.0}, "{}", 0.1, "0.1.0")
        assert store.count() == 1 and store.result(key) == {"flows": []}
        assert store.failures() == []  # a run that finished later is no failure any more
    (tmp_path / "file").write_text("not a folder")
    with pytest.raises(StoreError, match="cannot open the result store"):
        ResultStore(tmp_path / "file")


def test_sweep_stores_every_run_and_resumes_without_rerunning(tmp_path):
    out = tmp_path / "out"
    spec = load_sweep(UDP)
    report = run_sweep(spec, out, jobs=2, progress="off")
    assert (report.total, report.done, report.skipped, report.failed) == (16, 16, 0, 0)
    with ResultStore(out, create=False) as store:
        runs = store.runs("udp-chain")
        assert len(runs) == store.count() == 16
        assert sorted((r.point, r.replication) for r in runs) == [
            (p, r) for p in range(8) for r in range(2)
        ]
        for run, result in store.iter_results("udp-chain"):
            check_result(result)
            assert result["seed"] == run.seed == derive_seed(7, run.replication)
            assert result["scenario"]["topology"]["hops"] == run.params["topology.hops"]
            assert run.metrics == {m: metric_value(result, m) for m in spec.metrics}
    before = store_snapshot(out)
    again = run_sweep(spec, out, jobs=1, progress="off")
    assert (again.total, again.done, again.skipped) == (16, 0, 16)
    assert store_snapshot(out) == before
    # More replications run only the new ones.
    more = run_sweep(load_sweep({**udp_doc(), "replications": 3}), out, jobs=2, progress="off")
    assert (more.total, more.done, more.skipped) == (24, 8, 16)
    points = summarize(out)
    assert [p.runs for p in points] == [3] * 8
    # A paced 1-hop flow below capacity delivers every datagram of the window (no loss):
    # 1460 bytes every 50 ms is 233.6 kbit/s.
    assert points[0].params["topology.hops"] == 1
    assert points[0].stats["goodput_kbps"].mean == pytest.approx(233.6, rel=1e-9)
    assert points[0].stats["totals.mac_retries"].std == 0.0


def test_summarize_computes_metrics_not_stored_from_the_results(tmp_path):
    out = tmp_path / "out"
    run_sweep(load_sweep(DATA / "base_file.toml"), out, jobs=1, progress="off")
    (p1, p2) = summarize(out, metrics=["goodput_kbps", "flow0:hops", "jain:goodput_kbps"])
    assert (p1.stats["flow0:hops"].mean, p2.stats["flow0:hops"].mean) == (1.0, 2.0)
    assert p1.stats["jain:goodput_kbps"].mean == 1.0  # a single flow is always fair
    run_sweep(load_sweep(UDP), out, jobs=1, progress="off")
    with pytest.raises(ScenarioError, match="2 sweeps"):
        summarize(out)
    assert len(summarize(out, "base_file")) == 2


def test_same_sweep_gives_identical_stores_whatever_the_jobs(tmp_path):
    spec = load_sweep(UDP)
    run_sweep(spec, tmp_path / "one", jobs=1, progress="off")
    run_sweep(spec, tmp_path / "two", jobs=2, progress="off")
    one, two = store_snapshot(tmp_path / "one"), store_snapshot(tmp_path / "two")
    assert len(one["runs"]) == 16 and one == two


def test_changed_base_scenario_gives_new_keys_and_no_stale_runs(tmp_path):
    out = tmp_path / "out"
    old = load_sweep(UDP)
    run_sweep(old, out, jobs=2, progress="off")
    old_keys = set(store_snapshot(out)["runs"])
    doc = udp_doc()
    doc["scenario"]["duration_s"] = 12.0
    new = load_sweep(doc)
    report = run_sweep(new, out, jobs=2, progress="off")
    assert (report.done, report.skipped) == (16, 0)
    snap = store_snapshot(out)
    assert len(snap["runs"]) == 32 and old_keys < set(snap["runs"])
    run_sweep(new, tmp_path / "fresh", jobs=2, progress="off")
    # summarize shows the current definition only, exactly as a fresh folder would.
    assert summarize(out) == summarize(tmp_path / "fresh")
    assert all(p.runs == 2 for p in summarize(out))
    with ResultStore(out, create=False) as store:
        assert {r.run_key for r in store.runs()}.isdisjoint(old_keys)
    back = run_sweep(old, out, jobs=2, progress="off")  # the old runs are still reused
    assert (back.done, back.skipped) == (0, 16)


def until_ci_doc() -> dict:
    """MAC retries of a 10 ms-paced UDP flow over 1, 3 and 4 hops, 3 replications."""
    doc = udp_doc()
    doc["scenario"]["flows"][0]["interval_s"] = 0.01
    doc.update(replications=3, seed=1, metrics=["totals.mac_retries"])
    doc["sweep"] = {"zip": [{"topology.hops": [1, 3, 4], "flows.0.dst": [1, 3, 4]}]}
    del doc["quick"]
    return doc


def test_until_ci_adds_replications_only_where_the_interval_is_too_wide(tmp_path):
    spec = load_sweep(until_ci_doc())
    target, cap = 0.05, 10
    report = run_sweep(spec, tmp_path, jobs=2, until_ci=target, max_replications=cap)
    points = {p.params["topology.hops"]: p for p in summarize(tmp_path)}
    stats = {h: p.stats["totals.mac_retries"] for h, p in points.items()}
    # One hop: no contention, never a MAC retry: zero variance, stops at the initial count.
    assert points[1].runs == 3 and stats[1].std == 0.0 and stats[1].mean == 0.0
    # Three hops: a few retries per run (hidden terminals two hops apart), far too noisy
    # for a 5% interval: replications go up to the cap and stop there.
    assert points[3].runs == cap and stats[3].relative_half_width > target
    # Every point stops as soon as its interval is narrow enough, or at the cap.
    for p, s in zip(points.values(), stats.values(), strict=True):
        assert p.runs == cap or s.relative_half_width <= target
        assert 3 <= p.runs <= cap
    assert points[4].runs > 3  # ~650 retries, spread ~3%: 3 runs give a ~7% interval
    assert report.rounds > 1 and report.done == report.total == sum(p.runs for p in points.values())
    with ResultStore(tmp_path, create=False) as store:
        reps = {}
        for run in store.runs():
            reps.setdefault(run.params["topology.hops"], []).append(run.replication)
            assert run.seed == derive_seed(1, run.replication)
    assert {h: sorted(r) for h, r in reps.items()} == {
        h: list(range(points[h].runs)) for h in points
    }


# ----------------------------------------------------------------------- a full disk


def test_full_disk_raises_store_error_and_keeps_the_stored_runs(tmp_path):
    if os.geteuid() != 0:
        pytest.skip("mounting a tiny tmpfs to fill needs root")
    disk = tmp_path / "disk"
    disk.mkdir()
    mount = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", str(disk)],
        capture_output=True,
        text=True,
    )
    if mount.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {mount.stderr.strip()}")
    try:
        # 8 points x 25 replications of a result document of a few kB: far over 256 kB.
        spec = load_sweep({**udp_doc(), "replications": 25})
        with pytest.raises(StoreError) as exc:
            run_sweep(spec, disk / "out", jobs=1, progress="off")
        message = str(exc.value)
        assert STORE_FILE in message and "full" in message, message
        with ResultStore(disk / "out", create=False) as store:
            stored = store.count()
        assert stored >= 1
        print(f"{stored} runs stored before the disk was full: {message}")
        shutil.copytree(disk / "out", tmp_path / "out")
    finally:
        subprocess.run(["umount", "-l", str(disk)], check=False)
    out = tmp_path / "out"
    db = sqlite3.connect(out / STORE_FILE)
    assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    db.close()
    with ResultStore(out, create=False) as store:
        assert store.count() == stored
        for key, (_, scenario, metrics, result) in store_snapshot(out)["runs"].items():
            # Every stored run is whole: its document is what rerunning its scenario gives.
            assert result == _core.run_json(to_json(scenario)), key
            assert metrics == {m: metric_value(json.loads(result), m) for m in spec.metrics}
    report = run_sweep(spec, out, jobs=2, progress="off")
    assert (report.skipped, report.done, report.failed) == (stored, 200 - stored, 0)


def test_a_rerun_after_an_upgrade_replaces_older_runs_in_the_summaries(tmp_path):
    # A run's key holds the simulator's version; the sweep's definition does not. After an
    # upgrade a rerun stores new runs for the same replications: each counts once, the latest.
    import time

    from hopsim.sweeps import ResultStore, summarize

    store = ResultStore(tmp_path)
    store.record_sweep("s", "d1", {"metrics": ["goodput_kbps"]})
    for key, value in (("old", 100.0), ("new", 200.0)):
        store.add_members("s", "d1", [(key, 0, 0, {})])
        store.add_run(key, 1, {"seed": 1}, {"goodput_kbps": value}, "{}", 0.1, "x", "h")
        time.sleep(1.1)  # finished_at has one-second resolution
    runs = store.runs("s")
    assert [r.run_key for r in runs] == ["new"]
    (point,) = summarize(store, "s", ["goodput_kbps"])
    assert point.runs == 1 and point.stats["goodput_kbps"].mean == 200.0
    store.close()
