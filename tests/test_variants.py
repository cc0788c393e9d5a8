"""The TCP variants and window policies of issue 4 through the public API and the CLI: Vegas,
Vegas-W and FeW, the window limit policies (fixed, hop_based, hop_k, delay_based, fu,
kawadia), TCP pacing, and their result keys (``avg_window_limit``, ``window_distribution``,
``window_limit``).

Every run goes through the shared runner (``run_scenario``), which asserts the simulator's own
invariant checks, packet conservation and the TCP invariants of ``simhelpers.check_tcp_flow``
before a test looks at any number. The algorithms' rules themselves are unit-tested in the
core (``cc/vegas.rs``, ``cc/vegas_w.rs``, ``cc/few.rs``, ``limits.rs``); here we check what a
user sees: bad input is rejected naming the key, each variant runs and reports sane numbers,
each limit policy puts the published limit in force.

Set-up: the studies' chain (200 m spacing, 2 Mbit/s, RTS/CTS, 1460-byte segments), 20 s runs
measured after 2 s (the first ACK, which teaches the sender the path, arrives well before).
Measured on 2026-11-22 (seed 1, 4 hops unless stated), goodput in kbit/s and average cwnd:

* reno 305.6 / 12.2, newreno 326.4 / 16.0, sack 327.0 / 12.5, vegas 321.2 / 3.5,
  vegas_w 323.8 / 2.3, few 325.7 / 7.3; Vegas' window never goes below 2.
* average limit: hop_based 1 (4 hops, N = 8) and 3 (7 hops, N = 14); hop_k 1.6; fu 1 and
  1.75 (7 hops); kawadia 6; delay_based 1.22 (4 hops) and 1.93 (7 hops).
* pacing, seeds 1-3: newreno 326.4 / 319.9 / 327.0 without, 312.1 / 312.1 / 328.3 with;
  vegas 321.2 / 322.5 / 323.8 without, 319.9 / 320.6 / 321.2 with.
"""

from __future__ import annotations

import csv
import json
import math
import statistics

import pytest

import hopsim
from simhelpers import (
    assert_no_traceback,
    chain_scenario,
    mac_section,
    run_cli,
    tcp_flow,
    write_scenario,
)

MSS = 1460
VARIANTS = ("reno", "newreno", "sack", "vegas", "vegas_w", "few")


def chain(
    hops: int,
    tcp: dict | None = None,
    *,
    bytes: int = 0,
    seed: int = 1,
    duration_s: float = 20.0,
    warmup_s: float = 2.0,
) -> dict:
    """One TCP flow end to end over a chain of the studies' set-up."""
    return chain_scenario(
        hops,
        [tcp_flow(0, hops, payload_bytes=MSS, bytes=bytes, tcp=tcp)],
        spacing_m=200.0,
        duration_s=duration_s,
        warmup_s=warmup_s,
        seed=seed,
        mac=mac_section(data_rate_mbps=2.0, rts_threshold_bytes=0),
    )


# The default advertised window (segments), as the core resolves it (its one home).
RECEIVER_WINDOW = hopsim.validate(chain(4))["tcp"]["receiver_window"]


def check_window_keys(f: dict) -> None:
    """The issue-4 keys of one TCP flow are present and consistent with each other."""
    for k in ("avg_window_limit", "window_distribution", "window_limit"):
        assert k in f, f"flow {f['id']}: {k} missing"
    dist = f["window_distribution"]
    assert dist, f
    assert all(x >= 0.0 for x in dist), dist
    assert math.isclose(sum(dist), 1.0, rel_tol=0.0, abs_tol=1e-9), (sum(dist), dist)
    assert dist[-1] > 0.0, f"trailing zero share: {dist}"
    limit = f["avg_window_limit"]
    assert limit is not None and 1.0 <= limit <= RECEIVER_WINDOW + 1e-9, f
    # Index i = floor(min(cwnd, limit)) segments: the mean index lies within one segment
    # below the average (capped) cwnd over the same time.
    mean_index = sum(i * share for i, share in enumerate(dist))
    assert f["avg_cwnd"] - 1.0 < mean_index <= f["avg_cwnd"] + 1e-9, (mean_index, f["avg_cwnd"])
    assert len(dist) - 1 <= RECEIVER_WINDOW, dist


# ------------------------------------------------------------------------------------------
# Every variant on a 4-hop chain
# ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
def test_each_variant_runs_and_reports_its_window(run_scenario, variant):
    res = run_scenario(chain(4, {"variant": variant}))
    f = res.raw["flows"][0]
    assert f["variant"] == variant
    assert f["goodput_kbps"] > 100.0, f  # about 300 kbit/s for every variant (docstring)
    assert f["window_limit"] == "none"
    # Without a CWL the limit in force is the receiver's window.
    assert f["avg_window_limit"] == pytest.approx(RECEIVER_WINDOW, rel=1e-12)
    check_window_keys(f)
    # The Result wrapper exposes the new keys as attributes too.
    flow = res.flows[0]
    assert flow.window_limit == "none" and flow.window_distribution == f["window_distribution"]
    if variant in ("vegas", "vegas_w"):
        # Vegas keeps a few segments in flight where loss-based TCP fills the receiver window.
        assert f["avg_cwnd"] < 6.0, f
    if variant == "vegas":
        # ns-2's minimum window of 2 (and an initial window of 2): never fewer in flight.
        assert f["window_distribution"][0] == 0.0 and f["window_distribution"][1] == 0.0, f


# ------------------------------------------------------------------------------------------
# Window limit policies: the published limit is the one in force
# ------------------------------------------------------------------------------------------

LIMITS = [
    # (policy settings, variant, hops, expected average limit)
    ({"window_limit": "fixed", "max_window": 3.0}, "newreno", 4, 3.0),
    ({"max_window": 2.5}, "newreno", 4, 2.5),  # unset window_limit with max_window: fixed
    # Chen et al. Table 1 for N = 2h round-trip hops: N = 8 -> 1, N = 14 -> 3, N = 4 -> 2.
    ({"window_limit": "hop_based"}, "newreno", 4, 1.0),
    ({"window_limit": "hop_based"}, "newreno", 7, 3.0),
    ({"window_limit": "hop_based"}, "newreno", 2, 2.0),
    # Corollary 1: k N, k = 1/5 by default.
    ({"window_limit": "hop_k"}, "newreno", 4, 0.2 * 8),
    ({"window_limit": "hop_k", "hop_k": 0.125}, "sack", 7, 0.125 * 14),
    # Fu et al.: max(1, h/4) of the forward hops (real-valued, not rounded).
    ({"window_limit": "fu"}, "newreno", 4, 1.0),
    ({"window_limit": "fu"}, "vegas", 7, 7 / 4),
    # Kawadia & Kumar: 1.5 h.
    ({"window_limit": "kawadia"}, "newreno", 4, 6.0),
    ({"window_limit": "kawadia"}, "few", 3, 4.5),
]


@pytest.mark.parametrize(
    ("tcp", "variant", "hops", "expected"),
    LIMITS,
    ids=[f"{t.get('window_limit', 'unset')}-{v}-{h}hops" for t, v, h, _ in LIMITS],
)
def test_limit_policy_puts_the_published_limit_in_force(run_scenario, tcp, variant, hops, expected):
    res = run_scenario(chain(hops, {**tcp, "variant": variant}))
    f = res.raw["flows"][0]
    assert f["window_limit"] == tcp.get("window_limit", "fixed")
    assert f["avg_window_limit"] == pytest.approx(expected, rel=1e-9), f
    check_window_keys(f)
    # The window never exceeds the limit: no share above floor(limit) segments.
    assert len(f["window_distribution"]) - 1 <= math.floor(expected + 1e-9), f
    assert f["avg_cwnd"] <= expected + 1e-9, f
    assert f["goodput_kbps"] > 50.0, f


@pytest.mark.parametrize("hops", [4, 7])
def test_delay_based_limit_is_corollary_2_bounded(run_scenario, hops):
    res = run_scenario(chain(hops, {"window_limit": "delay_based"}))
    f = res.raw["flows"][0]
    assert f["window_limit"] == "delay_based"
    check_window_keys(f)
    # (sum of n + m per-hop delays) / (4 x largest forward delay) <= (n + m) / 4 = N / 4,
    # and never below one segment.
    limit = f["avg_window_limit"]
    assert 1.0 <= limit <= max(1.0, 2 * hops / 4) + 1e-9, limit
    assert f["avg_cwnd"] <= limit + 1e-9, f


def test_resolved_scenario_names_the_policy(hopsim_mod):
    scn = chain(4, {"variant": "vegas_w"})
    scn["flows"].append(tcp_flow(4, 0, tcp={"max_window": 3.0}))
    scn["flows"].append(tcp_flow(4, 0, tcp={"window_limit": "hop_k", "hop_k": 1.0}))
    flows = hopsim_mod.validate(scn)["flows"]
    assert [f["tcp"]["window_limit"] for f in flows] == ["none", "fixed", "hop_k"]
    t = flows[0]["tcp"]
    defaults = {
        "hop_k": 0.2,
        "pacing": False,
        "alpha": 1.0,
        "beta": 3.0,
        "gamma": 1.0,
        "vegas_w_p": 0.125,
        "n_fw": 2,
        "n_s": 10,
        "n_ca": 100,
        "ns_ca": 100,
        "to_ss": 2,
        "few_alpha": 0.01,
    }
    assert {k: t[k] for k in defaults} == defaults


# ------------------------------------------------------------------------------------------
# Pacing
# ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", ["newreno", "vegas"])
def test_pacing_keeps_the_goodput_on_four_hops(run_scenario, variant):
    plain, paced = [], []
    for seed in (1, 2):
        a = run_scenario(chain(4, {"variant": variant}, seed=seed)).raw
        b = run_scenario(chain(4, {"variant": variant, "pacing": True}, seed=seed)).raw
        # Pacing is in effect: its timer adds events (and the run is not the same).
        assert b["engine"]["events"] != a["engine"]["events"]
        check_window_keys(b["flows"][0])
        plain.append(a["flows"][0]["goodput_kbps"])
        paced.append(b["flows"][0]["goodput_kbps"])
    ratio = statistics.mean(paced) / statistics.mean(plain)
    assert 0.85 <= ratio <= 1.15, (plain, paced)


def test_paced_fixed_transfer_completes_intact(run_scenario):
    size = 150 * MSS + 100
    res = run_scenario(chain(4, {"variant": "vegas_w", "pacing": True}, bytes=size))
    f = res.raw["flows"][0]
    # check_tcp_flow asserts that a completed transfer delivered exactly its bytes.
    assert f["transfer_completed_s"] is not None, f
    assert f["bytes_delivered"] == size


# ------------------------------------------------------------------------------------------
# Time series with a Vegas flow
# ------------------------------------------------------------------------------------------


def test_series_with_a_vegas_flow(run_scenario, tmp_path):
    scn = chain(4, {"variant": "vegas"}, duration_s=10.0, warmup_s=1.0)
    scn["flows"].append(tcp_flow(4, 0, tcp={"variant": "few"}))
    res = run_scenario(scn, series_interval_s=0.5)  # check_series runs on the result
    series = res.series
    n_samples = 20  # 0.5, 1.0, ..., 10.0 s
    assert len(series["time_s"]) == 2 * n_samples, len(series["time_s"])
    vegas = [c for c, fl in zip(series["cwnd"], series["flow"], strict=True) if fl == 0]
    assert len(vegas) == n_samples
    assert all(2.0 <= c <= RECEIVER_WINDOW for c in vegas), vegas
    delivered = series["delivered_bytes"]
    assert delivered[-2] > 0 and delivered[-1] > 0, delivered[-2:]
    path = res.write_series(tmp_path / "vegas.csv")
    with path.open(newline="", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    assert len(rows) == 2 * n_samples
    assert float(rows[0]["cwnd"]) == series["cwnd"][0]


# ------------------------------------------------------------------------------------------
# The command line
# ------------------------------------------------------------------------------------------


def test_cli_shows_the_window_limit(tmp_path):
    scn = chain(7, {"variant": "vegas_w", "window_limit": "hop_based"}, duration_s=10.0)
    scn["flows"].append(tcp_flow(7, 0, tcp={"variant": "vegas"}))
    path = write_scenario(tmp_path / "limit.toml", scn)
    proc = run_cli("run", str(path))
    assert proc.returncode == 0, proc.stderr
    assert_no_traceback(proc)
    text = proc.stdout
    for needle in ("vegas_w", "vegas", "CWL", "hop_based", "3.0"):
        assert needle in text, (needle, text)
    assert "…" not in text, text
    assert max(len(line) for line in text.splitlines()) <= 80, text
    # Without a limit policy the table keeps its columns.
    plain = write_scenario(tmp_path / "plain.toml", chain(4, {"variant": "few"}, duration_s=5.0))
    proc = run_cli("run", str(plain))
    assert proc.returncode == 0 and "CWL" not in proc.stdout, proc.stdout
    # --json carries the keys.
    proc = run_cli("run", str(path), "--json", "--set", "flows.0.tcp.window_limit=fu")
    assert proc.returncode == 0, proc.stderr
    f = json.loads(proc.stdout)["flows"][0]
    assert f["window_limit"] == "fu" and f["avg_window_limit"] == pytest.approx(7 / 4)


# ------------------------------------------------------------------------------------------
# Bad input for the new keys: rejected before the run, naming the key
# ------------------------------------------------------------------------------------------


def _flow_tcp(**tcp):
    def mutate(s):
        s["flows"][0]["tcp"] = dict(tcp)

    mutate.__name__ = "_" + "_".join(f"{k}_{v}" for k, v in tcp.items())
    return mutate


def _top_tcp(**tcp):
    def mutate(s):
        s["tcp"] = dict(tcp)

    mutate.__name__ = "_top_" + "_".join(f"{k}_{v}" for k, v in tcp.items())
    return mutate


BAD = [
    (_flow_tcp(variant="vegas-w"), "flows.0.tcp.variant"),
    (_flow_tcp(variant="westwood"), "flows.0.tcp.variant"),
    (_top_tcp(variant="hybla"), "tcp.variant"),
    (_flow_tcp(window_limit="chen"), "flows.0.tcp.window_limit"),
    (_top_tcp(window_limit="hop"), "tcp.window_limit"),
    (_flow_tcp(window_limit="hop_k", hop_k=0.0), "flows.0.tcp.hop_k"),
    (_flow_tcp(hop_k=1.5), "flows.0.tcp.hop_k"),
    (_flow_tcp(hop_k=-0.2), "flows.0.tcp.hop_k"),
    (_top_tcp(hop_k=2.0), "tcp.hop_k"),
    (_flow_tcp(window_limit="fixed"), "flows.0.tcp.max_window"),
    (_flow_tcp(window_limit="fixed", max_window=0.0), "flows.0.tcp.max_window"),
    (_top_tcp(window_limit="fixed"), "tcp.max_window"),
    (_flow_tcp(pacing="yes"), "flows.0.tcp.pacing"),
    (_flow_tcp(variant="vegas_w", n_s=-1), "flows.0.tcp.n_s"),
    (_flow_tcp(variant="vegas_w", n_ca=1.5), "flows.0.tcp.n_ca"),
    (_flow_tcp(variant="vegas", alpha="two"), "flows.0.tcp.alpha"),
    (_flow_tcp(variant="vegas", alpha=-1.0), "flows.0.tcp.alpha"),
    (_flow_tcp(variant="vegas", alpha=2.0, beta=0.5), "flows.0.tcp.beta"),
    (_flow_tcp(variant="vegas", gamma=-3.0), "flows.0.tcp.gamma"),
    (_flow_tcp(variant="vegas_w", vegas_w_p=1.5), "flows.0.tcp.vegas_w_p"),
    (_flow_tcp(variant="vegas_w", vegas_w_p=-1.0), "flows.0.tcp.vegas_w_p"),
    (_flow_tcp(variant="vegas_w", n_fw=0), "flows.0.tcp.n_fw"),
    (_flow_tcp(variant="few", few_alpha=0.0), "flows.0.tcp.few_alpha"),
    (_flow_tcp(variant="few", few_alpha=-0.5), "flows.0.tcp.few_alpha"),
    (_flow_tcp(window_limit="none", max_window=3.0), "flows.0.tcp.max_window"),
]
BAD_IDS = [m.__name__.lstrip("_") for m, _ in BAD]


def bad_base() -> dict:
    return chain(2, duration_s=2.0, warmup_s=0.5)


@pytest.mark.parametrize(("mutate", "key"), BAD, ids=BAD_IDS)
def test_bad_variant_input_is_rejected_by_the_api(hopsim_mod, mutate, key):
    scn = bad_base()
    mutate(scn)
    with pytest.raises(hopsim_mod.ScenarioError) as info:
        hopsim_mod.run(scn)
    assert key in str(info.value), str(info.value)
    with pytest.raises(hopsim_mod.ScenarioError):
        hopsim_mod.validate(scn)


@pytest.mark.parametrize(("mutate", "key"), BAD, ids=BAD_IDS)
def test_bad_variant_input_is_rejected_by_the_cli(tmp_path, mutate, key):
    scn = bad_base()
    mutate(scn)
    path = write_scenario(tmp_path / "bad.toml", scn)
    proc = run_cli("run", str(path))
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert_no_traceback(proc)
    assert key in proc.stderr, proc.stderr
    assert proc.stdout == "", proc.stdout


def test_bad_window_limit_through_set_is_rejected(tmp_path):
    path = write_scenario(tmp_path / "ok.toml", bad_base())
    proc = run_cli("run", str(path), "--set", 'tcp.window_limit="hop_table"')
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert_no_traceback(proc)
    assert "tcp.window_limit" in proc.stderr and "hop_based" in proc.stderr, proc.stderr
