"""A-MSDU aggregation (``mac.amsdu_max_bytes``, docs/models.md 20.2) against the standard's
arithmetic: one saturated UDP sender over one 802.11n hop, each channel access carrying one
MPDU whose A-MSDU holds as many MSDUs as the limits allow (IEEE 802.11-2016 9.3.2.2.2:
14-octet subframe headers, padding to 4 octets but after the last), alone (Normal Ack) or in
an A-MPDU (BlockAck):

    E[cycle] = AIFS[BE] + CWmin / 2 slots + PPDU + d + SIFS + ACK or BlockAck + d

and what an A-MSDU must keep: every packet accounted for, bit-identical reruns, the keys
refused by name outside 802.11n/ac or above the standard's lengths.
"""

from __future__ import annotations

import math

import pytest

import dot11ht_timing as ht
import dot11ofdm_timing as ofdm
from simhelpers import chain_scenario, mac_section, tcp_flow, udp_flow

SPACING_M = 10.0
SPEED_OF_LIGHT_M_S = 299_792_458.0
PAYLOAD = 1460
MSDU = PAYLOAD + 8 + 20 + 8  # UDP, IP, LLC/SNAP
SUBFRAME_HEADER = 14
FCS = 4


def amsdu_bytes(n: int) -> int:
    """n MSDUs of MSDU octets: subframes padded to 4 but the last (9.3.2.2.2)."""
    return (n - 1) * 4 * math.ceil((SUBFRAME_HEADER + MSDU) / 4) + SUBFRAME_HEADER + MSDU


def msdus_per_amsdu(max_amsdu: int, mcs: int) -> int:
    """The most MSDUs one MPDU carries within the A-MSDU limit and aPPDUMaxTime."""
    n = 1
    while amsdu_bytes(n + 1) <= max_amsdu:
        mpdu = ht.QOS_HEADER_BYTES + amsdu_bytes(n + 1) + FCS
        if ht.ppdu_us(mpdu, mcs) > ht.PPDU_MAX_US:
            break
        n += 1
    return n


def lone_amsdu_kbps(max_amsdu: int, mcs: int) -> float:
    d = SPACING_M / SPEED_OF_LIGHT_M_S * 1e6
    n = msdus_per_amsdu(max_amsdu, mcs)
    mpdu = ht.QOS_HEADER_BYTES + amsdu_bytes(n) + FCS
    ack = ofdm.ppdu_us(ofdm.ACK_BYTES, ht.ack_rate_mbps(mcs))
    cycle = ht.aifs_us() + ht.CW_MIN / 2 * ht.SLOT_US + ht.ppdu_us(mpdu, mcs)
    cycle += d + ht.SIFS_US + ack + d
    return 1000.0 * 8 * PAYLOAD * n / cycle


def ampdu_of_amsdus_kbps(max_amsdu: int, mcs: int, queue: int) -> tuple[float, int, int]:
    """A-MPDUs of MPDUs of as many MSDUs as fit, within aPPDUMaxTime and the queue."""
    d = SPACING_M / SPEED_OF_LIGHT_M_S * 1e6
    per_mpdu = msdus_per_amsdu(max_amsdu, mcs)
    mpdu = ht.QOS_HEADER_BYTES + amsdu_bytes(per_mpdu) + FCS
    n = ht.ampdu_mpdus(mpdu, mcs, max_mpdus=queue // per_mpdu)
    ppdu = ht.ppdu_us(ht.ampdu_bytes(n, mpdu), mcs)
    ba = ofdm.ppdu_us(ht.BLOCK_ACK_BYTES, ht.ack_rate_mbps(mcs))
    cycle = ht.aifs_us() + ht.CW_MIN / 2 * ht.SLOT_US + ppdu + d + ht.SIFS_US + ba + d
    return 1000.0 * 8 * PAYLOAD * n * per_mpdu / cycle, n, per_mpdu


def test_the_arithmetic_itself():
    # 1,496-octet MSDUs: subframes of 1,510 padded to 1,512.
    assert amsdu_bytes(2) == 1512 + 1510
    # 7,935: five (7,558); 3,839: two; at MCS 0 aPPDUMaxTime holds 7,935 to two (a 3-MSDU
    # MPDU of 4,564 octets lasts 5,660 us).
    assert msdus_per_amsdu(7935, 7) == 5
    assert msdus_per_amsdu(3839, 7) == 2
    assert msdus_per_amsdu(7935, 0) == 2
    # A-MPDU of 2-MSDU MPDUs (3,052 octets) at MCS 7: 14 within 5.484 ms.
    _, n, per = ampdu_of_amsdus_kbps(3839, 7, 50)
    assert (n, per) == (14, 2)


def scenario(mcs: int, amsdu: int, ampdu: int, duration_s: float = 5.0) -> dict:
    return chain_scenario(
        1,
        [udp_flow(0, 1, payload_bytes=PAYLOAD, interval_s=0.0)],
        spacing_m=SPACING_M,
        duration_s=duration_s,
        warmup_s=1.0,
        mac=mac_section(
            data_rate_mbps=f"mcs{mcs}",
            basic_rate_mbps=6.0,
            rts_threshold_bytes=65535,
            cw_min=15,
            ampdu_max_bytes=ampdu,
            amsdu_max_bytes=amsdu,
        ),
        radio={"standard": "80211n"},
    )


@pytest.mark.parametrize("mcs,amsdu", [(7, 7935), (7, 3839), (0, 7935)])
def test_one_a_msdu_per_access_matches_the_arithmetic(run_scenario, mcs, amsdu):
    raw = run_scenario(scenario(mcs, amsdu, 0)).raw
    expected = lone_amsdu_kbps(amsdu, mcs)
    got = raw["flows"][0]["goodput_kbps"]
    assert got == pytest.approx(expected, rel=0.01), f"{100 * (got / expected - 1):+.3f}%"
    t = raw["totals"]
    assert t["mean_amsdu_msdus"] == pytest.approx(msdus_per_amsdu(amsdu, mcs), rel=0.01)
    assert t["collisions"] == 0 and t["mac_retries"] == 0


def test_a_mpdu_of_a_msdus_matches_the_arithmetic(run_scenario):
    raw = run_scenario(scenario(7, 3839, 65535)).raw
    expected, n, per = ampdu_of_amsdus_kbps(3839, 7, 50)
    got = raw["flows"][0]["goodput_kbps"]
    assert got == pytest.approx(expected, rel=0.01), f"{100 * (got / expected - 1):+.3f}%"
    t = raw["totals"]
    assert t["mean_ampdu_mpdus"] == pytest.approx(n, rel=0.02)
    assert t["mean_amsdu_msdus"] == pytest.approx(per, rel=0.01)


def test_in_an_ht_a_mpdu_an_mpdu_stops_at_4095_octets(run_scenario):
    # 7,935 would take five MSDUs; in an A-MPDU the 4,095-octet MPDU takes two (9.7.1).
    raw = run_scenario(scenario(7, 7935, 65535)).raw
    assert raw["totals"]["mean_amsdu_msdus"] == pytest.approx(2.0, rel=0.01)


def test_tcp_over_a_chain_keeps_every_packet_and_reruns_bit_for_bit(run_scenario):
    s = chain_scenario(
        3,
        [tcp_flow(0, 3)],
        spacing_m=30.0,
        duration_s=4.0,
        warmup_s=1.0,
        mac=mac_section(data_rate_mbps="mcs4", basic_rate_mbps=6.0, rts_threshold_bytes=65535),
        radio={"standard": "80211n"},
    )
    for ampdu in (0, 65535):
        s["mac"].update(ampdu_max_bytes=ampdu, amsdu_max_bytes=7935)
        first = run_scenario(s).raw
        assert first["invariants"]["violation_count"] == 0, first["invariants"]
        assert first["totals"]["amsdus"] > 0
        assert first["flows"][0]["goodput_kbps"] > 1000
        assert run_scenario(s).raw == first


@pytest.mark.parametrize(
    "standard,value,allowed",
    [
        ("80211a", 3839, "only 802.11n and 802.11ac aggregate MSDUs"),
        ("80211n", 7936, "0 (no A-MSDUs) to 7935"),
        ("80211ac", 11399, "0 (no A-MSDUs) to 11398"),
    ],
)
def test_lengths_outside_the_standard_are_refused_by_key(hopsim_mod, standard, value, allowed):
    s = scenario(7, 0, 0)
    s["radio"] = {"standard": standard}
    s["mac"] = {"amsdu_max_bytes": value}
    with pytest.raises(hopsim_mod.ScenarioError) as e:
        hopsim_mod.validate(s)
    assert "mac.amsdu_max_bytes" in str(e.value) and allowed in str(e.value), str(e.value)


def test_a_txop_holds_an_a_msdu_with_the_rts_it_brings(run_scenario):
    """A video TXOP of 1,088 us (`[mac.edca.VI] txop_limit_us`), RTS/CTS above 2,000 octets:
    the first exchange (RTS, CTS, an A-MSDU of two MSDUs, ACK) leaves a remainder in which a
    second A-MSDU would fit without its RTS/CTS but not with it, so a lone MPDU goes there
    (no RTS), and the TXOP ends: three MSDUs a cycle,

        AIFS[VI] + CW_VI / 2 slots + (RTS + CTS + A-MSDU + ACK) + SIFS + (MPDU + ACK)

    (ns-3.44's TryAggregateMsdu charges the changed protection to the available time alike)."""
    d = SPACING_M / SPEED_OF_LIGHT_M_S * 1e6
    sifs, mcs, txop = ht.SIFS_US, 7, 1088.0
    ack = ofdm.ppdu_us(ofdm.ACK_BYTES, ht.ack_rate_mbps(mcs))
    rts, cts = ofdm.ppdu_us(ofdm.RTS_BYTES, 6.0), ofdm.ppdu_us(ofdm.CTS_BYTES, 6.0)
    big = ht.ppdu_us(ht.QOS_HEADER_BYTES + amsdu_bytes(2) + FCS, mcs)
    small = ht.ppdu_us(ht.QOS_HEADER_BYTES + MSDU + FCS, mcs)
    first = rts + d + sifs + cts + d + sifs + big + d + sifs + ack + d
    lone = small + d + sifs + ack + d
    left = txop - first - sifs
    assert big + d + sifs + ack + d <= left < first, "the remainder sits between the two"
    assert left - sifs - lone < lone, "and then the TXOP ends"
    cycle = ht.SIFS_US + 2 * ht.SLOT_US + 7 / 2 * ht.SLOT_US + first + sifs + lone
    expected = 1000.0 * 8 * PAYLOAD * 3 / cycle
    s = chain_scenario(
        1,
        [udp_flow(0, 1, payload_bytes=PAYLOAD, interval_s=0.0, access_category="VI")],
        spacing_m=SPACING_M,
        duration_s=5.0,
        warmup_s=1.0,
        mac=mac_section(
            data_rate_mbps=f"mcs{mcs}",
            basic_rate_mbps=6.0,
            rts_threshold_bytes=2000,
            cw_min=15,
            ampdu_max_bytes=0,
            amsdu_max_bytes=3839,
            edca={"VI": {"txop_limit_us": int(txop)}},
        ),
        radio={"standard": "80211n"},
    )
    raw = run_scenario(s).raw
    got = raw["flows"][0]["goodput_kbps"]
    assert got == pytest.approx(expected, rel=0.01), f"{got:.0f} vs {expected:.0f} kbit/s"
    # The goodput alone would not tell: two A-MSDU exchanges a TXOP (the second running
    # past its end) carry the same per microsecond. The frames do: one RTS and one A-MSDU
    # to every two DATA frames.
    t = raw["totals"]
    assert t["data_sent"] == pytest.approx(2 * t["rts_sent"], abs=2), t
    assert t["amsdus"] == pytest.approx(t["rts_sent"], abs=2), t
    assert t["mean_amsdu_msdus"] == pytest.approx(2.0)
