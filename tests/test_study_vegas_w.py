"""The vegas-w catalogue entry (Ding et al., seed 004) in quick mode: it runs, writes its
figures, points and claims table, and the paper's claims that hold robustly in our model
(checked over several seeds) hold.

Only claims about one flow, fairness and "Vegas-W is not worse than Vegas" are asserted: the
paper's collapse of legacy Vegas with 2..8 flows (Table I) and Vegas-W's large gains do not
appear with our DSR (the study's notes give the likely cause), so those are only required to
carry a verdict.
"""

from __future__ import annotations

import csv

import pytest

from hopsim.studies import Verdict, get_study, reproduce_study
from hopsim.studies.common import StudyReport
from hopsim.sweeps import ResultStore

HOPS = 7  # Table I's chain (S004:70)


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> StudyReport:
    out = tmp_path_factory.mktemp("vegas-w")
    return reproduce_study(get_study("vegas-w"), out, quick=True, jobs=2, progress="off", ns2="off")


@pytest.fixture(scope="module")
def points(report: StudyReport) -> dict[tuple[int, str, int], dict[str, str]]:
    """points.csv rows keyed (flows, variant, hops)."""
    flows = {"vegas-w-1flow": 1, "vegas-w-2flows": 2, "vegas-w-4flows": 4, "vegas-w-8flows": 8}
    with report.points_csv.open() as fh:
        rows = list(csv.DictReader(fh))
    return {(flows[r["sweep"]], r["tcp.variant"], int(r["topology.hops"])): r for r in rows}


def _total(points: dict[tuple[int, str, int], dict[str, str]], n: int, variant: str) -> float:
    return float(points[(n, variant, HOPS)]["sum:goodput_kbps.mean"])


def test_outputs(report: StudyReport) -> None:
    assert report.runs_failed == 0 and report.runs_done > 0
    names = {p.name for p in report.figures}
    for stem in (
        "total-goodput-vs-flows",
        "flow0-goodput-vs-flows",
        "cwnd-vs-flows",
        "window-distribution-vegas",
        "window-distribution-vegas-w",
        "goodput-vs-hops-8flows",
    ):
        for suffix in (".png", ".pdf"):
            assert f"{stem}{suffix}" in names
            assert (report.out_dir / "figures" / f"{stem}{suffix}").stat().st_size > 1000
    assert (report.out_dir / "claims.csv").exists()


def test_points_cover_every_variant_and_flow_count(points: dict) -> None:
    for n in (1, 2, 4, 8):
        for variant in ("vegas", "vegas_w", "few"):
            row = points[(n, variant, HOPS)]
            assert int(row["runs"]) >= 1
            assert float(row["sum:goodput_kbps.mean"]) > 0
            assert 0 < float(row["jain:goodput_kbps.mean"]) <= 1 + 1e-9


def test_every_claim_has_a_verdict(report: StudyReport) -> None:
    assert len(report.claims) >= 20
    for claim in report.claims:
        assert Verdict.of(claim.verdict), claim
        assert claim.paper and claim.ours and claim.source
    table = report.table_md.read_text()
    assert "| claim | paper | hopsim | verdict |" in table
    assert table.count("\n| ") == len(report.claims) + 1  # the header and one row per claim


# Holds again in quick mode since ns-2's Vegas timer, guard and RTT sample (docs/models.md
# 17.4): 195.8 kbit/s (ns-2.35 207.2 on the same runs), after 184.8 with the slot-collision
# MAC alone.
def test_one_flow_vegas_matches_table_i(points: dict) -> None:
    # Table I: 206.8 kbit/s for one legacy Vegas flow on 7 hops (S004:73).
    assert abs(_total(points, 1, "vegas") / 206.8 - 1) <= 0.10


# Held in quick mode from ns-2's Vegas duplicate-ACK rules to its one-way start (docs/models.md
# 17.4; -7.3% then), and again with ns-2's salvaging forwarder and order after a MAC failure
# (17.1, 17.2, fifth session of 2026-11-27: -1.5% in the two quick runs), not since DSR's
# release at the send-buffer check (-8.3%). Full mode (10 runs of 500 s): Vegas-W 5.2% below
# Vegas (195.5 against 206.2 kbit/s). Vegas-W does not run on hopsim's model of ns-2's Vegas
# agent yet (its coarse timer, duplicate-ACK rules and start are the standard ones).
@pytest.mark.xfail(
    strict=True,
    reason="Vegas-W does not run on ns-2's Vegas agent model yet: -8.3% of Vegas (quick)",
)
def test_one_flow_vegas_w_is_close_to_vegas(points: dict) -> None:
    # "both Vegas-W and Vegas almost obtain same throughput" with one flow (S004:177).
    assert abs(_total(points, 1, "vegas_w") / _total(points, 1, "vegas") - 1) <= 0.05


def test_vegas_w_is_not_worse_than_vegas(points: dict) -> None:
    # Vegas-W is at least as good as Vegas with every number of flows (S004:169-177); one
    # flow is the check above.
    for n in (2, 4, 8):
        assert _total(points, n, "vegas_w") >= 0.95 * _total(points, n, "vegas"), n


def test_legacy_vegas_shares_fairly(points: dict) -> None:
    # Table I: flow 0 gets about 1/n of the total (81.62/165.3, 25.51/102.4, 10.16/79.4).
    for n in (2, 4, 8):
        assert float(points[(n, "vegas", HOPS)]["jain:goodput_kbps.mean"]) >= 0.9, n


# ns2 profile: one Vegas flow times out up to 9 times in the quick run's 150 s on 7 hops.
# ns-2.35 itself times out 0-6 times (mean 2.5) on the same chain (crosscheck, 4 replications)
# and hopsim's ns2 profile about 10: hopsim's DSR chain still has more RTS-limit drops than
# ns-2's (10-25 vs 2-5 per run; docs/validation.md).
@pytest.mark.xfail(strict=True, reason="ns2 profile: more timeouts than the check allows")
def test_one_flow_vegas_window_stable_near_three(report: StudyReport) -> None:
    # One flow "spends about 99% of all the simulation time on w = 3 and can stabilize on it",
    # with a minimum window of 2 (S004:81). Vegas holds its window while alpha..beta = 1..3
    # segments are queued, so a stable window lies between the minimum 2 and W1* + beta = 6;
    # the time at exactly 3 (which differs from the paper's) is in the claims table.
    with ResultStore(report.out_dir, create=False) as store:
        runs = [
            doc["flows"][0]
            for run, doc in store.iter_results("vegas-w-1flow")
            if run.params["tcp.variant"] == "vegas" and run.params["topology.hops"] == HOPS
        ]
    assert runs
    for flow in runs:
        dist = flow["window_distribution"]
        assert sum(dist[:2]) == 0.0  # never below the minimum window of 2
        assert sum(dist[2:7]) >= 0.95
        assert flow["timeouts"] <= 2
