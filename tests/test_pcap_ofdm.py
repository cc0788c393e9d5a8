"""An 802.11a run's radiotap trace, decoded by tshark: every frame names the 5 GHz channel
(5180 MHz) with the OFDM channel flag, DATA its 54 Mbit/s rate and the ACKs the 24 Mbit/s
control-response rate (IEEE 802.11-2016 10.7.6.5.2), and a DATA frame's Duration covers
SIFS + that ACK: 16 + 28 us. An 802.11b run keeps channel 1 with the CCK flag.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from test_pcap_tools import ACK, DATA, fields, pcap_tools  # noqa: F401 (the fixture)

# tshark, installed as test_pcap_tools installs it (or the tests skip, saying why).
pytestmark = pytest.mark.usefixtures("pcap_tools")


def _run(hopsim_mod, tmp_path: Path, standard: str, rate: float) -> Path:
    scenario = {
        "duration_s": 0.2,
        "warmup_s": 0.1,
        "topology": {"kind": "chain", "hops": 1, "spacing_m": 10.0},
        "routing": {"protocol": "static"},
        "radio": {"standard": standard},
        "mac": {"data_rate_mbps": rate, "rts_threshold_bytes": 3000},
        "flows": [{"src": 0, "dst": 1, "transport": "udp", "interval_s": 0.01}],
    }
    hopsim_mod.run(scenario, pcap_dir=tmp_path)
    return tmp_path / "node-0.pcap"


def test_an_80211a_trace_names_the_ofdm_rates_and_the_5_ghz_channel(hopsim_mod, tmp_path):
    rows = fields(
        _run(hopsim_mod, tmp_path, "80211a", 54.0),
        "wlan.fc.type_subtype",
        "radiotap.datarate",
        "radiotap.channel.freq",
        "radiotap.channel.flags.ofdm",
        "radiotap.channel.flags.5ghz",
        "radiotap.channel.flags.cck",
        "wlan.duration",
    )
    kinds = {r[0] for r in rows}
    assert kinds == {DATA, ACK}, kinds
    for kind, rate, freq, ofdm, ghz5, cck, duration in rows:
        assert freq == "5180" and ofdm in ("1", "True") and ghz5 in ("1", "True"), rows[0]
        assert cck in ("0", "False"), rows[0]
        assert rate == ("54" if kind == DATA else "24"), (kind, rate)
        if kind == DATA:
            assert int(duration) == 16 + 28


def test_an_80211b_trace_keeps_channel_1_and_cck(hopsim_mod, tmp_path):
    rows = fields(
        _run(hopsim_mod, tmp_path, "80211b", 11.0),
        "radiotap.datarate",
        "radiotap.channel.freq",
        "radiotap.channel.flags.cck",
        "radiotap.channel.flags.2ghz",
    )
    assert rows and all(r[1:] == ["2412", r[2], r[3]] for r in rows)
    assert all(r[2] in ("1", "True") and r[3] in ("1", "True") for r in rows), rows[0]
    assert {r[0] for r in rows} == {"11", "1"}, rows


#: tshark's type_subtype of a QoS Data frame (type 2, subtype 8).
QOS_DATA = "0x0028"


def test_an_80211n_trace_names_the_mcs_width_and_guard_interval(hopsim_mod, tmp_path):
    """802.11n at MCS 7, 40 MHz, short GI: DATA is a QoS Data frame (the 2-octet QoS Control,
    TID 0) whose radiotap MCS field tshark reads back; its ACK goes at 24 Mbit/s non-HT
    OFDM (64-QAM answers at 24), and the Duration covers SIFS + that ACK: 16 + 28 us."""
    scenario = {
        "duration_s": 0.2,
        "warmup_s": 0.1,
        "topology": {"kind": "chain", "hops": 1, "spacing_m": 10.0},
        "routing": {"protocol": "static"},
        "radio": {"standard": "80211n", "channel_width_mhz": 40, "guard_interval_ns": 400},
        "mac": {"data_rate_mbps": "mcs7", "rts_threshold_bytes": 3000, "ampdu_max_bytes": 0},
        "flows": [{"src": 0, "dst": 1, "transport": "udp", "interval_s": 0.01}],
    }
    hopsim_mod.run(scenario, pcap_dir=tmp_path)
    rows = fields(
        tmp_path / "node-0.pcap",
        "wlan.fc.type_subtype",
        "radiotap.mcs.index",
        "radiotap.mcs.bw",
        "radiotap.mcs.gi",
        "radiotap.datarate",
        "wlan.qos.tid",
        "wlan.duration",
        "ip.proto",
    )
    kinds = {r[0] for r in rows}
    assert kinds == {QOS_DATA, ACK}, kinds
    for kind, mcs, bw, gi, rate, tid, duration, proto in rows:
        if kind == QOS_DATA:
            assert (mcs, bw, gi, tid, proto) == ("7", "1", "1", "0", "17"), rows[0]
            assert int(duration) == 16 + 28
        else:
            assert (mcs, rate) == ("", "24"), (kind, mcs, rate)


#: tshark's type_subtype of a BlockAck (type 1, subtype 9) and of an Action frame (0, 13).
BLOCK_ACK = "0x0019"
ACTION = "0x000d"


def test_an_80211n_a_mpdu_is_traced_mpdu_by_mpdu_with_its_reference(hopsim_mod, tmp_path):
    """Saturated UDP at MCS 7 with aggregation: each MPDU of an A-MPDU is a record of its own
    whose radiotap A-MPDU status carries the aggregate's reference number (the last subframe
    flagged), and BlockAcks answer them."""
    scenario = {
        "duration_s": 0.05,
        "warmup_s": 0.01,
        "topology": {"kind": "chain", "hops": 1, "spacing_m": 10.0},
        "routing": {"protocol": "static"},
        "radio": {"standard": "80211n"},
        "mac": {"data_rate_mbps": "mcs7", "rts_threshold_bytes": 65535},
        "flows": [{"src": 0, "dst": 1, "transport": "udp", "interval_s": 0.0}],
    }
    hopsim_mod.run(scenario, pcap_dir=tmp_path)
    rows = fields(
        tmp_path / "node-0.pcap",
        "wlan.fc.type_subtype",
        "radiotap.ampdu.reference",
        "radiotap.ampdu.flags.last",
        "wlan.seq",
        "radiotap.mcs.index",
    )
    data = [r for r in rows if r[0] == QOS_DATA]
    # The agreement first: ADDBA Request out and its ACK in, ADDBA Response in and its ACK
    # out (Action frames, type_subtype 0x000d), then the first A-MPDU.
    assert {r[0] for r in rows} == {QOS_DATA, BLOCK_ACK, ACTION, ACK}, {r[0] for r in rows}
    assert [r[0] for r in rows[:5]] == [ACTION, ACK, ACTION, ACK, QOS_DATA], rows[:5]
    by_ref: dict[str, list[list[str]]] = {}
    for r in data:
        by_ref.setdefault(r[1], []).append(r)
    sizes = [len(v) for v in by_ref.values()]
    # 1526-octet MPDUs at MCS 7: 28 fit aPPDUMaxTime (tests/test_theory_tmt_ht.py).
    assert max(sizes) == 28, sizes
    for ref, mpdus in by_ref.items():
        lasts = [r[2] in ("1", "True") for r in mpdus]
        assert lasts.count(True) == 1 and lasts[-1], (ref, lasts)
        seqs = [int(r[3]) for r in mpdus]
        assert seqs == sorted(seqs) and all(r[4] == "7" for r in mpdus), seqs


def test_an_80211ac_trace_names_the_vht_mcs_streams_width_and_a_mpdu(hopsim_mod, tmp_path):
    """802.11ac at MCS 8, 80 MHz, two streams, short GI, aggregated: tshark reads the radiotap
    VHT field (user 0's MCS and N_SS, bandwidth code 4 = 80 MHz, short GI) beside the A-MPDU
    status of each subframe; the BlockAcks go at 24 Mbit/s non-HT (256-QAM answers at 24)."""
    scenario = {
        "duration_s": 0.05,
        "warmup_s": 0.01,
        "topology": {"kind": "chain", "hops": 1, "spacing_m": 2.0},
        "routing": {"protocol": "static"},
        "radio": {
            "standard": "80211ac",
            "channel_width_mhz": 80,
            "guard_interval_ns": 400,
            "antennas": 2,
            "spatial_streams": 2,
        },
        "mac": {"data_rate_mbps": "mcs8", "rts_threshold_bytes": 65535},
        "flows": [{"src": 0, "dst": 1, "transport": "udp", "interval_s": 0.0}],
    }
    hopsim_mod.run(scenario, pcap_dir=tmp_path)
    rows = fields(
        tmp_path / "node-0.pcap",
        "wlan.fc.type_subtype",
        "radiotap.vht.mcs.0",
        "radiotap.vht.nss.0",
        "radiotap.vht.bw",
        "radiotap.vht.gi",
        "radiotap.ampdu.reference",
        "radiotap.datarate",
    )
    data = [r for r in rows if r[0] == QOS_DATA]
    assert data, rows[:5]
    for r in data:
        assert r[1:5] == ["8", "2", "4", "1"], r
        assert r[5] != "", r
    answers = [r for r in rows if r[0] == BLOCK_ACK]
    assert answers and all(r[6] == "24" and r[1] == "" for r in answers), answers[:3]
    # 65,535 octets hold 42 MPDUs of 1526 octets (aPPDUMaxTime is far at 1.2 Gbit/s).
    per_ref: dict[str, int] = {}
    for r in data:
        per_ref[r[5]] = per_ref.get(r[5], 0) + 1
    assert max(per_ref.values()) == 42, per_ref


def test_an_a_msdu_in_an_a_mpdu_is_decoded_subframe_by_subframe(hopsim_mod, tmp_path):
    """With `mac.amsdu_max_bytes` 3839 each MPDU of the A-MPDUs carries an A-MSDU of two UDP
    packets: tshark finds the A-MSDU Present bit, two subframes of 1,496 octets (LLC/SNAP and
    the IP packet) addressed by the frame's own addresses, and the IP packets within them,
    with a good FCS over the whole MPDU."""
    scenario = {
        "duration_s": 0.05,
        "warmup_s": 0.01,
        "topology": {"kind": "chain", "hops": 1, "spacing_m": 10.0},
        "routing": {"protocol": "static"},
        "radio": {"standard": "80211n"},
        "mac": {"data_rate_mbps": "mcs7", "rts_threshold_bytes": 65535, "amsdu_max_bytes": 3839},
        "flows": [{"src": 0, "dst": 1, "transport": "udp", "interval_s": 0.0}],
    }
    hopsim_mod.run(scenario, pcap_dir=tmp_path)
    rows = fields(
        tmp_path / "node-1.pcap",
        "wlan.qos.amsdupresent",
        "wlan_aggregate.a_mdsu.length",  # (tshark spells it so)
        "ip.id",
        "radiotap.ampdu.reference",
        "wlan.fcs.status",
        where=f"wlan.fc.type_subtype == {QOS_DATA}",
    )
    assert rows, "no QoS Data received"
    for present, lengths, ids, ref, fcs in rows:
        assert present in ("1", "True"), rows[0]
        assert lengths.split("|") == ["1496", "1496"], lengths
        assert len(set(ids.split("|"))) == 2, ids
        assert ref and fcs in ("1", "Good"), (ref, fcs)
