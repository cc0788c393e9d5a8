"""hopsim's ns2 profile beside ns-2.35 on the crosscheck sets of docs/validation.md.

Each set in ``sweeps/crosscheck/`` runs in both simulators (200 simulated s, 3-4
replications). The criterion is the issue's: at every point hopsim's mean goodput is within
±15% of ns-2's, or the two 95% intervals overlap; the best window limit is the same; the
shapes agree (goodput rises then falls with the window limit; Vegas' aggregate collapses with
more flows where ns-2's does). A point known to stay off is listed with its likely cause; the
test fails if it stops being off, so the list cannot go stale.
"""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SETS = ROOT / "sweeps" / "crosscheck"

#: (set, point label) -> why it is still off by more than 15% with disjoint intervals
#: (docs/validation.md, "Points still off").
KNOWN_OFF: dict[tuple[str, str], str] = {}


def _run(name: str, out: Path):
    from hopsim.crosscheck.compare import crosscheck, load_crosscheck

    spec = load_crosscheck(SETS / f"{name}.toml")
    report = crosscheck(spec, out, ("ns2",), jobs=2, progress="off")
    assert not report.failures, report.failures
    return report


def _label(params: dict) -> str:
    return ", ".join(f"{k}={v}" for k, v in params.items())


def _agrees(row) -> bool:
    d = row.difference("ns2")
    return (d is not None and abs(d) <= 0.15) or bool(row.overlap("ns2"))


def _check_points(name: str, report) -> dict:
    rows = report.metric_rows("goodput_kbps")
    off = {_label(r.params): r for r in rows if not _agrees(r)}
    known = {label for (s, label) in KNOWN_OFF if s == name}
    unexpected = {k: (v.ns2.mean, v.hopsim["ns2"].mean) for k, v in off.items() if k not in known}
    assert not unexpected, f"{name}: off by more than 15% with disjoint CIs: {unexpected}"
    fixed = known - set(off)
    assert not fixed, f"{name}: {fixed} now agree with ns-2: remove them from KNOWN_OFF"
    return {_label(r.params): r for r in rows}


@pytest.mark.slow
def test_tcp_over_aodv_chains_of_1_to_30_hops(ns2, tmp_path):
    rows = _check_points("aodv-chains", _run("aodv-chains", tmp_path))
    assert len(rows) == 16
    # The standard-profile gap of the issue was at 7+ hops (+53..+149% for NewReno): the ns2
    # profile's NewReno is on ns-2's side of the standard profile there.
    for h in (7, 10, 15, 20):
        r = rows[f"tcp.variant=newreno, topology.hops={h}, flows.0.dst={h}"]
        assert r.hopsim["ns2"].mean < 1.3 * r.ns2.mean, (h, r.ns2.mean, r.hopsim["ns2"].mean)


def _tied_with_best(stats: list) -> set[int]:
    """Indices whose 95% interval overlaps that of the largest mean (statistically best)."""
    best = max(range(len(stats)), key=lambda i: stats[i].mean)
    return {i for i, s in enumerate(stats) if s.ci_high >= stats[best].ci_low}


# From ns-2's DSR flow state and tap (2026-11-27) until the MAC's post-backoff fix (a
# post-backoff that ran out is not revived by an exchange spaced by SIFS, docs/models.md 3)
# hopsim's best window here was 2 alone where ns-2.35 ties 2 and 3; it ties them again.
@pytest.mark.slow
def test_reno_over_dsr_window_limits_same_optimum_and_fall(ns2, tmp_path):
    rows = _check_points("dsr-reno-cwl", _run("dsr-reno-cwl", tmp_path))
    windows = sorted(rows, key=lambda k: float(k.split("=")[1]))
    per_sim = {
        "ns-2": [rows[k].ns2 for k in windows],
        "hopsim": [rows[k].hopsim["ns2"] for k in windows],
    }
    for sim, stats in per_sim.items():
        g = [s.mean for s in stats]
        best = max(range(len(g)), key=g.__getitem__)
        assert 0 < best < len(g) - 1, (sim, g)  # rises, then falls
        assert g[-1] < 0.7 * g[best], (sim, g)
    # The best window limit is the same: each simulator's best is tied (overlapping 95%
    # intervals) with the other's best.
    ns2_tied, hop_tied = _tied_with_best(per_sim["ns-2"]), _tied_with_best(per_sim["hopsim"])
    ns2_best = max(ns2_tied, key=lambda i: per_sim["ns-2"][i].mean)
    hop_best = max(hop_tied, key=lambda i: per_sim["hopsim"][i].mean)
    tied = ([windows[i] for i in ns2_tied], [windows[i] for i in hop_tied])
    assert ns2_best in hop_tied and hop_best in ns2_tied, tied
    assert max(ns2_tied | hop_tied) <= 3, "the optimum is a window of a few segments"


@pytest.mark.slow
def test_vegas_flows_over_dsr_collapse_as_in_ns2(ns2, tmp_path):
    agg = {}
    for n in (1, 2, 4, 8):
        name = f"dsr-vegas-{n}flows"
        report = _run(name, tmp_path / name)
        (row,) = _check_points(name, report).values()
        agg[n] = (row.ns2.mean, row.hopsim["ns2"].mean)
    for k, sim in enumerate(("ns-2", "hopsim")):
        one, eight = agg[1][k], agg[8][k]
        assert eight < 0.6 * one, (sim, agg)  # Vegas-W's Table I: 206.8 -> 79.4 kbit/s


@pytest.mark.slow
def test_a_50_node_dsr_manet(ns2, tmp_path):
    rows = _check_points("manet-dsr", _run("manet-dsr", tmp_path))
    assert len(rows) == 2


@pytest.mark.slow
@pytest.mark.parametrize("flows", [4, 3])
def test_crossing_flows_on_a_grid(ns2, tmp_path, flows):
    # Issue 34: total and per-flow goodput within ±20% of ns-2.35's or overlapping intervals.
    name = f"grid-crossing-{flows}flows"
    report = _run(name, tmp_path)
    (row,) = _check_points(name, report).values()
    by_metric = {r.metric: r for r in report.rows}
    for i in range(flows):
        r = by_metric[f"flow{i}:goodput_kbps"]
        d = r.difference("ns2")
        assert (d is not None and abs(d) <= 0.20) or r.overlap("ns2"), (i, r.ns2, r.hopsim)
    # ns-2's receiver takes frames it cannot decode as receptions; both lose frames at the
    # retry limit for it (ns-3, which only senses them, loses none).
    drops = by_metric["totals.retry_limit_drops"]
    assert drops.ns2.mean > 50 and drops.overlap("ns2"), (drops.ns2, drops.hopsim)
