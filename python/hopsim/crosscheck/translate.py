"""A resolved hopsim scenario as an ns-2.35 Tcl script (``hopsim crosscheck``).

What ns-2 cannot express is refused first (:mod:`hopsim.crosscheck.expressible`, raising
:class:`Untranslatable` with the key, its value and what ns-2 can do).

The script is plain, commented Tcl a user can read and rerun with ``ns``; it writes an
ns-2 trace (the old wireless format) and prints ``HOPSIM`` lines with the TCP agents'
counters, which :mod:`hopsim.crosscheck.ns2trace` reads back.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from .expressible import ROUTING_AGENTS, TCP_AGENTS, Untranslatable, check_translatable

__all__ = [
    "CWND_SAMPLE_S",
    "TRANSLATOR_VERSION",
    "Untranslatable",
    "check_translatable",
    "ns2_seed",
    "translate",
]

#: Raised whenever the script or the trace reader changes what an ns-2 run measures: it is
#: part of the store key of ns-2 runs, so a fixed translator never reuses stale runs.
TRANSLATOR_VERSION = 6

#: The Tcl script samples each TCP agent's window this often (time average of min(cwnd_,
#: window_) over the measurement window, and the share of samples at each whole number of
#: segments: hopsim's ``window_distribution``).
CWND_SAMPLE_S = 0.01

#: Speed of light in ns-2's propagation models (mobile/propagation.h).
NS2_LIGHT_MPS = 3.0e8


# ---------------------------------------------------------------- radio arithmetic


def _tx_power_w(radio: Mapping[str, Any]) -> float:
    dbm = radio.get("tx_power_dbm")
    return 10 ** (dbm / 10) / 1000 if dbm is not None else float(radio["tx_power_w"])


def received_power_w(radio: Mapping[str, Any], d_m: float) -> float:
    """Power at distance ``d_m`` in ns-2's two-ray ground / free-space models
    (mobile/tworayground.cc ``TwoRayGround::Pr``: Friis below the crossover distance)."""
    pt = _tx_power_w(radio)
    g = float(radio["antenna_gain"]) ** 2
    h = float(radio["antenna_height_m"])
    lam = NS2_LIGHT_MPS / float(radio["frequency_hz"])
    loss = float(radio["system_loss"])
    friis = pt * g * lam * lam / ((4 * math.pi * d_m) ** 2 * loss)
    if radio["propagation"] == "free_space":
        return friis
    crossover = 4 * math.pi * h * h / lam
    if d_m < crossover:
        return friis
    return pt * g * h**4 / (d_m**4 * loss)


def thresholds_w(radio: Mapping[str, Any]) -> tuple[float, float]:
    """(RXThresh_, CSThresh_): the thresholds, or the powers at the given ranges."""
    rx = radio.get("rx_range_m")
    cs = radio.get("cs_range_m")
    rx_w = received_power_w(radio, rx) if rx is not None else float(radio["rx_threshold_w"])
    cs_w = received_power_w(radio, cs) if cs is not None else float(radio["cs_threshold_w"])
    return rx_w, cs_w


#: hopsim's MPDU is the IP packet + 36 B (24 MAC header, 8 LLC/SNAP, 4 FCS); the size ns-2's
#: Mac802_11 compares with RTSThreshold_ is the IP packet + 58 B (MAC header, FCS and PLCP).
_HOPSIM_MPDU_OVER_IP = 36
_NS2_RTS_SIZE_OVER_IP = 58


def ns2_rts_threshold(hopsim_bytes: int) -> int:
    """ns-2's RTSThreshold_ for hopsim's `rts_threshold_bytes`: hopsim uses RTS/CTS when the
    MPDU is longer than the threshold (IP + 36 > T), ns-2 when its size is at least the
    threshold (IP + 58 >= R, mac-802_11.cc `send`); the same packets do when R = T + 23.
    0 (always) stays 0."""
    if hopsim_bytes <= 0:
        return 0
    return hopsim_bytes + 1 + _NS2_RTS_SIZE_OVER_IP - _HOPSIM_MPDU_OVER_IP


def ns2_seed(seed: int) -> int:
    """ns-2's RNG seed for a hopsim seed: 1 .. 2^31 - 2 (0 would seed from the clock)."""
    return int(seed) % 2147483646 + 1


def _num(x: float) -> str:
    return repr(float(x)) if not float(x).is_integer() else f"{float(x):.1f}"


# ---------------------------------------------------------------- the script


def translate(
    s: Mapping[str, Any],
    layout: Mapping[str, Any],
    trace_path: str,
) -> str:
    """The ns-2.35 Tcl script of the resolved scenario ``s`` with its ``layout`` (node
    positions, moves and flows from the core). Raises :class:`Untranslatable`."""
    check_translatable(s)
    positions = layout["positions"]
    flows = layout["flows"]
    n = len(positions)
    proto = s["routing"]["protocol"]
    _check_static(s, positions, flows)
    radio, mac = s["radio"], s["mac"]
    rx_w, cs_w = thresholds_w(radio)
    xs = [p[0] for p in positions] + [m[2] for moves in layout["moves"] for m in moves]
    ys = [p[1] for p in positions] + [m[3] for moves in layout["moves"] for m in moves]
    width = max(1.0, max(xs) + 1.0)
    height = max(1.0, max(ys) + 1.0)
    duration = float(s["duration_s"])
    warmup = float(s["warmup_s"])
    out: list[str] = []
    w = out.append
    w("# ns-2.35 script written by `hopsim crosscheck` from a hopsim scenario.")
    w(f"# {n} nodes, {len(flows)} flows, routing {proto}, {duration} s (measured from {warmup} s).")
    w("# Run it with `ns <this file>`; it writes the trace named below and prints HOPSIM lines.")
    w("set ns [new Simulator]")
    w(f"global defaultRNG\n$defaultRNG seed {ns2_seed(s['seed'])}")
    w(f'set tracefd [open "{trace_path}" w]')
    w("$ns trace-all $tracefd")
    w("set topo [new Topography]")
    w(f"$topo load_flatgrid {math.ceil(width)} {math.ceil(height)}")
    w(f"create-god {n}")
    w("")
    w("# Radio (mac/wireless-phy.cc, mobile/tworayground.cc)")
    w(f"Phy/WirelessPhy set Pt_ {_tx_power_w(radio)!r}")
    w(f"Phy/WirelessPhy set freq_ {float(radio['frequency_hz'])!r}")
    w(f"Phy/WirelessPhy set L_ {float(radio['system_loss'])!r}")
    w(f"Phy/WirelessPhy set RXThresh_ {rx_w!r}")
    w(f"Phy/WirelessPhy set CSThresh_ {cs_w!r}")
    # CPThresh_ is a power ratio (wireless-phy.cc compares Pr1 / Pr2 with it), not dB.
    w(f"Phy/WirelessPhy set CPThresh_ {10 ** (float(radio['capture_threshold_db']) / 10)!r}")
    w(f"Antenna/OmniAntenna set Z_ {float(radio['antenna_height_m'])!r}")
    w(f"Antenna/OmniAntenna set Gt_ {float(radio['antenna_gain'])!r}")
    w(f"Antenna/OmniAntenna set Gr_ {float(radio['antenna_gain'])!r}")
    w("")
    w("# 802.11 DCF (mac/mac-802_11.cc)")
    w(f"Mac/802_11 set dataRate_ {_num(mac['data_rate_mbps'])}Mb")
    w(f"Mac/802_11 set basicRate_ {_num(mac['basic_rate_mbps'])}Mb")
    w(f"Mac/802_11 set RTSThreshold_ {ns2_rts_threshold(int(mac['rts_threshold_bytes']))}")
    w(f"Mac/802_11 set ShortRetryLimit_ {int(mac['short_retry_limit'])}")
    w(f"Mac/802_11 set LongRetryLimit_ {int(mac['long_retry_limit'])}")
    w(f"Mac/802_11 set CWMin_ {int(mac['cw_min'])}")
    w(f"Mac/802_11 set CWMax_ {int(mac['cw_max'])}")
    w("")
    propagation = (
        "Propagation/FreeSpace"
        if radio["propagation"] == "free_space"
        else "Propagation/TwoRayGround"
    )
    routing_agent = ROUTING_AGENTS.get(proto, "DumbAgent")
    ifq = "CMUPriQueue" if proto == "dsr" else "Queue/DropTail/PriQueue"
    w("set chan [new Channel/WirelessChannel]")
    w(
        f"$ns node-config -adhocRouting {routing_agent} -llType LL -macType Mac/802_11 "
        f"-ifqType {ifq} -ifqLen {int(mac['queue_packets'])} -antType Antenna/OmniAntenna "
        f"-propType {propagation} -phyType Phy/WirelessPhy -channel $chan "
        "-topoInstance $topo -agentTrace ON -routerTrace ON -macTrace ON -movementTrace OFF"
    )
    w(f"for {{set i 0}} {{$i < {n}}} {{incr i}} {{")
    w("    set node_($i) [$ns node]")
    w("    $node_($i) random-motion 0")
    w("}")
    for i, (x, y) in enumerate(positions):
        node = f"$node_({i})"
        w(f"{node} set X_ {float(x)!r}; {node} set Y_ {float(y)!r}; {node} set Z_ 0.0")
    moves = [(m, i) for i, ms in enumerate(layout["moves"]) for m in ms]
    if moves:
        w("")
        w("# Mobility: hopsim's trajectories as setdest commands (straight legs, pauses between)")
        for (t0, t1, x, y), i in sorted(moves, key=lambda mi: (mi[0][0], mi[1])):
            if t0 >= duration:
                continue
            speed = _leg_speed(layout, i, t0, t1, x, y)
            w(f'$ns at {t0!r} "$node_({i}) setdest {float(x)!r} {float(y)!r} {speed!r}"')
    w("")
    w("# Flows")
    tcp_flows = []
    for i, f in enumerate(flows):
        start = float(f.get("start_s", 0.0))
        stop = min(
            float(f.get("stop_s", duration) if f.get("stop_s") is not None else duration), duration
        )
        if f.get("transport") == "tcp":
            tcp_flows.append(i)
            _tcp_flow(w, i, f, start, stop)
        else:
            _udp_flow(w, i, f, start, stop, mac)
        w(
            f'puts "HOPSIM port {i} {f["src"]} [$src_({i}) set agent_port_] {f["dst"]} '
            f'[$dst_({i}) set agent_port_]"'
        )
    w("")
    w("# Counters: each TCP agent's window sampled for its time average over the window")
    w(f"set warmup {warmup!r}")
    w(f"set step {CWND_SAMPLE_S!r}")
    w("proc sample_cwnd {} {")
    w("    global ns src_ cwnd_sum_ cwnd_n_ cwnd_hist_ ss_n_ step tcp_flows")
    w("    foreach i $tcp_flows {")
    w("        set c [$src_($i) set cwnd_]")
    w("        if {$c < [$src_($i) set ssthresh_]} { incr ss_n_($i) }")
    w("        set lim [$src_($i) set window_]")
    w("        if {$c > $lim} { set c $lim }")
    w("        set cwnd_sum_($i) [expr {$cwnd_sum_($i) + $c}]")
    w("        incr cwnd_n_($i)")
    w("        set k [expr {int(floor($c))}]")
    w("        if {[info exists cwnd_hist_($i,$k)]} { incr cwnd_hist_($i,$k) } else {")
    w("            set cwnd_hist_($i,$k) 1 }")
    w("    }")
    w("    $ns at [expr {[$ns now] + $step}] sample_cwnd")
    w("}")
    w(f"set tcp_flows {{{' '.join(str(i) for i in tcp_flows)}}}")
    w("foreach i $tcp_flows { set cwnd_sum_($i) 0.0; set cwnd_n_($i) 0; set ss_n_($i) 0 }")
    w("if {[llength $tcp_flows] > 0} { $ns at $warmup sample_cwnd }")
    w("proc finish {} {")
    w("    global ns tracefd src_ cwnd_sum_ cwnd_n_ cwnd_hist_ ss_n_ tcp_flows")
    w("    foreach i $tcp_flows {")
    w("        set avg -1")
    w("        if {$cwnd_n_($i) > 0} { set avg [expr {$cwnd_sum_($i) / $cwnd_n_($i)}] }")
    w(
        '        puts "HOPSIM tcp $i [$src_($i) set ndatapack_] [$src_($i) set nrexmitpack_] '
        '[$src_($i) set nrexmit_] $avg"'
    )
    w("        set hist {}")
    w('        foreach key [array names cwnd_hist_ "$i,*"] {')
    w('            lappend hist "[lindex [split $key ,] 1]:$cwnd_hist_($key)" }')
    w('        puts "HOPSIM wdist $i $hist"')
    w('        puts "HOPSIM slowstart $i $ss_n_($i) $cwnd_n_($i)"')
    w("    }")
    w("    $ns flush-trace")
    w("    close $tracefd")
    w('    puts "HOPSIM end [$ns now]"')
    w("    $ns halt")
    w("}")
    w(f"$ns at {duration!r} finish")
    w("$ns run")
    return "\n".join(out) + "\n"


def _leg_speed(
    layout: Mapping[str, Any], node: int, t0: float, t1: float, x: float, y: float
) -> float:
    """Speed of the leg of ``node`` that starts at ``t0``: its length over its duration."""
    legs = layout["moves"][node]
    k = next(j for j, m in enumerate(legs) if m[0] == t0)
    if k == 0:
        fx, fy = layout["positions"][node]
    else:
        fx, fy = legs[k - 1][2], legs[k - 1][3]
    return math.hypot(x - fx, y - fy) / max(t1 - t0, 1e-9)


def _tcp_flow(w: Any, i: int, f: Mapping[str, Any], start: float, stop: float) -> None:
    tcp = f.get("tcp") or {}
    agent, sink, delack_sink = TCP_AGENTS[tcp["variant"]]
    window = int(tcp["receiver_window"])
    if tcp.get("window_limit") == "fixed":
        window = min(window, int(tcp["max_window"]))
    w(f"set src_({i}) [new {agent}]")
    w(f"$src_({i}) set packetSize_ {int(f['payload_bytes'])}")
    w(f"$src_({i}) set window_ {window}")
    w(f"$src_({i}) set windowInit_ {int(tcp['initial_window'])}")
    w(f"$src_({i}) set minrto_ {float(tcp['min_rto_s'])!r}")
    w(f"$src_({i}) set maxrto_ {float(tcp['max_rto_s'])!r}")
    w(f"$src_({i}) set rtxcur_init_ {float(tcp['initial_rto_s'])!r}")
    if float(tcp["clock_granularity_s"]) > 0:
        w(f"$src_({i}) set tcpTick_ {float(tcp['clock_granularity_s'])!r}")
    w(f"$src_({i}) set numdupacks_ {int(tcp['dupack_threshold'])}")
    if tcp["variant"] == "vegas":
        w(f"$src_({i}) set v_alpha_ {float(tcp['alpha'])!r}")
        w(f"$src_({i}) set v_beta_ {float(tcp['beta'])!r}")
        w(f"$src_({i}) set v_gamma_ {float(tcp['gamma'])!r}")
    if tcp["delayed_ack"]:
        w(f"set dst_({i}) [new {delack_sink}]")
        w(f"$dst_({i}) set interval_ {float(tcp['delayed_ack_timeout_s'])!r}")
    else:
        w(f"set dst_({i}) [new {sink}]")
    w(f"$ns attach-agent $node_({f['src']}) $src_({i})")
    w(f"$ns attach-agent $node_({f['dst']}) $dst_({i})")
    w(f"$ns connect $src_({i}) $dst_({i})")
    w(f"set app_({i}) [new Application/FTP]")
    w(f"$app_({i}) attach-agent $src_({i})")
    w(f'$ns at {start!r} "$app_({i}) start"')
    w(f'$ns at {stop!r} "$app_({i}) stop"')


def _udp_flow(
    w: Any, i: int, f: Mapping[str, Any], start: float, stop: float, mac: Mapping[str, Any]
) -> None:
    payload = int(f["payload_bytes"])
    interval = float(f.get("interval_s", 0.0))
    if interval <= 0:
        # A saturated source: offer twice what one hop at the data rate can carry, so the
        # source's queue never runs dry (the surplus is dropped at its interface queue).
        interval = payload * 8 / (float(mac["data_rate_mbps"]) * 1e6) / 2
    w(f"set src_({i}) [new Agent/UDP]")
    # UdpAgent::sendmsg splits messages larger than the agent's packetSize_ (1000 B).
    w(f"$src_({i}) set packetSize_ {payload}")
    w(f"set dst_({i}) [new Agent/LossMonitor]")
    w(f"$ns attach-agent $node_({f['src']}) $src_({i})")
    w(f"$ns attach-agent $node_({f['dst']}) $dst_({i})")
    w(f"$ns connect $src_({i}) $dst_({i})")
    w(f"set app_({i}) [new Application/Traffic/CBR]")
    w(f"$app_({i}) set packetSize_ {payload}")
    # CBR_Traffic::init (tools/cbr_traffic.cc) derives interval_ from rate_: set the rate.
    w(f"$app_({i}) set rate_ {payload * 8 / interval!r}")
    w(f"$app_({i}) set random_ 0")
    w(f"$app_({i}) attach-agent $src_({i})")
    w(f'$ns at {start!r} "$app_({i}) start"')
    w(f'$ns at {stop!r} "$app_({i}) stop"')


def _check_static(s: Mapping[str, Any], positions: list[Any], flows: list[Any]) -> None:
    """Static routing translates to ns-2's DumbAgent, which reaches direct neighbours only."""
    if s["routing"]["protocol"] != "static":
        return
    rx_w, _ = thresholds_w(s["radio"])
    for f in flows:
        a, b = positions[f["src"]], positions[f["dst"]]
        d = max(math.hypot(a[0] - b[0], a[1] - b[1]), 1e-3)
        if received_power_w(s["radio"], d) < rx_w or s["mobility"]["model"] != "static":
            raise Untranslatable(
                "routing.protocol",
                "static",
                'ns-2.35 has no static multihop routing for wireless nodes: use "aodv" or '
                '"dsr" (static works for flows between direct neighbours of a static topology)',
            )
