"""TCP over 802.11 (issue 3, "How it must be shown"): loss recovery, the chain phenomena of the
multihop TCP studies, delayed ACK and ACK thinning, and bad TCP input (time series are in
test_tcp_series.py).

Every run goes through the shared runner (``run_scenario``), which asserts the simulator's own
invariant checks (no violations: among them, every byte handed to the application exactly once
and in order), packet conservation per flow and the TCP invariants of
``simhelpers.check_tcp_flow`` before a test looks at any number.

The set-up is the studies' one: chain with 200 m spacing (decode range 250 m, carrier sense
550 m), 802.11 DCF at 2 Mbit/s with RTS/CTS, 1460-byte segments, a 100 s run measured after a
10 s warm-up. One such run of a 7-hop chain takes well under 0.1 s, so the phenomenon tests
average over several seeds at little cost.

Measured on 2026-11-22 (seeds 1-3 unless stated), the numbers behind the assertions:

* (a) NewReno goodput vs hops: 1265, 633, 324, 226 kbit/s for 1, 2, 4, 8 hops; 212 for 16
  (-6% from 8 to 16).
* (b) 7-hop chain: unlimited window 232.0 kbit/s (average cwnd 9.7 segments); CWL 2: 243.0
  (+4.7%), CWL 3: 250.5 (+8.0%). Over seeds 1-10 every CWL-2 or CWL-3 run beat every
  unlimited run (unlimited 229.8-234.0, CWL 2 242.2-243.7).
* (c) 7-hop chain: ACKs sent 1975-1988 without thinning, 910-924 with it (ratio 0.46; 0.39
  ACKs per delivered segment instead of 1.0), goodput 231 -> 276 kbit/s.
* Delayed ACK, one hop: 0.50 ACKs per delivered segment (1183 for 2366 segments).
* Loss, one hop, 500 segments, sum of retransmissions over seeds 1-5 at frame error rates
  0 / 0.05 / 0.1 / 0.2: Reno 0 / 9 / 17 / 106, NewReno 0 / 10 / 22 / 100, SACK 0 / 9 / 20 / 111.
* Timeouts, one hop, 500 segments, seeds 1-20: at frame error rate 0.1 Reno 19, NewReno 5,
  SACK 1; at 0.2 Reno 152, NewReno 81, SACK 68.
"""

from __future__ import annotations

import statistics
from pathlib import Path

import pytest

from simhelpers import (
    assert_no_traceback,
    chain_scenario,
    mac_section,
    run_cli,
    tcp_flow,
    udp_flow,
    write_scenario,
)

REPO = Path(__file__).resolve().parents[1]
SPACING_M = 200.0
MSS = 1460
VARIANTS = ("reno", "newreno", "sack")
SEEDS = (1, 2, 3)


def tcp_chain(
    hops: int,
    *,
    tcp: dict | None = None,
    bytes: int = 0,
    seed: int = 1,
    duration_s: float = 100.0,
    warmup_s: float = 10.0,
    mac: dict | None = None,
    radio: dict | None = None,
) -> dict:
    """One TCP flow end to end over a chain, the studies' set-up (RTS/CTS, 2 Mbit/s)."""
    return chain_scenario(
        hops,
        [tcp_flow(0, hops, payload_bytes=MSS, bytes=bytes, tcp=tcp)],
        spacing_m=SPACING_M,
        duration_s=duration_s,
        warmup_s=warmup_s,
        seed=seed,
        mac=mac if mac is not None else mac_section(data_rate_mbps=2.0, rts_threshold_bytes=0),
        radio=radio,
    )


def flow0(run_scenario, scenario: dict):
    res = run_scenario(scenario)
    assert res.flows[0].transport == "tcp"
    return res.flows[0]


def mean_over_seeds(run_scenario, key: str, hops: int, **kw) -> float:
    return statistics.mean(flow0(run_scenario, tcp_chain(hops, seed=s, **kw))[key] for s in SEEDS)


# ------------------------------------------------------------------------------------------
# Loss: a fixed-size transfer over one lossy hop
# ------------------------------------------------------------------------------------------

FRAME_ERROR_RATES = (0.0, 0.05, 0.1, 0.2)
LOSS_SEEDS = (1, 2, 3, 4, 5)
TRANSFER_SEGMENTS = 500


def lossy_hop(variant: str, frame_error_rate: float, seed: int, hops: int = 1) -> dict:
    """A fixed-size transfer with injected frame errors that reach TCP.

    With the default retry limits (up to 7 RTS and 4 DATA attempts) the MAC repairs almost
    every injected error: a 200-segment transfer over one hop at p = 0.2 retransmitted 0 or 1
    segments (seeds 1-3), so TCP would hardly see these loss rates. Basic access (no RTS/CTS)
    with two attempts per frame makes a segment's loss on the hop about p^2: 0.25%, 1% and 4%
    at p = 0.05, 0.1 and 0.2, plus lost TCP ACKs. (With a single attempt the segment loss at
    p = 0.2 is about 36% counting lost ACKs; TCP then backs its timer off to tens of seconds
    and a 200-segment transfer did not finish in 300 s: TCP's behaviour, not a test of it.)
    """
    return tcp_chain(
        hops,
        tcp={"variant": variant},
        bytes=TRANSFER_SEGMENTS * MSS,
        seed=seed,
        duration_s=300.0,
        warmup_s=0.0,
        mac=mac_section(
            data_rate_mbps=2.0, rts_threshold_bytes=3000, short_retry_limit=2, long_retry_limit=2
        ),
        radio={"frame_error_rate": frame_error_rate},
    )


@pytest.mark.parametrize("variant", VARIANTS)
def test_fixed_transfer_completes_intact_and_retransmissions_grow_with_loss(run_scenario, variant):
    size = TRANSFER_SEGMENTS * MSS
    retx = {p: [] for p in FRAME_ERROR_RATES}
    mac_drops = {p: [] for p in FRAME_ERROR_RATES}
    frame_errors = {p: 0 for p in FRAME_ERROR_RATES}
    for p in FRAME_ERROR_RATES:
        for seed in LOSS_SEEDS:
            res = run_scenario(lossy_hop(variant, p, seed))
            f = res.flows[0]
            assert f.variant == variant
            assert f.bytes_delivered == size, f"{variant} p={p} seed {seed}: {f}"
            assert f.transfer_completed_s is not None, f"{variant} p={p} seed {seed}: {f}"
            retx[p].append(f.retransmissions)
            mac_drops[p].append(res.totals.retry_limit_drops)
            frame_errors[p] += res.totals.frame_errors
    table = "\n".join(
        f"  p = {p}: retransmissions per seed {retx[p]}, MAC drops {mac_drops[p]}" for p in retx
    )

    # The injected errors themselves grow with the rate (and are zero without it).
    counts = [frame_errors[p] for p in FRAME_ERROR_RATES]
    assert counts[0] == 0 and counts == sorted(counts) and len(set(counts)) == 4, counts

    # Without injected errors TCP loses only what the MAC drops: the DATA frames and the TCP
    # ACKs contend from the two ends of the hop, and two collisions in a row (Bianchi's p is
    # about 6% per attempt, models.md section 3) exhaust the two attempts. Each retransmission
    # repairs such a drop (a lost TCP ACK needs none); at p = 0.2 every seed retransmits.
    assert all(r <= d for r, d in zip(retx[0.0], mac_drops[0.0], strict=True)), table
    assert all(r > 0 for r in retx[0.2]), table
    # Monotone growth. One run is a single sample path, and two runs at different rates are
    # not coupled (the paths diverge at the first differing loss), so a single seed may
    # retransmit less at 0.1 than at 0.05 (Reno, seed 1: 2 vs 1). The sum over five seeds
    # averages that out: expected retransmissions rise steeply with p (about p^2 per segment
    # here), and the measured sums rise by a factor of two or more at every step.
    sums = [sum(retx[p]) for p in FRAME_ERROR_RATES]
    assert all(a < b for a, b in zip(sums, sums[1:], strict=False)), f"sums {sums}\n{table}"


def test_reno_times_out_more_than_newreno_and_sack_under_loss(run_scenario):
    """Several losses in one window: Reno leaves fast recovery at the first new ACK and
    usually needs a timeout for the next loss, NewReno retransmits at each partial ACK and
    SACK knows what was lost (Fall & Floyd, CCR 1996). Summed over 20 seeds of the lossy hop."""
    seeds = range(1, 21)
    for p in (0.1, 0.2):
        timeouts = {
            v: sum(run_scenario(lossy_hop(v, p, s)).flows[0].timeouts for s in seeds)
            for v in VARIANTS
        }
        assert timeouts["reno"] > timeouts["newreno"], (p, timeouts)
        assert timeouts["reno"] > timeouts["sack"], (p, timeouts)


@pytest.mark.parametrize("variant", VARIANTS)
def test_transfers_complete_over_a_lossy_chain(run_scenario, variant):
    """Injected loss on every hop of a 3-hop chain, with hidden terminals on top of it."""
    for seed in SEEDS:
        res = run_scenario(lossy_hop(variant, 0.1, seed, hops=3))
        f = res.flows[0]
        assert f.bytes_delivered == TRANSFER_SEGMENTS * MSS, f
        assert f.transfer_completed_s is not None, f
        assert res.totals.frame_errors > 0


# ------------------------------------------------------------------------------------------
# Phenomena on the chain
# ------------------------------------------------------------------------------------------


@pytest.mark.slow
def test_a_newreno_goodput_falls_with_hops_then_levels_off(run_scenario):
    """(a) Goodput falls from 1 to 8 hops and changes little from 8 to 16.

    Up to about 4 hops each added hop adds a transmitter that competes for the same channel
    (nodes two hops apart sense each other), so goodput falls roughly as 1/h at first. From
    about 4 hops on, the chain's capacity is set by the interference span (3-4 consecutive
    links share the channel), which does not grow with the chain: what is left of the
    decline is the longer RTT and the hidden-terminal losses of more relays. "Little" is
    taken as within 20%: well below the drops before 8 hops (-50% from 1 to 2, -30% from 4
    to 8) and well above the -6% measured.
    """
    g = {h: mean_over_seeds(run_scenario, "goodput_kbps", h) for h in (1, 2, 4, 8, 16)}
    text = ", ".join(f"{h} hops {v:.1f}" for h, v in g.items())
    assert g[1] > g[2] > g[4] > g[8] > 0, text
    change_8_16 = abs(g[16] / g[8] - 1.0)
    assert change_8_16 < 0.20, f"8 -> 16 hops changed by {change_8_16:.0%}: {text}"
    assert change_8_16 < 1.0 - g[8] / g[4], f"the decline does not slow down: {text}"


@pytest.mark.slow
def test_b_small_window_limit_beats_unlimited_window_on_7_hops(run_scenario):
    """(b) A CWL of 2-3 segments gives more goodput than an unlimited window on 7 hops, and the
    unlimited window overshoots: its time average is far above h/4 segments, the optimal
    window of an h-hop chain the issue cites from Fu et al. (INFOCOM 2003; one segment in flight
    per four hops, the spatial-reuse factor 4 of TCP-AP)."""
    # Over AODV, as the ns-2 studies ran it: a dropped frame also breaks the route. With
    # static routes hopsim's unlimited window carries about as much as CWL 2 (238 against 224
    # kbit/s; CWL 3: 243); ns-2.35 over AODV gives 108 unlimited, 216 and 230 at CWL 2 and 3
    # (crosscheck, 6 x 100 s).
    hops = 7

    def mean(key: str, **kw: dict) -> float:
        runs = []
        for s in SEEDS:
            scenario = tcp_chain(hops, seed=s, **kw)
            scenario["routing"] = {"protocol": "aodv"}
            runs.append(flow0(run_scenario, scenario)[key])
        return statistics.mean(runs)

    unlimited = mean("goodput_kbps")
    cwnd = mean("avg_cwnd")
    limited = {cwl: mean("goodput_kbps", tcp={"max_window": cwl}) for cwl in (2.0, 3.0)}
    text = f"unlimited {unlimited:.1f} kbit/s (avg cwnd {cwnd:.2f}), " + ", ".join(
        f"CWL {c:g}: {g:.1f}" for c, g in limited.items()
    )
    for cwl, g in limited.items():
        assert g > 1.02 * unlimited, f"CWL {cwl:g} does not beat the unlimited window: {text}"
    assert cwnd > 2 * hops / 4, text


@pytest.mark.slow
def test_c_ack_thinning_at_least_halves_the_acks_on_7_hops(run_scenario):
    """(c) Dynamic delayed ACK (every segment up to 8, then every 4th, 100 ms timer)."""
    plain, thin = [], []
    for seed in SEEDS:
        plain.append(flow0(run_scenario, tcp_chain(7, seed=seed)))
        thin.append(flow0(run_scenario, tcp_chain(7, seed=seed, tcp={"ack_thinning": True})))
    acks_plain = sum(f.acks_sent for f in plain)
    acks_thin = sum(f.acks_sent for f in thin)
    text = (
        f"ACKs without thinning {[f.acks_sent for f in plain]}, with {[f.acks_sent for f in thin]}"
    )
    assert acks_thin <= 0.5 * acks_plain, text

    # Per delivered segment, which does not depend on how much got through.
    def per_segment(fs):
        return sum(f.acks_sent for f in fs) / sum(f.bytes_delivered / MSS for f in fs)

    assert per_segment(plain) == pytest.approx(1.0, abs=0.02), text
    assert per_segment(thin) <= 0.5, text
    # Fewer ACKs contend with the data: goodput rises (231 -> 276 kbit/s measured).
    assert statistics.mean(f.goodput_kbps for f in thin) > statistics.mean(
        f.goodput_kbps for f in plain
    ), text


def test_delayed_ack_halves_the_acks_on_one_hop(run_scenario):
    plain = flow0(run_scenario, tcp_chain(1, duration_s=20.0, warmup_s=1.0))
    delayed = flow0(
        run_scenario, tcp_chain(1, duration_s=20.0, warmup_s=1.0, tcp={"delayed_ack": True})
    )
    segs_plain = plain.bytes_delivered / MSS
    segs_delayed = delayed.bytes_delivered / MSS
    assert plain.acks_sent == pytest.approx(segs_plain, rel=0.01), plain
    assert delayed.acks_sent / segs_delayed == pytest.approx(0.5, abs=0.03), delayed


def test_window_limit_and_receiver_window_cap_the_window(run_scenario):
    cwl = flow0(run_scenario, tcp_chain(4, duration_s=30.0, tcp={"max_window": 2.5}))
    assert cwl.avg_cwnd == pytest.approx(2.5, abs=0.05), cwl
    rwnd = flow0(run_scenario, tcp_chain(1, duration_s=30.0, tcp={"receiver_window": 4}))
    assert rwnd.avg_cwnd == pytest.approx(4.0, abs=0.05), rwnd


def test_flow_tcp_table_overrides_the_top_level_one_key_by_key(run_scenario):
    scn = chain_scenario(
        2,
        [tcp_flow(0, 2, tcp={"variant": "reno"}), tcp_flow(2, 0)],
        duration_s=5.0,
        warmup_s=1.0,
    )
    scn["tcp"] = {"variant": "sack", "max_window": 3.0}
    res = run_scenario(scn)
    a, b = res.flows
    assert (a.variant, b.variant) == ("reno", "sack")
    resolved = res.scenario["flows"]
    assert resolved[0]["tcp"]["max_window"] == 3.0 and resolved[1]["tcp"]["max_window"] == 3.0
    assert a.goodput_kbps > 0 and b.goodput_kbps > 0


def test_same_seed_same_tcp_result(run_scenario):
    scn = tcp_chain(4, duration_s=20.0, tcp={"variant": "sack"})
    a, b = run_scenario(scn).raw, run_scenario(scn).raw
    assert a["flows"] == b["flows"] and a["totals"] == b["totals"]


# ------------------------------------------------------------------------------------------
# The command line
# ------------------------------------------------------------------------------------------


def test_cli_table_shows_the_tcp_details(tmp_path):
    scn = tcp_chain(3, duration_s=10.0, warmup_s=1.0, tcp={"variant": "sack"})
    scn["flows"].append(udp_flow(3, 0, interval_s=0.2))
    path = write_scenario(tmp_path / "tcp.toml", scn)
    proc = run_cli("run", str(path))
    assert proc.returncode == 0, proc.stderr
    assert_no_traceback(proc)
    text = proc.stdout
    for needle in ("variant", "retx", "outs", "cwnd", "RTT ms", "p50", "sack", "tcp", "udp"):
        assert needle in text, (needle, text)
    # Readable at a glance: no cell cut short, nothing wider than an 80-column terminal.
    assert "…" not in text, text
    assert max(len(line) for line in text.splitlines()) <= 80, text


def test_example_scenario_prints_a_clean_table():
    proc = run_cli("run", str(REPO / "scenarios" / "chain-tcp.toml"))
    assert proc.returncode == 0, proc.stderr
    assert_no_traceback(proc)
    assert proc.stderr == "", proc.stderr  # no invariant warning
    assert "newreno" in proc.stdout and "…" not in proc.stdout, proc.stdout
    assert max(len(line) for line in proc.stdout.splitlines()) <= 80, proc.stdout


# ------------------------------------------------------------------------------------------
# Bad TCP input: rejected before the run, naming the key (API: ScenarioError; CLI: exit 2)
# ------------------------------------------------------------------------------------------


def _bad_variant(s):
    s["flows"][0]["tcp"] = {"variant": "no_such_tcp"}


def _bad_top_level_variant(s):
    s["tcp"] = {"variant": "tahoe-2000"}


def _negative_max_window(s):
    s["flows"][0]["tcp"] = {"max_window": -1.0}


def _tcp_table_on_udp_flow(s):
    s["flows"][0] = udp_flow(0, 2, interval_s=0.1, tcp={"variant": "sack"})


def _interval_on_tcp_flow(s):
    s["flows"][0]["interval_s"] = 0.05


def _thresholds_not_increasing(s):
    s["flows"][0]["tcp"] = {"ack_thinning": True, "ack_thinning_thresholds": [8, 4, 2]}


def _unknown_tcp_key(s):
    s["flows"][0]["tcp"] = {"window_size": 8}


def _frame_error_rate_one(s):
    s["radio"] = {"frame_error_rate": 1.0}


def _zero_receiver_window(s):
    s["tcp"] = {"receiver_window": 0}


BAD_TCP = [
    (_bad_variant, "flows.0.tcp.variant"),
    (_bad_top_level_variant, "tcp.variant"),
    (_negative_max_window, "flows.0.tcp.max_window"),
    (_tcp_table_on_udp_flow, "flows.0.tcp"),
    (_interval_on_tcp_flow, "flows.0.interval_s"),
    (_thresholds_not_increasing, "flows.0.tcp.ack_thinning_thresholds"),
    (_unknown_tcp_key, "window_size"),
    (_frame_error_rate_one, "radio.frame_error_rate"),
    (_zero_receiver_window, "tcp.receiver_window"),
]
BAD_IDS = [m.__name__.lstrip("_") for m, _ in BAD_TCP]


def bad_base() -> dict:
    return chain_scenario(2, [tcp_flow(0, 2)], duration_s=2.0, warmup_s=0.5)


@pytest.mark.parametrize(("mutate", "key"), BAD_TCP, ids=BAD_IDS)
def test_bad_tcp_input_is_rejected_by_the_api(hopsim_mod, mutate, key):
    scn = bad_base()
    mutate(scn)
    with pytest.raises(hopsim_mod.ScenarioError) as info:
        hopsim_mod.run(scn)
    assert key in str(info.value), str(info.value)
    with pytest.raises(hopsim_mod.ScenarioError):
        hopsim_mod.validate(scn)


@pytest.mark.parametrize(("mutate", "key"), BAD_TCP, ids=BAD_IDS)
def test_bad_tcp_input_is_rejected_by_the_cli(tmp_path, mutate, key):
    scn = bad_base()
    mutate(scn)
    path = write_scenario(tmp_path / "bad.toml", scn)
    proc = run_cli("run", str(path))
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert_no_traceback(proc)
    assert key in proc.stderr, proc.stderr
    assert proc.stdout == "", proc.stdout
