"""What a sweep says about its own precision: whether --until-ci reached its target, and in
quick mode a warning when the intervals are too wide to tell points apart."""

from __future__ import annotations

import math

from hopsim.sweeps import load_sweep, run_sweep, summarize
from test_sweeps import until_ci_doc

METRIC = "totals.mac_retries"


def test_until_ci_names_the_points_that_missed_the_target(tmp_path):
    target, cap = 0.05, 6
    report = run_sweep(load_sweep(until_ci_doc()), tmp_path, jobs=2, until_ci=target,
                       max_replications=cap, progress="off")  # fmt: skip
    missed = {
        f"topology.hops={p.params['topology.hops']}, flows.0.dst={p.params['flows.0.dst']}"
        for p in summarize(tmp_path)
        if p.stats[METRIC].relative_half_width > target
    }
    assert missed, "three hops are too noisy for 5% within 6 replications"
    assert {label for label, _ in report.unconverged} == missed
    (note,) = report.notes()
    assert note.startswith("--until-ci: NOT converged") and f"{len(missed)} of 3 points" in note
    assert "topology.hops=3" in note and "±" in note


def test_until_ci_says_when_it_converged(tmp_path):
    doc = until_ci_doc()
    doc["sweep"] = {"zip": [{"topology.hops": [1, 4], "flows.0.dst": [1, 4]}]}
    report = run_sweep(load_sweep(doc), tmp_path, jobs=2, until_ci=0.2, progress="off")
    assert report.unconverged == []
    for p in summarize(tmp_path):
        assert p.stats[METRIC].relative_half_width <= 0.2
    assert report.notes() == [
        f"--until-ci: converged, every point's 95% CI of {METRIC} is within ±20% of its mean "
        f"({report.rounds} round(s))"
    ]


def test_quick_mode_warns_when_intervals_are_wide(tmp_path):
    doc = until_ci_doc()
    doc["replications"] = 2
    doc["sweep"] = {"zip": [{"topology.hops": [3], "flows.0.dst": [3]}]}
    report = run_sweep(load_sweep(doc), tmp_path / "two", jobs=2, progress="off")
    (p,) = summarize(tmp_path / "two")
    rel = p.stats[METRIC].relative_half_width
    assert report.median_rel_half_width == rel
    assert report.notes() == [], "only quick mode warns"
    (note,) = report.notes(quick=True)
    assert rel > 0.10 and f"median ±{rel:.0%}" in note  # a few noisy retries: wide
    doc["replications"] = 1
    one = run_sweep(load_sweep(doc), tmp_path / "one", jobs=2, progress="off")
    assert math.isnan(one.median_rel_half_width)
    assert "one replication per point" in one.notes(quick=True)[0]
