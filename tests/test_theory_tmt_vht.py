"""One saturated UDP sender over one 802.11ac hop versus the theoretical maximum throughput
(the method of test_theory_tmt_ofdm.py), with the VHT timing of dot11vht_timing (IEEE
802.11-2016 clause 21) and the QoS timing of dot11ht_timing (AIFS[BE], 26-octet QoS Data):

    E[cycle] = AIFS[BE] + CWmin / 2 slots + DATA (VHT PPDU) + d + SIFS + ACK/BlockAck + d

Each MPDU acknowledged alone travels as an S-MPDU (4-octet delimiter); an A-MPDU holds as
many MPDUs as the limits allow. Nodes 2 m apart (about -40 dBm over -85 dBm of noise at
160 MHz): every MCS tried decodes every frame.
"""

from __future__ import annotations

import pytest

import dot11ht_timing as ht
import dot11ofdm_timing as ofdm
import dot11vht_timing as vht
from simhelpers import chain_scenario, mac_section, udp_flow

SPACING_M = 2.0
DURATION_S = 3.0
WARMUP_S = 0.5
TOLERANCE = 0.01  # the 1%
UDP_IP_LLC_FCS_BYTES = 8 + 20 + 8 + 4
SPEED_OF_LIGHT_M_S = 299_792_458.0
PAYLOAD = 1460
MPDU = PAYLOAD + UDP_IP_LLC_FCS_BYTES + ht.QOS_HEADER_BYTES


def cycle_us(ppdu: float, response_bytes: int, mcs: int) -> float:
    d = SPACING_M / SPEED_OF_LIGHT_M_S * 1e6
    response = ofdm.ppdu_us(response_bytes, vht.ack_rate_mbps(mcs))
    return ht.aifs_us() + ht.CW_MIN / 2 * ht.SLOT_US + ppdu + d + ht.SIFS_US + response + d


def ampdu_mpdus(mcs: int, width: int, nss: int, sgi: bool, max_bytes: int, max_mpdus: int) -> int:
    n = 1
    while n < max_mpdus:
        b = ht.ampdu_bytes(n + 1, MPDU)
        if b > max_bytes or vht.ppdu_us(b, mcs, width, nss, sgi) > ht.PPDU_MAX_US:
            break
        n += 1
    return n


def test_vht_model_self_checks():
    # Tables 21-30..21-61 (Mbit/s): 80 MHz MCS 8 351, MCS 9 short GI 433.3; 160 MHz four
    # streams MCS 9 short GI 3466.7; 20 MHz three streams MCS 9 260 x 3 x 5/6 ... = 288.9 SGI.
    assert vht.rate_mbps(8, 80, 1) == 351.0
    assert round(vht.rate_mbps(9, 80, 1, True), 1) == 433.3
    assert round(vht.rate_mbps(9, 160, 4, True), 1) == 3466.7
    assert round(vht.rate_mbps(9, 20, 3, True), 1) == 288.9
    assert not vht.valid(9, 20, 1) and vht.valid(9, 20, 3) and not vht.valid(6, 80, 3)
    assert vht.n_es(9, 80, 2) == 2 and vht.n_es(9, 160, 1) == 2 and vht.n_es(7, 160, 4) == 6
    # 1500 octets at MCS 9, 80 MHz: ceil(12022 / 1560) = 8 symbols after 40 us: 72 us.
    assert vht.ppdu_us(1500, 9, 80, 1) == 72.0
    assert [vht.ack_rate_mbps(m) for m in range(10)] == [6, 12, 12, 24, 24, 24, 24, 24, 24, 24]


SINGLE = [
    pytest.param(mcs, width, nss, sgi, id=f"mcs{mcs}-{width}MHz-{nss}ss-{'sgi' if sgi else 'lgi'}")
    for mcs, width, nss, sgi in [
        (8, 80, 1, False),
        (9, 80, 1, True),
        (9, 20, 3, False),
        (7, 160, 4, True),
        (0, 40, 1, False),
    ]
]


def scenario(mcs: int, width: int, nss: int, sgi: bool, **mac: object) -> dict:
    return chain_scenario(
        1,
        [udp_flow(0, 1, payload_bytes=PAYLOAD, interval_s=0.0)],
        spacing_m=SPACING_M,
        duration_s=DURATION_S,
        warmup_s=WARMUP_S,
        mac=mac_section(data_rate_mbps=f"mcs{mcs}", basic_rate_mbps=6.0, cw_min=15, **mac),
        radio={
            "standard": "80211ac",
            "channel_width_mhz": width,
            "guard_interval_ns": 400 if sgi else 800,
            "antennas": nss,
            "spatial_streams": nss,
        },
    )


@pytest.mark.parametrize("mcs,width,nss,sgi", SINGLE)
def test_single_saturated_vht_sender_matches_tmt(run_scenario, mcs, width, nss, sgi):
    raw = run_scenario(
        scenario(mcs, width, nss, sgi, rts_threshold_bytes=3000, ampdu_max_bytes=0)
    ).raw
    ppdu = vht.ppdu_us(MPDU + vht.S_MPDU_DELIMITER_BYTES, mcs, width, nss, sgi)
    expected = 1000.0 * 8 * PAYLOAD / cycle_us(ppdu, ofdm.ACK_BYTES, mcs)
    got = raw["flows"][0]["goodput_kbps"]
    assert abs(got - expected) <= TOLERANCE * expected, (
        f"goodput {got:.1f} kbit/s vs theoretical maximum {expected:.1f} "
        f"({100 * (got / expected - 1):+.3f}%)"
    )
    assert raw["totals"]["mac_retries"] == 0


AGGREGATED = [
    pytest.param(mcs, width, nss, sgi, max_bytes, id=f"mcs{mcs}-{width}MHz-{nss}ss-{max_bytes}B")
    for mcs, width, nss, sgi, max_bytes in [
        (8, 80, 1, False, 65535),  # held by 65,535 octets: 42 MPDUs
        (8, 80, 1, False, 1048575),  # VHT's larger limit: the Block Ack's 64
        (0, 20, 1, False, 65535),  # held by aPPDUMaxTime: 2
        (9, 160, 2, True, 1048575),
    ]
]


@pytest.mark.parametrize("mcs,width,nss,sgi,max_bytes", AGGREGATED)
def test_single_saturated_vht_ampdu_sender_matches_tmt(
    run_scenario, mcs, width, nss, sgi, max_bytes
):
    raw = run_scenario(
        # A queue deeper than the 64 MPDUs an A-MPDU may take (50 would hold it at 51).
        scenario(
            mcs,
            width,
            nss,
            sgi,
            rts_threshold_bytes=1048575,
            ampdu_max_bytes=max_bytes,
            queue_packets=128,
        )
    ).raw
    n = ampdu_mpdus(mcs, width, nss, sgi, max_bytes, 64)
    ppdu = vht.ppdu_us(ht.ampdu_bytes(n, MPDU), mcs, width, nss, sgi)
    expected = 1000.0 * 8 * PAYLOAD * n / cycle_us(ppdu, ht.BLOCK_ACK_BYTES, mcs)
    got = raw["flows"][0]["goodput_kbps"]
    assert abs(got - expected) <= TOLERANCE * expected, (
        f"goodput {got:.1f} kbit/s vs theoretical maximum {expected:.1f} "
        f"({100 * (got / expected - 1):+.3f}%), {n} MPDUs expected"
    )
    tot = raw["totals"]
    assert abs(tot["mean_ampdu_mpdus"] - n) < 0.05, (tot["mean_ampdu_mpdus"], n)
    assert tot["mpdus_failed"] == 0


@pytest.mark.parametrize(
    "mcs,width,nss,key",
    [
        (9, 20, 1, "mac.data_rate_mbps"),  # not in Table 21-30
        (6, 80, 3, "mac.data_rate_mbps"),  # not in Table 21-48
        (10, 80, 1, "mac.data_rate_mbps"),
        (0, 30, 1, "radio.channel_width_mhz"),
    ],
)
def test_invalid_vht_combinations_are_refused_by_key(hopsim_mod, mcs, width, nss, key):
    with pytest.raises(hopsim_mod.ScenarioError) as err:
        hopsim_mod.validate(scenario(mcs, width, nss, False))
    assert key in str(err.value), str(err.value)


def test_spatial_streams_are_an_80211ac_key(hopsim_mod):
    bad = scenario(0, 20, 2, False)
    bad["radio"]["antennas"] = 1
    with pytest.raises(hopsim_mod.ScenarioError, match="radio.spatial_streams"):
        hopsim_mod.validate(bad)
    bad["radio"].update(standard="80211n", antennas=2)
    with pytest.raises(hopsim_mod.ScenarioError, match="radio.spatial_streams"):
        hopsim_mod.validate(bad)
