"""``hopsim advise``: the published CWL rules against the papers' printed values, the
agreement of the Python Table 1 with the core's ``hop_based`` policy, the command line
(output, bad input) and one small ``--search``.

Seed lines: S001 = Chen et al. (BDP in MANETs), S003 = Koutsonikolas et al. (WiNTECH'07),
S004 = Ding et al. (Vegas-W); docs/research/paper-values.md section 6."""

from __future__ import annotations

import math

import pytest

from hopsim import advise as adv
from hopsim.sweeps import Summary, load_sweep
from simhelpers import assert_no_traceback, chain_scenario, run_cli, tcp_flow


def by_rule(hops: int, **kw) -> dict[str, adv.Recommendation]:
    return {r.rule: r for r in adv.rules(hops, **kw)}


# Chen et al. Table 1 as printed (S001:157-162): round-trip hops N -> optimal CWL.
CHEN_ROWS = [(range(1, 5), 2.0), (range(5, 9), 1.0), (range(9, 13), 2.0),
             (range(13, 21), 3.0), (range(21, 27), 4.0), (range(27, 31), 5.0)]  # fmt: skip


def test_chen_table1_rows_as_printed():
    for ns, cwl in CHEN_ROWS:
        for n in ns:
            assert adv.chen_table1(n) == cwl, n
    assert adv.chen_table1(31) is None  # the table stops at N = 30 (S001:166)
    # The paper's two prose values: 5 packets at h = 15 (S001:141), 2 at h = 1, 2 (S001:164).
    assert by_rule(15)["R5"].value == 5.0
    assert by_rule(1)["R5"].value == by_rule(2)["R5"].value == 2.0
    assert by_rule(16)["R5"].value is None and "Table 1 stops" in by_rule(16)["R5"].note


@pytest.mark.parametrize("h", [1, 2, 3, 4, 7, 8, 15, 32])
def test_formula_rules(h):
    r = by_rule(h)
    assert r["R1"].value == pytest.approx(h / 4)  # Fu et al., S001:50
    assert r["R4"].value == pytest.approx(2 * h / 5)  # k N, k = 1/5, N = 2h (S001:166)
    assert r["R7"].value == pytest.approx(1.5 * h)  # Kawadia & Kumar (S003:68)
    assert r["R2"].value == 2 * h and r["R2"].kind == "bound"  # Theorem 1, N (S001:79)
    assert (r["R3"].value, r["R3"].high) == (pytest.approx(h / 4), pytest.approx(h / 2))
    assert r["R9"].value == r["R10"].value == 4.0  # independent of the hop count (S003:64)
    assert r["R8"].value == (3.0 if h <= 4 else None)  # chains of <= 4 hops (S003:68)
    assert r["R14"].value == (3.0 if h == 7 else None)  # W_1* ~ 3 on 7 hops (S004:81)
    assert r["R6"].value is None  # delay-based: only at run time


def test_research_note_examples():
    # Section 6.1 of the research note and the testbed paper's own arithmetic.
    assert by_rule(2)["R4"].value == pytest.approx(0.8)  # "4/5 ~ 1 MSS" (S003:156)
    assert by_rule(3)["R7"].value == pytest.approx(4.5)  # "9/2 ~ 5 MSS" (S003:183)
    assert by_rule(4)["R7"].value == 6.0  # (S003:210)
    r15 = by_rule(15)
    assert (r15["R1"].value, r15["R4"].value, r15["R7"].value) == (3.75, 6.0, 22.5)


# Table 3 of S003 (S003:216-225): (hops, rate) -> (window with RTS/CTS on, with it off),
# where the cell names that setting; None where the cell recommends the other setting only.
TABLE3 = {
    (1, 2.0): (None, 2), (1, 5.5): (None, 2), (1, "auto"): (None, 2),
    (2, 2.0): (1, 2), (2, 5.5): (None, 3), (2, "auto"): (None, 2),
    (3, 2.0): (1, 4), (3, 5.5): (1, None), (3, "auto"): (1, 5),
    (4, 2.0): (1, 6), (4, 5.5): (6, None), (4, "auto"): (1, None),
}  # fmt: skip
# Best average window per RTS/CTS setting in the prose (S003:154, S003:181, S003:208).
PROSE = {
    (2, True): {2.0: 1, 5.5: 1, "auto": 1}, (2, False): {2.0: 2, 5.5: 3, "auto": 2},
    (3, True): {2.0: 1, 5.5: 1, "auto": 1}, (3, False): {2.0: 4, 5.5: 5, "auto": 5},
    (4, True): {2.0: 1, 5.5: 6, "auto": 1}, (4, False): {2.0: 6, 5.5: 6, "auto": 6},
}  # fmt: skip


def test_testbed_table3_cells_and_prose():
    for (h, rate), (on, off) in TABLE3.items():
        for rts, want in ((True, on), (False, off)):
            if want is not None:
                assert adv.testbed_table3(h, rate, rts)[0] == want, (h, rate, rts)
    # Every (hops 2-4, rate, RTS/CTS) gets the prose's best window, which Table 3 agrees with.
    for (h, rts), row in PROSE.items():
        for rate, want in row.items():
            assert adv.testbed_table3(h, rate, rts)[0] == want, (h, rate, rts)
            assert by_rule(h, rate_mbps=rate, rts=rts)["R15"].value == want
    for h, rate in ((5, 2.0), (7, 5.5), (3, 11.0), (2, 1.0)):
        value, note = adv.testbed_table3(h, rate, True)
        assert value is None and note, (h, rate)


def test_flows_share_only_where_defined():
    r = by_rule(7, flows=4)
    assert r["R14"].per_flow == pytest.approx(0.75)  # W_n* = W_1*/n (S004:81)
    assert all(x.per_flow is None for k, x in r.items() if k != "R14")
    assert r["R1"].value == 1.75  # per-flow limit as published


def test_in_flight_and_candidates():
    assert [adv.in_flight(w) for w in (0.25, 1.0, 1.75, 2.8, 10.5, 22.5)] == [1, 1, 1, 2, 10, 20]
    cands = adv.candidate_windows(adv.rules(7))
    assert list(cands) == [1.0, 2.0, 3.0, 4.0, 10.0, 0.0]
    assert "R5" in cands[3.0] and "R7" in cands[10.0]
    assert "R12" not in [r for rs in cands.values() for r in rs]  # baselines are not tried


def test_summary_line_states_the_range():
    line = adv.summary_line(adv.rules(7), 7)
    assert "1 (R11)" in line and "10.5 (R7)" in line and "1 to 10" in line


def test_python_table_agrees_with_the_core(run_scenario):
    """The core's hop_based (and fu, kawadia) limits are the rules' values on a chain."""
    for h in (1, 3, 5, 7, 11, 14, 15):  # one chain per row of Table 1
        for policy, rule in (("hop_based", "R5"), ("fu", "R1"), ("kawadia", "R7")):
            scn = chain_scenario(h, [tcp_flow(0, h, tcp={"window_limit": policy})],
                                 duration_s=8.0, warmup_s=3.0)  # fmt: skip
            flow = run_scenario(scn).flows[0]
            want = min(max(1.0, by_rule(h)[rule].value), adv.RECEIVER_WINDOW)
            assert flow.window_limit == policy
            assert flow.avg_window_limit == pytest.approx(want), (h, policy)


def test_fractional_cwl_allows_floor_segments(run_scenario):
    scn = chain_scenario(4, [tcp_flow(0, 4, tcp={"max_window": 2.8})], duration_s=10.0)
    dist = run_scenario(scn).flows[0].window_distribution
    assert sum(dist[adv.in_flight(2.8) + 1 :]) == 0.0 and dist[2] > 0.5


def s(mean: float, hw: float, n: int = 3) -> Summary:
    return Summary(n, mean, hw, hw)


def test_choose_prefers_the_smallest_window_among_ties():
    rows = [
        adv.SearchRow("vegas", 3.0, s(250, 4), s(3, 1)),
        adv.SearchRow("newreno", 3.0, s(248, 3), s(2, 1)),
        adv.SearchRow("newreno", 2.0, s(243, 1), s(0, 0)),  # CI below the best's
        adv.SearchRow("sack", 0.0, s(249, 9), s(40, 5)),  # no limit = the largest window
    ]
    best, tied, rec, rule = adv.choose(rows)
    assert best is rows[0]
    assert tied == [rows[1], rows[3]]
    assert rec is rows[1] and "smallest window" in rule
    one = [adv.SearchRow("vegas", 3.0, Summary(1, 250, 0.0, math.nan), None)]
    assert adv.choose(one)[2] is one[0]


def test_build_sweep_is_a_valid_sweep():
    doc = adv.build_sweep(5, 11.0, False, 2, ["newreno", "vegas"], [1, 3, 0], 50.0, 2)
    spec = load_sweep(doc)  # the core validates every point
    assert len(spec.points) == 6 and spec.replications == 2
    assert spec.base["mac"]["rts_threshold_bytes"] == 3000
    assert [f["dst"] for f in spec.base["flows"]] == [5, 5]


def test_cli_prints_the_rules():
    proc = run_cli("advise", "--hops", "7")
    assert proc.returncode == 0, proc.stderr
    assert_no_traceback(proc)
    for text in ("h/4", "1.75", "2.8", "3h/2", "10.5", "S001:156-162", "Published"):
        assert text in proc.stdout, text
    assert "measured only for 1-4 hops" in proc.stdout  # the testbed table does not apply


@pytest.mark.parametrize(
    "args, option",
    [
        (["--hops", "0"], "--hops"),
        (["--hops", "x"], "--hops"),
        (["--hops", "3", "--rate", "3"], "--rate"),
        (["--hops", "3", "--rts", "maybe"], "--rts"),
        (["--hops", "3", "--rate", "auto", "--search"], "--rate"),
        (["--hops", "3", "--replications", "2"], "--replications"),
    ],
)
def test_cli_bad_input(args, option):
    proc = run_cli("advise", *args)
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    assert_no_traceback(proc)
    assert option in proc.stderr


def test_cli_small_search(tmp_path):
    proc = run_cli(
        "advise", "--hops", "3", "--search", "--variants", "newreno,vegas", "--windows", "1,0",
        "--duration", "20", "--replications", "2", "--jobs", "1", "--out", str(tmp_path),
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert_no_traceback(proc)
    assert "Recommendation:" in proc.stdout and "goodput" in proc.stdout
    assert "8 runs done" in proc.stdout  # 2 variants x 2 windows x 2 replications
