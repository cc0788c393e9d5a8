"""One saturated UDP sender over one 802.11n hop, each MPDU acknowledged alone (no
aggregation), versus the theoretical maximum throughput (the method of
test_theory_tmt_ofdm.py), with the HT timing of dot11ht_timing (IEEE 802.11-2016 clause 19,
10.22.2.2):

    E[cycle] = AIFS[BE] + CWmin / 2 slots + DATA (HT-mixed PPDU) + d + SIFS + ACK + d

The ACK is a non-HT OFDM frame at the control-response rate of the MCS. Nodes 10 m apart
(about -60 dBm over -94 dBm of noise at 20 MHz): every MCS tried decodes every frame.
"""

from __future__ import annotations

import pytest

import dot11ht_timing as ht
import dot11ofdm_timing as ofdm
from simhelpers import chain_scenario, mac_section, udp_flow

SPACING_M = 10.0
DURATION_S = 5.0
WARMUP_S = 1.0
TOLERANCE = 0.01  # the 1%
UDP_IP_LLC_FCS_BYTES = 8 + 20 + 8 + 4
SPEED_OF_LIGHT_M_S = 299_792_458.0


def tmt_kbps(payload: int, mcs: int, width_mhz: int, short_gi: bool) -> float:
    d = SPACING_M / SPEED_OF_LIGHT_M_S * 1e6
    mpdu = payload + UDP_IP_LLC_FCS_BYTES + ht.QOS_HEADER_BYTES
    ack = ofdm.ppdu_us(ofdm.ACK_BYTES, ht.ack_rate_mbps(mcs))
    cycle = ht.aifs_us() + ht.CW_MIN / 2 * ht.SLOT_US
    cycle += ht.ppdu_us(mpdu, mcs, width_mhz, short_gi) + d + ht.SIFS_US + ack + d
    return 1000.0 * 8 * payload / cycle


def test_ht_model_self_checks():
    # The rates of Tables 19-27 and 19-31 (Mbit/s): 6.5, 65, 72.2, 150, and 4 x 150 = 600.
    assert ht.rate_mbps(0) == 6.5 and ht.rate_mbps(7) == 65.0
    assert round(ht.rate_mbps(7, 20, True), 1) == 72.2
    assert ht.rate_mbps(7, 40, True) == 150.0 and ht.rate_mbps(31, 40, True) == 600.0
    # 1500 octets at MCS 7, 20 MHz: ceil(12022 / 260) = 47 symbols after 36 us: 224 us.
    assert ht.ppdu_us(1500, 7) == 36 + 188
    assert ht.ppdu_us(1500, 7, 20, True) == 36 + 172  # 169.2 -> 172
    assert [ht.ack_rate_mbps(m) for m in range(8)] == [6, 12, 12, 24, 24, 24, 24, 24]
    assert ht.aifs_us() == 43.0


CASES = [
    pytest.param(mcs, width, sgi, antennas, id=f"mcs{mcs}-{width}MHz-{'sgi' if sgi else 'lgi'}")
    for mcs, width, sgi, antennas in [
        (0, 20, False, 1),
        (7, 20, False, 1),
        (7, 20, True, 1),
        (7, 40, True, 1),
        (15, 40, False, 2),
    ]
]


@pytest.mark.parametrize("mcs,width,sgi,antennas", CASES)
def test_single_saturated_ht_sender_matches_tmt(run_scenario, mcs, width, sgi, antennas):
    payload = 1460
    scn = chain_scenario(
        1,
        [udp_flow(0, 1, payload_bytes=payload, interval_s=0.0)],
        spacing_m=SPACING_M,
        duration_s=DURATION_S,
        warmup_s=WARMUP_S,
        mac=mac_section(
            data_rate_mbps=f"mcs{mcs}",
            basic_rate_mbps=6.0,
            rts_threshold_bytes=3000,
            cw_min=15,
            ampdu_max_bytes=0,
        ),
        radio={
            "standard": "80211n",
            "channel_width_mhz": width,
            "guard_interval_ns": 400 if sgi else 800,
            "antennas": antennas,
        },
    )
    raw = run_scenario(scn).raw
    expected = tmt_kbps(payload, mcs, width, sgi)
    got = raw["flows"][0]["goodput_kbps"]
    assert abs(got - expected) <= TOLERANCE * expected, (
        f"goodput {got:.1f} kbit/s vs theoretical maximum {expected:.1f} "
        f"({100 * (got / expected - 1):+.3f}%)"
    )
    tot = raw["totals"]
    assert tot["collisions"] == 0
    assert tot["mac_retries"] == 0


def ampdu_tmt_kbps(payload: int, mcs: int, width_mhz: int, short_gi: bool, max_mpdus: int) -> float:
    """One A-MPDU of as many MPDUs as fit, answered by a BlockAck, per channel access."""
    d = SPACING_M / SPEED_OF_LIGHT_M_S * 1e6
    mpdu = payload + UDP_IP_LLC_FCS_BYTES + ht.QOS_HEADER_BYTES
    n = ht.ampdu_mpdus(mpdu, mcs, width_mhz, short_gi, max_mpdus=max_mpdus)
    ppdu = ht.ppdu_us(ht.ampdu_bytes(n, mpdu), mcs, width_mhz, short_gi)
    ba = ofdm.ppdu_us(ht.BLOCK_ACK_BYTES, ht.ack_rate_mbps(mcs))
    cycle = ht.aifs_us() + ht.CW_MIN / 2 * ht.SLOT_US + ppdu + d + ht.SIFS_US + ba + d
    return 1000.0 * 8 * payload * n / cycle


def test_ampdu_model_self_checks():
    mpdu = 1460 + UDP_IP_LLC_FCS_BYTES + ht.QOS_HEADER_BYTES  # 1526 octets
    assert ht.ampdu_bytes(2, mpdu) == 1532 + 1530
    # MCS 7: aPPDUMaxTime allows 28 (42,894 octets, 5316 us); MCS 0 two; 40 MHz short GI
    # is held by the 65,535 octets: 42.
    assert ht.ampdu_mpdus(mpdu, 7) == 28
    assert ht.ppdu_us(ht.ampdu_bytes(28, mpdu), 7) == 5316.0
    assert ht.ampdu_mpdus(mpdu, 0) == 2
    assert ht.ampdu_mpdus(mpdu, 7, 40, True) == 42


AMPDU_CASES = [
    pytest.param(mcs, width, sgi, n, id=f"mcs{mcs}-{width}MHz-{'sgi' if sgi else 'lgi'}-max{n}")
    for mcs, width, sgi, n in [
        (7, 20, False, 64),
        (7, 20, False, 8),
        (0, 20, False, 64),
        (7, 40, True, 64),
    ]
]


@pytest.mark.parametrize("mcs,width,sgi,max_mpdus", AMPDU_CASES)
def test_single_saturated_ampdu_sender_matches_tmt(run_scenario, mcs, width, sgi, max_mpdus):
    payload = 1460
    scn = chain_scenario(
        1,
        [udp_flow(0, 1, payload_bytes=payload, interval_s=0.0)],
        spacing_m=SPACING_M,
        duration_s=DURATION_S,
        warmup_s=WARMUP_S,
        mac=mac_section(
            data_rate_mbps=f"mcs{mcs}",
            basic_rate_mbps=6.0,
            rts_threshold_bytes=65535,
            cw_min=15,
            ampdu_max_bytes=65535,
            ampdu_max_mpdus=max_mpdus,
        ),
        radio={
            "standard": "80211n",
            "channel_width_mhz": width,
            "guard_interval_ns": 400 if sgi else 800,
        },
    )
    raw = run_scenario(scn).raw
    expected = ampdu_tmt_kbps(payload, mcs, width, sgi, max_mpdus)
    got = raw["flows"][0]["goodput_kbps"]
    assert abs(got - expected) <= TOLERANCE * expected, (
        f"goodput {got:.1f} kbit/s vs theoretical maximum {expected:.1f} "
        f"({100 * (got / expected - 1):+.3f}%)"
    )
    tot = raw["totals"]
    mpdu = payload + UDP_IP_LLC_FCS_BYTES + ht.QOS_HEADER_BYTES
    n = ht.ampdu_mpdus(mpdu, mcs, width, sgi, max_mpdus=max_mpdus)
    assert abs(tot["mean_ampdu_mpdus"] - n) < 0.05, tot["mean_ampdu_mpdus"]
    assert tot["mpdus_failed"] == 0
    assert tot["ampdus_sent"] - tot["block_acks_received"] <= 1, "the last may be on the air"
