"""A resolved hopsim chain scenario as the command line of the ns-3 chain scenario.

``ns3/chain_tcp.cc`` takes every setting from its command line; this module writes it from a
resolved hopsim scenario and refuses, by key, what that scenario cannot express (it is one
static chain with one bulk TCP flow, not a general translator like the ns-2 one). The settings
and the differences that remain between the two models are listed in docs/validation.md,
"Side by side with ns-3".
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .._core import ScenarioError

__all__ = [
    "DSSS_MODES",
    "OFDM_MBPS",
    "ns3_mode",
    "reference_loss_db",
    "require",
    "static_chain_phy",
    "NS3_VARIANTS",
    "Ns3Untranslatable",
    "Ns3Variant",
    "chain_scenario",
    "ns3_arguments",
]


class Ns3Untranslatable(ScenarioError):
    """A scenario key the ns-3 chain scenario cannot express."""

    def __init__(self, key: str, value: Any, allowed: str) -> None:
        super().__init__(f"{key} = {value!r}: cannot be run in the ns-3 scenarios; {allowed}")
        self.key = key


@dataclass(frozen=True)
class Ns3Variant:
    """How a hopsim TCP variant is set up in ns-3."""

    socket_type: str  # the congestion control (TcpL4Protocol::SocketType)
    sack: bool  # the SACK option (TcpSocketBase::Sack)
    recovery: str  # "classic" (TcpClassicRecovery) or "prr" (TcpPrrRecovery)


#: hopsim's NewReno has no SACK and RFC 6582 recovery: ns-3's TcpNewReno without SACK and with
#: TcpClassicRecovery (cwnd = ssthresh + 3, inflation, partial ACKs retransmit the next hole).
#: hopsim's CUBIC recovers like its SACK variant (RFC 6675); ns-3's SACK recovery is its
#: pipe-based one with PRR (RFC 6937, ns-3's default) setting the window.
NS3_VARIANTS: dict[str, Ns3Variant] = {
    "newreno": Ns3Variant("ns3::TcpNewReno", sack=False, recovery="classic"),
    "cubic": Ns3Variant("ns3::TcpCubic", sack=True, recovery="prr"),
    "bbr": Ns3Variant("ns3::TcpBbr", sack=True, recovery="prr"),
}

#: 802.11b rates (Mbit/s) and ns-3's WifiMode names.
DSSS_MODES = {
    1.0: "DsssRate1Mbps",
    2.0: "DsssRate2Mbps",
    5.5: "DsssRate5_5Mbps",
    11.0: "DsssRate11Mbps",
}
#: The OFDM rates (Mbit/s) of 802.11a and of 802.11g's ERP-OFDM.
OFDM_MBPS = (6.0, 9.0, 12.0, 18.0, 24.0, 36.0, 48.0, 54.0)
SPEED_OF_LIGHT_M_S = 299_792_458.0
# The largest A-MSDU in an MPDU of an HT A-MPDU: 4,095 octets less the QoS Data header (26)
# and the FCS (4) (crates/hopsim-core/src/mac/amsdu.rs).
HT_AMSDU_IN_AMPDU_BYTES = 4_095 - 26 - 4


def ns3_mode(standard: str, mbps: float | str) -> str:
    """ns-3's WifiMode name of a rate (Mbit/s) or MCS (``"mcs7"``) of ``standard``; raises
    ValueError for none."""
    if isinstance(mbps, str):
        mcs = mbps.removeprefix("mcs")
        if standard == "80211n" and mbps.startswith("mcs") and mcs.isdigit() and int(mcs) < 32:
            return f"HtMcs{int(mcs)}"
        if standard == "80211ac" and mbps.startswith("mcs") and mcs.isdigit() and int(mcs) < 10:
            return f"VhtMcs{int(mcs)}"
        mbps = float(mbps)
    if mbps in DSSS_MODES and standard in ("80211b", "80211g"):
        return DSSS_MODES[mbps]
    if mbps in OFDM_MBPS and standard in ("80211a", "80211g", "80211n", "80211ac"):
        prefix = "ErpOfdmRate" if standard == "80211g" else "OfdmRate"
        return f"{prefix}{mbps:g}Mbps"
    raise ValueError(f"{mbps:g} Mbit/s is not a rate of {standard}")


def static_chain_phy(s: Mapping[str, Any], *, ideal: bool = False) -> tuple[str, dict[str, str]]:
    """What both ns-3 chain programs require of the resolved scenario ``s``: a static chain
    with static routes, no fading, shadowing or injected errors, fixed rates ns-3 has modes for
    (or, where ``ideal``, SNR-ideal control: ``data_rate_mbps = "auto"`` with ``rate_control =
    "ideal"``, which ns-3's IdealWifiManager does) and the standard's CWmin/CWmax. Returns the
    standard and ns-3's modes by ``mac`` key (no data mode under SNR-ideal control)."""
    require("topology.kind", s["topology"]["kind"], "chain", 'the ns-3 scenario is a "chain"')
    require("routing.protocol", s["routing"]["protocol"], "static", 'only "static" routes')
    return static_phy(s, ideal=ideal)


def static_phy(s: Mapping[str, Any], *, ideal: bool = False) -> tuple[str, dict[str, str]]:
    """What :func:`static_chain_phy` requires of the nodes' radios, wherever they stand: static
    nodes, no fading, shadowing, injected errors or interference, rates ns-3 has modes for."""
    require("mobility.model", s["mobility"]["model"], "static", 'only "static" nodes')
    require("interference", s.get("interference"), None, "no [[interference]] (not translated)")
    radio, mac = s["radio"], s["mac"]
    require("radio.fading", radio["fading"], "none", '"none" only')
    require("radio.shadowing_sigma_db", radio["shadowing_sigma_db"], 0.0, "0 only")
    require("radio.frame_error_rate", radio["frame_error_rate"], 0.0, "0 only")
    for table in ("gauss_markov", "gilbert_elliott", "link_trace"):
        require(f"radio.{table}", radio.get(table), None, "no such table (time-varying links)")
    standard = radio.get("standard", "80211b")
    modes = {}
    for key in ("data_rate_mbps", "basic_rate_mbps"):
        if ideal and key == "data_rate_mbps" and mac[key] == "auto":
            if mac["rate_control"] not in ("ideal", "minstrel_ht"):
                raise Ns3Untranslatable(
                    "mac.data_rate_mbps",
                    "auto",
                    'a fixed rate, or "auto" with rate_control "ideal" or "minstrel_ht"',
                )
            continue
        try:
            modes[key] = ns3_mode(standard, mac[key])
        except (TypeError, ValueError):
            raise Ns3Untranslatable(f"mac.{key}", mac[key], f"a fixed rate of {standard}") from None
    # ns-3 takes CWmin/CWmax from the standard (802.11b 31 / 1023, a/g 15 / 1023,
    # WifiMac::ConfigureStandard).
    cw_min = 31 if standard == "80211b" else 15
    require("mac.cw_min", mac["cw_min"], cw_min, f"{standard}'s {cw_min} only")
    require("mac.cw_max", mac["cw_max"], 1023, "the standard's 1023 only")
    return standard, modes


def ht_arguments(radio: Mapping[str, Any], mac: Mapping[str, Any]) -> dict[str, Any]:
    """The 802.11n/ac options both ns-3 chain programs take: width, guard interval, antennas,
    spatial streams (802.11ac; 802.11n's MCS carries them) and the largest A-MPDU (0: each
    MPDU acknowledged alone). ns-3.44's HT Block Ack buffer
    is 64 MPDUs and it announces no MPDU density, so the scenario must say the same."""
    require("mac.ampdu_max_mpdus", int(mac.get("ampdu_max_mpdus", 64)), 64, "64 only")
    require("mac.mpdu_density_ns", int(mac.get("mpdu_density_ns", 0)), 0, "0 only")
    amsdu = int(mac.get("amsdu_max_bytes", 0))
    vht = str(radio.get("standard")) == "80211ac"
    if amsdu > HT_AMSDU_IN_AMPDU_BYTES and int(mac.get("ampdu_max_bytes", 0)) > 0 and not vht:
        # hopsim holds an MPDU in an HT A-MPDU to 4,095 octets (the delimiter's 12-bit
        # length, 802.11-2016 9.7.1); ns-3.44 does not, so the two would build other MPDUs.
        raise Ns3Untranslatable(
            "mac.amsdu_max_bytes",
            amsdu,
            f"at most {HT_AMSDU_IN_AMPDU_BYTES} with A-MPDUs under 802.11n (ns-3.44 does not "
            "hold an MPDU in an HT A-MPDU to 4,095 octets)",
        )
    return {
        "channelWidthMhz": int(radio.get("channel_width_mhz", 20)),
        "shortGi": "true" if int(radio.get("guard_interval_ns", 800)) == 400 else "false",
        "antennas": int(radio.get("antennas", 1)),
        "streams": int(radio.get("spatial_streams", 1)),
        "maxAmpduBytes": int(mac.get("ampdu_max_bytes", 0)),
        "maxAmsduBytes": amsdu,
        # Under Block Ack both give an MPDU up only at its lifetime (ns-3: the MAC queue's
        # MaxDelay, which also times the wait in its queue).
        "msduLifetimeS": float(mac.get("msdu_lifetime_s") or 0.0),
    }


def reference_loss_db(radio: Mapping[str, Any]) -> float:
    """hopsim's PL(d0): given, or Friis at d0 with the system loss (phy/propagation.rs)."""
    ref = radio.get("reference_loss_db")
    if ref is not None:
        return float(ref)
    wavelength = SPEED_OF_LIGHT_M_S / float(radio["frequency_hz"])
    d0 = float(radio["reference_distance_m"])
    loss = float(radio["system_loss"])
    return 20 * math.log10(4 * math.pi * d0 / wavelength) + 10 * math.log10(loss)


def chain_scenario(
    hops: int,
    variant: str,
    duration_s: float = 100.0,
    warmup_s: float = 10.0,
    spacing_m: float = 200.0,
) -> dict[str, Any]:
    """hopsim's static chain with one bulk TCP flow from node 0 to node ``hops``; everything
    else at hopsim's defaults (docs/models.md section 1)."""
    return {
        "duration_s": float(duration_s),
        "warmup_s": float(warmup_s),
        "topology": {"kind": "chain", "hops": int(hops), "spacing_m": float(spacing_m)},
        "routing": {"protocol": "static"},
        "tcp": {"variant": variant},
        "flows": [{"src": 0, "dst": int(hops), "transport": "tcp", "payload_bytes": 1460}],
    }


def require(key: str, value: Any, wanted: Any, allowed: str) -> None:
    """Refuse ``key`` unless its value is ``wanted``."""
    if value != wanted:
        raise Ns3Untranslatable(key, value, allowed)


def ns3_arguments(s: Mapping[str, Any], run: int) -> list[str]:
    """The chain scenario's command line for the resolved scenario ``s`` and ns-3 run number
    ``run`` (RngSeedManager; the replication). Raises :class:`Ns3Untranslatable`."""
    topo = s["topology"]
    require("topology.kind", topo["kind"], "chain", 'the ns-3 scenario is a "chain"')
    require("routing.protocol", s["routing"]["protocol"], "static", 'only "static" routes')
    flows = s["flows"]
    if len(flows) != 1:
        raise Ns3Untranslatable("flows", f"{len(flows)} flows", "exactly one TCP flow")
    f = flows[0]
    require("flows.0.src", f["src"], 0, "the chain's first node, 0")
    require("flows.0.dst", f["dst"], topo["hops"], "the chain's last node")
    args = {
        "hops": int(topo["hops"]),
        "spacingM": float(topo["spacing_m"]),
        "durationS": float(s["duration_s"]),
        "warmupS": float(s["warmup_s"]),
        "startS": float(f.get("start_s", 0.0)),
        "run": int(run),
        **wifi_tcp_arguments(s),
    }
    return command_line(args)


def command_line(args: Mapping[str, Any]) -> list[str]:
    """``--key=value`` options (floats written exactly)."""
    return [f"--{k}={v!r}" if isinstance(v, float) else f"--{k}={v}" for k, v in args.items()]


def wifi_tcp_arguments(s: Mapping[str, Any], udp: bool = False) -> dict[str, Any]:
    """The radio, MAC and TCP options both ns-3 TCP programs take (``hopsim_common.h``), from
    the resolved scenario ``s`` whose flows are all bulk TCP transfers with one TCP
    configuration and segment size (``udp``: paced UDP flows may be among them; the TCP
    options then come from the TCP flows, none without any). Raises
    :class:`Ns3Untranslatable`."""
    require("profile", s["profile"], "standard", 'only the "standard" profile is translated')
    radio = s["radio"]
    propagation = radio["propagation"]
    if propagation not in ("two_ray_ground", "log_distance"):
        raise Ns3Untranslatable(
            "radio.propagation",
            propagation,
            'ns-3\'s TwoRayGround or LogDistance loss: "two_ray_ground" or "log_distance"',
        )
    if propagation == "log_distance":
        for key in ("rx_range_m", "cs_range_m"):
            require(f"radio.{key}", radio.get(key), None, "unset with log_distance")
    standard, modes = static_phy(s)
    flows = []
    for i, f in enumerate(s["flows"]):
        stop = f.get("stop_s")
        if stop is not None and float(stop) < float(s["duration_s"]):
            raise Ns3Untranslatable(f"flows.{i}.stop_s", stop, "the end of the run only")
        if udp and f["transport"] == "udp":
            continue  # paced: its interval and datagram size go as they are
        require(
            f"flows.{i}.transport", f["transport"], "tcp", '"tcp" or "udp"' if udp else '"tcp" only'
        )
        require(f"flows.{i}.bytes", f["bytes"], 0, "0 only (a bulk transfer)")
        if flows:
            require(f"flows.{i}.tcp", f["tcp"], flows[0]["tcp"], "the first flow's TCP settings")
            require(
                f"flows.{i}.payload_bytes",
                f["payload_bytes"],
                flows[0]["payload_bytes"],
                "the first flow's segment size",
            )
        flows.append(f)
    args = _radio_mac_arguments(s, standard, modes, propagation)
    if flows:
        args.update(_tcp_arguments(flows[0]))
    return args


def _tcp_arguments(first: Mapping[str, Any]) -> dict[str, Any]:
    """The TCP options of the first TCP flow ``first`` (all TCP flows have them)."""
    tcp = first["tcp"]
    variant = tcp["variant"]
    if variant not in NS3_VARIANTS:
        raise Ns3Untranslatable(
            "tcp.variant", variant, f"one of {', '.join(sorted(NS3_VARIANTS))} (ns-3 TCP classes)"
        )
    ns3 = NS3_VARIANTS[variant]
    require("tcp.window_limit", tcp["window_limit"], "none", '"none" only')
    require("tcp.pacing", tcp["pacing"], False, "false only (hopsim's pacing is not ns-3's)")
    require("tcp.ack_thinning", tcp["ack_thinning"], False, "false only")
    # The linux host's receiver and growth rules have no ns-3 counterpart set here.
    for key in ("quick_ack", "timestamps", "rwnd_autotuning", "count_acked", "hystart"):
        require(f"tcp.{key}", tcp.get(key, False), False, "false only (not translated)")
    # ns-3 doubles the RTO up to a fixed 60 s (TcpSocketBase::ReTxTimeout).
    require("tcp.max_rto_s", float(tcp["max_rto_s"]), 60.0, "60 only (ns-3's fixed cap)")
    iw = float(tcp["initial_window"])
    if not iw.is_integer():
        raise Ns3Untranslatable("tcp.initial_window", iw, "a whole number of segments")
    mss = int(first["payload_bytes"])
    return {
        "variant": variant,
        "recovery": ns3.recovery,
        "sack": str(ns3.sack).lower(),
        "mssBytes": mss,
        "initialWindow": int(iw),
        "delAckCount": 2 if tcp["delayed_ack"] else 1,
        "delAckTimeoutS": float(tcp["delayed_ack_timeout_s"]),
        "minRtoS": float(tcp["min_rto_s"]),
        "initialRtoS": float(tcp["initial_rto_s"]),
        "clockGranularityS": float(tcp["clock_granularity_s"]),
        "receiverWindowBytes": int(tcp["receiver_window"]) * mss,
        "dupackThreshold": int(tcp["dupack_threshold"]),
    }


def _radio_mac_arguments(
    s: Mapping[str, Any], standard: str, modes: Mapping[str, str], propagation: str
) -> dict[str, Any]:
    """The radio and MAC options of the resolved scenario ``s``."""
    radio, mac = s["radio"], s["mac"]
    args = {
        "standard": standard,
        "propagation": propagation,
        "exponent": float(radio["path_loss_exponent"]),
        "referenceDistanceM": float(radio["reference_distance_m"]),
        "referenceLossDb": reference_loss_db(radio),
        "dataMode": modes["data_rate_mbps"],
        "controlMode": modes["basic_rate_mbps"],
        # Both use RTS/CTS for MPDUs longer than the threshold (hopsim's MPDU = ns-3's PSDU).
        "rtsThresholdBytes": int(mac["rts_threshold_bytes"]),
        # ns-3.44 counts RTS and DATA failures on one counter (FrameRetryLimit,
        # dot11ShortRetryLimit); there is no long retry limit to set.
        "retryLimit": int(mac["short_retry_limit"]),
        "queuePackets": int(mac["queue_packets"]),
        "txPowerW": _tx_power_w(radio),
        "frequencyHz": float(radio["frequency_hz"]),
        "antennaHeightM": float(radio["antenna_height_m"]),
        "antennaGain": float(radio["antenna_gain"]),
        "systemLoss": float(radio["system_loss"]),
        "rxThresholdW": _threshold_w(radio, "rx"),
        "csThresholdW": _threshold_w(radio, "cs"),
        "preambleSnrDb": float(radio["preamble_snr_db"]),
        "noiseFigureDb": float(radio["noise_figure_db"]),
    }
    args.update(ht_arguments(radio, mac) if standard in ("80211n", "80211ac") else {})
    if mac.get("edca"):
        raise Ns3Untranslatable(
            "mac.edca", mac["edca"], "absent: the ns-3 programs keep Table 9-137's"
        )
    if mac.get("erp_protection", "none") != "none":
        raise Ns3Untranslatable("mac.erp_protection", mac["erp_protection"], '"none" only')
    return args


def _tx_power_w(radio: Mapping[str, Any]) -> float:
    dbm = radio.get("tx_power_dbm")
    return 10 ** (dbm / 10) / 1000 if dbm is not None else float(radio["tx_power_w"])


def _threshold_w(radio: Mapping[str, Any], which: str) -> float:
    """hopsim's threshold (W); with ``rx_range_m`` / ``cs_range_m`` set, the received power at
    that range (two-ray ground beyond the crossover distance, Friis below it; docs/models.md
    section 1.2)."""
    rng = radio.get(f"{which}_range_m")
    if rng is None:
        return float(radio[f"{which}_threshold_w"])
    return _two_ray_w(radio, float(rng))


def decodes(radio: Mapping[str, Any], distance_m: float) -> bool:
    """Whether a frame sent ``distance_m`` away reaches the decode threshold (static nodes,
    no fading: the links hopsim's static routes use)."""
    if radio["propagation"] == "log_distance":
        d0 = float(radio["reference_distance_m"])
        loss_db = reference_loss_db(radio) + 10 * float(radio["path_loss_exponent"]) * math.log10(
            max(distance_m, d0) / d0
        )
        gain_db = 20 * math.log10(float(radio["antenna_gain"]))
        received = _tx_power_w(radio) * 10 ** ((gain_db - loss_db) / 10)
    else:
        received = _two_ray_w(radio, distance_m)
    return received >= _threshold_w(radio, "rx")


def _two_ray_w(radio: Mapping[str, Any], d: float) -> float:
    """Received power (W) at ``d`` m: two-ray ground beyond the crossover, Friis below it."""
    g = float(radio["antenna_gain"]) ** 2
    h = float(radio["antenna_height_m"])
    loss = float(radio["system_loss"])
    lam = 299_792_458.0 / float(radio["frequency_hz"])
    if d < 4 * math.pi * h * h / lam:
        return _tx_power_w(radio) * g * lam * lam / ((4 * math.pi * d) ** 2 * loss)
    return _tx_power_w(radio) * g * h**4 / (d**4 * loss)
