"""Sweeps sharing a warm-up (issue 35, sweeps/shared.py): each point is the warm-up run
forked at shared_warmup_s with its values set there, exactly as hopsim.Simulation does it by
hand; a point at the base's values is the unshared run bit for bit; the store records the
sharing (and never takes such a run for an unshared one); what cannot change mid-run is
refused by name before any run."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

import hopsim
from hopsim import ScenarioError
from hopsim.sweeps import load_sweep, run_sweep
from hopsim.sweeps.spec import derive_seed
from hopsim.sweeps.store import ResultStore

BASE = {
    "duration_s": 30.0,
    "warmup_s": 10.0,
    "topology": {"kind": "chain", "hops": 4, "spacing_m": 200.0},
    "mac": {"data_rate_mbps": 2.0, "basic_rate_mbps": 1.0, "rts_threshold_bytes": 0},
    "routing": {"protocol": "static"},
    "flows": [{"src": 0, "dst": 4, "transport": "tcp", "payload_bytes": 1460}],
}


def doc(shared: float | None = 10.0, **sweep: list[Any]) -> dict[str, Any]:
    d: dict[str, Any] = {
        "name": "shared",
        "scenario": BASE,
        "replications": 2,
        "metrics": ["goodput_kbps"],
        "sweep": sweep or {"tcp.max_window": [0, 2, 5], "mac.queue_packets": [50, 10]},
    }
    if shared is not None:
        d["shared_warmup_s"] = shared
    return d


def test_each_point_is_the_warm_up_forked_and_changed(tmp_path: Path) -> None:
    run_sweep(load_sweep(doc()), tmp_path / "s", jobs=1, progress="off")
    store = ResultStore(tmp_path / "s", create=False)
    runs = store.runs()
    assert len(runs) == 12
    for run in runs:
        base = hopsim.Simulation(BASE, seed=derive_seed(1, run.replication))
        base.run_until(10.0)
        limit = run.params["tcp.max_window"]
        base.set_window_limit(0, limit or None)
        base.set_queue_limit(run.params["mac.queue_packets"])
        want = base.run().flows[0].goodput_kbps
        assert run.metrics["goodput_kbps"] == want, run.params
    sweep = store.sweeps()["shared"]["spec"]
    assert sweep["shared_warmup_s"] == 10.0
    with sqlite3.connect(tmp_path / "s" / "results.sqlite") as db:
        scenarios = [json.loads(s) for (s,) in db.execute("SELECT scenario FROM runs")]
    for s in scenarios:
        assert s["shared_warmup"]["at_s"] == 10.0
        assert s["shared_warmup"]["warmup"]["flows.0.tcp.max_window"] == 0.0


def test_a_point_at_the_base_values_is_the_unshared_run(tmp_path: Path) -> None:
    shared = run_sweep(load_sweep(doc()), tmp_path / "a", jobs=1, progress="off")
    plain = run_sweep(load_sweep(doc(shared=None)), tmp_path / "b", jobs=1, progress="off")
    assert shared.done == plain.done == 12
    a = {(r.point, r.replication): r for r in ResultStore(tmp_path / "a", False).runs()}
    b = {(r.point, r.replication): r for r in ResultStore(tmp_path / "b", False).runs()}
    assert a[(0, 0)].params == {"tcp.max_window": 0, "mac.queue_packets": 50}
    for rep in (0, 1):
        assert a[(0, rep)].metrics == b[(0, rep)].metrics, "the fork continued unchanged"
        assert a[(0, rep)].run_key != b[(0, rep)].run_key, "but it is stored as shared"
    again = run_sweep(load_sweep(doc()), tmp_path / "a", jobs=1, progress="off")
    assert again.skipped == 12 and again.done == 0


@pytest.mark.parametrize(
    ("change", "says"),
    [
        ({"sweep": {"topology.hops": [3, 4]}}, "topology.hops"),
        ({"sweep": {"tcp.variant": ["newreno", "sack"]}}, "tcp.variant"),
        ({"shared_warmup_s": 15.0}, "warmup_s = 10.0"),
        ({"shared_warmup_s": 0.0}, "above 0"),
        ({"shared_warmup_s": "10"}, "shared_warmup_s"),
        ({"shared_warmup_s": 30.0}, "before the end"),
    ],
)
def test_what_cannot_be_shared_is_refused_by_name(change: dict[str, Any], says: str) -> None:
    d = doc()
    if "topology.hops" in change.get("sweep", {}):
        d["scenario"] = dict(BASE, flows=[dict(BASE["flows"][0], dst=3)])
    d.update(change)
    with pytest.raises(ScenarioError, match=says.replace(".", r"\.")):
        load_sweep(d)


def test_another_simulator_cannot_share_a_warm_up(tmp_path: Path) -> None:
    spec = load_sweep(doc())
    spec.simulator = "ns2"
    with pytest.raises(ScenarioError, match="cannot fork"):
        run_sweep(spec, tmp_path, jobs=1, progress="off")
