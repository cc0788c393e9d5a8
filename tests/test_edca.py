"""EDCA (IEEE 802.11-2016 10.22.2) on 802.11n: the flow key, and one saturated sender per
access category against the analytic cycle of a TXOP written from the standard (Table 9-137's
parameters; the HT timing of dot11ht_timing).

A voice TXOP (1.504 ms) carries single MPDUs SIFS apart while each exchange fits:

    E[cycle] = AIFS[VO] + CW_VO / 2 slots + n (DATA + SIFS + ACK) + (n - 1) SIFS

A video TXOP (3.008 ms) carries one A-MPDU held to the limit less SIFS + BlockAck:

    E[cycle] = AIFS[VI] + CW_VI / 2 slots + A-MPDU + SIFS + BlockAck
"""

from __future__ import annotations

import math
import re

import pytest

import dot11ht_timing as ht
import dot11ofdm_timing as ofdm
from simhelpers import chain_scenario, mac_section, tcp_flow, udp_flow

SPACING_M = 10.0
TOLERANCE = 0.01
UDP_IP_LLC_FCS_BYTES = 8 + 20 + 8 + 4
PAYLOAD = 1460
MPDU = PAYLOAD + UDP_IP_LLC_FCS_BYTES + ht.QOS_HEADER_BYTES
D_US = SPACING_M / 299_792_458.0 * 1e6
# Table 9-137 from aCWmin 15 (OFDM/HT PHYs).
AIFSN = {"VO": 2, "VI": 2, "BE": 3, "BK": 7}
CW_MIN = {"VO": 3, "VI": 7, "BE": 15, "BK": 15}
TXOP_US = {"VO": 1504.0, "VI": 3008.0, "BE": 0.0, "BK": 0.0}


def aifs_us(ac: str) -> float:
    return ht.SIFS_US + AIFSN[ac] * ht.SLOT_US


def vo_txop_kbps(mcs: int = 7) -> float:
    ack = ofdm.ppdu_us(ofdm.ACK_BYTES, ht.ack_rate_mbps(mcs))
    exchange = ht.ppdu_us(MPDU, mcs) + d_pair() + ht.SIFS_US + ack
    n = 1 + math.floor((TXOP_US["VO"] - exchange) / (exchange + ht.SIFS_US))
    cycle = aifs_us("VO") + CW_MIN["VO"] / 2 * ht.SLOT_US + n * exchange + (n - 1) * ht.SIFS_US
    return 1000.0 * 8 * PAYLOAD * n / cycle


def d_pair() -> float:
    return 2 * D_US


def vi_txop(mcs: int = 7) -> tuple[int, float]:
    ba = ofdm.ppdu_us(ht.BLOCK_ACK_BYTES, ht.ack_rate_mbps(mcs))
    budget = TXOP_US["VI"] - ht.SIFS_US - ba
    n = 1
    while ht.ppdu_us(ht.ampdu_bytes(n + 1, MPDU), mcs) <= budget:
        n += 1
    ppdu = ht.ppdu_us(ht.ampdu_bytes(n, MPDU), mcs)
    cycle = aifs_us("VI") + CW_MIN["VI"] / 2 * ht.SLOT_US + ppdu + d_pair() + ht.SIFS_US + ba
    return n, 1000.0 * 8 * PAYLOAD * n / cycle


def scenario(ac: str, ampdu: bool) -> dict:
    return chain_scenario(
        1,
        [udp_flow(0, 1, payload_bytes=PAYLOAD, access_category=ac)],
        spacing_m=SPACING_M,
        duration_s=5.0,
        warmup_s=1.0,
        mac=mac_section(
            data_rate_mbps="mcs7",
            basic_rate_mbps=6.0,
            rts_threshold_bytes=65535,
            cw_min=15,
            ampdu_max_bytes=65535 if ampdu else 0,
        ),
        radio={"standard": "80211n"},
    )


def test_model_self_checks():
    # MCS 7, 1,526-octet MPDU: 36 us + 48 symbols = 228 us; ACK at 24 Mbit/s 28 us: five
    # exchanges of 272 us fit 1.504 ms (4 x 288 + 272 = 1424), a sixth does not.
    assert ht.ppdu_us(MPDU, 7) == 228.0
    assert aifs_us("VO") == 34.0 and aifs_us("BE") == 43.0 and aifs_us("BK") == 79.0
    n, _ = vi_txop()
    assert n == 15, "15 subframes (2,868 us) fit 3.008 ms less SIFS and the BlockAck"


def test_a_voice_txop_matches_its_cycle(run_scenario):
    raw = run_scenario(scenario("VO", ampdu=True)).raw
    got, expected = raw["flows"][0]["goodput_kbps"], vo_txop_kbps()
    assert got == pytest.approx(expected, rel=TOLERANCE), f"{got:.0f} vs {expected:.0f} kbit/s"
    assert raw["totals"]["ampdus_sent"] == 0, "voice is never aggregated"


def test_a_video_txop_holds_its_ampdu_to_the_limit(run_scenario):
    raw = run_scenario(scenario("VI", ampdu=True)).raw
    n, expected = vi_txop()
    got = raw["flows"][0]["goodput_kbps"]
    assert got == pytest.approx(expected, rel=TOLERANCE), f"{got:.0f} vs {expected:.0f} kbit/s"
    assert raw["totals"]["mean_ampdu_mpdus"] == pytest.approx(n, abs=0.05)


def test_voice_takes_the_medium_from_best_effort(run_scenario):
    # Two saturated senders in range of each other: with CW 3-7 and AIFS 34 us against 15-1023
    # and 43 us, voice wins nearly every contention (the EDCA literature's starvation of best
    # effort; ns-3.44 alike, docs/validation.md).
    scn = scenario("BE", ampdu=False)
    scn["topology"] = {"kind": "positions", "positions": [[0, 0], [10, 0], [0, 1], [10, 1]]}
    scn["routing"] = {"protocol": "static"}
    scn["flows"] = [
        udp_flow(0, 1, payload_bytes=PAYLOAD),
        udp_flow(2, 3, payload_bytes=PAYLOAD, access_category="VO"),
    ]
    flows = run_scenario(scn).raw["flows"]
    be, vo = flows[0]["goodput_kbps"], flows[1]["goodput_kbps"]
    assert vo > 20 * be > 0, (be, vo)


def test_the_key_is_refused_where_there_is_no_edca(hopsim_mod):
    scn = scenario("VO", ampdu=False)
    scn["radio"] = {"standard": "80211a"}
    scn["mac"]["data_rate_mbps"] = 54.0
    scn["mac"].pop("ampdu_max_bytes")
    with pytest.raises(hopsim_mod.ScenarioError, match=r"flows\.0\.access_category.*80211n"):
        hopsim_mod.validate(scn)
    scn = scenario("XX", ampdu=False)
    with pytest.raises(hopsim_mod.ScenarioError, match=r"access_category"):
        hopsim_mod.validate(scn)
    # Best effort is the default and is left out of the resolved scenario.
    assert "access_category" not in hopsim_mod.validate(scenario("BE", ampdu=False))["flows"][0]
    assert hopsim_mod.validate(scenario("VI", ampdu=False))["flows"][0]["access_category"] == "VI"


def test_internal_collisions_happen_only_inside_a_station(run_scenario):
    # 10.22.2.4: an internal collision is two categories of one station ending their backoff
    # in the same slot. Voice and best effort on two stations never collide internally (the
    # field is there, at 0); from one station they do (each counts against the best-effort
    # frame's short retry count, not as a retransmission on the air: mac_retries).
    scn = scenario("BE", ampdu=False)
    scn["topology"] = {"kind": "positions", "positions": [[0, 0], [10, 0], [0, 1], [10, 1]]}
    scn["routing"] = {"protocol": "static"}
    apart = [
        udp_flow(0, 1, payload_bytes=PAYLOAD),
        udp_flow(2, 3, payload_bytes=PAYLOAD, access_category="VO"),
    ]
    t = run_scenario({**scn, "flows": apart}).raw["totals"]
    assert t["internal_collisions"] == 0, t
    together = [
        udp_flow(0, 1, payload_bytes=PAYLOAD),
        udp_flow(0, 1, payload_bytes=PAYLOAD, access_category="VO"),
    ]
    raw = run_scenario({**scn, "flows": together}).raw
    sender = raw["nodes"][0]
    assert sender["internal_collisions"] > 0, sender
    assert raw["totals"]["internal_collisions"] == sender["internal_collisions"]
    assert "internal_collisions" not in run_scenario(scenario("BE", ampdu=False)).raw["totals"]


def test_edca_keys_move_a_category_to_other_parameters(run_scenario):
    # mac.edca overrides Table 9-137 key by key: best effort given voice's AIFSN, CW and TXOP
    # limit runs voice's TXOP cycle; voice with txop_limit_us = 0 sends one exchange per
    # access: E[cycle] = AIFS[VO] + CW_VO / 2 slots + DATA + SIFS + ACK.
    scn = scenario("BE", ampdu=False)
    vo_keys = {"aifsn": 2, "cw_min": 3, "cw_max": 7, "txop_limit_us": 1504}
    scn["mac"]["edca"] = {"BE": vo_keys}
    got = run_scenario(scn).raw["flows"][0]["goodput_kbps"]
    assert got == pytest.approx(vo_txop_kbps(), rel=TOLERANCE), got
    scn = scenario("VO", ampdu=False)
    scn["mac"]["edca"] = {"VO": {"txop_limit_us": 0}}
    ack = ofdm.ppdu_us(ofdm.ACK_BYTES, ht.ack_rate_mbps(7))
    exchange = ht.ppdu_us(MPDU, 7) + d_pair() + ht.SIFS_US + ack
    cycle = aifs_us("VO") + CW_MIN["VO"] / 2 * ht.SLOT_US + exchange
    got = run_scenario(scn).raw["flows"][0]["goodput_kbps"]
    assert got == pytest.approx(1000.0 * 8 * PAYLOAD / cycle, rel=TOLERANCE), got


@pytest.mark.parametrize(
    "table,key",
    [
        ({"VI": {"aifsn": 1}}, "mac.edca.VI.aifsn"),
        ({"VO": {"cw_min": 12}}, "mac.edca.VO.cw_min"),
        ({"BK": {"cw_max": 7, "cw_min": 31}}, "mac.edca.BK.cw_max"),
        ({"BE": {"txop_limit_us": 1000}}, "mac.edca.BE.txop_limit_us"),
        ({"BE": {"aifs": 2}}, "mac.edca.BE"),
        ({"AC_BE": {"aifsn": 2}}, "mac.edca"),
    ],
)
def test_edca_keys_are_refused_by_name(hopsim_mod, table, key):
    scn = scenario("BE", ampdu=False)
    scn["mac"]["edca"] = table
    with pytest.raises(hopsim_mod.ScenarioError, match=re.escape(key)):
        hopsim_mod.validate(scn)
    scn["radio"] = {"standard": "80211a"}
    scn["mac"].update(data_rate_mbps=54.0, edca={"VO": {"aifsn": 2}})
    scn["mac"].pop("ampdu_max_bytes")
    with pytest.raises(hopsim_mod.ScenarioError, match=r"`mac\.edca\.VO` .*QoS station"):
        hopsim_mod.validate(scn)


def test_a_missed_blockack_asks_only_its_own_category(run_scenario):
    # A bulk TCP transfer (best effort) beside background UDP from one station, both
    # aggregated, with frame errors: a BlockAck missed by one category makes that category
    # (peer and TID) send a BlockAckReq first (10.24.7.7), not the other category's next
    # exchange (a fuzzing find: the request once went for the wrong TID, and the run panicked).
    scn = scenario("BE", ampdu=True)
    scn["radio"]["frame_error_rate"] = 0.05
    scn["topology"]["spacing_m"] = 30.0
    scn["mac"]["data_rate_mbps"] = "mcs4"
    scn["flows"] = [
        tcp_flow(0, 1),
        udp_flow(0, 1, payload_bytes=PAYLOAD, interval_s=0.01, access_category="BK"),
    ]
    raw = run_scenario(scn).raw
    assert raw["invariants"]["violation_count"] == 0, raw["invariants"]
    be, bk = (f["goodput_kbps"] for f in raw["flows"])
    assert bk == pytest.approx(8 * PAYLOAD / 0.01 / 1000, rel=0.05), bk  # all it offers
    assert be > 10 * bk, (be, bk)
    assert raw["totals"]["bars_sent"] > 0
