"""The catalogue entry dsn-variants (ElRakabawy, Lindemann, Vernon, DSN 2005; seeds 000 + 002)
in quick mode: it runs, writes its figures, points and claims, and the paper's findings that
hold robustly in our model hold here.

Asserted are only the paper's claims that held on the quick configuration with three base
seeds (1, 2, 3; 3 replications x 120 s each), each with a margin; the claims that do not hold
in our model (the size of Vegas' gain, NewReno's > 40% slow start, 93-100% fewer false route
failures, ...) are reported in claims.md with their verdict and only checked for a verdict.
"""

from __future__ import annotations

import csv
import math
from pathlib import Path

import pytest

from hopsim.studies import Verdict, get_study, reproduce_study
from hopsim.studies import dsn_variants as dv
from hopsim.studies.common import StudyContext
from hopsim.sweeps import PointSummary, ResultStore
from hopsim.sweeps.stats import Summary, student_t_quantile

HOPS_QUICK = [2, 4, 6, 7, 8, 16]
STEMS = [
    "goodput-vs-hops",
    "retransmissions-vs-hops",
    "window-vs-hops",
    "false-route-failures-vs-hops",
    "link-drop-vs-hops",
    "vegas-alpha-goodput-vs-hops",
    "vegas-alpha-window-vs-hops",
    "vegas-thinning-vs-hops",
    "goodput-vs-rate",
    "vegas-alpha-vs-rate",
    "link-drop-vs-rate",
    "paced-udp-vs-interval",
]


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory):
    out = tmp_path_factory.mktemp("dsn-variants")
    return reproduce_study(
        get_study("dsn-variants"), out, quick=True, jobs=2, progress="off", ns2="off"
    )


@pytest.fixture(scope="module")
def data(report):
    """The relabelled points: (variant, x) -> metric means, as the study analyses them."""
    with ResultStore(report.out_dir) as store:
        ctx = StudyContext(get_study("dsn-variants"), report.out_dir, True, store)
        d = {
            "tcp": dv._collect(ctx, "dsn-hops", dv.HOPS, "newreno"),
            "bw": dv._collect(ctx, "dsn-bandwidth", dv.RATE, "newreno"),
            "udp": dv._collect(ctx, "dsn-udp-hops", dv.HOPS, "udp"),
        }
        d["rows"] = dv.comparison_rows(ctx)
    return d


def test_runs_and_writes_figures_points_and_claims(report):
    assert report.runs_failed == 0
    for stem in STEMS:
        for suffix in (".png", ".pdf"):
            path = report.out_dir / "figures" / (stem + suffix)
            assert path.exists() and path.stat().st_size > 1000, path
    with report.points_csv.open() as fh:
        rows = list(csv.DictReader(fh))
    per_sweep = {s: sum(r["sweep"] == s for r in rows) for s in {r["sweep"] for r in rows}}
    # quick: 6 hop counts x 8 TCP variants; x 10 intervals; 3 rates x 12; x 12; 1 x 3 alphas
    assert per_sweep == {
        "dsn-hops": 48,
        "dsn-udp-hops": 60,
        "dsn-bandwidth": 36,
        "dsn-udp-bandwidth": 36,
        "dsn-long": 3,
    }
    assert all(r["runs"] == "3" for r in rows)
    lines = [ln for ln in Path(report.table_md).read_text().splitlines() if ln.startswith("| ")]
    assert len(lines) == 1 + len(report.claims) and len(report.claims) >= 40
    for c in report.claims:
        assert c.claim and c.paper and c.ours, c
        assert Verdict.of(c.verdict), c
    # one comparison row per hop count, first in the table
    assert [c.claim for c in report.claims[: len(HOPS_QUICK)]] == [
        f"{h} hops: Vegas vs NewReno" for h in HOPS_QUICK
    ]


def test_comparison_rows_cover_every_hop_count(data):
    rows = data["rows"]
    assert [r["hops"] for r in rows] == HOPS_QUICK
    for r in rows:
        for key in ("vegas_kbps", "newreno_kbps", "newreno_thinning_kbps", "paced_udp_kbps"):
            assert r[key] > 0, (r["hops"], key)


def test_vegas_beats_newreno_on_long_chains(data):
    """S002:220-222: Vegas up to 83% more goodput than NewReno, about 75% at 8 hops. Ours
    is smaller (+40..60% at 8 hops) but clearly positive; on 2 hops both fill the chain."""
    by_h = {r["hops"]: r for r in data["rows"]}
    for h, r in by_h.items():
        assert r["vegas_kbps"] >= 0.95 * r["newreno_kbps"], h
    assert by_h[8]["vegas_gain"] > 0.25, by_h[8]
    assert by_h[16]["vegas_gain"] > 0.15, by_h[16]


# The catalogue runs the study with the ns2 profile. In ns-2.35 itself the claim holds
# (crosscheck, 200 s AODV chains: Vegas/NewReno retransmissions 0.23 at 7 and 20 hops, retry
# drops 0.34 at 7 hops). It holds in hopsim since ns-2's Vegas inflates by the duplicates it
# has seen and deflates on any new ACK (docs/models.md 17.4); before, hopsim's Vegas
# retransmitted about twice as much as ns-2's.
def test_vegas_retransmits_less_and_breaks_fewer_routes(data):
    """S002:238-241 (fewer retransmissions) and S002:292-297 (fewer false route failures,
    fewer link-layer drops): Vegas keeps its window near alpha, NewReno overshoots."""
    tcp = data["tcp"]
    for h in (8, 16):
        assert dv._m(tcp, dv.VEGAS, h, "retransmissions") < 0.6 * dv._m(
            tcp, dv.NR, h, "retransmissions"
        ), h
    for h in (4, 6, 7, 8, 16):
        assert dv._m(tcp, dv.VEGAS, h, dv.FRF) <= 0.5 * dv._m(tcp, dv.NR, h, dv.FRF), h
        assert dv._m(tcp, dv.VEGAS, h, dv.LDP) < dv._m(tcp, dv.NR, h, dv.LDP), h


# ns2 profile, quick mode (3 replications): the window no longer grows monotonically with
# alpha at 7 hops (3.67, 4.56, 4.36 for alpha 2, 3, 4). Not checked against ns-2.35 yet.
@pytest.mark.xfail(strict=True, reason="ns2 profile: window vs alpha not monotone at 7 hops")
def test_vegas_window_and_alpha(data):
    """S002:266-268: Vegas' average window 3.5..5.5 (ours: 3.1 at 4 hops, so 6..16 hops);
    S000:34-36: the window grows with alpha; S000:31-33: alpha = 2 gives the best goodput."""
    tcp = data["tcp"]
    for h in (6, 7, 8, 16):
        assert 3.5 <= dv._m(tcp, dv.VEGAS, h, dv.WIN) <= 5.5, h
    for h in (4, 6, 7, 8, 16):
        w = [dv._m(tcp, a, h, dv.WIN) for a in dv.ALPHAS]
        assert w[0] < w[1] < w[2], (h, w)
        g = [dv._m(tcp, a, h) for a in dv.ALPHAS]
        assert g[0] >= 0.97 * max(g), (h, g)


def test_ack_thinning_lifts_newreno(data):
    """S002:222-230: thinning lifts NewReno's goodput towards Vegas'."""
    tcp = data["tcp"]
    for h in (4, 6, 7, 8, 16):
        assert dv._m(tcp, dv.NRT, h) > 1.1 * dv._m(tcp, dv.NR, h), h


# ns2 profile: held from ns-2's Vegas timer, guard and RTT sample (docs/models.md 17.4; before
# them 33% at 7 hops) until the MAC's post-backoff fix (docs/models.md 3): at 16 hops the
# Vegas window with thinning is now at <= 3 segments 23% of the time. Not checked against
# ns-2.35 (it has no ACK-thinning sink).
@pytest.mark.xfail(strict=True, reason="Vegas with thinning at 16 hops: w <= 3 only 23%")
def test_ack_thinning_keeps_the_vegas_window_small(data):
    """S002:197-203: with thinning the Vegas window sits at 3 or less most of the time (ACKs
    starve)."""
    tcp = data["tcp"]
    for h in (7, 8, 16):
        assert dv._m(tcp, dv.VT, h, "window_le3_share") > 0.4, h


def _udp_on_seven_hops(data) -> tuple[list[tuple[float, float]], int]:
    """Paced UDP's (inter-send time in ms, goodput) on 7 hops, and the index of the best."""
    seven = sorted(
        (float(p.params["variant"].split(", ")[1][:-3]), p.stats[dv.GP].mean)
        for p in data["udp"]
        if p.params[dv.HOPS] == 7
    )
    return seven, max(range(len(seven)), key=lambda k: seven[k][1])


def test_paced_udp_is_the_upper_bound_and_its_optimum_lies_on_the_axis(data):
    """S002:230-237: both TCPs stay below the best paced UDP at every h. Fig. 10 (S002:298-
    301): on 7 hops the best inter-send time lies on the paper's 28-44 ms axis; beyond it
    every datagram arrives (goodput = offered load 8 x 1460 B / t)."""
    for r in data["rows"]:
        assert r["paced_udp_kbps"] > max(r["vegas_kbps"], r["newreno_kbps"]), r["hops"]
    seven, i = _udp_on_seven_hops(data)
    assert 28 <= seven[i][0] <= 44
    for t, g in seven[i + 1 :]:
        assert g == pytest.approx(11680.0 / t, rel=0.05), t


# ns2 profile, quick mode: one step below the optimum (36 ms on 7 hops) a run either keeps its
# routes or loses them for seconds, so the point's mean depends on which of its 3 runs do:
# ns-2.35's reference runs give -17%; hopsim's gave -1% with ns-2's AODV route table over time
# (docs/models.md 17.1) and hold the collapse again with ns-2's MAC waits (17.3). Over 6 runs
# of 120 s both are bimodal and overlap: ns-2.35 261 +- 36, hopsim 288 +- 45 kbit/s
# (crosscheck, 2026-11-27, before the MAC waits).
def test_paced_udp_collapses_just_below_its_optimum(data):
    """Fig. 10 (S002:298-301): just below the best inter-send time goodput collapses."""
    seven, i = _udp_on_seven_hops(data)
    assert seven[i - 1][1] < 0.9 * seven[i][1]


# ns2 profile, quick mode: Vegas alpha = 4 reaches 140 kbit/s at 2 Mbit/s on 7 hops and 382 at
# 5.5 Mbit/s (2.72x, the bound is 2.75x); alpha = 2's lead is 4.7% at 11 Mbit/s (bound 5%).
# Until backoffs ending in the same slot collided (models.md section 3, ns-2's same-instant
# rule in 17.3) alpha = 4 had only 130 kbit/s at 2 Mbit/s (2.9x) and this was an expected
# failure; ns-2.35 itself gives alpha = beta = 4 138 +- 45 kbit/s at 2 Mbit/s on this chain
# (crosscheck, 120 s, 4 replications). Since ns-2's Vegas inflation and deflation rules
# (docs/models.md 17.4) alpha = 4 gives 123 kbit/s at 2 Mbit/s (3.1x); ns-2.35's reference
# runs of the same quick mode give 144 (111-171 over its 3 seeds, 2.65x). With ns-2's AODV
# route table over time (docs/models.md 17.1: purge tick, lifetimes, LocalRepairTimer) alpha
# = 4 gives 2.54x and alpha = 3 2.04x (ns-2.35 2.65x and 2.46x) and the check held again.
# Since ns-2's slow start from the second period (17.4, 2026-11-27) alpha = 4 gives 135 kbit/s
# at 2 Mbit/s in quick mode (2.94x); full mode holds, as in ns-2.35: 2.62x (ns-2.35 2.67x).
# Holds again in quick mode since ns-2's order after a MAC failure (17.1, fifth session of
# 2026-11-27: the MAC's next packet before the Route Error): alpha = 4 gives 178 kbit/s at 2
# Mbit/s and 389 at 5.5 (2.19x); alpha = 2's lead 9.3% at 2 Mbit/s, 2.9% at 11.
def test_goodput_grows_sub_linearly_with_rate(data):
    """S000:43-50: RTS, CTS and ACK stay at 1 Mbit/s, so goodput grows less than the data
    rate; S000:37-43: alpha = 2's lead over alpha = 3, 4 shrinks to about 0 at 11 Mbit/s."""
    bw = data["bw"]
    for a in dv.ALPHAS:
        g2, g55, g11 = (dv._m(bw, a, r) for r in (2.0, 5.5, 11.0))
        assert g2 < g55 < g11 and g11 / g2 < 5.5 and g55 / g2 < 2.75, a
    lead = {r: dv._m(bw, dv.VEGAS, r) / max(dv._m(bw, a, r) for a in dv.ALPHAS[1:]) - 1
            for r in (2.0, 11.0)}  # fmt: skip
    assert lead[2.0] > lead[11.0] and abs(lead[11.0]) <= 0.05, lead


# --------------------------------------------- Fig. 10's t_opt on constructed summaries


def _udp7(*points: tuple[float, float, float], n: int = 10) -> list:
    """Paced-UDP points on 7 hops: (interval ms, mean kbit/s, std) over ``n`` runs each."""
    t = student_t_quantile(0.975, n - 1) if n > 1 else math.nan
    return [
        PointSummary(k, {"interval_ms": ms, "variant": "paced UDP"}, n,
                     {dv.GP: Summary(n, g, sd, t * sd / math.sqrt(n))})
        for k, (ms, g, sd) in enumerate(points)
    ]  # fmt: skip


def _udp_verdicts(udp7: list) -> dict[str, tuple[str, str]]:
    keys = ("topt", "lin", "sharp")
    return {k: (c.ours, c.verdict) for k, c in zip(keys, dv._udp_claims(udp7), strict=True)}


def test_t_opt_is_the_fastest_interval_the_runs_cannot_tell_from_the_best():
    """The knee of Fig. 10 (S002:298-300): 38 ms delivers its offered 307.4 kbit/s in every
    run, 36 ms 2 kbit/s less with a spread of 12 (Welch: t = 0.53 on 9 df, far from 2.26),
    so t_opt is 36 ms and one step faster, 34 ms, is the cliff (ns-2.35's ten full-mode
    runs on the DSN chain: 186 / 305.4 / 307.4 kbit/s)."""
    v = _udp_verdicts(
        _udp7((34, 186.0, 40.0), (36, 305.4, 12.0), (38, 307.4, 0.0), (40, 292.0, 0.0))
    )
    assert v["topt"][0].startswith("36 ms, 305 kbit/s (most at 38 ms")
    assert Verdict.of(v["topt"][1]) is Verdict.HOLDS
    assert v["sharp"][0] == "34 ms: -39%" and Verdict.of(v["sharp"][1]) is Verdict.HOLDS
    assert Verdict.of(v["lin"][1]) is Verdict.HOLDS  # 38 and 40 ms carry what they offer


def test_t_opt_stays_at_the_best_when_the_faster_interval_is_significantly_below():
    """36 ms 3.7% below 38 ms, inside the 5% but with a spread of 3 kbit/s (Welch: t = 12):
    the best is t_opt and the step below it loses 4%, not the paper's collapse."""
    v = _udp_verdicts(_udp7((34, 186.0, 40.0), (36, 296.0, 3.0), (38, 307.4, 0.0)))
    assert v["topt"][0] == "38 ms, 307 kbit/s"
    assert v["sharp"][0] == "36 ms: -4%" and Verdict.of(v["sharp"][1]) is Verdict.DOES_NOT_HOLD


def test_t_opt_walks_down_only_through_contiguous_ties():
    """A faster interval tied with the best (a wide 32 ms, 300 +- 150 kbit/s) does not
    count past a lower one between them (34 ms)."""
    v = _udp_verdicts(
        _udp7((32, 300.0, 150.0), (34, 186.0, 10.0), (36, 305.0, 12.0), (38, 307.4, 0.0))
    )
    assert v["topt"][0].startswith("36 ms") and v["sharp"][0] == "34 ms: -39%"


def test_t_opt_is_the_argmax_with_one_run_a_point():
    """One replication gives no variance to test with: the best interval is t_opt."""
    one = _udp7((34, 186.0, 0.0), (36, 305.4, 0.0), (38, 307.4, 0.0), n=1)
    assert _udp_verdicts(one)["topt"][0] == "38 ms, 307 kbit/s"


def test_t_opt_ties_only_within_the_studys_five_percent():
    """Three runs at 36 ms, one of them collapsing (243 +- 60 kbit/s): Welch's test cannot
    tell it from 40 ms (292), but 17% less is not an optimum; 38 ms (290 +- 5) is, and is
    t_opt (ns-2.35's three quick-mode runs: 243 kbit/s at 36 ms, 292 at 40)."""
    three = _udp7((36, 243.0, 60.0), (38, 290.0, 5.0), (40, 292.0, 0.0), n=3)
    assert dv.means_differ(three[0].stats[dv.GP], three[2].stats[dv.GP]) is False
    v = _udp_verdicts(three)
    assert v["topt"][0].startswith("38 ms, 290 kbit/s") and v["sharp"][0] == "36 ms: -16%"
