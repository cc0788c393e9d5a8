"""What of a resolved hopsim scenario ns-2.35 can run (``hopsim crosscheck``).

Every key of the resolved scenario is either expressed in the script
(:mod:`hopsim.crosscheck.translate`), or checked to have no effect (a key of a model that is
not in use), or refused with :class:`Untranslatable` naming the key, its value and what ns-2
can do. A key this module does not know is refused too, so a key added to the core later can
never be dropped silently.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from .._core import ScenarioError

__all__ = ["ROUTING_AGENTS", "TCP_AGENTS", "Untranslatable", "check_translatable"]

#: ns-2.35 names of hopsim's TCP variants: sender agent, sink, delayed-ACK sink. The variants
#: ns-2.35 can express, a subset of the core's (tests/test_variant_list.py checks it).
TCP_AGENTS = {
    "reno": ("Agent/TCP/Reno", "Agent/TCPSink", "Agent/TCPSink/DelAck"),
    "newreno": ("Agent/TCP/Newreno", "Agent/TCPSink", "Agent/TCPSink/DelAck"),
    "sack": ("Agent/TCP/Sack1", "Agent/TCPSink/Sack1", "Agent/TCPSink/Sack1/DelAck"),
    "vegas": ("Agent/TCP/Vegas", "Agent/TCPSink", "Agent/TCPSink/DelAck"),
}

ROUTING_AGENTS = {"aodv": "AODV", "dsr": "DSR"}


class Untranslatable(ScenarioError):
    """A scenario key ns-2.35 cannot express (a ``ValueError``; exit 2 on the CLI)."""

    def __init__(self, key: str, value: Any, allowed: str) -> None:
        super().__init__(f"{key} = {_show(value)}: cannot be run in ns-2.35; {allowed}")
        self.key = key


def _show(value: Any) -> str:
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, bool):
        return "true" if value else "false"
    return repr(value)


# The keys each table of the resolved scenario may hold: "mapped" ones are written into the
# script, "inert" ones belong to models the rest of the scenario leaves off (their switch is
# checked instead). Any other key is refused.


def _positive_int(value: Any) -> bool:
    return isinstance(value, (int, float)) and float(value).is_integer() and value >= 0


_TOP = {"duration_s", "warmup_s", "seed", "profile"}
_TOPOLOGY = {
    "kind",
    "hops",
    "spacing_m",
    "rows",
    "cols",
    "positions",
    "nodes",
    "area_m",
    "connected",
    "seed",
}
_RADIO_MAPPED = {
    "tx_power_w",
    "tx_power_dbm",
    "frequency_hz",
    "antenna_height_m",
    "antenna_gain",
    "system_loss",
    "rx_threshold_w",
    "cs_threshold_w",
    "rx_range_m",
    "cs_range_m",
    "capture_threshold_db",
}
# Keys of models that are off unless their switch is on (checked through the switch).
_RADIO_INERT = {
    "path_loss_exponent",
    "reference_distance_m",
    "reference_loss_db",
    "shadowing_symmetric",
    "ricean_k_db",
    "noise_figure_db",
    "preamble_snr_db",
}
_MAC = {
    "data_rate_mbps",
    "rate_control",
    "basic_rate_mbps",
    "rts_threshold_bytes",
    "short_retry_limit",
    "long_retry_limit",
    "queue_packets",
    "cw_min",
    "cw_max",
}
_ROUTING = {
    "protocol",
    "hello",
    "hello_interval_s",
    "allowed_hello_loss",
    "expanding_ring",
    "etx_probe_interval_s",
    "etx_warmup_s",
    "etx_probe_bytes",
    # OLSR's (resolved only with protocol = "olsr", which ns-2.35 refuses below).
    "olsr_hello_interval_s",
    "olsr_tc_interval_s",
    "olsr_willingness",
    "olsr_link_layer_feedback",
    "olsr_spread_start",
    # HWMP's (resolved only with protocol = "hwmp", which ns-2.35 refuses below).
    "hwmp_root_mode",
    "hwmp_root",
    "hwmp_active_path_timeout_s",
    "hwmp_max_preq_retries",
    "hwmp_target_only",
    "hwmp_reply_and_forward",
    "hwmp_path_refresh_s",
    "hwmp_fail_average",
}
_FLOW = {
    "src",
    "dst",
    "transport",
    "payload_bytes",
    "interval_s",
    "start_s",
    "stop_s",
    "bytes",
    "tcp",
}
_TCP_MAPPED = {
    "variant",
    "max_window",
    "window_limit",
    "receiver_window",
    "initial_window",
    "delayed_ack",
    "delayed_ack_timeout_s",
    "min_rto_s",
    "max_rto_s",
    "initial_rto_s",
    "clock_granularity_s",
    "dupack_threshold",
    "alpha",
    "beta",
    "gamma",
    "pacing",
    "ack_thinning",
    "host",
    "quick_ack",
    "timestamps",
    "rwnd_autotuning",
    "count_acked",
    "hystart",
}
# Parameters of variants and policies ns-2 does not have (refused through variant/policy).
_TCP_INERT = {
    "hop_k",
    "ack_thinning_thresholds",
    "vegas_w_p",
    "n_fw",
    "n_s",
    "n_ca",
    "ns_ca",
    "to_ss",
    "few_alpha",
    "initial_receive_window",
}
_MOBILITY = {"model", "speed_min_mps", "speed_max_mps", "pause_s", "trace_file"}
_TRAFFIC = {"random_flows"} | (_FLOW - {"src", "dst"})


def _unknown(section: str, table: Mapping[str, Any], known: set[str]) -> None:
    for key in table:
        if key not in known:
            dotted = f"{section}.{key}" if section else key
            raise Untranslatable(
                dotted,
                table[key],
                "the ns-2 translator does not know this key (hopsim crosscheck must be "
                "taught it before such a scenario can be compared)",
            )


def _check_tcp(prefix: str, tcp: Mapping[str, Any]) -> None:
    _unknown(prefix, tcp, _TCP_MAPPED | _TCP_INERT)
    variant = tcp.get("variant", "newreno")
    if variant not in TCP_AGENTS:
        raise Untranslatable(
            f"{prefix}.variant", variant, f"ns-2.35 has {', '.join(sorted(TCP_AGENTS))}"
        )
    policy = tcp.get("window_limit", "none")
    if policy not in ("none", "fixed"):
        raise Untranslatable(
            f"{prefix}.window_limit",
            policy,
            'ns-2 has a fixed window limit only (window_): "none" or "fixed"',
        )
    if policy == "fixed" and not _positive_int(tcp.get("max_window", 0)):
        raise Untranslatable(
            f"{prefix}.max_window",
            tcp.get("max_window"),
            "ns-2's window_ is a whole number of segments",
        )
    if not _positive_int(tcp.get("initial_window", 2)) or tcp.get("initial_window", 2) < 1:
        raise Untranslatable(
            f"{prefix}.initial_window",
            tcp.get("initial_window"),
            "ns-2's windowInit_ is a whole number of segments >= 1",
        )
    if tcp.get("host", "ns2") != "ns2":
        raise Untranslatable(
            f"{prefix}.host", tcp.get("host"), 'ns-2.35 has its own agents only: host = "ns2"'
        )
    for key in (
        "pacing",
        "ack_thinning",
        "quick_ack",
        "timestamps",
        "rwnd_autotuning",
        "count_acked",
        "hystart",
    ):
        if tcp.get(key, False):
            raise Untranslatable(
                f"{prefix}.{key}", True, "ns-2.35's stock TCP agents have no such option"
            )


def _check_flow(prefix: str, flow: Mapping[str, Any], known: set[str]) -> None:
    _unknown(prefix, flow, known)
    if flow.get("bytes", 0):
        raise Untranslatable(
            f"{prefix}.bytes",
            flow["bytes"],
            "the translator runs bulk transfers only (bytes = 0)",
        )
    if flow.get("transport", "udp") == "tcp":
        _check_tcp(f"{prefix}.tcp", flow.get("tcp") or {})


#: dsr/hdr_sr.h ``MAX_SR_LEN``: ns-2.35's DSR source routes hold at most 16 addresses, and
#: ``returnSrcRouteToRequestor`` answers no request whose route would be longer.
NS2_DSR_MAX_HOPS = 15


def _check_dsr_route_length(
    prefix: str, flow: Mapping[str, Any], topo: Mapping[str, Any], radio: Mapping[str, Any]
) -> None:
    """A DSR flow along a chain whose shortest route is longer than ns-2.35's source routes
    can hold finds no route there and carries nothing: refused, not run."""
    reach_m = radio.get("rx_range_m")
    if topo["kind"] != "chain" or not isinstance(reach_m, (int, float)) or reach_m <= 0:
        return
    src, dst = flow.get("src"), flow.get("dst")
    if not isinstance(src, int) or not isinstance(dst, int):
        return
    # The fewest hops any route over the chain can take: a hop reaches at most the nodes
    # within range (at least the next one, or the chain carries nothing anyway).
    per_hop = max(1, math.floor(float(reach_m) / float(topo["spacing_m"]) + 1e-9))
    fewest = math.ceil(abs(dst - src) / per_hop)
    if fewest > NS2_DSR_MAX_HOPS:
        raise Untranslatable(
            f"{prefix}.dst",
            dst,
            f"ns-2.35's DSR source routes hold at most {NS2_DSR_MAX_HOPS + 1} addresses "
            f"({NS2_DSR_MAX_HOPS} hops; dsr/hdr_sr.h MAX_SR_LEN), this flow needs {fewest}",
        )


def check_translatable(s: Mapping[str, Any]) -> None:
    """Raise :class:`Untranslatable` for the first key of the resolved scenario ``s`` that
    ns-2.35 cannot express (or this translator does not know)."""
    known_top = _TOP | {"topology", "radio", "mac", "routing", "tcp", "flows", "mobility"}
    if s.get("interference"):
        raise Untranslatable(
            "interference",
            f"{len(s['interference'])} interferer(s)",
            "ns-2 has no transmitters outside the network: leave [[interference]] out",
        )
    _unknown("", s, known_top | {"traffic"})
    topo = s["topology"]
    _unknown("topology", topo, _TOPOLOGY)
    if topo["kind"] not in ("chain", "grid", "positions", "random"):
        raise Untranslatable(
            "topology.kind", topo["kind"], "chain, grid, positions and random translate"
        )
    radio = s["radio"]
    _unknown(
        "radio",
        radio,
        _RADIO_MAPPED
        | _RADIO_INERT
        | {"propagation", "reception"}
        | {"frame_error_rate", "shadowing_sigma_db", "fading", "gauss_markov", "gilbert_elliott"}
        | {"link_trace", "weak_frames"},
    )
    checks = [
        (
            "radio.propagation",
            radio["propagation"],
            ("two_ray_ground", "free_space"),
            'ns-2 has Propagation/TwoRayGround and Propagation/FreeSpace: "two_ray_ground" or '
            '"free_space"',
        ),
        (
            "radio.reception",
            radio["reception"],
            ("capture",),
            'ns-2.35\'s Phy/WirelessPhy receives with the capture rule: "capture"',
        ),
        (
            "radio.frame_error_rate",
            radio["frame_error_rate"],
            (0, 0.0),
            "ns-2 has no injected frame errors here: 0",
        ),
        (
            "radio.shadowing_sigma_db",
            radio["shadowing_sigma_db"],
            (0, 0.0),
            "static per-link shadowing has no ns-2 equivalent: 0",
        ),
        ("radio.fading", radio["fading"], ("none",), 'ns-2\'s two-ray model has no fading: "none"'),
        (
            "radio.gauss_markov",
            radio.get("gauss_markov"),
            (None,),
            "ns-2 has no time-correlated shadowing: leave the table out",
        ),
        (
            "radio.gilbert_elliott",
            radio.get("gilbert_elliott"),
            (None,),
            "ns-2 has no Gilbert-Elliott link losses: leave the table out",
        ),
        (
            "radio.link_trace",
            radio.get("link_trace"),
            (None,),
            "ns-2 does not replay link traces: leave the table out",
        ),
        (
            "radio.weak_frames",
            radio.get("weak_frames"),
            (None, "receive"),
            'ns-2\'s receiver takes a frame below RXThresh_ in error: "receive" (or leave it out)',
        ),
    ]
    for key, value, ok, allowed in checks:
        if value not in ok:
            raise Untranslatable(key, value, allowed)
    mac = s["mac"]
    _unknown("mac", mac, _MAC)
    if not isinstance(mac["data_rate_mbps"], (int, float)):
        raise Untranslatable(
            "mac.data_rate_mbps",
            mac["data_rate_mbps"],
            "ns-2.35's Mac/802_11 has no rate adaptation: a fixed rate",
        )
    routing = s["routing"]
    _unknown("routing", routing, _ROUTING)
    proto = routing["protocol"]
    if proto not in ROUTING_AGENTS and proto != "static":
        raise Untranslatable(
            "routing.protocol",
            proto,
            'ns-2.35 has "aodv" and "dsr" (and "static" for one-hop flows)',
        )
    if proto == "aodv" and routing["hello"]:
        raise Untranslatable(
            "routing.hello",
            True,
            "ns-2.35's AODV is built with link-layer detection and no HELLO messages: false",
        )
    if proto == "aodv" and not routing["expanding_ring"]:
        raise Untranslatable(
            "routing.expanding_ring",
            False,
            "ns-2.35's AODV always searches with an expanding ring: true",
        )
    for i, flow in enumerate(s.get("flows", [])):
        _check_flow(f"flows.{i}", flow, _FLOW)
        if proto == "dsr":
            _check_dsr_route_length(f"flows.{i}", flow, topo, radio)
    if "traffic" in s:
        _check_flow("traffic", s["traffic"], _TRAFFIC)
    # The top-level [tcp] is merged into every flow's table; its own keys are checked there.
    _unknown("tcp", s.get("tcp", {}), _TCP_MAPPED | _TCP_INERT)
    _unknown("mobility", s["mobility"], _MOBILITY)
