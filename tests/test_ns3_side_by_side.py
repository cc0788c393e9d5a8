"""hopsim's static TCP chain beside ns-3 (the ``ns3`` wheel; docs/validation.md, "Side by side
with ns-3").

The scenario (``hopsim/crosscheck/ns3/chain_tcp.cc``) is built against the wheel's headers and
libraries with g++; where either is missing the ns-3 tests are skipped, saying which (``make
test-tools`` installs both). The translation tests need neither.

The one-hop test compares both simulators with the 802.11 DCF arithmetic of one TCP transfer
over one hop (``dot11b_timing``, written from the standard): every segment costs one RTS/CTS/
DATA/ACK exchange for the data and one for the TCP ACK, each after DIFS and a backoff. The
backoff is bracketed: at most 15.5 idle slots per frame (CW_min / 2: one station contends at a
time) and at least 7.75 (sender and receiver both always backlogged: every idle slot then
counts down both counters, so the idle slots equal each station's own drawn backoff, 15.5 per
frame, shared by the two stations' frames). Collisions (both counters reaching zero together)
and ns-3's MAC ACKs at 2 Mbit/s (its ACK follows the data frame's rate within the basic rate
set, 56 us shorter than hopsim's 1 Mbit/s ACK) move goodput by about 1%; the tolerance is 3%.
"""

from __future__ import annotations

import math

import pytest

import dot11b_timing as t
from hopsim.crosscheck.ns3run import hopsim_refusal, run_hopsim, run_ns3
from hopsim.crosscheck.ns3translate import Ns3Untranslatable, chain_scenario, ns3_arguments

MSS = 1460
TCP_IP_BYTES = t.IP_HEADER_BYTES + t.TCP_HEADER_BYTES
MAC_OVERHEAD = t.MAC_HEADER_BYTES + t.LLC_SNAP_BYTES + t.FCS_BYTES
TOLERANCE = 0.03


@pytest.fixture(scope="module")
def ns3_binary(chain_tcp_binary):
    return chain_tcp_binary


def _exchange_us(mpdu_bytes: int, spacing_m: float) -> float:
    """RTS, CTS, DATA, ACK with their SIFS gaps and propagation delays, plus the DIFS."""
    data = t.frame_us(mpdu_bytes, 2.0)
    return (
        t.DIFS_US
        + t.rts_us()
        + t.SIFS_US
        + t.cts_us()
        + t.SIFS_US
        + data
        + t.SIFS_US
        + t.ack_us()
        + 4 * t.propagation_us(spacing_m)
    )


def one_hop_goodput_kbps(idle_slots_per_frame: float, spacing_m: float = 200.0) -> float:
    per_segment_us = (
        _exchange_us(MSS + TCP_IP_BYTES + MAC_OVERHEAD, spacing_m)
        + _exchange_us(TCP_IP_BYTES + MAC_OVERHEAD, spacing_m)
        + 2 * idle_slots_per_frame * t.SLOT_US
    )
    return MSS * 8 / per_segment_us * 1e3


def test_the_analytic_bracket():
    # 1536-byte DATA: 6336 us at 2 Mbit/s; 76-byte TCP ACK: 496 us; both exchanges 8912 us.
    assert _exchange_us(1536, 0.0) + _exchange_us(76, 0.0) == pytest.approx(8912.0)
    lo, hi = one_hop_goodput_kbps(t.CW_MIN / 2), one_hop_goodput_kbps(t.CW_MIN / 4)
    assert 1200 < lo < hi < 1300


def _resolved(hopsim_mod, hops=1, variant="newreno", **over):
    scenario = chain_scenario(hops, variant, duration_s=20.0, warmup_s=5.0)
    return hopsim_mod.validate(scenario, over or None)


def _args(resolved, run=1):
    return dict(a[2:].split("=", 1) for a in ns3_arguments(resolved, run))


def test_translation_carries_hopsims_settings(hopsim_mod):
    a = _args(_resolved(hopsim_mod, hops=4), run=3)
    assert a["hops"] == "4" and a["run"] == "3" and a["spacingM"] == "200.0"
    assert a["dataMode"] == "DsssRate2Mbps" and a["controlMode"] == "DsssRate1Mbps"
    assert a["rtsThresholdBytes"] == "0" and a["retryLimit"] == "7" and a["queuePackets"] == "50"
    assert a["mssBytes"] == "1460" and a["initialWindow"] == "2" and a["delAckCount"] == "1"
    assert a["receiverWindowBytes"] == str(20 * 1460)
    assert a["variant"] == "newreno" and a["sack"] == "false" and a["recovery"] == "classic"
    # hopsim's ranges: 250 m decode, 550 m carrier sense (docs/models.md 1.2).
    pt, h = 0.28183815, 1.5
    assert (pt * h**4 / float(a["rxThresholdW"])) ** 0.25 == pytest.approx(250.0, rel=1e-3)
    assert (pt * h**4 / float(a["csThresholdW"])) ** 0.25 == pytest.approx(550.0, rel=1e-3)
    b = _args(_resolved(hopsim_mod, variant="cubic", **{"tcp.delayed_ack": True}))
    assert b["sack"] == "true" and b["recovery"] == "prr" and b["delAckCount"] == "2"


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("routing.protocol", "aodv"),
        ("mac.cw_min", 15),
        ("tcp.ack_thinning", True),
        ("radio.fading", "rayleigh"),
        ("tcp.max_rto_s", 2.0),
    ],
)
def test_what_the_scenario_cannot_express_is_refused_by_key(hopsim_mod, key, value):
    with pytest.raises(Ns3Untranslatable) as e:
        ns3_arguments(_resolved(hopsim_mod, **{key: value}), 1)
    assert e.value.key == key


def test_a_variant_hopsim_lacks_is_named():
    assert hopsim_refusal("newreno") is None
    why = hopsim_refusal("hybla")
    assert why is not None and "tcp.variant" in why and "hybla" in why


def _decode_range_m() -> float:
    return (0.28183815 * 1.5**4 / 3.652e-10) ** 0.25


@pytest.mark.parametrize("factor", [0.96, 1.04])
def test_both_decode_up_to_the_same_range(hopsim_mod, ns3_binary, factor):
    spacing = factor * _decode_range_m()
    scenario = chain_scenario(1, "newreno", duration_s=5.0, warmup_s=1.0, spacing_m=spacing)
    if factor < 1:
        resolved = hopsim_mod.validate(scenario)
        n3 = run_ns3(resolved, 1, ns3_binary)["goodput_kbps"]
        hs = run_hopsim(scenario, 1)["goodput_kbps"]
        assert n3 > 1000 and hs > 1000, (n3, hs)
        return
    # hopsim refuses a flow between nodes out of decode range; ns-3 runs it and delivers nothing.
    with pytest.raises(hopsim_mod.ScenarioError, match="decode range"):
        hopsim_mod.validate(scenario)
    resolved = hopsim_mod.validate(chain_scenario(1, "newreno", duration_s=5.0, warmup_s=1.0))
    resolved["topology"]["spacing_m"] = spacing
    assert run_ns3(resolved, 1, ns3_binary)["goodput_kbps"] == 0


def test_one_hop_newreno_goodput_matches_the_dcf_arithmetic_in_both(hopsim_mod, ns3_binary):
    seeds = (1, 2, 3)
    scenario = chain_scenario(1, "newreno", duration_s=30.0, warmup_s=5.0)
    resolved = hopsim_mod.validate(scenario)
    ns3 = [run_ns3(resolved, s, ns3_binary) for s in seeds]
    hop = [run_hopsim(scenario, s) for s in seeds]
    g3 = math.fsum(r["goodput_kbps"] for r in ns3) / len(seeds)
    gh = math.fsum(r["goodput_kbps"] for r in hop) / len(seeds)
    lo = one_hop_goodput_kbps(t.CW_MIN / 2) * (1 - TOLERANCE)
    hi = one_hop_goodput_kbps(t.CW_MIN / 4) * (1 + TOLERANCE)
    assert lo <= g3 <= hi, (lo, g3, hi)
    assert lo <= gh <= hi, (lo, gh, hi)
    assert abs(g3 - gh) <= TOLERANCE * gh, (g3, gh)
    # One hop, no hidden station: neither loses a segment.
    assert all(r["retransmissions"] == 0 for r in ns3 + hop)
    # The window is the receiver's 20 segments: the RTT is 20 segments' service time.
    per_segment_ms = MSS * 8 / g3
    for r in ns3:
        assert r["rtt_ms_mean"] == pytest.approx(20 * per_segment_ms, rel=0.1)
