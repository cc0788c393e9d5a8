"""One saturated UDP sender over one hop versus the 802.11 theoretical maximum throughput.

Model (method of Jun, Peddabachagari, Sichitiu, "Theoretical Maximum Throughput of IEEE
802.11 and its Applications", IEEE NCA 2003): with a single station that always has a frame
to send, no other traffic and no transmission errors there are no collisions and no
retransmissions, so every MSDU takes the same deterministic exchange plus a random backoff.
The station draws a new backoff after every completed exchange (post-backoff, 802.11-1999
9.2.5.2), uniform on {0, ..., CWmin} slots, so the long-run goodput is

    payload bits / E[cycle]

    E[cycle] = DIFS + (CWmin / 2) * slot
               [+ RTS + d + SIFS + CTS + d + SIFS]     (when the MPDU is longer than the RTS
                                                      threshold)
               + DATA + d + SIFS + ACK + d

(renewal-reward: cycles are i.i.d., so the time average equals payload / mean cycle length).
``d`` is the one-hop propagation delay; every response frame can start only when the frame
it answers has fully arrived, and the sender's DIFS starts when the ACK has fully arrived.
The frame durations come from ``dot11b_timing`` (802.11b DSSS, long preamble).

The sampling noise of a run is tiny: the per-cycle standard deviation is that of the backoff
(sqrt(((CWmin+1)^2 - 1) / 12) slots ~ 185 us), so over thousands of cycles the relative error
of the measured mean is ~0.05%, far inside the 1% tolerance.
"""

from __future__ import annotations

import pytest

import dot11b_timing as t
from simhelpers import chain_scenario, mac_section, udp_flow

# ---------------------------------------------------------------------------------------
# The model: small pure functions
# ---------------------------------------------------------------------------------------


def mean_backoff_us(cw_min: int = t.CW_MIN, slot_us: float = t.SLOT_US) -> float:
    """Mean of a backoff drawn uniformly on {0, ..., CWmin} slots (802.11-1999 9.2.4)."""
    return cw_min / 2.0 * slot_us


def exchange_us(
    data_us: float,
    ack_us: float,
    *,
    rts_us: float | None = None,
    cts_us: float | None = None,
    sifs_us: float = t.SIFS_US,
    delay_us: float = 0.0,
) -> float:
    """Medium time of one successful exchange, from the first bit sent to the last bit of
    the ACK at the sender: [RTS + d + SIFS + CTS + d + SIFS] + DATA + d + SIFS + ACK + d."""
    busy = data_us + delay_us + sifs_us + ack_us + delay_us
    if rts_us is not None:
        busy += rts_us + delay_us + sifs_us + cts_us + delay_us + sifs_us
    return busy


def tmt_cycle_us(
    exchange: float, *, difs_us: float = t.DIFS_US, backoff_us: float | None = None
) -> float:
    """Mean time per MSDU: DIFS + mean backoff + the exchange."""
    if backoff_us is None:
        backoff_us = mean_backoff_us()
    return difs_us + backoff_us + exchange


def tmt_goodput_mbps(payload_bytes: int, cycle_us: float) -> float:
    """Payload bits per microsecond = Mbit/s."""
    return 8.0 * payload_bytes / cycle_us


def tmt_udp_80211b_mbps(
    payload_bytes: int,
    data_rate_mbps: float,
    *,
    basic_rate_mbps: float = 1.0,
    rts_threshold_bytes: int = t.RTS_ALWAYS,
    distance_m: float = 0.0,
) -> float:
    """Theoretical maximum UDP goodput of one 802.11b link with the hopsim frame format."""
    mpdu = t.udp_mpdu_bytes(payload_bytes)
    rts = t.uses_rts(mpdu, rts_threshold_bytes)
    ex = exchange_us(
        t.frame_us(mpdu, data_rate_mbps),
        t.ack_us(basic_rate_mbps),
        rts_us=t.rts_us(basic_rate_mbps) if rts else None,
        cts_us=t.cts_us(basic_rate_mbps) if rts else None,
        delay_us=t.propagation_us(distance_m),
    )
    return tmt_goodput_mbps(payload_bytes, tmt_cycle_us(ex))


# ---------------------------------------------------------------------------------------
# Self-checks of the model (no simulator needed)
# ---------------------------------------------------------------------------------------


def test_frame_durations_match_the_standard_arithmetic():
    assert t.PLCP_US == 192.0
    assert t.DIFS_US == 50.0
    assert t.ack_us() == 304.0 and t.cts_us() == 304.0 and t.rts_us() == 352.0
    assert t.eifs_us() == 364.0
    assert t.udp_mpdu_bytes(1460) == 1524
    assert t.frame_us(1524, 2.0) == pytest.approx(6288.0)
    assert t.frame_us(1524, 11.0) == 192.0 + 1109.0  # 1108.36 us rounded up (18.3.4)
    assert t.frame_us(1524, 11.0, ceil_us=False) == pytest.approx(192.0 + 12192.0 / 11.0)
    assert t.frame_us(1524, 5.5) == 192.0 + 2217.0
    assert mean_backoff_us() == 310.0


# ns-2.35 timing (literature.md 1.1, [DERIVED] table): mean backoff 15 slots (ns-2 draws
# 0..CW-1), DATA overhead 30 B MAC header + 4 B FCS, no LLC/SNAP, TCP/IP header 40 B.
NS2_TABLE = [
    # (payload, IP packet bytes, data rate, basic rate, Mb/s without RTS, Mb/s with RTS)
    (1000, 1040, 2.0, 1.0, 1.553, 1.373),
    (1000, 1040, 5.5, 1.0, 3.308, 2.585),
    (1000, 1040, 11.0, 1.0, 4.887, 3.459),
    (1000, 1040, 2.0, 2.0, 1.570, 1.419),
    (1000, 1040, 11.0, 2.0, 5.060, 3.772),
    (1000, 1020, 2.0, 1.0, 1.577, 1.392),
    (1000, 1020, 11.0, 1.0, 4.931, 3.480),
]


@pytest.mark.parametrize("payload,ip_bytes,rate,basic,no_rts,with_rts", NS2_TABLE)
def test_model_reproduces_ns2_timing_table(payload, ip_bytes, rate, basic, no_rts, with_rts):
    """The same functions, fed ns-2.35's constants, give the ns-2 table of literature.md."""
    data = t.frame_us(ip_bytes + 30 + 4, rate, ceil_us=False)  # ns-2 does not round up
    ack = t.frame_us(t.ACK_BYTES, basic, ceil_us=False)
    backoff = 15 * t.SLOT_US
    plain = tmt_cycle_us(exchange_us(data, ack), backoff_us=backoff)
    rts = tmt_cycle_us(
        exchange_us(
            data,
            ack,
            rts_us=t.frame_us(t.RTS_BYTES, basic, ceil_us=False),
            cts_us=t.frame_us(t.CTS_BYTES, basic, ceil_us=False),
        ),
        backoff_us=backoff,
    )
    assert round(tmt_goodput_mbps(payload, plain), 3) == no_rts
    assert round(tmt_goodput_mbps(payload, rts), 3) == with_rts


def test_rts_threshold_semantics():
    mpdu = t.udp_mpdu_bytes(1460)
    assert t.uses_rts(mpdu, t.RTS_ALWAYS)
    assert not t.uses_rts(mpdu, t.RTS_NEVER)
    assert not t.uses_rts(mpdu, mpdu)  # RTS only for MPDUs *longer* than the threshold
    assert t.uses_rts(mpdu, mpdu - 1)


# ---------------------------------------------------------------------------------------
# The simulator against the model
# ---------------------------------------------------------------------------------------

SPACING_M = 200.0
DURATION_S = 60.0
WARMUP_S = 1.0
TOLERANCE = 0.01  # the 1%

CASES = [
    pytest.param(payload, rate, rts, id=f"{payload}B-{rate:g}Mbps-{'rts' if rts else 'basic'}")
    for payload in (1460, 512)
    for rate in t.DATA_RATES_MBPS
    for rts in (False, True)
]


@pytest.mark.parametrize("payload,rate,rts", CASES)
def test_single_saturated_sender_matches_tmt(run_scenario, payload, rate, rts):
    threshold = t.RTS_ALWAYS if rts else t.RTS_NEVER
    scn = chain_scenario(
        1,
        [udp_flow(0, 1, payload_bytes=payload, interval_s=0.0)],
        spacing_m=SPACING_M,
        duration_s=DURATION_S,
        warmup_s=WARMUP_S,
        mac=mac_section(data_rate_mbps=rate, rts_threshold_bytes=threshold),
    )
    raw = run_scenario(scn).raw

    expected_kbps = 1000.0 * tmt_udp_80211b_mbps(
        payload, rate, rts_threshold_bytes=threshold, distance_m=SPACING_M
    )
    got_kbps = raw["flows"][0]["goodput_kbps"]
    assert abs(got_kbps - expected_kbps) <= TOLERANCE * expected_kbps, (
        f"goodput {got_kbps:.2f} kbps vs theoretical maximum {expected_kbps:.2f} kbps "
        f"({100 * (got_kbps / expected_kbps - 1):+.3f}%)"
    )

    # One sender, one receiver: nothing can collide or need a retransmission.
    tot = raw["totals"]
    assert tot["collisions"] == 0
    assert tot["mac_retries"] == 0
    assert tot["retry_limit_drops"] == 0
    assert tot["link_failures"] == 0
    # Every DATA is acknowledged; RTS/CTS exactly when the threshold asks for it.
    assert tot["ack_sent"] == tot["data_sent"] or tot["ack_sent"] == tot["data_sent"] - 1
    if rts:
        assert tot["rts_sent"] >= tot["data_sent"] > 0
        assert tot["rts_sent"] - tot["data_sent"] <= 1  # at most one exchange cut by the end
        assert tot["cts_sent"] in (tot["rts_sent"], tot["rts_sent"] - 1)
    else:
        assert tot["rts_sent"] == 0 and tot["cts_sent"] == 0
    assert raw["nodes"][0]["data_sent"] == tot["data_sent"]  # only the source sends DATA
