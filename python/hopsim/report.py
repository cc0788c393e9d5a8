"""The readable result tables of ``hopsim run``: scenario summary, flows, TCP details, totals
and the engine line."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape

from .result import Result
from .tables import print_fitted, print_pairs

out = Console(highlight=False)
err = Console(stderr=True, highlight=False)


def _num(value: Any, fmt: str = "{:,}") -> str:
    if value is None:
        return "-"
    try:
        return fmt.format(value)
    except (TypeError, ValueError):
        return str(value)


def _topology_summary(scenario: dict[str, Any], n_nodes: int) -> str:
    topo = scenario.get("topology", {}) or {}
    kind = topo.get("kind", "?")
    if kind == "chain":
        hops = topo.get("hops")
        return (
            f"chain of {hops} hop{'' if hops == 1 else 's'}, "
            f"{_num(topo.get('spacing_m'), '{:g}')} m apart"
        )
    if kind == "grid":
        return (
            f"grid {topo.get('rows')}x{topo.get('cols')}, "
            f"{_num(topo.get('spacing_m'), '{:g}')} m apart"
        )
    if kind == "random":
        area = topo.get("area_m") or ["?", "?"]
        return f"random in {area[0]:g}x{area[1]:g} m"
    if kind == "testbed":
        b = topo.get("testbed") or {}
        return f"testbed of {b.get('buildings', '?')} buildings"
    return kind


def _mac_summary(mac: dict[str, Any], standard: str = "80211b") -> str:
    rts = mac.get("rts_threshold_bytes")
    if rts == 0:
        rts_text = "RTS/CTS always"
    elif isinstance(rts, int) and rts >= 2347:
        rts_text = "no RTS/CTS"
    elif rts is None:
        rts_text = "RTS/CTS ?"
    else:
        rts_text = f"RTS/CTS above {rts} B"
    rate = mac.get("data_rate_mbps")
    if rate == "auto":
        rate_text = f"auto rate ({str(mac.get('rate_control', '?')).upper()})"
    elif isinstance(rate, str) and rate.startswith("mcs"):
        rate_text = f"MCS {rate.removeprefix('mcs')}"
    else:
        rate_text = f"{_num(rate, '{:g}')} Mbit/s"
    return (
        f"802.11{standard.removeprefix('80211')} DCF {rate_text} "
        f"(basic {_num(mac.get('basic_rate_mbps'), '{:g}')}), {rts_text}, "
        f"queue {_num(mac.get('queue_packets'))} packets"
    )


def _print_result(res: Result, file: Path) -> None:
    scn = res.scenario
    mac = scn.get("mac", {}) or {}
    radio = scn.get("radio", {}) or {}
    n_flows = len(res.flows)
    out.print(
        f"[bold]{escape(file.name)}[/]: {_topology_summary(scn, len(res.nodes))}, "
        f"{len(res.nodes)} nodes, {n_flows} flow{'s' if n_flows != 1 else ''}; "
        f"{_num(res.duration_s, '{:g}')} s simulated, measured after "
        f"{_num(res.warmup_s, '{:g}')} s; seed {res.raw.get('seed')}"
    )
    details = []
    if mac:
        details.append(_mac_summary(mac, str(radio.get("standard", "80211b"))))
    if radio.get("propagation"):
        details.append(f"{radio.get('propagation')}, {radio.get('reception')} reception")
    details.append(f"hopsim {escape(res.hopsim_version)}")
    out.print("[dim]" + "; ".join(details) + "[/]")

    columns = [
        ("flow", "right"),
        ("src", "right"),
        ("dst", "right"),
        ("proto", "left"),
        ("hops", "right"),
        ("goodput\nkbit/s", "right"),
        ("sent", "right"),
        ("delivered", "right"),
        ("dropped", "right"),
        ("in\nflight", "right"),
        ("delay\nms", "right"),
    ]
    rows = []
    for f in res.flows:
        rows.append(
            [
                _num(f.get("id")),
                _num(f.get("src")),
                _num(f.get("dst")),
                escape(str(f.get("transport", "-"))),
                _num(f.get("hops")),
                _num(f.get("goodput_kbps"), "{:,.1f}"),
                _num(f.get("packets_sent"), "{}"),
                _num(f.get("packets_delivered"), "{}"),
                _num(f.get("packets_dropped"), "{}"),
                _num(f.get("packets_in_flight"), "{}"),
                _num(f.get("mean_delay_ms"), "{:,.2f}"),
            ]
        )
    print_fitted(out, columns, rows)
    tcp_flows = [f for f in res.flows if f.get("transport") == "tcp"]
    if tcp_flows:
        out.print(
            "[dim]packets of TCP flows count data segments and ACKs; their delay is the "
            "one-way delay of data segments[/]"
        )
        out.print()
        _print_tcp_table(tcp_flows, list(scn.get("flows") or []))
    t = res.totals
    # Label-and-number pairs, wrapped between pairs only: "collisions 2,111" stays whole.
    totals = [
        f"MAC attempts {_num(t.get('mac_attempts'))}",
        f"retries {_num(t.get('mac_retries'))}",
        f"retry-limit drops {_num(t.get('retry_limit_drops'))}",
        f"collisions {_num(t.get('collisions'))}",
        f"queue drops {_num(t.get('queue_drops'))}",
    ]
    if t.get("frame_errors") or radio.get("frame_error_rate"):
        totals.append(f"frame errors {_num(t.get('frame_errors'))}")
    totals.append(f"link drop probability {_num(t.get('link_drop_probability'), '{:.4f}')}")
    print_pairs(out, "[bold]totals[/]:", totals)
    if t.get("link_failures") or t.get("routing_packets"):
        print_pairs(
            out,
            "[bold]routing[/]:",
            [
                f"route failures {_num(t.get('link_failures'))} "
                f"(false {_num(t.get('false_route_failures'))})",
                f"control packets {_num(t.get('routing_packets'))} "
                f"({_num(t.get('routing_bytes'))} bytes)",
            ],
        )
    wall = res.wall_time_s or 0.0
    print_pairs(
        out,
        "[bold]engine[/]:",
        [
            f"{_num(res.events)} events in {wall:.3f} s wall",
            f"{_num(res.events_per_s, '{:,.0f}')} events/s",
            f"{_num(res.speedup, '{:,.1f}')} simulated s per wall s",
        ],
    )
    if res.violations:
        err.print(
            f"[bold yellow]warning:[/] {len(res.violations)} invariant violation(s) "
            "(a bug in the simulator, please report it):"
        )
        for v in res.violations:
            err.print(f"  - {escape(str(v))}", soft_wrap=True)


def _ms(value: Any) -> str:
    """Milliseconds to 3 significant digits or more: 9.63, 48.2, 393, 1,081."""
    if not isinstance(value, (int, float)):
        return _num(value)
    if value < 10:
        return f"{value:.2f}"
    if value < 100:
        return f"{value:.1f}"
    return f"{value:,.0f}"


def _limit(f: Any) -> str:
    """The time-averaged window limit in at most 4 characters: 1.8, 10.5, 128."""
    value = f.get("avg_window_limit")
    if not isinstance(value, (int, float)):
        return _num(value)
    return f"{value:.0f}" if value >= 99.95 else f"{value:.1f}"


def _print_tcp_table(flows: list[Any], scenario_flows: list[Any]) -> None:
    """TCP details, one row per TCP flow (flow ids as in the main table)."""

    def transfer_bytes(f: Any) -> int:
        i = f.get("id")
        if isinstance(i, int) and 0 <= i < len(scenario_flows):
            return int((scenario_flows[i] or {}).get("bytes") or 0)
        return 0

    def policy(f: Any) -> str:
        return str(f.get("window_limit") or "none")

    fixed = any(transfer_bytes(f) > 0 for f in flows)
    limited = [f for f in flows if policy(f) != "none"]
    # The average window limit gets a column; with the completion column as well the table
    # would not fit 80 columns, and the limit goes to the note below the table instead.
    limit_column = bool(limited) and not fixed
    columns = [
        ("flow", "right"),
        ("variant", "left"),
        ("data\nsegs", "right"),
        ("retx", "right"),
        ("time-\nouts", "right"),
        ("fast\nretx", "right"),
        ("ACKs", "right"),
        ("avg\ncwnd", "right"),
        *([("avg\nCWL", "right")] if limit_column else []),
        ("slow\nstart", "right"),
        ("RTT ms\np50", "right"),
        ("RTT ms\np95", "right"),
    ]
    if fixed:
        columns.append(("done\nat s", "right"))
    rows = []
    for f in flows:
        rtt = f.get("rtt_ms") or {}
        row = [
            _num(f.get("id")),
            escape(str(f.get("variant", "-"))),
            _num(f.get("segments_sent"), "{}"),
            _num(f.get("retransmissions"), "{}"),
            _num(f.get("timeouts"), "{}"),
            _num(f.get("fast_retransmits"), "{}"),
            _num(f.get("acks_sent"), "{}"),
            _num(f.get("avg_cwnd"), "{:.1f}"),
            *([_limit(f) if policy(f) != "none" else "-"] if limit_column else []),
            _num(f.get("slow_start_fraction"), "{:.0%}"),
            _ms(rtt.get("p50")),
            _ms(rtt.get("p95")),
        ]
        if fixed:
            done = f.get("transfer_completed_s")
            if transfer_bytes(f) == 0:
                row.append("bulk")
            elif done is None:
                row.append("[yellow]not done[/]")
            else:
                row.append(_num(done, "{:,.2f}"))
        rows.append(row)
    print_fitted(out, columns, rows)
    if limited:
        what = ", ".join(
            f"flow {_num(f.get('id'))} {escape(policy(f))}"
            + ("" if limit_column else f" {_limit(f)}")
            for f in limited
        )
        out.print("[dim]CWL: window limit in force, time-averaged, in segments (" + what + ")[/]")
