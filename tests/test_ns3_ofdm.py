"""hopsim's 802.11a and 802.11g beside ns-3.44 (``hopsim/crosscheck/ns3/wifi_udp.cc``):
one saturated UDP sender over one hop, both simulators at the a/g defaults (log-distance
path loss, SINR reception, the NIST OFDM error model) and the same rates.

With one sender nothing collides, so both must give the DCF arithmetic of the standard
(test_theory_tmt_ofdm.py checks hopsim against it to 1%); the issue's target beside ns-3
is +-5%, and the differences measured are below 0.1% (docs/validation.md). Near the edge of
a rate's range (54 Mbit/s at 24 m: most frames lost) both lose frames to the same error
model: there the check is that the loss is alike. The translation tests need no ns-3.
"""

from __future__ import annotations

import statistics

import pytest

from hopsim.crosscheck.ns3run import run_hopsim, run_ns3
from hopsim.crosscheck.ns3translate import Ns3Untranslatable
from hopsim.crosscheck.ns3wifi import run_hopsim_udp, run_ns3_udp, wifi_udp_arguments

RUNS = (1, 2, 3)


def scenario(standard: str, rate: float, *, hops: int = 1, spacing_m: float = 10.0, rts=False):
    return {
        "duration_s": 5.0,
        "warmup_s": 1.0,
        "topology": {"kind": "chain", "hops": hops, "spacing_m": spacing_m},
        "routing": {"protocol": "static"},
        "radio": {"standard": standard},
        "mac": {"data_rate_mbps": rate, "rts_threshold_bytes": 0 if rts else 3000},
        "flows": [
            {"src": 0, "dst": hops, "transport": "udp", "payload_bytes": 1460, "interval_s": 0.0}
        ],
    }


def _args(resolved) -> dict[str, str]:
    return dict(a[2:].split("=", 1) for a in wifi_udp_arguments(resolved, 1))


def test_translation_of_the_80211a_defaults(hopsim_mod):
    a = _args(hopsim_mod.validate(scenario("80211a", 54.0)))
    assert a["standard"] == "80211a"
    assert (a["dataMode"], a["controlMode"]) == ("OfdmRate54Mbps", "OfdmRate6Mbps")
    # Friis at 1 m for 5.18 GHz: 20 log10(4 pi / 0.05788 m) = 46.73 dB.
    assert float(a["referenceLossDb"]) == pytest.approx(46.733, abs=0.01)
    assert float(a["rxThresholdDbm"]) == pytest.approx(-82.0)
    assert float(a["ccaEdThresholdDbm"]) == pytest.approx(-62.0)
    assert float(a["txPowerDbm"]) == pytest.approx(16.0206, abs=1e-3)
    g = _args(hopsim_mod.validate(scenario("80211g", 11.0)))
    assert (g["dataMode"], g["controlMode"]) == ("DsssRate11Mbps", "ErpOfdmRate6Mbps")


@pytest.mark.parametrize(
    "key,value",
    [
        ("radio.reception", "capture"),
        ("mac.data_rate_mbps", "auto"),
        ("radio.propagation", "two_ray_ground"),
        ("topology.spacing_m", 20.0),  # two hops in decode range: hopsim would skip a node
    ],
)
def test_translation_refuses_what_the_program_cannot_express(hopsim_mod, key, value):
    s = scenario("80211a", 24.0, hops=2)
    section, name = key.split(".")
    s[section][name] = value
    with pytest.raises(Ns3Untranslatable) as e:
        wifi_udp_arguments(hopsim_mod.validate(s), 1)
    assert e.value.key == key


@pytest.fixture(scope="module")
def ns3_binary(wifi_udp_binary):
    return wifi_udp_binary


def _goodputs(s, binary, hopsim_mod) -> tuple[float, float]:
    resolved = hopsim_mod.validate(s)
    ns3 = statistics.mean(run_ns3_udp(resolved, r, binary)["goodput_kbps"] for r in RUNS)
    ours = statistics.mean(run_hopsim_udp(s, r)["goodput_kbps"] for r in RUNS)
    return ns3, ours


@pytest.mark.parametrize(
    "standard,rate,rts",
    [
        ("80211a", 6.0, False),
        ("80211a", 24.0, False),
        ("80211a", 54.0, False),
        ("80211a", 54.0, True),
        ("80211g", 54.0, False),
        ("80211g", 11.0, False),
    ],
)
def test_one_hop_saturated_udp_beside_ns3(ns3_binary, hopsim_mod, standard, rate, rts):
    ns3, ours = _goodputs(scenario(standard, rate, rts=rts), ns3_binary, hopsim_mod)
    assert ours == pytest.approx(ns3, rel=0.05), f"hopsim {ours:.0f} vs ns-3 {ns3:.0f} kbit/s"
    # Measured: within 0.1% (the tolerance is the issue's).
    assert ours == pytest.approx(ns3, rel=0.005), f"hopsim {ours:.0f} vs ns-3 {ns3:.0f} kbit/s"


@pytest.mark.parametrize("protection", ["cts_to_self", "rts_cts"])
def test_erp_protection_beside_ns3(ns3_binary, hopsim_mod, protection):
    # 802.11g at 54 Mbit/s with each frame protected at DSSS 1 Mbit/s, as beside 802.11b
    # stations (ns-3: UseNonErpProtection with its ErpProtectionMode).
    s = scenario("80211g", 54.0)
    s["mac"].update(basic_rate_mbps=1.0, erp_protection=protection)
    assert _args(hopsim_mod.validate(s))["erpProtection"] == protection
    ns3, ours = _goodputs(s, ns3_binary, hopsim_mod)
    assert ours == pytest.approx(ns3, rel=0.02), f"hopsim {ours:.0f} vs ns-3 {ns3:.0f} kbit/s"


def test_frame_loss_near_the_edge_of_54_mbps_is_alike(ns3_binary, hopsim_mod):
    # 24 m: 21.9 dB SNR, where 64-QAM 3/4 loses most 1524-byte frames (measured ns-3 4446,
    # hopsim 5000 kbit/s of 29,700 without loss): the same steep curve within ~0.1 dB.
    ns3, ours = _goodputs(scenario("80211a", 54.0, spacing_m=24.0), ns3_binary, hopsim_mod)
    assert 0.05 * 29_700 < ns3 < 0.5 * 29_700, ns3
    assert ours == pytest.approx(ns3, rel=0.25), f"hopsim {ours:.0f} vs ns-3 {ns3:.0f} kbit/s"


def ht_scenario(
    mcs: int,
    width: int = 20,
    sgi: bool = False,
    antennas: int = 1,
    spacing_m=10.0,
    ampdu_max_bytes: int = 0,
):
    s = scenario("80211n", 6.0, spacing_m=spacing_m)
    s["radio"].update(
        channel_width_mhz=width, guard_interval_ns=400 if sgi else 800, antennas=antennas
    )
    s["mac"].update(data_rate_mbps=f"mcs{mcs}", ampdu_max_bytes=ampdu_max_bytes)
    return s


def test_translation_of_802_11n(hopsim_mod):
    a = _args(hopsim_mod.validate(ht_scenario(15, 40, True, 2)))
    assert (a["standard"], a["dataMode"], a["controlMode"]) == (
        "80211n",
        "HtMcs15",
        "OfdmRate6Mbps",
    )
    assert (a["channelWidthMhz"], a["shortGi"], a["antennas"]) == ("40", "true", "2")
    assert a["maxAmpduBytes"] == "0"


@pytest.mark.parametrize(
    "mcs,width,sgi,antennas,rel",
    [
        (0, 20, False, 1, 0.005),
        (7, 20, False, 1, 0.005),
        (15, 20, False, 2, 0.005),
        # ns-3.44's HtPhy::GetPayloadDuration ends a short-GI DATA field after N_SYM x 3.6 us;
        # eq. 19-136 (which hopsim follows) rounds it up to 4 us: up to 3.6 us more per frame,
        # measured -0.6% here.
        (7, 40, True, 1, 0.01),
    ],
)
def test_one_hop_80211n_beside_ns3(ns3_binary, hopsim_mod, mcs, width, sgi, antennas, rel):
    # Each MPDU acknowledged alone (no A-MPDU), QoS stations at AIFS[BE] in both.
    ns3, ours = _goodputs(ht_scenario(mcs, width, sgi, antennas), ns3_binary, hopsim_mod)
    assert ours == pytest.approx(ns3, rel=rel), f"hopsim {ours:.0f} vs ns-3 {ns3:.0f} kbit/s"


@pytest.mark.parametrize("mcs,width,sgi", [(0, 20, False), (7, 20, False), (7, 40, True)])
def test_one_hop_80211n_a_mpdus_beside_ns3(ns3_binary, hopsim_mod, mcs, width, sgi):
    # A-MPDUs of up to 65,535 octets with BlockAck (ns-3: BE_MaxAmpduSize 65535, its ADDBA
    # handshake at the start). Measured: MCS 0 +0.03%, MCS 7 +0.47%, 40 MHz short GI +2.3%.
    s = ht_scenario(mcs, width, sgi, ampdu_max_bytes=65535)
    ns3, ours = _goodputs(s, ns3_binary, hopsim_mod)
    assert ours == pytest.approx(ns3, rel=0.05), f"hopsim {ours:.0f} vs ns-3 {ns3:.0f} kbit/s"


def vht_scenario(mcs: int, width: int, ampdu_max_bytes: int, spacing_m: float = 3.0):
    s = scenario("80211ac", 6.0, spacing_m=spacing_m)
    s["duration_s"], s["warmup_s"] = 3.0, 0.5  # ns-3 takes ~20 s per run at 300 Mbit/s
    s["radio"].update(channel_width_mhz=width)
    s["mac"].update(
        data_rate_mbps=f"mcs{mcs}", ampdu_max_bytes=ampdu_max_bytes, rts_threshold_bytes=1048576
    )
    return s


def test_translation_of_802_11ac(hopsim_mod):
    s = vht_scenario(9, 160, 0)
    s["radio"].update(antennas=2, spatial_streams=2)
    a = _args(hopsim_mod.validate(s))
    assert (a["standard"], a["dataMode"], a["controlMode"]) == (
        "80211ac",
        "VhtMcs9",
        "OfdmRate6Mbps",
    )
    assert (a["channelWidthMhz"], a["antennas"], a["streams"]) == ("160", "2", "2")


@pytest.mark.parametrize("ampdu", [0, 65535])
def test_one_hop_80211ac_mcs8_80mhz_beside_ns3(ns3_binary, hopsim_mod, ampdu):
    # 3 m: -51 dBm over -88 dBm of noise at 80 MHz, so 256-QAM 3/4 loses nothing. Measured:
    # each MPDU alone -1.8% (hopsim's SU PPDU has the 4 us VHT-SIG-B of eq. 21-105, ns-3.44's
    # has none: 4 of a 230 us cycle), A-MPDUs of 65,535 octets +0.8%.
    ns3, ours = _goodputs(vht_scenario(8, 80, ampdu), ns3_binary, hopsim_mod)
    assert ours == pytest.approx(ns3, rel=0.05), f"hopsim {ours:.0f} vs ns-3 {ns3:.0f} kbit/s"


def test_frame_loss_near_the_edge_of_mcs7_is_alike(ns3_binary, hopsim_mod):
    # 21 m: about 25 dB of SNR, where 64-QAM 5/6 starts to lose frames (measured ns-3 23696,
    # hopsim 24286 kbit/s of 30,500 without loss; at 22 m 3541 and 4285, at 23 m nothing).
    ns3, ours = _goodputs(ht_scenario(7, spacing_m=21.0), ns3_binary, hopsim_mod)
    assert 0.5 * 30_500 < ns3 < 0.95 * 30_500, ns3
    assert ours == pytest.approx(ns3, rel=0.1), f"hopsim {ours:.0f} vs ns-3 {ns3:.0f} kbit/s"


@pytest.mark.parametrize("hops,rate", [(3, 12.0), (4, 6.0)])
def test_hidden_node_chains_beside_ns3(ns3_binary, hopsim_mod, hops, rate):
    # 40 m apart: nodes two hops apart are hidden (-87.8 dBm, under the -82 dBm detection)
    # and interfere at 7-9 dB of SINR. Basic access. Measured within 2% (validation.md),
    # after two mechanisms ns-3 has: CCA held busy by a detectable frame missed during a
    # reception, and no backoff for a packet forwarded onto an idle medium.
    s = scenario("80211a", rate, hops=hops, spacing_m=40.0)
    ns3, ours = _goodputs(s, ns3_binary, hopsim_mod)
    assert ours == pytest.approx(ns3, rel=0.08), f"hopsim {ours:.0f} vs ns-3 {ns3:.0f} kbit/s"


@pytest.mark.parametrize("hops", [1, 2])
def test_tcp_over_80211a_chains_beside_ns3(chain_tcp_binary, hopsim_mod, hops):
    # One bulk NewReno transfer at 24 Mbit/s with RTS/CTS, 40 m apart (2 hops: the ends hidden
    # from each other). Measured (3 runs x 30 s): 1 hop 10628 / 10623 kbit/s, 2 hops 4833 /
    # 4836; the target for TCP chains is +-15%.
    s = {
        "duration_s": 10.0,
        "warmup_s": 2.0,
        "topology": {"kind": "chain", "hops": hops, "spacing_m": 40.0},
        "routing": {"protocol": "static"},
        "radio": {"standard": "80211a"},
        "mac": {"data_rate_mbps": 24.0},
        "tcp": {"variant": "newreno"},
        "flows": [{"src": 0, "dst": hops, "transport": "tcp", "payload_bytes": 1460}],
    }
    resolved = hopsim_mod.validate(s)
    ns3 = statistics.mean(run_ns3(resolved, r, chain_tcp_binary)["goodput_kbps"] for r in (1, 2))
    ours = statistics.mean(run_hopsim(s, r, "sinr")["goodput_kbps"] for r in (1, 2))
    assert ours == pytest.approx(ns3, rel=0.05), f"hopsim {ours:.0f} vs ns-3 {ns3:.0f} kbit/s"


@pytest.mark.parametrize("hops,ampdu", [(1, 0), (2, 0), (4, 0), (1, 65535), (2, 65535), (4, 65535)])
def test_tcp_over_80211n_chains_beside_ns3(chain_tcp_binary, hopsim_mod, hops, ampdu):
    # One bulk NewReno transfer at MCS 4 (20 MHz), basic access, 30 m apart (nodes two hops
    # apart hidden, -83.7 dBm), each MPDU acknowledged alone or in A-MPDUs. Measured (3 runs
    # x 20 s), ns-3 / hopsim: alone 16453 / 16226, 6012 / 5971, 2148 / 2073 kbit/s; A-MPDUs
    # 32240 / 32368, 13434 / 13517, 5662 / 5083. The target is +-15%, and +-15% for
    # the mean A-MPDU (measured 14.8 / 15.5, 12.0 / 11.6, 9.2 / 8.3 MPDUs).
    s = {
        "duration_s": 20.0,
        "warmup_s": 2.0,
        "topology": {"kind": "chain", "hops": hops, "spacing_m": 30.0},
        "routing": {"protocol": "static"},
        "radio": {"standard": "80211n"},
        # No RTS/CTS for the A-MPDUs either (with RTS/CTS above 3000 octets the goodput still
        # agrees, +0.7% at 2 hops, but hopsim's mean A-MPDU is 10.4 MPDUs to ns-3's 12.6:
        # docs/validation.md).
        "mac": {"data_rate_mbps": "mcs4", "rts_threshold_bytes": 65535, "ampdu_max_bytes": ampdu},
        "tcp": {"variant": "newreno"},
        "flows": [{"src": 0, "dst": hops, "transport": "tcp", "payload_bytes": 1460}],
    }
    resolved = hopsim_mod.validate(s)
    ns3_runs = [run_ns3(resolved, r, chain_tcp_binary) for r in (1, 2, 3)]
    ns3 = statistics.mean(r["goodput_kbps"] for r in ns3_runs)
    ours_runs = [hopsim_mod.run(s, seed=r) for r in (1, 2, 3)]
    ours = statistics.mean(r.flows[0].goodput_kbps for r in ours_runs)
    assert ours == pytest.approx(ns3, rel=0.15), f"hopsim {ours:.0f} vs ns-3 {ns3:.0f} kbit/s"
    if ampdu:
        ns3_mean = sum(r["ampdu_mpdus"] for r in ns3_runs) / sum(r["ampdus_sent"] for r in ns3_runs)
        t = [r.raw["totals"] for r in ours_runs]
        ours_mean = sum(x["ampdu_mpdus"] for x in t) / sum(x["ampdus_sent"] for x in t)
        assert ours_mean == pytest.approx(ns3_mean, rel=0.15), (ours_mean, ns3_mean)


def ideal_scenario(standard: str, spacing_m: float):
    s = scenario(standard, 6.0, spacing_m=spacing_m)
    s["mac"].update(data_rate_mbps="auto", rate_control="ideal")
    if standard != "80211a":
        s["mac"]["ampdu_max_bytes"] = 0
    return s


def test_translation_of_snr_ideal(hopsim_mod):
    a = _args(hopsim_mod.validate(ideal_scenario("80211n", 20.0)))
    assert a["rateManager"] == "ideal"
    fixed = _args(hopsim_mod.validate(ht_scenario(7)))
    assert (fixed["rateManager"], fixed["dataMode"]) == ("constant", "HtMcs7")


@pytest.mark.parametrize(
    "standard,spacing_m",
    [("80211a", 10.0), ("80211a", 40.0), ("80211a", 48.0), ("80211n", 25.0), ("80211ac", 40.0)],
)
def test_snr_ideal_rate_control_beside_ns3(ns3_binary, hopsim_mod, standard, spacing_m):
    # Both send at the fastest rate whose BER-1e-6 SNR threshold the receiver's last measured
    # SNR meets (ns-3: IdealWifiManager, the SNR told back in a tag on the ACK). One link at a
    # fixed distance settles on one rate, so the goodputs must agree as fixed rates do.
    ns3, ours = _goodputs(ideal_scenario(standard, spacing_m), ns3_binary, hopsim_mod)
    assert ours == pytest.approx(ns3, rel=0.05), f"hopsim {ours:.0f} vs ns-3 {ns3:.0f} kbit/s"


@pytest.mark.parametrize("ampdu", [65535, 0])
def test_minstrel_ht_beside_ns3(ns3_binary, hopsim_mod, ampdu):
    # hopsim's Minstrel-HT follows Linux 5.11+; ns-3.44's MinstrelHtWifiManager ports the
    # older sampling. On one link at 25 m (best MCS 5) both settle on the best rate, so the
    # goodputs agree. Measured: aggregated -0.9% (10 m -0.6%, 40 m -0.2%), alone +3.9%.
    s = scenario("80211n", 6.0, spacing_m=25.0)
    s["mac"].update(data_rate_mbps="auto", rate_control="minstrel_ht", ampdu_max_bytes=ampdu)
    ns3, ours = _goodputs(s, ns3_binary, hopsim_mod)
    assert ours == pytest.approx(ns3, rel=0.05), f"hopsim {ours:.0f} vs ns-3 {ns3:.0f} kbit/s"
