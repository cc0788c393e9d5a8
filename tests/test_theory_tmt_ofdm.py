"""One saturated UDP sender over one 802.11a / 802.11g hop versus the theoretical maximum
throughput (the method of test_theory_tmt.py: Jun, Peddabachagari and Sichitiu, IEEE NCA
2003), with the OFDM timing of dot11ofdm_timing (IEEE 802.11-2016 clauses 17-18).

    E[cycle] = DIFS + CWmin / 2 slots [+ RTS + d + SIFS + CTS + d + SIFS]
               + DATA + d + SIFS + ACK + d

DATA at the data rate; RTS at the basic rate; CTS and ACK at the control-response rate of
the frame they answer (54 -> 24, 6 -> 6). The nodes are 10 m apart: about -60 dBm at the
receiver over -94 dBm of noise, so even 54 Mbit/s (64-QAM 3/4) decodes every frame.
"""

from __future__ import annotations

import math

import pytest

import dot11ofdm_timing as t
from simhelpers import chain_scenario, mac_section, udp_flow

SPACING_M = 10.0
DURATION_S = 10.0
WARMUP_S = 1.0
TOLERANCE = 0.01  # the 1%
UDP_IP_LLC_MAC_BYTES = 8 + 20 + 8 + 24 + 4  # UDP, IP, LLC/SNAP, MAC header, FCS
SPEED_OF_LIGHT_M_S = 299_792_458.0


def tmt_kbps(
    standard: str, payload: int, rate: float, basic: float, rts: bool, distance_m: float
) -> float:
    slot, sifs, cw_min, _ = t.PHY[standard]
    d = distance_m / SPEED_OF_LIGHT_M_S * 1e6
    mpdu = payload + UDP_IP_LLC_MAC_BYTES
    cycle = t.difs_us(standard) + cw_min / 2 * slot
    if rts:
        cts = t.ppdu_us(t.CTS_BYTES, t.response_rate_mbps(basic), standard)
        cycle += t.ppdu_us(t.RTS_BYTES, basic, standard) + d + sifs + cts + d + sifs
    ack = t.ppdu_us(t.ACK_BYTES, t.response_rate_mbps(rate), standard)
    cycle += t.ppdu_us(mpdu, rate, standard) + d + sifs + ack + d
    return 1000.0 * 8 * payload / cycle


def test_ofdm_model_self_checks():
    assert t.ppdu_us(14, 24.0) == 28.0  # ACK at 24: 2 symbols
    assert t.ppdu_us(14, 6.0) == 44.0  # ACK at 6: 6 symbols
    assert t.ppdu_us(1524, 54.0) == 16 + 4 + 4 * 57  # ceil(12214 / 216) = 57
    assert t.ppdu_us(14, 24.0, "80211g") == 34.0
    assert [t.response_rate_mbps(r) for r in t.OFDM_RATES_MBPS] == [6, 6, 12, 12, 24, 24, 24, 24]
    assert t.difs_us("80211a") == 34.0 and t.difs_us("80211g") == 50.0


CASES = [
    pytest.param(std, rate, rts, id=f"{std}-{rate:g}Mbps-{'rts' if rts else 'basic'}")
    for std, rate in [("80211a", 6.0), ("80211a", 24.0), ("80211a", 54.0), ("80211g", 54.0)]
    for rts in (False, True)
]


@pytest.mark.parametrize("standard,rate,rts", CASES)
def test_single_saturated_ofdm_sender_matches_tmt(run_scenario, standard, rate, rts):
    payload = 1460
    threshold = 0 if rts else 3000
    scn = chain_scenario(
        1,
        [udp_flow(0, 1, payload_bytes=payload, interval_s=0.0)],
        spacing_m=SPACING_M,
        duration_s=DURATION_S,
        warmup_s=WARMUP_S,
        mac=mac_section(
            data_rate_mbps=rate,
            basic_rate_mbps=6.0,
            rts_threshold_bytes=threshold,
            cw_min=15,
        ),
        radio={"standard": standard},
    )
    raw = run_scenario(scn).raw
    expected = tmt_kbps(standard, payload, rate, 6.0, rts, SPACING_M)
    got = raw["flows"][0]["goodput_kbps"]
    assert abs(got - expected) <= TOLERANCE * expected, (
        f"goodput {got:.1f} kbit/s vs theoretical maximum {expected:.1f} "
        f"({100 * (got / expected - 1):+.3f}%)"
    )
    tot = raw["totals"]
    assert tot["collisions"] == 0
    assert tot["mac_retries"] == 0
    assert tot["retry_limit_drops"] == 0


def dsss_ppdu_us(psdu_bytes: int, rate_mbps: float) -> float:
    """802.11b long-preamble PPDU: 192 us PLCP + whole microseconds of payload (16.3.4)."""
    return 192.0 + math.ceil(8 * psdu_bytes / rate_mbps)


@pytest.mark.parametrize("protection", ["cts_to_self", "rts_cts"])
@pytest.mark.parametrize("basic", [1.0, 2.0])
def test_erp_protection_adds_its_frames_to_the_cycle(run_scenario, protection, basic):
    # 10.26.2: before each ERP-OFDM frame a CTS to itself (no answer awaited: DATA goes SIFS
    # after it) or an RTS/CTS exchange, at the DSSS basic rate 802.11b stations decode:
    #   CTS-to-self: E[cycle] = DIFS + CW/2 slots + CTS + SIFS + DATA + d + SIFS + ACK + d
    #   RTS/CTS:     ... + RTS + d + SIFS + CTS + d + SIFS + DATA + d + SIFS + ACK + d
    payload, rate, standard = 1460, 54.0, "80211g"
    slot, sifs, cw_min, _ = t.PHY[standard]
    d = SPACING_M / SPEED_OF_LIGHT_M_S * 1e6
    cts = dsss_ppdu_us(t.CTS_BYTES, basic)
    front = (
        cts + sifs
        if protection == "cts_to_self"
        else (dsss_ppdu_us(t.RTS_BYTES, basic) + d + sifs + cts + d + sifs)
    )
    ack = t.ppdu_us(t.ACK_BYTES, t.response_rate_mbps(rate), standard)
    mpdu = payload + UDP_IP_LLC_MAC_BYTES
    cycle = t.difs_us(standard) + cw_min / 2 * slot + front
    cycle += t.ppdu_us(mpdu, rate, standard) + d + sifs + ack + d
    expected = 1000.0 * 8 * payload / cycle
    scn = chain_scenario(
        1,
        [udp_flow(0, 1, payload_bytes=payload, interval_s=0.0)],
        spacing_m=SPACING_M,
        duration_s=DURATION_S,
        warmup_s=WARMUP_S,
        mac=mac_section(
            data_rate_mbps=rate,
            basic_rate_mbps=basic,
            rts_threshold_bytes=3000,
            cw_min=15,
            erp_protection=protection,
        ),
        radio={"standard": standard},
    )
    raw = run_scenario(scn).raw
    got = raw["flows"][0]["goodput_kbps"]
    assert got == pytest.approx(expected, rel=TOLERANCE), f"{got:.0f} vs {expected:.0f} kbit/s"
    sent = raw["totals"]["cts_sent"] if protection == "cts_to_self" else raw["totals"]["rts_sent"]
    assert sent == pytest.approx(raw["totals"]["data_sent"], rel=0.001)


@pytest.mark.parametrize(
    "radio,mac,match",
    [
        ({"standard": "80211g"}, {"basic_rate_mbps": 6.0}, "basic_rate_mbps = 1 or 2"),
        ({"standard": "80211a"}, {"basic_rate_mbps": 6.0}, "ERP protection is 802.11g"),
        ({}, {"basic_rate_mbps": 1.0, "data_rate_mbps": 2.0}, "ERP protection is 802.11g"),
    ],
)
def test_erp_protection_is_refused_where_it_has_no_meaning(hopsim_mod, radio, mac, match):
    scn = chain_scenario(1, [udp_flow(0, 1)], mac={**mac, "erp_protection": "cts_to_self"})
    scn["radio"] = radio
    with pytest.raises(hopsim_mod.ScenarioError, match=r"`mac\.erp_protection`.*" + match):
        hopsim_mod.validate(scn)
